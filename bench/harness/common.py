"""Paths, logging, percentiles and the checks a bench run starts with.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import datetime
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
MODELS = ROOT / "target/test-models"
TINY_MODEL = MODELS / "ggml-tiny.en-q8_0.bin"
SILERO_VAD = MODELS / "silero-vad.safetensors"


def env_path(name: str, default: pathlib.Path) -> pathlib.Path:
    """The path in environment variable `name`, else `default`."""
    return pathlib.Path(os.environ.get(name, str(default)))


def make_log(tag: str, clock: bool = False):
    """A logger to stderr: `[tag] message`, or `[tag HH:MM:SS] message`."""

    def log(message: str) -> None:
        prefix = f"{tag} {time.strftime('%H:%M:%S')}" if clock else tag
        print(f"[{prefix}] {message}", file=sys.stderr, flush=True)

    return log


def percentile(samples, pct):
    """The sample at `pct` % (0-100) of the sorted samples; NaN when there are none."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


def require_files(needed) -> None:
    """Exits naming the first missing file; `needed` is (path, how to get it) pairs."""
    for path, fix in needed:
        if not pathlib.Path(path).is_file():
            raise SystemExit(f"{path} is missing: {fix}")


def require_tools(tools, install: str | None = None) -> None:
    """Exits naming the first program not on PATH (and the apt-get line for it)."""
    for tool in tools:
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing (apt-get install {install or tool})")


def copy_binary(source: pathlib.Path, folder: pathlib.Path) -> pathlib.Path:
    """A copy of the binary in `folder`: a build in the same checkout may
    replace the original mid-run, the copy stays."""
    target = pathlib.Path(folder) / "recorder"
    shutil.copy2(source, target)
    return target


def build_kind(binary) -> str:
    """`debug` or `release`, from the binary's path."""
    return "debug" if "debug" in str(binary) else "release"


def built_at(binary: pathlib.Path) -> str:
    """When the binary was built (its mtime), as `YYYY-MM-DD HH:MM UTC`."""
    stamp = datetime.datetime.fromtimestamp(pathlib.Path(binary).stat().st_mtime, datetime.timezone.utc)
    return f"{stamp:%Y-%m-%d %H:%M} UTC"


def git_head() -> str:
    """The checkout's newest commit as `` `hash subject` `` (80 characters), or `unknown`."""
    head = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    return f"`{head.stdout.strip()[:80]}`" if head.returncode == 0 else "unknown"
