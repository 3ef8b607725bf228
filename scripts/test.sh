#!/usr/bin/env bash
# Every check CI runs: formatting, clippy, the capture crate checked for macOS
# and Windows, the OpenAPI fuzz run (schemathesis) and
# the whole test suite (unit, store, egress, tidy, the desktop app under Xvfb
# with a D-Bus session, and integration tests against a
# real `recorder serve`, transcribing with the tiny.en test model), then the
# gateway's end-to-end tests (pytest, scripts/gateway-tests.sh), the no-egress
# proof (scripts/no-egress-tests.sh: a network namespace with only loopback,
# every connect() traced) and the web
# app's (type check, lint, Playwright in Chromium: scripts/ui-tests.sh) and the
# browser extension's (lint, manifest limits, type check, Playwright with the
# extension loaded: scripts/extension-tests.sh), and the Debian package's
# (scripts/deb-tests.sh: built, installed with dpkg, checked, removed). Installs
# what it needs first, including the test model (scripts/test-model.sh, cached).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# whisper.cpp and llama.cpp are C++ built by CMake in build scripts, once for
# the tests and once for the package (profile `dist`): ccache serves the second
# from the first (Cargo.toml compiles them alike in both profiles).
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=/
fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo build --workspace --all-targets --locked
# The web app: its type check (svelte-check over the types generated from the
# service's OpenAPI document) and lint.
npm --prefix ui run check
npm --prefix ui run lint
# The browser extension: eslint, the manifest's limits (CONTRACT §10) and a
# type check of its JavaScript against Chrome's API types.
scripts/extension-dev-deps.sh
npm --prefix extension-dev run lint
npm --prefix extension-dev run check
scripts/check-targets.sh
scripts/test-model.sh
SCHEMATHESIS=.venv/bin/schemathesis ST_MAX_TIME="${ST_MAX_TIME:-90}" scripts/schemathesis.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
# --no-fail-fast: one failing test binary must not hide the ones after it.
cargo test --workspace --all-targets --locked --no-fail-fast 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The gateway end to end: the official MCP client (stdio, Streamable HTTP), our
# early-A2A client and a2a-sdk against a real service and gateway.
scripts/gateway-tests.sh 2>&1 | tee -a "$log"
gateway_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$gateway_status
# Nothing leaves the machine: a whole lifecycle in a network namespace with
# only loopback, every connect() of the service and gateway traced.
scripts/no-egress-tests.sh 2>&1 | tee -a "$log"
egress_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$egress_status
# The web app in Debian's Chromium against real services (Playwright, axe-core;
# screenshots of every page in target/ui-screenshots/).
scripts/ui-tests.sh 2>&1 | tee -a "$log"
ui_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$ui_status
# The extension in Chromium against real services, every request logged by a
# proxy (screenshots of the popup in target/extension-screenshots/).
scripts/extension-tests.sh 2>&1 | tee -a "$log"
extension_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$extension_status
# The Debian package: built (release profile `dist`), installed with dpkg,
# checked as a person gets it (programs, service, man pages, completions,
# desktop entry, systemd unit, the packaged desktop app's window), removed.
scripts/deb-tests.sh 2>&1 | tee -a "$log"
deb_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$deb_status
set -e
# One closing line with the totals of every test binary.
# (pytest's summary line, e.g. "40 passed, 1 failed in 90.2s", and Playwright's
# "  12 passed (40.1s)" / "  1 failed" lines are added in.)
grep -E '^test result:|^(=+ )?[0-9]+ (passed|failed|skipped|deselected|errors?)\b.* in [0-9.]+s|^ +[0-9]+ (passed|failed)( \([0-9.]+(ms|s|m|h)\))?$' "$log" | awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^passed[;,]?$/) p += $(i-1); if ($i ~ /^failed[;,]?$/) f += $(i-1) } }
  END { printf "tests: %d passed, %d failed\n", p, f }'
# And which ones failed, last, where a CI log's tail shows them: cargo's
# "test x ... FAILED", pytest's "FAILED file::test", Playwright's "  1) [chromium] › …"
# and the package test's "FAIL …".
grep -E '^test .* \.\.\. FAILED$|^FAILED |^ +[0-9]+\) .* › |^FAIL ' "$log" | sort -u | sed 's/^/failed: /' || true
exit "$status"
