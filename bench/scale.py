#!/usr/bin/env python3
"""How the archive's costs grow: the same reads on seeded data folders of
different sizes (e.g. 2 000 and 20 000 one-hour meetings), side by side, and
the upgrade of a schema-4 database to the new search index.

    python3 bench/scale.py --data bench/out/scale-2000 --data bench/out/scale-20000 \
        [--v4 DIR_OF_A_SCHEMA_4_DATABASE] [--requests 100] [--out FILE]

Each data folder is served by the release binary (RECORDER_BIN) on its own;
the folders are not changed except for the deletes at the end (10 meetings).
`bench/scale.sh` seeds the folders and runs this. Uses the service helpers of
bench/api_bench.py.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api_bench as ab  # noqa: E402

QUERIES = [
    ("rare word", "zeppelin"),
    ("common word", "budget"),
    ("phrase", '"quarterly roadmap review"'),
    ("prefix", "bud*"),
    ("one-letter prefix", "b*"),
]


def quote(text: str) -> str:
    import urllib.parse

    return urllib.parse.quote_plus(text)


def reads(ids_sample) -> list[tuple[str, object]]:
    rows: list[tuple[str, object]] = [("GET /v1/meetings (limit 50)", lambda: "/v1/meetings")]
    for label, q in QUERIES:
        rows.append((f"GET /v1/meetings?q= {label} `{q}`", lambda q=q: f"/v1/meetings?q={quote(q)}"))
    for label, q in QUERIES:
        rows.append((f"GET /v1/search?q= {label} `{q}`", lambda q=q: f"/v1/search?q={quote(q)}&limit=100"))
    for label, q in QUERIES:
        rows.append((f"GET /v1/search/meetings?q= {label} `{q}`",
                     lambda q=q: f"/v1/search/meetings?q={quote(q)}"))
    rows.append(("GET /v1/meetings/{id}", lambda: f"/v1/meetings/{ids_sample()}"))
    rows.append(("GET /v1/meetings/{id}/transcript?format=md",
                 lambda: f"/v1/meetings/{ids_sample()}/transcript?format=md"))
    for form in ("json", "srt", "vtt", "txt"):
        rows.append((f"GET /v1/meetings/{{id}}/transcript?format={form}",
                     lambda form=form: f"/v1/meetings/{ids_sample()}/transcript?format={form}"))
    return rows


def use_folder(data_dir: str, out_dir: str) -> None:
    ab.DATA_DIR = data_dir
    ab.OUT_DIR = out_dir
    ab.SERVICE_LOG = os.path.join(out_dir, "service.log")
    ab.NO_POLICY = os.path.join(out_dir, "no-such-policy.json")


def counts(db_path: str) -> tuple[int, int, float]:
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    meetings = db.execute("SELECT count(*) FROM meetings").fetchone()[0]
    segments = db.execute("SELECT count(*) FROM segments").fetchone()[0]
    hours = db.execute("SELECT coalesce(sum(duration_ms), 0) FROM meetings").fetchone()[0] / 3.6e6
    db.close()
    return meetings, segments, hours


def wait_index(client: ab.Client, timeout: float = 3600.0) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if "search_index" not in client.get_json("/v1/health"):
            return time.perf_counter() - started
        time.sleep(0.5)
    raise SystemExit("the search index was not built in time")


def delete(port: int, token: str, meeting_id: str) -> float:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    connection.request("DELETE", f"/v1/meetings/{meeting_id}", headers=ab.headers(token))
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - started) * 1000.0
    connection.close()
    if response.status != 204:
        raise SystemExit(f"DELETE answered {response.status}")
    return elapsed


def patch_lines(port: int, token: str, client: ab.Client, ids: list[str], rng,
                requests: int) -> list[float]:
    """A line corrected, `requests` times, each on a line of a random meeting
    (its transcript read first, untimed): the PATCH's milliseconds, which
    include the line's history row, the search index's update (FTS5 triggers)
    and the re-embedding queued (`meaning_dirty`), all in its transaction."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times = []
    for n in range(requests):
        meeting = rng.choice(ids)
        lines = client.get_json(f"/v1/meetings/{meeting}/transcript?format=json")["segments"]
        if not lines:
            continue
        line = rng.choice(lines)
        body = json.dumps({"text": f"{line['text']} (corrected {n})"})
        started = time.perf_counter()
        connection.request("PATCH", f"/ui/meetings/{meeting}/segments/{line['id']}", body=body,
                           headers={**ab.headers(token), "Content-Type": "application/json"})
        response = connection.getresponse()
        content = response.read()
        times.append((time.perf_counter() - started) * 1000.0)
        if response.status != 200:
            raise SystemExit(f"PATCH a line answered {response.status}: {content[:300]!r}")
    connection.close()
    return times


def measure_folder(data_dir: str, requests: int) -> dict[str, object]:
    out_dir = tempfile.mkdtemp(prefix="scale-")
    use_folder(data_dir, out_dir)
    db_path = os.path.join(data_dir, "recorder.db")
    result: dict[str, object] = {}
    meetings, segments, hours = counts(db_path)
    size_mb = ab.file_mb(db_path) + ab.file_mb(db_path + "-wal")
    result["meetings"], result["segments"] = meetings, segments
    result["db MB"] = f"{size_mb:,.0f}"
    result["db KB per meeting hour"] = f"{size_mb * 1024 / max(hours, 1e-9):.0f}"
    startups = []
    for _ in range(5):
        service = ab.start_service()
        startups.append((ab.wait_healthy(service) - service.spawned_at) * 1000.0)
        ab.stop_service_process(service.process)
    result["startup to healthy (median / max of 5)"] = (statistics.median(startups), max(startups))
    service = ab.start_service()
    ab.wait_healthy(service)
    client = ab.Client(service.port, service.token)
    building = wait_index(client)
    if building > 1:
        ab.log(f"{data_dir}: the search index was still being built for {building:.0f} s")
    time.sleep(5)
    result["idle RSS MB"] = ab.rss_mb(service.pid)
    rng = __import__("random").Random(7)
    ids, _ = ab.meeting_ids(client, rng, wanted=200)
    for name, path in reads(lambda: rng.choice(ids)):
        series = ab.Series(name, "", None)
        ab.measure(client, series, path, requests=requests, warmup=5)
        if series.errors:
            ab.log(f"{name}: errors {series.errors}")
        result[name] = (series.p50(), series.p99())
        ab.log(f"{data_dir}: {name}: p50 {ab.fmt_ms(series.p50())} p99 {ab.fmt_ms(series.p99())}")
    ui_token = open(os.path.join(data_dir, "ui_token"), encoding="utf-8").read().strip()
    exports = []
    for meeting in ids[:10]:
        began = time.perf_counter()
        post(service.port, ui_token, f"/ui/meetings/{meeting}/export", {"folder": out_dir})
        exports.append((time.perf_counter() - began) * 1000.0)
    result["POST /ui/meetings/{id}/export (Markdown, 10)"] = (statistics.median(exports), max(exports))
    patches = patch_lines(service.port, ui_token, client, ids, rng, requests)
    result["PATCH /ui/meetings/{id}/segments/{line} (a line corrected)"] = (
        ab.percentile(patches, 50), ab.percentile(patches, 99))
    deletes = [delete(service.port, service.token, meeting) for meeting in ids[-10:]]
    result["DELETE /v1/meetings/{id} (10)"] = (statistics.median(deletes), max(deletes))
    result["RSS after the reads MB"] = ab.rss_mb(service.pid)
    client.close()
    ab.stop_service_process(service.process)
    started = time.perf_counter()
    check = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True).execute("PRAGMA quick_check").fetchone()[0]
    result["PRAGMA quick_check"] = f"{check} in {time.perf_counter() - started:.1f} s"
    shutil.rmtree(out_dir, ignore_errors=True)
    return result


MODELS = os.path.join(ab.ROOT, "target", "test-models")
BUSY_READS = [
    ("busy: GET /v1/meetings?q=budget", lambda: "/v1/meetings?q=budget"),
    ("busy: GET /v1/meetings?q=b*", lambda: "/v1/meetings?q=b%2A"),
    ("busy: GET /v1/search?q=budget", lambda: "/v1/search?q=budget&limit=100"),
    ("busy: GET /v1/search/meetings?q=bud*", lambda: "/v1/search/meetings?q=bud%2A"),
    ("busy: GET /v1/meetings (limit 50)", lambda: "/v1/meetings"),
]


def measure_busy(data_dir: str, seconds: int) -> dict[str, object]:
    """The reads above while the service records a call from two files and
    transcribes an imported one (tiny.en), on the seeded folder. Every error
    status counts (a `SQLITE_BUSY` reaching a client would show here)."""
    work = tempfile.mkdtemp(prefix="scale-busy-")
    use_folder(data_dir, work)
    jfk = os.path.join(MODELS, "jfk.wav")
    files = {}
    for name, copies in (("mic", 40), ("sys", 40), ("import", 30)):
        files[name] = os.path.join(work, f"{name}.wav")
        subprocess.run(["sox", *[jfk] * copies, files[name]], check=True)
    env = ab.service_env()
    env["RECORDER_MODEL_PATH"] = os.path.join(MODELS, "ggml-tiny.en-q8_0.bin")
    process = subprocess.Popen(
        [ab.RECORDER_BIN, "serve", "--data-dir", data_dir, "--port", "0",
         "--mic-file", files["mic"], "--sys-file", files["sys"]],
        stdout=subprocess.PIPE, stderr=open(ab.SERVICE_LOG, "ab"), env=env, text=True)
    result: dict[str, object] = {}
    try:
        port = int(process.stdout.readline().strip().rsplit(":", 1)[1])
        token = open(os.path.join(data_dir, "api_token"), encoding="utf-8").read().strip()
        person = open(os.path.join(data_dir, "ui_token"), encoding="utf-8").read().strip()
        client = ab.Client(port, token)
        wait_index(client)
        # As the person would, from the app (an agent's start needs 'Allow remote start').
        started = post(port, person, "/ui/recording/start", {"title": "Busy bench call"})
        imported = post(port, person, "/ui/import", {"path": files["import"], "title": "Busy bench import"})
        series = {name: ab.Series(name, "", None) for name, _ in BUSY_READS}
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for name, path in BUSY_READS:
                ab.measure(client, series[name], path, requests=1, warmup=0)
        post(port, person, "/ui/recording/stop", {})
        for name, entry in series.items():
            result[name] = (entry.p50(), entry.p99())
        errors = {name: entry.errors for name, entry in series.items() if entry.errors}
        result["busy: requests / error statuses"] = (
            f"{sum(len(e.samples_ms) for e in series.values())} / {errors or 'none'}")
        status = client.get_json(f"/v1/meetings/{imported['id']}")["status"]
        result["busy: the import after the run"] = status
        for meeting in (started["id"], imported["id"]):
            wait_settled(client, meeting)
            delete(port, token, meeting)
        client.close()
    finally:
        ab.stop_service_process(process)
        shutil.rmtree(work, ignore_errors=True)
    return result


def post(port: int, token: str, path: str, body: dict) -> dict:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", path, body=json.dumps(body),
                       headers={**ab.headers(token), "Content-Type": "application/json"})
    response = connection.getresponse()
    content = response.read()
    connection.close()
    if response.status >= 300:
        raise SystemExit(f"POST {path} answered {response.status}: {content[:300]!r}")
    return json.loads(content)


def wait_settled(client: ab.Client, meeting: str, timeout: float = 900.0) -> None:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if client.get_json(f"/v1/meetings/{meeting}")["status"] == "ready":
            return
        time.sleep(1)


RETENTION_DAYS = 3640


def measure_retention(data_dir: str) -> dict[str, object]:
    """On a copy: 'Delete meetings after' 3 640 days, so the oldest ~1 % are
    due; times the start-up sweep (spawn until the list holds the rest)."""
    work = tempfile.mkdtemp(prefix="scale-retention-")
    data = os.path.join(work, "data")
    shutil.copytree(data_dir, data)
    use_folder(data, work)
    cutoff = int(time.time() * 1000) - RETENTION_DAYS * 86_400_000
    db = sqlite3.connect(os.path.join(data, "recorder.db"))
    due = db.execute("SELECT count(*) FROM meetings WHERE coalesce(ended_at, started_at) < ?",
                     (cutoff,)).fetchone()[0]
    left = db.execute("SELECT count(*) FROM meetings").fetchone()[0] - due
    db.close()
    with open(os.path.join(data, "settings.json"), "w", encoding="utf-8") as handle:
        json.dump({"retention": {"delete_meetings_after_days": RETENTION_DAYS}}, handle)
    service = ab.start_service()
    ab.wait_healthy(service)
    client = ab.Client(service.port, service.token)
    while client.get_json("/v1/meetings?limit=1")["total"] > left:
        time.sleep(0.05)
    swept = time.perf_counter() - service.spawned_at
    client.close()
    ab.stop_service_process(service.process)
    shutil.rmtree(work, ignore_errors=True)
    return {"retention sweep at start-up (spawn to done)": f"{due} meetings in {swept:.1f} s"}


def measure_upgrade(v4_dir: str, requests: int) -> dict[str, object]:
    """Copies a schema-4 folder, starts this build on it and times the
    migration to healthy, the background build, and reads meanwhile."""
    work = tempfile.mkdtemp(prefix="scale-v4-")
    data = os.path.join(work, "data")
    shutil.copytree(v4_dir, data)
    use_folder(data, work)
    result: dict[str, object] = {}
    service = ab.start_service(timeout=600)
    healthy = ab.wait_healthy(service, timeout=600)
    result["upgrade: start to healthy (migration 0005)"] = f"{(healthy - service.spawned_at):.1f} s"
    client = ab.Client(service.port, service.token)
    health = client.get_json("/v1/health")
    result["upgrade: meetings to index"] = health.get("search_index", {}).get("remaining", 0)
    during = ab.Series("list q=budget during the build", "", None)
    started = time.perf_counter()
    while "search_index" in client.get_json("/v1/health") and len(during.samples_ms) < requests:
        ab.measure(client, during, lambda: "/v1/meetings?q=budget&limit=20", requests=1, warmup=0)
    result["upgrade: GET /v1/meetings?q=budget while building (old index)"] = (during.p50(), during.p99())
    wait_index(client)
    building = time.perf_counter() - started
    result["upgrade: background build of the index"] = f"{building:.0f} s"
    client.close()
    ab.stop_service_process(service.process)
    result["upgrade: db MB after (file not shrunk)"] = f"{ab.file_mb(os.path.join(data, 'recorder.db')):,.0f}"
    shutil.rmtree(work, ignore_errors=True)
    return result


def cell(value: object) -> str:
    if isinstance(value, tuple):
        return f"{ab.fmt_ms(value[0])} / {ab.fmt_ms(value[1])}"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", action="append", required=True)
    parser.add_argument("--v4", action="append", default=[])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--busy-seconds", type=int, default=60,
                        help="reads during a recording and an import, on each folder (0: skip)")
    parser.add_argument("--out", default=os.path.join(ab.ROOT, "bench", "out", "scale.md"))
    args = parser.parse_args()
    columns = [measure_folder(os.path.abspath(folder), args.requests) for folder in args.data]
    if args.busy_seconds > 0:
        for folder, column in zip(args.data, columns):
            column.update(measure_busy(os.path.abspath(folder), args.busy_seconds))
    for folder, column in zip(args.data, columns):
        column.update(measure_retention(os.path.abspath(folder)))
    upgrades = [measure_upgrade(os.path.abspath(folder), args.requests) for folder in args.v4]
    names = [f"{c['meetings']:,} meetings" for c in columns]
    lines = [
        "# How the archive's costs grow",
        "",
        f"- {time.strftime('%Y-%m-%d %H:%M %Z')}; revision {ab.git_revision()}; "
        f"{ab.cpu_count()} CPUs, {ab.cpu_model()}",
        f"- {args.requests} sequential requests per read after 5 warm-up (p50 / p99, ms), "
        "one keep-alive connection; the service alone on its folder",
        "",
        "| | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for key in columns[0]:
        lines.append(f"| {key} | " + " | ".join(cell(c.get(key, "")) for c in columns) + " |")
    for folder, upgrade in zip(args.v4, upgrades):
        lines += ["", f"Upgrade of a schema-4 copy of `{folder}`:", ""]
        lines += [f"- {key}: {cell(value)}" for key, value in upgrade.items()]
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
