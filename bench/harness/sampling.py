"""A process's resources from /proc, for the bench scripts: RSS (heap, other
anonymous, file-backed), CPU time, open fds by kind, threads, the load average;
and whether a compiler (someone's build) is running beside the bench.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import os
import pathlib
import re
from collections import Counter

COMPILERS = ("rustc", "cargo", "cc1", "cc1plus", "ld", "clang")


def cpu_seconds(pid) -> float:
    """User + system CPU time of the process so far."""
    stat = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def fd_kinds(pid) -> Counter:
    """The process's open fds by kind: socket, anon, pipe, file."""
    kinds = Counter()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        kinds["socket" if target.startswith("socket:") else
              "anon" if target.startswith("anon_inode:") else
              "pipe" if target.startswith("pipe:") else "file"] += 1
    return kinds


def rss_split_kb(pid) -> tuple[int, int, int]:
    """Resident KiB in the heap, in other anonymous mappings and in file-backed
    ones (/proc/PID/smaps); zeros when it cannot be read."""
    heap = anon = filed = 0
    kind = "anon"
    try:
        for line in open(f"/proc/{pid}/smaps"):
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                parts = line.split()
                name = parts[5] if len(parts) > 5 else ""
                kind = "heap" if name == "[heap]" else "file" if name.startswith("/") else "anon"
            elif line.startswith("Rss:"):
                kb = int(line.split()[1])
                if kind == "heap":
                    heap += kb
                elif kind == "file":
                    filed += kb
                else:
                    anon += kb
    except OSError:
        pass
    return heap, anon, filed


def proc_sample(pid) -> dict:
    """RSS (MB, and its heap / anon / file split), fds (all, sockets, files),
    threads, CPU seconds so far and the 1-minute load average."""
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    rss_kb = int(fields["VmRSS"].split()[0])
    threads = int(fields["Threads"])
    kinds = fd_kinds(pid)
    cpu = cpu_seconds(pid)
    heap, anon, filed = rss_split_kb(pid)
    return {"rss_mb": rss_kb / 1024, "heap_mb": heap / 1024, "anon_mb": anon / 1024, "file_mb": filed / 1024,
            "fds": sum(kinds.values()), "sockets": kinds["socket"], "files": kinds["file"], "threads": threads,
            "cpu": cpu, "load": float(pathlib.Path("/proc/loadavg").read_text().split()[0])}


def builds_running() -> bool:
    """Whether a compiler (someone's build) is running on the machine now."""
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                name = pathlib.Path(f"/proc/{pid}/comm").read_text().strip()
            except OSError:
                continue
            if name in COMPILERS:
                return True
    return False
