"""Results of the bench scripts: Markdown table lines, the service log's
warnings and errors counted by message, and writing a report (printed, and
saved under bench/results/ or where --out says).

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import pathlib
import re
from collections import Counter


def table_head(*columns: str) -> list[str]:
    """A Markdown table's header and separator lines."""
    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]


def table_row(*cells) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def log_findings(data: pathlib.Path):
    """WARN and ERROR lines of DATA/logs/recorder.log, counted by `level
    target: message` with numbers and ids as #; (counts, an example line of
    each)."""
    counts, examples = Counter(), {}
    path = data / "logs" / "recorder.log"
    if not path.is_file():
        return counts, examples
    for line in path.read_text(errors="replace").splitlines():
        match = re.match(r"\S+\s+(WARN|ERROR)\s+(\S+?):\s+(.*)", line)
        if match:
            level, target, message = match.groups()
            key = f"{level} {target}: {re.sub(r'[0-9a-f-]{36}|[0-9]+', '#', message)[:120]}"
            counts[key] += 1
            examples.setdefault(key, line[:400])
    return counts, examples


def write_result(text: str, out, log) -> pathlib.Path:
    """Prints the report, writes it to `out` (making its folder) and logs where."""
    print(text)
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    log(f"wrote {out}")
    return out
