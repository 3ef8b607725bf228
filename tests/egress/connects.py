"""Reading `strace -e trace=connect` output: every address a process asked
to connect to, and which of them leave the machine."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path

INET = re.compile(r'sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
INET6 = re.compile(r'sa_family=AF_INET6, sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "([^"]+)"')
FAMILY = re.compile(r"connect\(\d+, \{sa_family=(AF_[A-Z0-9]+)")


@dataclass(frozen=True)
class Connect:
    family: str
    address: str
    port: int | None
    line: str

    @property
    def loopback(self) -> bool:
        if self.family == "AF_UNIX":
            return True  # a local socket file, never the network
        if self.family not in ("AF_INET", "AF_INET6"):
            return False
        address = ipaddress.ip_address(self.address)
        mapped = getattr(address, "ipv4_mapped", None)
        return address.is_loopback or bool(mapped and mapped.is_loopback)


def read(folder: Path) -> list[Connect]:
    found = []
    for trace in sorted(folder.glob("*.trace")):
        for line in trace.read_text(errors="replace").splitlines():
            if "connect(" not in line:
                continue
            if match := INET.search(line):
                found.append(Connect("AF_INET", match[2], int(match[1]), line))
            elif match := INET6.search(line):
                found.append(Connect("AF_INET6", match[2], int(match[1]), line))
            elif match := FAMILY.search(line):
                found.append(Connect(match[1], "", None, line))
    return found
