#!/usr/bin/env bash
# API benchmark of the recorder service.
#
# Builds the release binaries, seeds bench/out/data with `xtask seed` (reused
# when it was seeded with the same parameters), then runs bench/api_bench.py,
# which prints a Markdown report and writes it to bench/out/results.md.
#
# BENCH_SCALE=1 runs bench/scale.sh instead: the archive at 2 000 and 20 000
# meetings side by side (list and search by kind of query, transcripts,
# export, delete, retention, startup, size, reads during a recording and an
# import, the upgrade from schema 4); see that script.
#
# Environment:
#   BENCH_MEETINGS  meetings to seed            (default 2000)
#   BENCH_SEGMENTS  segments per meeting        (default 900)
#   BENCH_SEED      seed of the text generator  (default 42)
#   BENCH_REQUESTS  measured requests per endpoint (default 300)
#   RECORDER_BIN, XTASK_BIN  use these binaries instead of building release ones
#                   (e.g. target/debug/recorder and target/debug/xtask)
#   BENCH_OUT_DIR   output folder               (default bench/out)
# Further knobs of api_bench.py (BENCH_WARMUP, BENCH_STARTUP_RUNS, BENCH_IDLE_SECS,
# BENCH_LOAD_SECS, BENCH_NO_WRK) are passed through.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [[ "${BENCH_SCALE:-}" == "1" ]]; then
    exec "$ROOT/bench/scale.sh"
fi

BENCH_MEETINGS="${BENCH_MEETINGS:-2000}"
BENCH_SEGMENTS="${BENCH_SEGMENTS:-900}"
BENCH_SEED="${BENCH_SEED:-42}"
BENCH_REQUESTS="${BENCH_REQUESTS:-300}"
OUT_DIR="${BENCH_OUT_DIR:-$ROOT/bench/out}"
DATA_DIR="$OUT_DIR/data"
MARKER="$DATA_DIR/.bench-seeded"
# Bump the generator part when the seeder's output changes, so old data is redone.
EXPECTED="generator=3 meetings=$BENCH_MEETINGS segments=$BENCH_SEGMENTS seed=$BENCH_SEED"

say() { echo "[run.sh] $*" >&2; }

# 1. Binaries.
if [[ -n "${RECORDER_BIN:-}" && -n "${XTASK_BIN:-}" ]]; then
    say "using RECORDER_BIN=$RECORDER_BIN XTASK_BIN=$XTASK_BIN (no build)"
else
    say "building release binaries"
    cargo build --release -p recorder-cli -p xtask >&2
    RECORDER_BIN="${RECORDER_BIN:-$ROOT/target/release/recorder}"
    XTASK_BIN="${XTASK_BIN:-$ROOT/target/release/xtask}"
fi
RECORDER_BIN="$(realpath "$RECORDER_BIN")"
XTASK_BIN="$(realpath "$XTASK_BIN")"

# 2. wrk for the health load (optional: api_bench.py falls back to Python).
if ! command -v wrk >/dev/null 2>&1 && [[ "${BENCH_NO_WRK:-}" != "1" ]]; then
    if command -v apt-get >/dev/null 2>&1; then
        sudo=""
        if [[ "$(id -u)" != "0" ]]; then
            if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
                sudo="sudo -n"
            else
                sudo="skip"
            fi
        fi
        if [[ "$sudo" != "skip" ]]; then
            say "installing wrk"
            $sudo apt-get install -y wrk >&2 \
                || { $sudo apt-get update >&2 && $sudo apt-get install -y wrk >&2; } \
                || say "cannot install wrk; the Python load generator will be used"
        else
            say "wrk missing and apt-get needs root; the Python load generator will be used"
        fi
    else
        say "wrk missing; the Python load generator will be used"
    fi
fi

# 3. Seeded data, reused when the marker matches.
if [[ -f "$MARKER" && -f "$DATA_DIR/recorder.db" && "$(cat "$MARKER")" == "$EXPECTED" ]]; then
    say "reusing $DATA_DIR ($EXPECTED)"
else
    say "seeding $DATA_DIR ($EXPECTED)"
    rm -rf "$DATA_DIR"
    mkdir -p "$DATA_DIR"
    "$XTASK_BIN" seed --data-dir "$DATA_DIR" --meetings "$BENCH_MEETINGS" \
        --segments "$BENCH_SEGMENTS" --seed "$BENCH_SEED" >&2
    printf '%s' "$EXPECTED" >"$MARKER"
fi

# 4. The benchmark.
export RECORDER_BIN BENCH_REQUESTS
export BENCH_DATA_DIR="$DATA_DIR"
export BENCH_OUT="$OUT_DIR/results.md"
exec python3 "$ROOT/bench/api_bench.py"
