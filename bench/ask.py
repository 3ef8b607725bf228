#!/usr/bin/env python3
"""Ask that answers (issue 48): citation accuracy of `POST /v1/ask` on a
held-out set, bench/fixtures/ask_set.json (24 meetings, 48 questions labelled
with the meeting and the line that answers them, half sharing no content word
with that line, 12 asked about one meeting; 8 questions nothing answers).
Written apart from the unit tests; never tuned on the tests' sets.

For each library (the 24 meetings alone, and among N generated meetings of
`xtask seed`, e.g. 2 000) and each engine (the built-in one, and a stand-in
Ollama server that answers "[1], [2] and [3]" and records the passages it was given):

- top-1 / top-3: the labelled line lies within the first / one of the first
  three citations (a citation spans the answering line and its neighbours);
- answered: the reply is an answer, not the closest lines or nothing;
- unanswerable: of the 8, how many got no answer (closest lines or nothing);
- given: (stand-in) the labelled line was among the passages sent to it.

    python3 bench/ask.py [--scale 2000] [--out FILE] [--floors 0.25,0.3,0.35 [--sweep-only]]

RECORDER_BIN and XTASK_BIN pick the binaries (default target/debug/...); the
embedding model comes from scripts/embedding-model.sh.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import pathlib
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ROOT = pathlib.Path(__file__).resolve().parent.parent
os.environ.setdefault("RECORDER_BIN", str(ROOT / "target/debug/recorder"))
import api_bench as ab  # noqa: E402
from harness import seeding  # noqa: E402
from meaning import use  # noqa: E402  (the service's data folder for api_bench)

MODEL_ZIP = ROOT / "target/test-models/all-minilm-l6-v2.zip"
XTASK_BIN = os.environ.get("XTASK_BIN", str(ROOT / "target/debug/xtask"))
SET = json.loads((ROOT / "bench/fixtures/ask_set.json").read_text())
DAY = 86_400_000
START = 1_795_000_000_000  # after every `xtask seed` meeting
LINE_MS = 5_000


def log(message: str) -> None:
    print(f"[ask] {message}", file=sys.stderr, flush=True)


class StandIn(http.server.BaseHTTPRequestHandler):
    """Ollama's /api/chat: records the request, streams "[1]"."""
    seen: list[dict] = []

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["content-length"])) or b"null")
        StandIn.seen.append(body)
        lines = [json.dumps({"model": "m", "message": {"role": "assistant", "content": "From the passages [1], [2] and [3]."},
                             "done": False}),
                 json.dumps({"model": "m", "message": {"role": "assistant", "content": ""}, "done": True})]
        data = ("\n".join(lines) + "\n").encode()
        self.send_response(200)
        self.send_header("content-type", "application/x-ndjson")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def seed_set(data: pathlib.Path) -> dict[str, dict]:
    """The set's meetings, newest after any generated ones: lines 5 s apart,
    speakers by name (the first speaker is the mic's "Me" when so named)."""
    db = sqlite3.connect(data / "recorder.db", timeout=10)
    db.execute("PRAGMA foreign_keys = ON")
    rng = random.Random(7)
    meetings = {}
    with db:
        for i, meeting in enumerate(SET["meetings"]):
            started = START + i * DAY
            mid = seeding.uuid7(rng, started)
            duration = len(meeting["lines"]) * LINE_MS
            seq = db.execute(
                "INSERT INTO meetings (id, title, source_app, started_at, ended_at, duration_ms, status, language, "
                "starred, processing_error, created_at, updated_at) "
                "VALUES (?, ?, 'zoom', ?, ?, ?, 'ready', 'en', 0, NULL, ?, ?)",
                (mid, meeting["title"], started, started + duration, duration, started, started)).lastrowid
            names = [n for n in dict.fromkeys(line["speaker"] for line in meeting["lines"]) if n != "Me"]
            for number, name in enumerate(names, start=1):
                db.execute("INSERT INTO speakers (meeting, number, name, voice) VALUES (?, ?, ?, X'')", (seq, number, name))
            for index, line in enumerate(meeting["lines"]):
                mine = line["speaker"] == "Me"
                db.execute(
                    "INSERT INTO segments (meeting, channel, start_ms, end_ms, text, speaker) VALUES (?, ?, ?, ?, ?, ?)",
                    (seq, "mic" if mine else "sys", index * LINE_MS, index * LINE_MS + 4_000, line["text"],
                     None if mine else names.index(line["speaker"]) + 1))
            meetings[meeting["key"]] = {"id": mid, "started_at": started}
    db.close()
    return meetings


def prepare(scale: int) -> tuple[pathlib.Path, dict[str, dict]]:
    if scale:
        kept = ROOT / f"bench/out/ask-{scale}"
        if (kept / ".ask-seeded").exists():
            log(f"reusing {kept} (its passages are embedded already)")
            db = sqlite3.connect(kept / "recorder.db")
            titles = dict(db.execute("SELECT title, id FROM meetings WHERE started_at >= ?", (START,)).fetchall())
            db.close()
            return kept, {m["key"]: {"id": titles[m["title"]]} for m in SET["meetings"]}
    data = pathlib.Path(tempfile.mkdtemp(prefix=f"ask-{scale}-"))
    if scale:
        log(f"xtask seed: {scale} meetings of 20 lines")
        subprocess.run([XTASK_BIN, "seed", "--data-dir", str(data), "--meetings", str(scale), "--segments", "20",
                        "--seed", "48"], check=True, stdout=subprocess.DEVNULL)
    else:
        use(data)
        service = ab.start_service(timeout=120)  # creates the database
        ab.stop_service_process(service.process)
    meetings = seed_set(data)
    subprocess.run([ab.RECORDER_BIN, "--data-dir", str(data), "models", "add-embeddings", str(MODEL_ZIP)],
                   check=True, stdout=subprocess.DEVNULL)
    return data, meetings


def started(data: pathlib.Path, settings: dict):
    (data / "settings.json").write_text(json.dumps(settings))
    use(data)
    service = ab.start_service(timeout=120)
    ab.wait_healthy(service, timeout=120)
    client = ab.Client(service.port, service.token)
    began = time.perf_counter()
    while True:
        meaning = client.get_json("/v1/health")["meaning"]
        if meaning["available"] and meaning["remaining"] == 0:
            break
        if time.perf_counter() - began > 7200:
            raise SystemExit("not embedded in time")
        time.sleep(0.5)
    log(f"embedded in {time.perf_counter() - began:.0f} s")
    return service, client


def ask(client: ab.Client, body: dict) -> dict:
    client.connection.request("POST", "/v1/ask", body=json.dumps(body),
                              headers={**client.headers, "content-type": "application/json"})
    response = client.connection.getresponse()
    reply = json.loads(response.read())
    if response.status != 200:
        raise SystemExit(f"ask: {response.status} {reply}")
    return reply


def holds(citation: dict, meeting_id: str, line: int) -> bool:
    at = line * LINE_MS
    return citation["meeting_id"] == meeting_id and citation["start_ms"] <= at <= citation["end_ms"]


def evaluate(client: ab.Client, meetings: dict[str, dict], stand_in: bool) -> dict:
    rows = {"top1": 0, "top3": 0, "answered": 0, "given": 0, "n": 0, "unanswered": 0, "misses": [],
            "paraphrase": [0, 0], "scoped": [0, 0], "ms": []}
    for q in SET["questions"]:
        meeting = meetings[q["meeting"]]
        body = {"question": q["question"]}
        if q.get("scoped"):
            body["meeting_id"] = meeting["id"]
        before = len(StandIn.seen)
        began = time.perf_counter()
        reply = ask(client, body)
        rows["ms"].append(1000 * (time.perf_counter() - began))
        cited = reply["citations"]
        top1 = bool(cited) and holds(cited[0], meeting["id"], q["line"])
        top3 = any(holds(c, meeting["id"], q["line"]) for c in cited[:3])
        rows["n"] += 1
        rows["top1"] += top1
        rows["top3"] += top3
        rows["answered"] += bool(cited) and not reply.get("closest")
        if stand_in and len(StandIn.seen) > before:
            sent = json.dumps(StandIn.seen[-1])
            line = next(m for m in SET["meetings"] if m["key"] == q["meeting"])["lines"][q["line"]]["text"]
            rows["given"] += json.dumps(line)[1:-1] in sent
        for kind, flag in (("paraphrase", q["kind"] == "paraphrase"), ("scoped", q.get("scoped"))):
            if flag:
                rows[kind][0] += top3
                rows[kind][1] += 1
        if not top3:
            same = any(c["meeting_id"] == meeting["id"] for c in cited[:3])
            rows["misses"].append(f"{q['question']} → {cited[0]['text'][:80] if cited else '(nothing)'}"
                                  f"{' (closest)' if reply.get('closest') else ''}"
                                  f"{' (its meeting, another line)' if same else ''}")
    for q in SET["unanswerable"]:
        reply = ask(client, {"question": q["question"]})
        rows["unanswered"] += not reply["citations"] or bool(reply.get("closest"))
    return rows


def run(scale: int) -> list[tuple[str, dict]]:
    data, meetings = prepare(scale)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    results = []
    for engine, settings in (("built-in", {}),
                             ("stand-in model server",
                              {"ai": {"provider": "local", "local_url": f"http://127.0.0.1:{server.server_port}",
                                      "model": "stand-in"}})):
        service, client = started(data, settings)
        results.append((engine, evaluate(client, meetings, engine != "built-in")))
        ab.stop_service_process(service.process)
    server.shutdown()
    kept = ROOT / f"bench/out/ask-{scale}"
    if scale and data != kept:
        subprocess.run(["rm", "-rf", str(kept)], check=True)
        kept.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mv", str(data), str(kept)], check=True)
        (kept / ".ask-seeded").write_text("seeded and embedded\n")
    return results


def sweep(floors: list[float]) -> list[str]:
    """The built-in engine on the set alone at each floor (RECORDER_ASK_FLOOR)."""
    data, meetings = prepare(0)
    out = ["### The relevance floor, by measurement (the set alone, built-in engine)", "",
           "| floor | top-1 | top-3 | answered (of 48) | no answer where none exists (of 8) |", "|---|---|---|---|---|"]
    for floor in floors:
        os.environ["RECORDER_ASK_FLOOR"] = str(floor)
        service, client = started(data, {})
        r = evaluate(client, meetings, False)
        ab.stop_service_process(service.process)
        out.append(f"| {floor:.2f} | {r['top1']} | {r['top3']} | {r['answered']} | {r['unanswered']} |")
        log(out[-1])
    os.environ.pop("RECORDER_ASK_FLOOR", None)
    return out + [""]


def table(scale: int, results: list[tuple[str, dict]]) -> list[str]:
    n_un = len(SET["unanswerable"])
    out = [f"### {scale + len(SET['meetings'])} meetings ({'the set alone' if not scale else f'the set among {scale} generated by xtask seed'})",
           "", "| engine | top-1 | top-3 | answered | no answer where none exists | paraphrase top-3 | one meeting top-3 | given to the model | ask p50 ms |",
           "|---|---|---|---|---|---|---|---|---|"]
    for engine, r in results:
        n = r["n"]
        ms = sorted(r["ms"])[len(r["ms"]) // 2]
        given = f"{r['given']} of {n}" if engine != "built-in" else "—"
        out.append(f"| {engine} | {r['top1']} of {n} ({100 * r['top1'] / n:.0f} %) | **{r['top3']} of {n} "
                   f"({100 * r['top3'] / n:.0f} %)** | {r['answered']} of {n} | {r['unanswered']} of {n_un} | "
                   f"{r['paraphrase'][0]} of {r['paraphrase'][1]} | {r['scoped'][0]} of {r['scoped'][1]} | {given} | {ms:.0f} |")
    misses = results[0][1]["misses"]
    if misses:
        out += ["", "Missed by the built-in engine (not in the top 3):", ""]
        out += [f"- {m}" for m in misses]
    return out + [""]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=int, action="append", default=[])
    parser.add_argument("--out")
    parser.add_argument("--floors", help="comma-separated floors to sweep, e.g. 0.25,0.3,0.35")
    parser.add_argument("--sweep-only", action="store_true")
    args = parser.parse_args()
    lines = ["# Ask: citation accuracy on a held-out set", "",
             f"`bench/ask.py` on this machine: {ab.cpu_count()} CPUs ({ab.cpu_model()}), revision "
             f"{ab.git_revision()}, binary {ab.RECORDER_BIN}. {len(SET['questions'])} questions over "
             f"{len(SET['meetings'])} meetings (bench/fixtures/ask_set.json), "
             f"{sum(q['kind'] == 'paraphrase' for q in SET['questions'])} sharing no content word with their line, "
             f"{sum(bool(q.get('scoped')) for q in SET['questions'])} about one meeting; "
             f"{len(SET['unanswerable'])} that nothing answers.", ""]
    if args.floors:
        lines += sweep([float(f) for f in args.floors.split(",")])
    if not args.sweep_only:
        for scale in [0] + args.scale:
            lines += table(scale, run(scale))
    text = "\n".join(lines)
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
