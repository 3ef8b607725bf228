#!/usr/bin/env python3
"""Which files of a source tree import each other in a circle.

Rust (`.rs`): every path in the code, `use` lines or inline
(`crate::http::handlers::import::X` in an expression), that starts at
`crate::`, `self::`, a chain of `super::` (`super::super::x`), a child module
of the module it is written in (`vocabulary::prompt_of` in `models/mod.rs`)
or a name a `use` brought in for a module (`use crate::http::handlers;` then
`handlers::import::X`) is mapped to the file of the module it names. Modules
are found as rustc finds them, from `lib.rs`/`main.rs` through `mod x;`
(`#[path]` included); inline `mod x { … }` blocks count as part of their file.
Test-only code is left out: an item under `#[cfg(test)]` (or a cfg that needs
`test`) is skipped up to its end, wherever it is in the file, and a module
declared that way (`#[cfg(test)] mod tests;`) is not read at all.

TypeScript and Svelte (`.ts`, `.svelte`, `.js` under the tree; a `.svelte`
file's `<script>` blocks): `import … from`, `export … from`, `import '…'` and
`import('…')` with a relative specifier (`./x`, `../x`, with or without an
extension: `.ts`, `.js` for `.ts`, `.svelte`, `.svelte.ts`, `index` files)
or an alias of the nearest tsconfig.json's `compilerOptions.paths`. Type-only
imports count: they are a dependency of the code all the same.

A module and the files inside it are one family: a file's use of what a
module it sits in defines (`super::Error`, `crate::Options` of lib.rs) is not
a step of a circle by itself (lib.rs calling `pipeline::run` while pipeline.rs
names lib.rs's `AiError` is how a crate is laid out), only when the way from
that module down to the file runs through a file outside it.

Prints the strongly connected groups of more than one file (Tarjan), each
with one circle through it and the line that makes each step.

Usage: scripts/module-graph.py SRC [--edges] [--check]; with --check it exits 1
when there is a circle. The tidy test `xtask/tests/dependencies.rs` runs it on
every crate under `crates/` and on `ui/src`.
"""

from __future__ import annotations

import json
import re
import sys
from collections import deque
from pathlib import Path

# An edge's evidence: where it is written, and what.
Evidence = tuple[Path, int, str]
Graph = dict[str, dict[str, Evidence]]


# ---------------------------------------------------------------- text ----


def spaces(text: str, start: int, end: int) -> str:
    """`text[start:end]` as spaces, its newlines kept (line numbers stay right)."""
    return re.sub(r"[^\n]", " ", text[start:end])


def comment_end(text: str, i: int, nested: bool) -> int | None:
    """Where the comment that starts at `i` ends, or None when none starts
    there. Rust's block comments nest; TypeScript's do not."""
    n = len(text)
    if text.startswith("//", i):
        end = text.find("\n", i)
        return n if end < 0 else end
    if not text.startswith("/*", i):
        return None
    if not nested:
        end = text.find("*/", i + 2)
        return n if end < 0 else end + 2
    depth, j = 1, i + 2
    while j < n and depth:
        if text.startswith("/*", j):
            depth, j = depth + 1, j + 2
        elif text.startswith("*/", j):
            depth, j = depth - 1, j + 2
        else:
            j += 1
    return j


# ---------------------------------------------------------------- Rust ----


def blank_rust(text: str) -> str:
    """`text` with comments, strings and char literals turned into spaces
    (newlines kept, so line numbers stay right)."""
    out: list[str] = []
    i, n = 0, len(text)

    def blank(start: int, end: int) -> None:
        out.append(spaces(text, start, end))

    while i < n:
        c = text[i]
        if (end := comment_end(text, i, nested=True)) is not None:
            blank(i, end)
            i = end
        elif c in "br" and (m := re.match(r'b?r(#*)"', text[i : i + 300])) and not (
            i and (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            end = text.find('"' + m.group(1), i + m.end())
            end = n if end < 0 else end + 1 + len(m.group(1))
            blank(i, end)
            i = end
        elif c == '"' or (c == "b" and text.startswith('b"', i) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{7f}'), else a lifetime ('a).
            m = re.match(r"'(\\(u\{[0-9a-fA-F_]*\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'", text[i : i + 16])
            if m:
                blank(i, i + m.end())
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"r#[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*|\d[\w.]*|::|->|=>|\S")


def tokens_of(text: str) -> list[tuple[str, int]]:
    """(token, line) pairs; numbers dropped, raw identifiers unwrapped."""
    found = []
    line, last = 1, 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", last, m.start())
        last = m.start()
        token = m.group()
        if token[0].isdigit():
            continue
        found.append((token[2:] if token.startswith("r#") else token, line))
    return found


ITEM_WORDS = {
    "pub", "fn", "mod", "use", "impl", "struct", "enum", "trait", "const", "static", "type",
    "extern", "unsafe", "async", "macro_rules", "let", "union", "crate",
}
OPEN, CLOSE = "([{", ")]}"


def needs_test(tokens: list[str]) -> bool:
    """Whether a cfg predicate (its tokens) holds only under `cfg(test)`."""

    def parse(at: int) -> tuple[bool, int]:
        word = tokens[at] if at < len(tokens) else ""
        if word in ("all", "any", "not") and at + 1 < len(tokens) and tokens[at + 1] == "(":
            args, j = [], at + 2
            while j < len(tokens) and tokens[j] != ")":
                value, j = parse(j)
                args.append(value)
                if j < len(tokens) and tokens[j] == ",":
                    j += 1
            j += 1
            if word == "all":
                return any(args), j
            if word == "any":
                return bool(args) and all(args), j
            return False, j
        # a plain predicate: `test`, `unix`, `feature = "x"` (string blanked)
        j = at + 1
        while j < len(tokens) and tokens[j] not in (",", ")"):
            j += 1
        return word == "test" and j == at + 1, j

    return parse(0)[0]


def attribute_end(tokens: list[tuple[str, int]], at: int) -> int:
    """The index after the attribute `#[…]` (or `#![…]`) starting at `at`."""
    j = at + 1
    if j < len(tokens) and tokens[j][0] == "!":
        j += 1
    depth = 0
    while j < len(tokens):
        t = tokens[j][0]
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j


def item_end(tokens: list[tuple[str, int]], at: int) -> int:
    """The index after the item (or field, variant, arm, statement) at `at`:
    its `;`, its block's `}`, or for what is not an item, a `,` at its level;
    never past the bracket that holds it."""
    keyword = at < len(tokens) and tokens[at][0] in ITEM_WORDS
    depth, j = 0, at
    while j < len(tokens):
        t = tokens[j][0]
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            if depth == 0:
                return j
            depth -= 1
            if depth == 0 and t == "}":
                return j + 1
        elif depth == 0 and (t == ";" or (t == "," and not keyword)):
            return j + 1
        j += 1
    return j


class RustFile:
    """One .rs file, its test-only code removed, read into its declarations
    (`mod`), its `use` trees and its paths."""

    def __init__(self, path: Path):
        self.path = path
        self.tokens = tokens_of(blank_rust(path.read_text(errors="replace")))
        self.test_only = False
        # (scope, name, #[path] or None, test-only?) of each `mod name;`
        self.declared: list[tuple[tuple[str, ...], str, str | None, bool]] = []
        self.inline: set[tuple[str, ...]] = set()  # inline modules (relative scopes)
        self.uses: list[tuple[tuple[str, ...], list[str], str | None, int]] = []
        self.paths: list[tuple[tuple[str, ...], list[str], int]] = []
        self._read()

    def _read(self) -> None:
        tokens = self.tokens
        kept: list[tuple[str, int]] = []
        i = 0
        while i < len(tokens):
            t = tokens[i][0]
            if t == "#" and i + 1 < len(tokens) and tokens[i + 1][0] in ("[", "!"):
                end = attribute_end(tokens, i)
                inner = tokens[i + 1][0] == "!"
                body = [tok for tok, _ in tokens[i + (3 if inner else 2) : end - 1]]
                if body[:2] == ["cfg", "("] and needs_test(body[2:-1]):
                    if inner:
                        self.test_only = True
                        return
                    # the attributes after it, then the item they are on
                    j = end
                    while j < len(tokens) and tokens[j][0] == "#":
                        j = attribute_end(tokens, j)
                    stop = item_end(tokens, j)
                    words = [tok for tok, _ in tokens[j:stop]]
                    if "mod" in words and words[-1:] == [";"]:
                        # `mod tests;`: kept, marked, so its file is left out
                        kept.append(("#cfg-test-mod", tokens[j][1]))
                        kept.extend(tokens[i:stop])
                    i = stop
                    continue
                kept.extend(tokens[i:end])
                i = end
                continue
            kept.append(tokens[i])
            i += 1
        self._walk(kept)

    def _walk(self, tokens: list[tuple[str, int]]) -> None:
        scopes: list[tuple[tuple[str, ...], int]] = [((), -1)]  # (scope, brace depth it opened at)
        depth = 0
        pending_path: str | None = None
        test_mod = False
        i = 0
        while i < len(tokens):
            t, line = tokens[i]
            scope = scopes[-1][0]
            prev = tokens[i - 1][0] if i else ""
            if t == "#cfg-test-mod":
                test_mod = True
                i += 1
                continue
            if t == "#" and i + 1 < len(tokens) and tokens[i + 1][0] == "[":
                end = attribute_end(tokens, i)
                body = [tok for tok, _ in tokens[i + 2 : end - 1]]
                if body[:1] == ["path"]:
                    # `#[path = "x.rs"]`: the string is blanked, read it back
                    raw = self.path.read_text(errors="replace").splitlines()[line - 1]
                    found = re.search(r'path\s*=\s*"([^"]*)"', raw)
                    pending_path = found.group(1) if found else None
                i = end
                continue
            if t == "mod" and i + 1 < len(tokens) and prev != "::":
                name = tokens[i + 1][0]
                after = tokens[i + 2][0] if i + 2 < len(tokens) else ""
                if after == ";":
                    self.declared.append((scope, name, pending_path, test_mod))
                    pending_path, test_mod = None, False
                    i += 3
                    continue
                if after == "{":
                    self.inline.add(scope + (name,))
                    depth += 1
                    scopes.append((scope + (name,), depth))
                    pending_path, test_mod = None, False
                    i += 3
                    continue
            if t in ("fn", "struct", "enum", "impl", "trait", "const", "static", "use", "type"):
                pending_path, test_mod = None, False
            if t == "{":
                depth += 1
            elif t == "}":
                if scopes[-1][1] == depth:
                    scopes.pop()
                depth -= 1
            elif t == "use" and prev not in ("::",):
                end = i + 1
                while end < len(tokens) and tokens[end][0] != ";":
                    end += 1
                self._use_tree(scope, [tok for tok, _ in tokens[i + 1 : end]], line)
                i = end + 1
                continue
            elif (t[0].isalpha() or t[0] == "_") and prev not in ("::", "$", ".", "'"):
                names = [t]
                j = i + 1
                while j + 1 < len(tokens) and tokens[j][0] == "::" and (tokens[j + 1][0][0].isalpha() or tokens[j + 1][0][0] == "_"):
                    names.append(tokens[j + 1][0])
                    j += 2
                if len(names) > 1:
                    self.paths.append((scope, names, line))
                    i = j
                    continue
            i += 1

    def _use_tree(self, scope: tuple[str, ...], tree: list[str], line: int) -> None:
        """Each leaf of `use TREE;` as (scope, path, alias, line)."""
        if tree[:1] == ["::"]:
            return  # an external crate

        def walk(prefix: list[str], at: int) -> int:
            names = list(prefix)
            while at < len(tree):
                t = tree[at]
                if t == "{":
                    at += 1
                    while at < len(tree) and tree[at] != "}":
                        at = walk(names, at)
                        if at < len(tree) and tree[at] == ",":
                            at += 1
                    return at + 1
                if t == "*":
                    self.uses.append((scope, names, None, line))
                    return at + 1
                if t == "::":
                    at += 1
                    continue
                if t in (",", "}"):
                    break
                if t == "as":
                    alias = tree[at + 1] if at + 1 < len(tree) else None
                    self.uses.append((scope, names, None if alias == "_" else alias, line))
                    return at + 2
                if t == "self" and names and names != ["self"] and at > 0 and tree[at - 1] in ("{", ","):
                    at += 1  # `a::{self, …}`: `a` itself
                else:
                    names.append(t)
                    at += 1
            if names and names != list(prefix):
                self.uses.append((scope, names, names[-1], line))
            elif names and tree[at - 1 : at] == ["self"]:
                self.uses.append((scope, names, names[-1], line))
            return at

        walk([], 0)


def rust_graph(src: Path) -> tuple[dict[str, Path], Graph, Graph]:
    """Nodes (modules named by path, `lib` for the root), their edges, and
    apart from them the edges from a file to a module it sits inside
    (`super::Error`, `crate::Options` of lib.rs)."""
    read: dict[Path, RustFile] = {}

    def file(path: Path) -> RustFile:
        if path not in read:
            read[path] = RustFile(path)
        return read[path]

    modules: dict[tuple[str, ...], Path] = {}
    test_files: set[Path] = set()
    roots = [p for p in (src / "lib.rs", src / "main.rs") if p.is_file()]
    queue: deque[tuple[tuple[str, ...], Path]] = deque()
    for root in roots:
        # a crate with both: main.rs is its own crate; it reaches the lib by name
        queue.append(((("<main>",) if root.name == "main.rs" and len(roots) == 2 else ()), root))
    while queue:
        module, path = queue.popleft()
        if path in test_files or module in modules:
            continue
        rust = file(path)
        if rust.test_only:
            test_files.add(path)
            continue
        modules[module] = path
        own_dir = path.parent if path.name in ("mod.rs", "lib.rs", "main.rs") else path.with_suffix("")
        for scope, name, path_attr, test_only in rust.declared:
            if path_attr is not None:
                base = path.parent if not scope else own_dir.joinpath(*scope)
                candidates = [base / path_attr]
            else:
                base = own_dir.joinpath(*scope)
                candidates = [base / f"{name}.rs", base / name / "mod.rs"]
            target = next((c for c in candidates if c.is_file()), None)
            if target is None:
                continue
            if test_only:
                test_files.add(target)
                for below in (target.parent if target.name == "mod.rs" else target.with_suffix("")).rglob("*.rs"):
                    test_files.add(below)
                continue
            queue.append((module + scope + (name,), target))
    # Files no declaration reaches (not compiled, or roots of their own):
    # named by their path, so that nothing is left unread.
    for path in sorted(src.rglob("*.rs")):
        if path in test_files or path in modules.values():
            continue
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        if tuple(parts) not in modules and not file(path).test_only:
            modules[tuple(parts)] = path

    inline = {m + s for m, p in modules.items() for s in read[p].inline}
    known = set(modules) | inline

    def name(m: tuple[str, ...]) -> str:
        return "/".join(m) or "lib"

    edges: dict[str, dict[str, Evidence]] = {name(m): {} for m in modules}
    up: dict[str, dict[str, Evidence]] = {name(m): {} for m in modules}
    for module, path in modules.items():
        rust = read[path]
        aliases: dict[tuple[str, ...], dict[str, list[str]]] = {}

        def absolute(scope: tuple[str, ...], names: list[str]) -> list[str] | None:
            here = list(module + scope)
            first = names[0]
            if first == "crate":
                return names[1:] if module[:1] != ("<main>",) else ["<main>"] + names[1:]
            if first in ("self", "super"):
                at, k = list(here), 0
                if first == "self":
                    k = 1
                while k < len(names) and names[k] == "super":
                    at = at[:-1]
                    k += 1
                return at + names[k:]
            if tuple(here + [first]) in known:
                return here + names
            if first in aliases.get(scope, {}):
                return aliases[scope][first] + names[1:]
            return None

        def owner(full: list[str]) -> tuple[str, ...] | None:
            for k in range(len(full), -1, -1):
                if tuple(full[:k]) in modules:
                    return tuple(full[:k])
            return None

        def add(full: list[str] | None, line: int, text: str) -> None:
            if full is None:
                return
            target = owner(full)
            if target is None or target == module:
                return
            # a module this file sits inside: its family's own (see `main`)
            inside = up if module[: len(target)] == target else edges
            inside[name(module)].setdefault(name(target), (path, line, text))

        # `use` first (aliases may be used before or after), twice so that
        # a `use` through an alias another `use` made is followed too
        for _ in range(2):
            for scope, names, alias, line in rust.uses:
                full = absolute(scope, names) if names else None
                if full is not None and alias:
                    aliases.setdefault(scope, {})[alias] = full
        for scope, names, alias, line in rust.uses:
            if names:
                add(absolute(scope, names), line, "use " + "::".join(names))
        for scope, names, line in rust.paths:
            add(absolute(scope, names), line, "::".join(names))
    files = {name(m): p for m, p in modules.items()}
    return files, edges, up


# ---------------------------------------------------------- TypeScript ----

TS_SUFFIXES = (".ts", ".svelte", ".js", ".mts", ".mjs")
TS_TRIES = (
    "", ".ts", ".d.ts", ".js", ".svelte.ts", ".svelte.js", ".svelte", "/index.ts", "/index.js",
    "/index.svelte.ts", "/index.svelte",
)
IMPORT = re.compile(
    r"""\bfrom\s*(['"])([^'"\n]+)\1"""
    r"""|\bimport\s*(['"])([^'"\n]+)\3"""
    r"""|\bimport\s*\(\s*(['"])([^'"\n]+)\5\s*\)"""
)
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}


def blank_ts(text: str) -> str:
    """`text` with comments, template literals and regular expressions
    turned into spaces; quoted strings (the specifiers) kept."""
    out: list[str] = []
    i, n = 0, len(text)
    last = ""  # the last character that is not space

    def blank(start: int, end: int) -> None:
        out.append(spaces(text, start, end))

    while i < n:
        c = text[i]
        if (end := comment_end(text, i, nested=False)) is not None:
            blank(i, end)
            i = end
            continue
        if c in "'\"":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i, last = j + 1, c
            continue
        if c == "`":
            j, depth = i + 1, 0
            while j < n:
                if text[j] == "\\":
                    j += 2
                    continue
                if text.startswith("${", j):
                    depth += 1
                    j += 2
                    continue
                if text[j] == "}" and depth:
                    depth -= 1
                elif text[j] == "`" and not depth:
                    break
                j += 1
            blank(i, j + 1)
            i, last = j + 1, "`"
            continue
        if c == "/" and (last in REGEX_BEFORE or re.search(r"\b(return|typeof|case|in|of)\s*$", text[max(0, i - 12) : i])):
            j, in_class = i + 1, False
            while j < n and text[j] != "\n":
                if text[j] == "\\":
                    j += 2
                    continue
                if text[j] == "[":
                    in_class = True
                elif text[j] == "]":
                    in_class = False
                elif text[j] == "/" and not in_class:
                    break
                j += 1
            blank(i, j + 1)
            i, last = j + 1, "/"
            continue
        out.append(c)
        if not c.isspace():
            last = c
        i += 1
    return "".join(out)


def ts_aliases(src: Path) -> list[tuple[str, list[Path]]]:
    """`compilerOptions.paths` of the nearest tsconfig.json above `src`, as
    (pattern, folders or files) with `*` kept at the end of both."""
    for folder in [src, *src.resolve().parents]:
        config = folder / "tsconfig.json"
        if not config.is_file():
            continue
        text = blank_ts(config.read_text())
        text = re.sub(r",(\s*[}\]])", r"\1", text)
        try:
            options = json.loads(text).get("compilerOptions", {})
        except ValueError:
            return []
        base = folder / options.get("baseUrl", ".")
        return [(pattern, [base / t for t in targets]) for pattern, targets in options.get("paths", {}).items()]
    return []


def ts_graph(src: Path) -> tuple[dict[str, Path], Graph]:
    files: dict[str, Path] = {}
    for path in sorted(src.rglob("*")):
        if not path.is_file() or not path.name.endswith(TS_SUFFIXES) or "node_modules" in path.parts:
            continue
        if re.search(r"\.(test|spec)\.[a-z.]+$", path.name):
            continue  # test-only
        files[path.relative_to(src).as_posix()] = path
    by_path = {p.resolve(): n for n, p in files.items()}
    aliases = ts_aliases(src)

    def find(base: Path) -> str | None:
        text = str(base)
        tries = [text + suffix for suffix in TS_TRIES]
        if text.endswith(".js"):
            tries.insert(1, text[:-3] + ".ts")
        for candidate in tries:
            found = by_path.get(Path(candidate).resolve())
            if found is not None and Path(candidate).is_file():
                return found
        return None

    def resolve(origin: Path, spec: str) -> str | None:
        if spec.startswith("."):
            return find(origin.parent / spec)
        for pattern, targets in aliases:
            if pattern.endswith("*") and spec.startswith(pattern[:-1]):
                rest = spec[len(pattern) - 1 :]
            elif spec == pattern:
                rest = ""
            else:
                continue
            for target in targets:
                found = find(Path(str(target).replace("*", rest)))
                if found:
                    return found
        return None

    edges: dict[str, dict[str, Evidence]] = {n: {} for n in files}
    for node, path in files.items():
        text = path.read_text(errors="replace")
        if path.name.endswith(".svelte"):
            # only the <script> blocks import; the markup is blanked
            kept = re.sub(r"[^\n]", " ", text)
            for m in re.finditer(r"<script\b[^>]*>(.*?)</script>", text, re.S):
                kept = kept[: m.start(1)] + m.group(1) + kept[m.end(1) :]
            text = kept
        code = blank_ts(text)
        for m in IMPORT.finditer(code):
            spec = m.group(2) or m.group(4) or m.group(6)
            target = resolve(path, spec)
            if target is not None and target != node:
                line = code.count("\n", 0, m.start()) + 1
                edges[node].setdefault(target, (path, line, spec))
    return files, edges


# ---------------------------------------------------------------- graph ----


def circles(edges: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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
                groups.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(groups, key=lambda g: (-len(g), g))


def one_circle(edges: Graph, group: list[str]) -> list[str]:
    """A shortest circle through the group's first node, inside the group."""
    inside, start = set(group), group[0]
    came: dict[str, str] = {}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(edges[v]):
            if w not in inside:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return list(reversed(path)) + [start]
            if w not in came:
                came[w] = v
                queue.append(w)
    return group


def within(node: str, module: str) -> bool:
    """Whether `node` is `module` or sits inside it (every module sits in lib)."""
    return module == "lib" or node == module or node.startswith(module + "/")


def shortest(edges: Graph, start: str, goal: str, avoid: set[str] = frozenset()) -> list[str] | None:
    """A shortest path start ⇝ goal, not through `avoid`."""
    came = {start: start}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        if v == goal:
            path = [v]
            while path[-1] != start:
                path.append(came[path[-1]])
            return list(reversed(path))
        for w in sorted(edges.get(v, {})):
            if w not in came and w not in avoid:
                came[w] = v
                queue.append(w)
    return None


def around_outside(edges: Graph, up: Graph) -> list[list[str]]:
    """Circles closed by a file's edge to a module it sits inside (c -> a):
    those count when the way from `a` down to `c` runs through a file
    outside `a`. A module and its own files (lib.rs using `pipeline::run`,
    pipeline.rs using lib.rs's `crate::AiError`) are one family, not a circle;
    `models/mod.rs -> http/handlers/import.rs -> models/vocabulary.rs -> models`
    leaves the family and comes back, and is one."""
    found: list[list[str]] = []
    for c in sorted(up):
        for a in sorted(up[c]):
            for o in sorted(edges):
                if within(o, a):
                    continue
                there = shortest(edges, a, o, {c})
                back = shortest(edges, o, c, set(there) | {a}) if there else None
                if there and back:
                    found.append(there + back[1:] + [a])
                    break
    return found


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1 or not Path(args[0]).is_dir():
        sys.exit(__doc__)
    src = Path(args[0])
    files: dict[str, Path] = {}
    edges: Graph = {}
    up: Graph = {}
    if any(src.rglob("*.rs")):
        files, edges, up = rust_graph(src)
    ts_files, ts_edges = ts_graph(src)
    files.update(ts_files)
    edges.update(ts_edges)
    every = {v: {**edges.get(v, {}), **up.get(v, {})} for v in set(edges) | set(up)}

    circled = [(group, one_circle(edges, group)) for group in circles(edges)]
    for circle in around_outside(edges, up):
        if not any(set(circle) <= set(group) for group, _ in circled):
            circled.append((sorted(set(circle)), circle))
    count = sum(map(len, every.values()))
    print(f"{src}: {len(files)} files, {count} edges between them")
    if not circled:
        print("no circles")
    for members, circle in circled:
        print(f"circle of {len(members)} files: " + ", ".join(members))
        for a, b in zip(circle, circle[1:]):
            where, line, text = every[a][b]
            print(f"  {a} -> {b}  ({where}:{line}: {text})")
    if "--edges" in sys.argv:
        for m in sorted(files):
            print(f"  {m} -> {', '.join(sorted(every.get(m, {})))}")
    if "--check" in sys.argv and circled:
        sys.exit(1)


if __name__ == "__main__":
    main()
