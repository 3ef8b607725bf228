#!/usr/bin/env python3
"""Notes engines side by side (issue 32): the built-in engine and each GGUF
model given, run by the notes model inside (`recorder-llm`, llama.cpp) on this
machine's cores. For each: the action items of the scripted meetings in
bench/fixtures/action-items.json scored as bench/action_items.py scores them
(precision, recall, right owner; the part the built-in engine was tuned on and
the held-out part), the time to write all four notes of one hour of meeting
(the scripted meetings repeated, 150 words a minute) and the peak resident
memory of the process that wrote them.

Usage: bench/notes.py [--model GGUF ...] [--worker PATH] [--threads N] [--out FILE.md]
(default model: the test model, target/test-models/smollm2-135m-instruct-q4_1.gguf;
the worker: target/release/recorder-llm, else target/debug/recorder-llm)."""
import json, os, subprocess, sys, io, contextlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from action_items import FIXTURES, score  # noqa: E402


def option(flag, default=None):
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else default


def models():
    given = [sys.argv[i + 1] for i, arg in enumerate(sys.argv) if arg == "--model"]
    return given or [os.path.join(ROOT, "target/test-models/smollm2-135m-instruct-q4_1.gguf")]


def worker():
    for build in ("release", "debug"):
        path = os.path.join(ROOT, "target", build, "recorder-llm")
        if os.path.exists(path):
            return option("--worker", path)
    sys.exit("no recorder-llm: cargo build --release -p recorder-llm-worker")


def run(extra):
    command = ["cargo", "run", "-q", "--release", "-p", "recorder-ai", "--example", "notes_bench",
               "--", FIXTURES, *extra]
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    hour = next(line["hour"] for line in lines if "hour" in line)
    return [line for line in lines if "meeting" in line], hour


def quality(meetings, found):
    rows = io.StringIO()
    with contextlib.redirect_stdout(rows):
        for held_out in (False, True):
            score(meetings, found, held_out, False)
    return rows.getvalue().strip().splitlines()


def mib(value):
    return f"{value / 2**20:.0f} MiB" if value else "n/a"


def main():
    meetings = json.load(open(FIXTURES))["meetings"]
    threads = option("--threads", "2")
    engines = [("built-in engine", [])]
    for model in models():
        engines.append((os.path.basename(model), ["--model", model, "--worker", worker(), "--threads", threads]))
    cost = ["| engine | one meeting hour: four notes | peak memory | note |", "|---|---|---|---|"]
    items = ["| engine | part | meetings | expected | found | precision | recall | right owner |",
             "|---|---|---|---|---|---|---|---|"]
    for name, extra in engines:
        print(f"notes: {name} ...", file=sys.stderr)
        found, hour = run(extra)
        note = hour.get("error") or ""
        cost.append(f"| {name} | {hour['seconds']:.1f} s | {mib(hour.get('peak_bytes'))} | {note} |")
        for row in quality(meetings, found):
            items.append(f"| {name} {row}")
    report = "\n".join([f"Threads: {threads}", "", *cost, "", *items, ""])
    print(report)
    if option("--out"):
        with open(option("--out"), "w") as out:
            out.write(report)


if __name__ == "__main__":
    main()
