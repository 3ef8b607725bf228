#!/usr/bin/env bash
# Every check CI runs: formatting, clippy, the capture crate checked for macOS
# and Windows, the OpenAPI fuzz run (schemathesis) and
# the whole test suite (unit, store, egress, tidy, and integration tests against a
# real `recorder serve`, transcribing with the tiny.en test model). Installs what
# it needs first, including the test model (scripts/test-model.sh, cached).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo build --workspace --locked
scripts/check-targets.sh
scripts/test-model.sh
SCHEMATHESIS=.venv/bin/schemathesis ST_MAX_TIME="${ST_MAX_TIME:-90}" scripts/schemathesis.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
cargo test --workspace --all-targets --locked 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One closing line with the totals of every test binary.
grep -E '^test result:' "$log" | awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^passed;/) p += $(i-1); if ($i ~ /^failed;/) f += $(i-1) } }
  END { printf "tests: %d passed, %d failed\n", p, f }'
exit "$status"
