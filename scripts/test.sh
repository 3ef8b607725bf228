#!/usr/bin/env bash
# Every check CI runs: formatting, clippy, the OpenAPI fuzz run (schemathesis) and
# the whole test suite (unit, store, egress, tidy, and integration tests against a
# real `recorder serve`). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo build --workspace --locked
SCHEMATHESIS=.venv/bin/schemathesis ST_MAX_TIME="${ST_MAX_TIME:-90}" scripts/schemathesis.sh
cargo test --workspace --locked
