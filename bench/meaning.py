#!/usr/bin/env python3
"""Search by meaning and asking (issue 35), beside today's word search:

1. Retrieval quality: the meetings of bench/fixtures/meaning_set.json (each
   question shares no content word with the meeting that answers it), top-1
   and MRR of `GET /v1/search/meetings` in each mode, and how often
   `POST /v1/ask` cites the right meeting first.
2. Embedding cost: `xtask seed` one-hour meetings (900 lines each) embedded by
   the service's background embedder; seconds per meeting hour, beside the
   one-hour transcription time measured in bench/results/final-pass-2026-11-28-hour.md.
3. Scale: `xtask seed` archives of N one-hour meetings whose passages (120 per
   meeting, ~30 s each) get vectors of real embeddings (the pool of step 2,
   reused round-robin: embedding 2.4 M passages here would take days); latency
   of `mode=words|meaning|both`, of `mode=meaning&limit=6` (the retrieval
   `POST /v1/ask` does before any provider) and of a whole built-in `POST /v1/ask`;
   the index's share of the database and the service's memory.

    python3 bench/meaning.py [--scale 2000 --scale 20000] [--requests 100] [--out FILE]

Needs release binaries (RECORDER_BIN, XTASK_BIN; default target/dist/...) and
the embedding model (scripts/embedding-model.sh). Seeded archives are kept in
bench/out/meaning-N and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api_bench as ab  # noqa: E402
from harness import seeding  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODEL_ZIP = ROOT / "target/test-models/all-minilm-l6-v2.zip"
XTASK_BIN = os.environ.get("XTASK_BIN", str(ROOT / "target/dist/xtask"))
SET = json.loads((ROOT / "bench/fixtures/meaning_set.json").read_text())
QUERIES = ["moving offices", "pricing change", "who covers for the holidays", "database outage",
           "hiring an engineer", "customer complaints about speed", "budget cuts", "team retreat",
           "security requirements", "legal review of the contract"]
PASSAGES_PER_HOUR = 120
POOL_MEETINGS = 20


def log(message: str) -> None:
    print(f"[meaning] {message}", file=sys.stderr, flush=True)


def quote(text: str) -> str:
    return urllib.parse.quote_plus(text)


def use(data: pathlib.Path) -> None:
    out = pathlib.Path(tempfile.mkdtemp(prefix="meaning-"))
    ab.DATA_DIR = str(data)
    ab.OUT_DIR = str(out)
    ab.SERVICE_LOG = str(out / "service.log")
    ab.NO_POLICY = str(out / "no-such-policy.json")


def add_model(data: pathlib.Path) -> None:
    subprocess.run([ab.RECORDER_BIN, "--data-dir", str(data), "models", "add-embeddings", str(MODEL_ZIP)],
                   check=True, stdout=subprocess.DEVNULL)


def started(data: pathlib.Path):
    use(data)
    service = ab.start_service(timeout=120)
    ab.wait_healthy(service, timeout=120)
    return service, ab.Client(service.port, service.token)


def wait_embedded(client: ab.Client, timeout: float) -> float:
    began = time.perf_counter()
    while time.perf_counter() - began < timeout:
        meaning = client.get_json("/v1/health")["meaning"]
        if meaning["available"] and meaning["remaining"] == 0:
            return time.perf_counter() - began
        time.sleep(0.05)
    raise SystemExit("meetings were not embedded in time")


def post(client: ab.Client, path: str, body: dict):
    client.connection.request("POST", path, body=json.dumps(body),
                              headers={**client.headers, "content-type": "application/json"})
    response = client.connection.getresponse()
    data = response.read()
    return response.status, json.loads(data)


# 1. Retrieval quality --------------------------------------------------------

def quality() -> list[str]:
    data = pathlib.Path(tempfile.mkdtemp(prefix="meaning-set-"))
    service, client = started(data)  # creates the database
    ab.stop_service_process(service.process)
    day = 86_400_000
    specs = [{"title": m["title"], "started_at": 1_780_000_000_000 + i * day, "lines": m["lines"]}
             for i, m in enumerate(SET)]
    seeding.seed_meetings(data, specs, random.Random(1), [])
    add_model(data)
    service, client = started(data)
    wait_embedded(client, 300)
    rows = ab_table(["mode", "top-1", "MRR"])
    for mode in ("words", "meaning", "both"):
        ranks = []
        for spec, meeting in zip(specs, SET):
            found = client.get_json(f"/v1/search/meetings?q={quote(meeting['question'])}&mode={mode}&limit=20")
            ids = [m["meeting_id"] for m in found["meetings"]]
            ranks.append(ids.index(spec["id"]) + 1 if spec["id"] in ids else None)
        top1 = sum(1 for r in ranks if r == 1)
        mrr = statistics.mean(1 / r if r else 0 for r in ranks)
        rows.append(f"| {mode} | {top1} of {len(ranks)} | {mrr:.3f} |")
        log(f"quality {mode}: top-1 {top1}/{len(ranks)}, MRR {mrr:.3f}")
    cited = 0
    for spec, meeting in zip(specs, SET):
        status, answer = post(client, "/v1/ask", {"question": meeting["question"]})
        if status == 200 and answer["citations"] and answer["citations"][0]["meeting_id"] == spec["id"]:
            cited += 1
    rows.append(f"| `POST /v1/ask` (built-in): first citation in the right meeting | {cited} of {len(SET)} | |")
    ab.stop_service_process(service.process)
    return rows


def ab_table(columns: list[str]) -> list[str]:
    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]


# 2. Embedding cost -----------------------------------------------------------

def seed_archive(data: pathlib.Path, meetings: int) -> None:
    marker = data / ".bench-seeded"
    expected = f"meetings={meetings} segments=900 seed=42"
    if marker.exists() and marker.read_text() == expected:
        log(f"reusing {data}")
        return
    subprocess.run(["rm", "-rf", str(data)], check=True)
    log(f"seeding {data}: {meetings} one-hour meetings")
    began = time.perf_counter()
    subprocess.run([XTASK_BIN, "seed", "--data-dir", str(data), "--meetings", str(meetings),
                    "--segments", "900", "--seed", "42"], check=True, stdout=subprocess.DEVNULL)
    log(f"seeded in {time.perf_counter() - began:.0f} s")
    marker.write_text(expected)


def read_pool(data: pathlib.Path) -> list[tuple[float, bytes]]:
    db = sqlite3.connect(data / "recorder.db")
    pool = db.execute("SELECT scale, vector FROM passages WHERE source = 'transcript'").fetchall()
    db.close()
    return pool


def embedding_cost() -> tuple[list[str], list[tuple[float, bytes]]]:
    data = ROOT / "bench/out/meaning-pool"
    seed_archive(data, POOL_MEETINGS)
    db = sqlite3.connect(data / "recorder.db")
    with db:
        db.execute("DELETE FROM passages")
        db.execute("INSERT OR REPLACE INTO meaning_dirty (meeting) SELECT seq FROM meetings")
    db.close()
    add_model(data)
    service, client = started(data)
    seconds = wait_embedded(client, 3600)
    rss = ab.rss_mb(service.pid)
    ab.stop_service_process(service.process)
    db = sqlite3.connect(data / "recorder.db")
    hours = db.execute("SELECT sum(duration_ms) FROM meetings").fetchone()[0] / 3.6e6
    passages = db.execute("SELECT count(*) FROM passages").fetchone()[0]
    pool = db.execute("SELECT scale, vector FROM passages WHERE source = 'transcript'").fetchall()
    db.close()
    per_hour = seconds / hours
    log(f"embedded {passages} passages of {hours:.1f} meeting hours in {seconds:.1f} s")
    rows = ab_table(["", "value"])
    rows += [
        f"| meetings (one hour, 900 lines each) | {POOL_MEETINGS} |",
        f"| passages (transcript ~30 s, note items) | {passages} |",
        f"| embedding time (background thread, SCHED_IDLE, one core) | {seconds:.1f} s |",
        f"| **per meeting hour** | **{per_hour:.2f} s** |",
        f"| one hour transcribed with tiny.en q8_0 (final-pass-2026-11-28-hour.md) | 411.9 s |",
        f"| embedding as a share of that | **{100 * per_hour / 411.9:.1f} %** |",
        f"| service RSS with the model loaded | {rss:.0f} MB |" if rss else "| service RSS | n/a |",
    ]
    return rows, pool


# 3. Scale --------------------------------------------------------------------

def sizes(path: pathlib.Path) -> tuple[float, float]:
    """The database's MB and the MB of its passages (table and index), by dbstat."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    total = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
    passages = db.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat "
                          "WHERE name IN ('passages', 'passages_meeting')").fetchone()[0]
    db.close()
    return total / 1e6, passages / 1e6


def add_passages(data: pathlib.Path, pool: list[tuple[float, bytes]]) -> int:
    """Gives every meeting 120 transcript passages with pool vectors; returns
    the passages written."""
    path = data / "recorder.db"
    db = sqlite3.connect(path)
    have = db.execute("SELECT count(*) FROM passages").fetchone()[0]
    meetings = [row[0] for row in db.execute("SELECT seq FROM meetings ORDER BY seq")]
    if have >= len(meetings) * PASSAGES_PER_HOUR:
        db.close()
        return have
    db.execute("DELETE FROM passages")
    db.commit()
    log(f"{data}: writing {len(meetings) * PASSAGES_PER_HOUR} passages")
    began = time.perf_counter()
    k = 0
    for start in range(0, len(meetings), 500):
        rows = []
        for seq in meetings[start:start + 500]:
            for p in range(PASSAGES_PER_HOUR):
                scale, vector = pool[k % len(pool)]
                k += 1
                rows.append((seq, p * 30_000, p * 30_000 + 29_999, scale, vector))
        with db:
            db.executemany("INSERT INTO passages (meeting, source, start_ms, end_ms, note, item, scale, vector) "
                           "VALUES (?, 'transcript', ?, ?, NULL, 0, ?, ?)", rows)
    with db:
        db.execute("DELETE FROM meaning_dirty")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    log(f"written in {time.perf_counter() - began:.0f} s")
    return k


def series(client: ab.Client, name: str, paths, requests: int) -> tuple[float | None, float | None]:
    s = ab.Series(name, "", None)
    ab.measure(client, s, paths, requests=requests, warmup=3)
    if s.errors:
        raise SystemExit(f"{name}: errors {s.errors}")
    return s.p50(), s.p99()


def scale(size: int, pool, requests: int) -> dict[str, str]:
    data = ROOT / f"bench/out/meaning-{size}"
    seed_archive(data, size)
    passages = add_passages(data, pool)
    total, kept = sizes(data / "recorder.db")
    add_model(data)
    service, client = started(data)
    result: dict[str, str] = {"meetings": str(size), "passages": f"{passages:,}"}
    result["database MB / of which passages (vectors, ids, spans) MB"] = f"{total:,.0f} / {kept:,.0f}"
    result["**index share of the database**"] = f"**{100 * kept / total:.1f} %**"
    began = time.perf_counter()
    client.get_json(f"/v1/search?q={quote('warm up')}&mode=meaning&limit=1")
    result["first search by meaning (model load + index read)"] = f"{time.perf_counter() - began:.2f} s"
    rng = random.Random(3)
    pick = lambda: quote(rng.choice(QUERIES))  # noqa: E731
    for label, path in [
        ("`GET /v1/search` words", lambda: f"/v1/search?q={pick()}&limit=20"),
        ("`GET /v1/search` **meaning**", lambda: f"/v1/search?q={pick()}&mode=meaning&limit=20"),
        ("`GET /v1/search` both", lambda: f"/v1/search?q={pick()}&mode=both&limit=20"),
        ("`GET /v1/search/meetings` both", lambda: f"/v1/search/meetings?q={pick()}&mode=both"),
        ("**ask's retrieval** (`mode=meaning&limit=6`)", lambda: f"/v1/search?q={pick()}&mode=meaning&limit=6"),
    ]:
        p50, p99 = series(client, label, path, requests)
        result[label + " p50 / p99"] = f"{ab.fmt_ms(p50)} / {ab.fmt_ms(p99)}"
        log(f"{size}: {label}: {ab.fmt_ms(p50)} / {ab.fmt_ms(p99)}")
    asks = []
    for _ in range(max(10, requests // 10)):
        began = time.perf_counter()
        status, _ = post(client, "/v1/ask", {"question": rng.choice(QUERIES) + "?"})
        asks.append((time.perf_counter() - began) * 1000)
        if status != 200:
            raise SystemExit(f"/v1/ask answered {status}")
    result["whole `POST /v1/ask`, built-in engine, p50 / p99"] = (
        f"{ab.fmt_ms(statistics.median(asks))} / {ab.fmt_ms(ab.percentile(asks, 99))}")
    rss = ab.rss_mb(service.pid)
    result["service RSS after the searches"] = f"{rss:.0f} MB" if rss else "n/a"
    ab.stop_service_process(service.process)
    return result


def index_bench(pool, sizes: list[int]) -> list[str]:
    pool_file = ROOT / "bench/out/meaning-pool.tsv"
    pool_file.write_text("".join(f"{scale}\t{bytes(vector).hex()}\n" for scale, vector in pool))
    example = ROOT / "target/dist/examples/index_bench"
    subprocess.run(["cargo", "build", "-q", "--profile", "dist", "-p", "recorder-embed", "--example",
                    "index_bench"], check=True, cwd=ROOT)
    out = subprocess.run([str(example), str(pool_file), *map(str, sizes)], check=True,
                         capture_output=True, text=True).stdout
    return out.strip().splitlines()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=int, action="append", default=[])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--index-sizes", type=int, nargs="*", default=[240_000, 2_400_000])
    parser.add_argument("--scale-only", action="store_true",
                        help="only the scale rows, from the pool an earlier run embedded")
    parser.add_argument("--out", default=str(ROOT / "bench/out/meaning.md"))
    args = parser.parse_args()
    if not MODEL_ZIP.exists():
        raise SystemExit("run scripts/embedding-model.sh first")
    ab.RECORDER_BIN = os.environ.get("RECORDER_BIN", str(ROOT / "target/dist/recorder"))
    lines = [f"# Search by meaning and asking ({time.strftime('%Y-%m-%d')})", "",
             f"`bench/meaning.py` on this machine: {ab.cpu_count()} CPUs ({ab.cpu_model()}), "
             f"revision {ab.git_revision()}, release build.", ""]
    if args.scale_only:
        pool = read_pool(ROOT / "bench/out/meaning-pool")
        if not pool:
            raise SystemExit("no pool yet: run without --scale-only first")
    else:
        lines += ["## Retrieval quality", "",
                  f"{len(SET)} short meetings (bench/fixtures/meaning_set.json); each question shares no "
                  "content word with its meeting. Rank of the right meeting in `GET /v1/search/meetings`.", ""]
        lines += quality() + [""]
        rows, pool = embedding_cost()
        lines += ["## Embedding cost", ""] + rows + [""]
        lines += ["## The vector index, by measurement", "",
                  "`crates/embed/examples/index_bench.rs`: exact search over every int8 vector against "
                  "the binary index with its int8 re-rank (what the service uses), in memory, on vectors "
                  "made from the pool's real embeddings with noise; 50 queries.", ""]
        lines += index_bench(pool, args.index_sizes) + [""]
    if args.scale:
        results = [scale(size, pool, args.requests) for size in args.scale]
        lines += ["## Scale", "",
                  f"`xtask seed` archives; {PASSAGES_PER_HOUR} passages per meeting with vectors of the pool "
                  f"above ({len(pool)} real embeddings, reused round-robin); {args.requests} sequential "
                  "requests per row after 3 warm-up, one keep-alive connection, queries drawn from "
                  f"{len(QUERIES)}. Targets (issue 35, at 20 000): meaning p99 < 100 ms, ask retrieval "
                  "< 150 ms, index ≤ 25 % of the database.", ""]
        lines += ab_table([""] + [f"{r['meetings']} meetings" for r in results])
        for key in results[0]:
            if key == "meetings":
                continue
            lines.append("| " + key + " | " + " | ".join(r[key] for r in results) + " |")
    text = "\n".join(lines) + "\n"
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
