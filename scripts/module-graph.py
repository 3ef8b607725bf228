#!/usr/bin/env python3
"""Which files of a crate import each other in a circle: reads `crate::` and
`super::` paths in every .rs file under SRC, maps them to the file of the
module they name, and prints the strongly connected groups of more than one
file (Tarjan). Usage: scripts/module-graph.py crates/service/src [--edges]
[--check]; with --check it exits 1 when there is a circle (the tidy test
`xtask/tests/dependencies.rs` runs it on every crate under `crates/`)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
USE_GROUP = re.compile(r"use (crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*)\}", re.S)


def module_of(path: Path, src: Path) -> tuple[str, ...]:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def code(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    return text.split("#[cfg(test)]")[0]


def main() -> None:
    src = Path(sys.argv[1])
    files = {module_of(p, src): p for p in src.rglob("*.rs") if "tests" not in p.parts}
    edges: dict[tuple, set[tuple]] = {m: set() for m in files}

    def resolve(origin: tuple, kind: str, names: list[str]) -> tuple | None:
        # `crate::` starts at the root; `super::` at the parent of the
        # file's module (for a mod.rs, the module is its folder).
        base = [] if kind == "crate" else list(origin[:-1])
        best = None
        for i in range(1, len(names) + 1):
            candidate = tuple(base + names[:i])
            if candidate in files:
                best = candidate
        return best

    for module, path in files.items():
        text = code(path.read_text())
        found = [(k, rest.strip(":").split("::")) for k, rest in PATH.findall(text)]
        for kind, prefix, group in USE_GROUP.findall(text):
            for item in re.split(r",\s*", group):
                item = item.strip().split(" as ")[0].split("::{")[0]
                if item and item != "self":
                    found.append((kind, (prefix.strip(":").split("::") if prefix else []) + item.split("::")))
        for kind, names in found:
            target = resolve(module, kind, [n for n in names if n])
            if target is not None and target != module:
                edges[module].add(target)

    index: dict[tuple, int] = {}
    low: dict[tuple, int] = {}
    stack: list[tuple] = []
    on: set[tuple] = set()
    groups: list[list[tuple]] = []
    counter = [0]

    def visit(v: tuple) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    sys.setrecursionlimit(10_000)
    for v in files:
        if v not in index:
            visit(v)
    name = lambda m: "/".join(m) or "lib"
    print(f"{src}: {len(files)} files, {sum(map(len, edges.values()))} edges between them")
    if not groups:
        print("no circles")
    for group in sorted(groups, key=len, reverse=True):
        print(f"circle of {len(group)} files: " + ", ".join(sorted(name(m) for m in group)))
    if "--edges" in sys.argv:
        for m in sorted(files):
            print(f"  {name(m)} -> {', '.join(sorted(name(t) for t in edges[m]))}")
    if "--check" in sys.argv and groups:
        sys.exit(1)


if __name__ == "__main__":
    main()
