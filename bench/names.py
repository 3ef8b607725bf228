#!/usr/bin/env python3
"""Names and terms spelled right (issue 34): how many of the hard names and
terms spoken in bench/fixtures/names.json the transcription gets right, with
no words given and with the words of each source the service uses for
whisper's prompt (models/vocabulary.rs): the record card's attendees, the
meeting's title, Settings → Words to know, names given to speakers in earlier
meetings, the words learned from correcting the meeting's first transcription
(issue 47: the rare words the person wrote in, as models/learned.rs picks them),
and all of them laid out as the service lays them out. A prompt of
another meeting's words checks that wrong words do no harm. Then the WER of
bench/out/stt/speech.wav (~10 min, bench/stt.sh makes it) without a prompt
and with one, so a prompt is seen not to cost accuracy elsewhere.

Each meeting is spoken by espeak-ng and transcribed by the `transcribe`
example of recorder-stt (the service's chain: decode, VAD, whisper.cpp) with
`--prompt`. Counts are reported, never asserted.

usage: bench/names.py [--model GGML] [--threads N] [--beam N] [--report PATH]
       (builds the example in the dev profile, where whisper.cpp is -O3)
"""

import argparse
import datetime
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "stt"))
from stt_bench import normalize, rust_debug_string, wer  # noqa: E402

SOURCES = ["attendees", "title", "vocabulary", "earlier", "learned"]
EXAMPLE = ROOT / "target" / "debug" / "examples" / "transcribe"


def prompt_of(words: list[str]) -> str:
    """As the service writes it: each word once (its last place wins), a list."""
    kept: list[str] = []
    for word in (w.strip() for w in words):
        if not word:
            continue
        kept = [k for k in kept if k.lower() != word.lower()] + [word]
    return f"{', '.join(kept)}." if kept else ""


def words_of(meeting: dict, source: str) -> list[str]:
    if source == "title":
        return [meeting["title"]]
    return list(meeting[source])


def all_words(meeting: dict) -> list[str]:
    """The service's order: earlier speakers, words to know, title, attendees."""
    return meeting["earlier"] + meeting["vocabulary"] + [meeting["title"]] + meeting["attendees"]


def knows(meeting: dict, source: str, target: str) -> bool:
    text = " ".join(words_of(meeting, source)).lower()
    return re.search(rf"\b{re.escape(target.lower())}\b", text) is not None


def right(text: str, target: str) -> bool:
    return re.search(rf"\b{re.escape(target)}\b", text, re.IGNORECASE) is not None


def speak(text: str, path: Path) -> None:
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(path), text], check=True)


BEAM: list[str] = []  # the example's flags: ["--beam", "N"] with --beam, ["--bias", …]


def transcribe(model: Path, wav: Path, threads: int, prompt: str) -> tuple[str, float]:
    command = [str(EXAMPLE), str(model), str(wav), str(threads)] + BEAM
    if prompt:
        command += ["--prompt", prompt]
    started = time.monotonic()
    run = subprocess.run(command, check=True, capture_output=True, text=True)
    seconds = time.monotonic() - started
    line = run.stdout.strip().splitlines()[-1]
    literal = re.search(r'"text": (".*")\}$', line)
    return (rust_debug_string(literal.group(1)) if literal else ""), seconds


EVERYDAY = {
    line.strip() for line in
    (ROOT / "crates/service/src/models/everyday-en.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
}


def words_in(text: str) -> list[str]:
    """As models/learned.rs splits a line: letters, digits, ' and -."""
    found = re.split(r"[^\w'’-]+", text)
    return [w.strip("'’-_") for w in found if w.strip("'’-_")]


def learned_from(heard: str, corrected: str) -> list[str]:
    """models/learned.rs `new_rare_words`: the rare words the person wrote
    into a line that the transcription did not have."""
    had = {w.lower() for w in words_in(heard)}
    found: list[str] = []
    for word in words_in(corrected):
        word = re.sub(r"['’]s$", "", word)
        lower = word.lower()
        rare = len(word) >= 3 and any(c.isalpha() for c in word) and lower not in EVERYDAY
        if lower not in had and rare and all(k.lower() != lower for k in found):
            found.append(word)
    return found


def conditions(meetings: list[dict], index: int, heard: str) -> dict[str, str]:
    """`heard`: the meeting's transcription with no words given, which the
    person corrects to the script; what that teaches is the `learned` prompt."""
    meeting = meetings[index]
    other = meetings[(index + 1) % len(meetings)]
    prompts = {"none": ""}
    meeting["learned"] = learned_from(heard, meeting["script"])
    for source in SOURCES:
        prompts[source] = prompt_of(words_of(meeting, source))
    prompts["all"] = prompt_of(all_words(meeting))
    prompts["another meeting's words"] = prompt_of(all_words(other))
    return prompts


def bench_meetings(args, meetings: list[dict], work: Path) -> list[dict]:
    rows: dict[str, dict] = {}
    for index, meeting in enumerate(meetings):
        wav = work / f"meeting-{index}.wav"
        speak(meeting["script"], wav)
        reference = normalize(meeting["script"])
        heard, _ = transcribe(args.model, wav, args.threads, "")
        for name, prompt in conditions(meetings, index, heard).items():
            text, seconds = transcribe(args.model, wav, args.threads, prompt)
            row = rows.setdefault(name, {"condition": name, "right": 0, "spoken": 0,
                                         "known_right": 0, "known": 0, "errors": 0.0,
                                         "words": 0, "seconds": 0.0})
            source = name if name in SOURCES else None
            for target in meeting["targets"]:
                ok = right(text, target)
                row["right"] += ok
                row["spoken"] += 1
                if source is None or knows(meeting, source, target):
                    row["known"] += 1
                    row["known_right"] += ok
            row["errors"] += wer(reference, normalize(text)) * len(reference)
            row["words"] += len(reference)
            row["seconds"] += seconds
            print(f"[{name}] {meeting['title']}: {text}", file=sys.stderr)
    return list(rows.values())


def bench_speech(args, meetings: list[dict]) -> list[dict]:
    speech = ROOT / "bench" / "out" / "stt" / "speech.wav"
    script = speech.with_suffix(".txt")
    if not speech.is_file() or not script.is_file():
        print(f"{speech} is missing (bench/stt.sh makes it): the long-file WER is left out",
              file=sys.stderr)
        return []
    reference = normalize(script.read_text())
    rows = []
    for name, prompt in [("none", ""), ("all (meeting 1's words)", prompt_of(all_words(meetings[0])))]:
        text, seconds = transcribe(args.model, speech, args.threads, prompt)
        rows.append({"condition": name, "wer": wer(reference, normalize(text)), "seconds": seconds})
    return rows


def report(args, rows: list[dict], speech: list[dict]) -> str:
    lines = [
        f"# Names and terms spelled right ({datetime.date.today()})",
        "",
        f"Model `{args.model.name}`, {args.threads} threads,"
        f" {'beam search of ' + str(args.beam) if args.beam else 'greedy decoding'},"
        " the `transcribe` example (dev profile;"
        " whisper.cpp at -O3). Meetings: bench/fixtures/names.json, spoken by espeak-ng (en-us).",
        "",
        "| words given (prompt) | names and terms right, of those spoken | of those the source knows |"
        " WER of the scripts | transcription time |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        known = (f"{row['known_right']}/{row['known']}" if row["condition"] in SOURCES else "—")
        lines.append(
            f"| {row['condition']} | {row['right']}/{row['spoken']} | {known} |"
            f" {row['errors'] / max(row['words'], 1):.3f} | {row['seconds']:.1f} s |"
        )
    if speech:
        lines += ["", "Long file (bench/out/stt/speech.wav, ~10 min of other talk):", "",
                  "| prompt | WER | time |", "|---|---|---|"]
        lines += [f"| {r['condition']} | {r['wer']:.3f} | {r['seconds']:.1f} s |" for r in speech]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path,
                        default=ROOT / "target" / "test-models" / "ggml-tiny.en-q8_0.bin")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--beam", type=int, default=0, help="beam search of N (0: greedy)")
    parser.add_argument("--bias", help="START,NEXT logits for the prompt's rare words, or off "
                        "(default: the engine's own)")
    parser.add_argument("--report", type=Path,
                        default=ROOT / "bench" / "results" / f"names-{datetime.date.today()}.md")
    args = parser.parse_args()
    if args.beam:
        BEAM.extend(["--beam", str(args.beam)])
    if args.bias:
        BEAM.extend(["--bias", args.bias])
    subprocess.run(["cargo", "build", "-q", "--locked", "-p", "recorder-stt", "--features",
                    "whisper", "--example", "transcribe"], check=True, cwd=ROOT)
    meetings = json.loads((ROOT / "bench" / "fixtures" / "names.json").read_text())["meetings"]
    with tempfile.TemporaryDirectory() as work:
        rows = bench_meetings(args, meetings, Path(work))
    speech = bench_speech(args, meetings)
    text = report(args, rows, speech)
    args.report.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
