#!/usr/bin/env bash
# How the archive's costs grow with its size (issue 20): seeds one data folder
# per size with `xtask seed` (reused while the seeder and its parameters are
# the same), then runs bench/scale.py on them side by side, and writes the
# table to bench/out/scale.md.
#
# Environment:
#   BENCH_SIZES     meeting counts, space-separated   (default "2000 20000")
#   BENCH_SEGMENTS  segments per meeting               (default 900)
#   BENCH_REQUESTS  requests per read                  (default 100)
#   BENCH_BUSY_SECS reads during a recording + import  (default 60; 0 skips)
#   BENCH_V4_DIR    a data folder of schema 4 (made by an earlier build's
#                   `xtask seed`) to time the upgrade on a copy of; optional
#   RECORDER_BIN, XTASK_BIN  use these binaries instead of building release ones
# Seeding 20 000 one-hour meetings takes about 15 minutes and 2.5 GB.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SIZES="${BENCH_SIZES:-2000 20000}"
SEGMENTS="${BENCH_SEGMENTS:-900}"
OUT="$ROOT/bench/out"

if [[ -z "${RECORDER_BIN:-}" || -z "${XTASK_BIN:-}" ]]; then
    cargo build --release -p recorder-cli -p xtask >&2
    RECORDER_BIN="$ROOT/target/release/recorder"
    XTASK_BIN="$ROOT/target/release/xtask"
fi
export RECORDER_BIN

folders=()
for size in $SIZES; do
    dir="$OUT/scale-$size"
    expected="generator=3 meetings=$size segments=$SEGMENTS seed=42 schema=5"
    if [[ -f "$dir/.bench-seeded" && "$(cat "$dir/.bench-seeded")" == "$expected" ]]; then
        echo "[scale.sh] reusing $dir" >&2
    else
        echo "[scale.sh] seeding $dir ($expected)" >&2
        rm -rf "$dir"
        "$XTASK_BIN" seed --data-dir "$dir" --meetings "$size" --segments "$SEGMENTS" --seed 42 >&2
        printf '%s' "$expected" >"$dir/.bench-seeded"
    fi
    folders+=(--data "$dir")
done
v4=()
[[ -n "${BENCH_V4_DIR:-}" ]] && v4=(--v4 "$BENCH_V4_DIR")
exec python3 "$ROOT/bench/scale.py" "${folders[@]}" "${v4[@]}" \
    --requests "${BENCH_REQUESTS:-100}" --busy-seconds "${BENCH_BUSY_SECS:-60}" --out "$OUT/scale.md"
