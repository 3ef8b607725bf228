#!/usr/bin/env python3
"""The final pass (issue 34): a meeting transcribed first with one model, then
again with a larger one through the service's own route (`POST
/ui/meetings/:id/transcribe {model}`, staged lines, transcript replaced when
whole). For each file it reports the WER of the first transcript and of the
pass, and the wall time each took. Both passes go through the same chain as
an import (decode, Silero VAD, whisper.cpp, the words-to-know guard).

Files: bench/out/stt/speech.wav (~10 min, bench/stt/make-audio.sh makes it
with its script speech.txt) and, with --hour, bench/out/stt/hour.wav. With
--live the first transcript is a live recording instead: speech.wav played
as the other side (`--sys-file`, real time, the microphone silent), stopped
when it ends, so the first WER is the live transcript's.
Models: ggml files in target/test-models (scripts/test-model.sh: tiny.en;
scripts/multilingual-model.sh: base). Counts are reported, never asserted.

usage: bench/final_pass.py [--binary target/debug/recorder] [--first tiny.en-q8_0]
                           [--final base-q8_0] [--hour | --live] [--report PATH]
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "stt"))
from stt_bench import normalize, wer  # noqa: E402

MODELS = ROOT / "target" / "test-models"


class Api:
    def __init__(self, port: int, token: str):
        self.base, self.token = f"http://127.0.0.1:{port}", token

    def call(self, method: str, path: str, body=None, raw=False):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as answer:
            text = answer.read().decode()
            return text if raw else (json.loads(text) if text else None)

    def wait(self, meeting_id: str, status: str = "ready") -> dict:
        while True:
            meeting = self.call("GET", f"/ui/meetings/{meeting_id}")
            if meeting["status"] == status:
                return meeting
            time.sleep(0.25)

    def text(self, meeting_id: str) -> str:
        lines = self.call("GET", f"/ui/meetings/{meeting_id}/transcript?format=txt", raw=True)
        return " ".join(re.sub(r"^\[[^\]]*\] [^:]*: ", "", line) for line in lines.splitlines())


def start(args, folder: str):
    data = Path(folder) / "data"
    (data / "models").mkdir(parents=True)
    for name in (args.first, args.final):
        shutil.copy(MODELS / f"ggml-{name}.bin", data / "models" / f"ggml-{name}.bin")
    (data / "settings.json").write_text(json.dumps({"transcription": {"model": args.first}}))
    env = dict(os.environ, RECORDER_VAD_PATH=str(MODELS / "silero-vad.safetensors"))
    for key in ("RECORDER_DATA_DIR", "RECORDER_MODEL_PATH"):
        env.pop(key, None)
    command = [args.binary, "serve", "--port", "0", "--data-dir", str(data)]
    if args.live:
        silence = Path(folder) / "mic.wav"
        subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(silence),
                        "trim", "0", "5"], check=True)
        command += ["--mic-file", str(silence), "--sys-file", str(args.live_file)]
    service = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, text=True)
    port = int(re.search(r":(\d+)", service.stdout.readline()).group(1))
    return service, Api(port, (data / "ui_token").read_text().strip())


def audio_seconds(wav: Path) -> float:
    import wave
    with wave.open(str(wav)) as audio:
        return audio.getnframes() / audio.getframerate()


def first_transcript(args, api: Api, wav: Path) -> str:
    """An import, or (--live) a recording of the file played as the other side."""
    if not args.live:
        return api.call("POST", "/ui/import", {"path": str(wav), "title": wav.stem})["id"]
    made = api.call("POST", "/ui/recording/start", {"title": wav.stem})
    time.sleep(audio_seconds(wav) + 3)
    api.call("POST", "/ui/recording/stop")
    return made["id"]


def measure(args, api: Api, wav: Path) -> dict:
    reference = normalize(wav.with_suffix(".txt").read_text())
    began = time.monotonic()
    made = {"id": first_transcript(args, api, wav)}
    if args.live:
        began = time.monotonic()  # the recording has just stopped
    api.wait(made["id"])
    first_s = time.monotonic() - began
    first = wer(reference, normalize(api.text(made["id"])))
    began = time.monotonic()
    api.call("POST", f"/ui/meetings/{made['id']}/transcribe", {"model": args.final})
    api.wait(made["id"], "transcribing")
    api.wait(made["id"])
    final_s = time.monotonic() - began
    final = wer(reference, normalize(api.text(made["id"])))
    return {"file": wav.name, "first": first, "first_s": first_s, "final": final, "final_s": final_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "recorder"))
    parser.add_argument("--first", default="tiny.en-q8_0")
    parser.add_argument("--final", default="base-q8_0")
    parser.add_argument("--hour", action="store_true")
    parser.add_argument("--live", action="store_true")
    parser.add_argument("--report", type=Path,
                        default=ROOT / "bench" / "results" / f"final-pass-{datetime.date.today()}.md")
    args = parser.parse_args()
    files = [ROOT / "bench" / "out" / "stt" / "speech.wav"]
    args.live_file = files[0]
    if args.live:
        args.report = args.report.with_name(args.report.stem + "-live.md")
    if args.hour and not args.live:
        files.append(ROOT / "bench" / "out" / "stt" / "hour.wav")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        service, api = start(args, folder)
        try:
            for wav in files:
                rows.append(measure(args, api, wav))
                print(rows[-1], file=sys.stderr)
        finally:
            service.kill()
            service.wait()
    lines = [
        f"# The final pass ({datetime.date.today()})",
        "",
        f"`{Path(args.binary).name}` ({args.binary}), {os.cpu_count()} cores; first transcription with "
        f"`{args.first}` ({'a live recording, the file played as the other side in real time' if args.live else 'an import'}), "
        f"then `POST /ui/meetings/:id/transcribe {{model: {args.final}}}`. The first time is "
        f"{'from the recording stop' if args.live else 'from the import'} to `ready`; the pass's from its request to `ready` (notes included).",
        "",
        f"| file | WER {args.first} | time | WER {args.final} (final pass) | time |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(f"| {row['file']} | {row['first']:.3f} | {row['first_s']:.1f} s | "
                     f"{row['final']:.3f} | {row['final_s']:.1f} s |")
    args.report.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
