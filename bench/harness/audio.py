"""Audio for the bench scripts, made with espeak-ng and sox as
crates/test-support/src/speech.rs makes it: spoken lines and silence as 16 kHz
mono 16-bit WAVs, their lengths, and a two-sided call of any length from the
paragraphs of bench/fixtures/meeting-script.txt.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import pathlib
import subprocess
import wave

from .common import ROOT

RATE = 16000
SCRIPT = ROOT / "bench/fixtures/meeting-script.txt"


def run_tool(*args) -> None:
    """Runs a program; exits with its stderr when it fails."""
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, args))} failed: {done.stderr.strip()}")


def speak(text: str, path: pathlib.Path, voice: str = "en-us", speed: int = 160, pad=None) -> None:
    """`text` spoken by espeak-ng into a 16 kHz mono WAV at `path`, with
    `pad` = (seconds before, seconds after) of silence when given."""
    raw = path.with_suffix(".espeak.wav")
    run_tool("espeak-ng", "-v", voice, "-s", speed, "-w", raw, text)
    padding = ["pad", *pad] if pad else []
    run_tool("sox", raw, "-r", RATE, "-c", 1, "-b", 16, "-e", "signed-integer", path, *padding)
    raw.unlink()


def silence(path: pathlib.Path, seconds: float) -> None:
    run_tool("sox", "-n", "-r", RATE, "-c", 1, "-b", 16, "-e", "signed-integer", path, "trim", "0", f"{seconds:.3f}")


def audio_seconds(path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def wav_ms(path: pathlib.Path) -> int | None:
    """A WAV's length in ms; None when it is missing or unreadable."""
    try:
        with wave.open(str(path), "rb") as handle:
            return handle.getnframes() * 1000 // handle.getframerate()
    except (OSError, wave.Error, EOFError):
        return None


def paragraphs() -> list[str]:
    """The paragraphs of bench/fixtures/meeting-script.txt."""
    return [p.strip() for p in SCRIPT.read_text().split("\n\n") if p.strip()]


def make_call(folder: pathlib.Path, hours: float):
    """Two 16 kHz mono WAVs of `hours`: paragraphs of the meeting script take
    turns between the sides (1.5 s apart), with 20 s of silence on both sides
    after every sixth; the block (about 11 min) is repeated to length.
    ({"mic": path, "sys": path}, the block's length in s)."""
    sides = {"mic": [], "sys": []}
    at = 0.0
    for index, text in enumerate(paragraphs()):
        side = "mic" if index % 2 else "sys"
        clip = folder / f"p{index}.wav"
        speak(text, clip, voice="en-gb" if side == "mic" else "en-us")
        length = audio_seconds(clip)
        sides[side].append((at, clip, length))
        at += length + (20.0 if index % 6 == 5 else 1.5)
    block_len = at
    blocks = {side: _side_block(folder, side, spoken, block_len) for side, spoken in sides.items()}
    seconds = hours * 3600
    repeats = max(0, int(seconds // block_len))
    files = {}
    for side, block in blocks.items():
        files[side] = folder / f"{side}.wav"
        run_tool("sox", block, files[side], "repeat", repeats, "trim", "0", f"{seconds:.3f}")
    return files, block_len


def _side_block(folder: pathlib.Path, side: str, spoken, block_len: float) -> pathlib.Path:
    """One side of the block: its clips at their times, silence between."""
    pieces, cursor = [], 0.0
    for n, (start, clip, length) in enumerate(spoken):
        gap = folder / f"{side}-gap{n}.wav"
        silence(gap, max(0.001, start - cursor))
        pieces += [gap, clip]
        cursor = start + length
    tail = folder / f"{side}-tail.wav"
    silence(tail, max(0.001, block_len - cursor))
    block = folder / f"{side}-block.wav"
    run_tool("sox", *pieces, tail, block)
    return block
