#!/usr/bin/env bash
# The app's speed (bench/ui.mjs): builds release binaries and the app, seeds
# BENCH_MEETINGS one-hour meetings of BENCH_SEGMENTS segments (default 2000 ×
# 900, reused when seeded alike), starts `recorder serve` on them and measures
# paints, sizes and memory in Debian's Chromium. Writes bench/out/ui.md.
#
# Environment: BENCH_MEETINGS, BENCH_SEGMENTS, BENCH_RUNS (default 5),
#   RECORDER_BIN / XTASK_BIN (skip the release build), CHROMIUM_PATH (default /usr/bin/chromium).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MEETINGS="${BENCH_MEETINGS:-2000}"
SEGMENTS="${BENCH_SEGMENTS:-900}"
OUT_DIR="$ROOT/bench/out"
DATA="$OUT_DIR/ui-data"
MARKER="$DATA/.bench-seeded"
EXPECTED="meetings=$MEETINGS segments=$SEGMENTS"

[ -f ui/dist/index.html ] || npm --prefix ui run build
[ -d ui/e2e/node_modules ] || npm --prefix ui/e2e ci --no-audit --no-fund
if [[ -z "${RECORDER_BIN:-}" || -z "${XTASK_BIN:-}" ]]; then
  cargo build --release -p recorder-cli -p xtask >&2
fi
RECORDER_BIN="${RECORDER_BIN:-$ROOT/target/release/recorder}"
XTASK_BIN="${XTASK_BIN:-$ROOT/target/release/xtask}"

if [ "$(cat "$MARKER" 2>/dev/null)" != "$EXPECTED" ]; then
  rm -rf "$DATA"
  mkdir -p "$DATA"
  "$XTASK_BIN" seed --data-dir "$DATA" --meetings "$MEETINGS" --segments "$SEGMENTS" >&2
  echo "$EXPECTED" >"$MARKER"
fi

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$RECORDER_BIN" serve --data-dir "$DATA" --port "$PORT" >"$OUT_DIR/ui-service.log" 2>&1 &
SERVICE=$!
trap 'kill "$SERVICE" 2>/dev/null; wait "$SERVICE" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/" && break
  sleep 0.1
done
BENCH_BASE="http://127.0.0.1:$PORT" BENCH_UI_TOKEN="$(cat "$DATA/ui_token")" \
  BENCH_OUT="$OUT_DIR/ui.md" node bench/ui.mjs
