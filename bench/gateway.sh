#!/usr/bin/env bash
# Gateway overhead: builds release binaries (recorder, recorder-gateway, xtask),
# then bench/gateway.py asks the same reads directly, over MCP (stdio, Streamable
# HTTP) and over A2A, and prints a Markdown table (bench/results/gateway-DATE.md).
# Usage: bench/gateway.sh [--meetings N] [--segments N] [--requests N]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cargo build --release --locked -p recorder-cli -p recorder-gateway -p xtask
.venv/bin/python bench/gateway.py --bin-dir target/release "$@"
