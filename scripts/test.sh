#!/usr/bin/env bash
# Every check CI runs: formatting, clippy (while the workspace is built), the
# capture crate checked for macOS and Windows, the OpenAPI fuzz run
# (schemathesis) and the whole test suite (unit, store, egress, tidy, the
# desktop app under Xvfb with a D-Bus session, and integration tests against a
# real `recorder serve`, transcribing with the tiny.en test model), then the
# gateway's end-to-end tests (pytest, scripts/gateway-tests.sh), the no-egress
# proof (scripts/no-egress-tests.sh: a network namespace with only loopback,
# every connect() traced) and the web app's (type check, lint, Playwright in
# Chromium: scripts/ui-tests.sh) and the browser extension's (lint, manifest
# limits, type check, Playwright with the extension loaded:
# scripts/extension-tests.sh), and the Debian package's (scripts/deb-tests.sh:
# built, installed with dpkg, checked, removed). Installs what it needs first,
# including the test model (scripts/test-model.sh, cached).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time, printed as it ends ("ci: setup took 612 s") and again in
# the closing lines, and a test step that does not end in time is stopped
# instead of taking CI's whole limit without a word. The whole run keeps
# within CI_BUDGET_S (CI stops at 5400 s): a test step gets its own limit or
# what is left of the budget, less two minutes for the closing lines, so the
# log's tail always says where the time went, which tests ran long (libtest's
# "has been running for over 60 seconds") and which failed.
budget=${CI_BUDGET_S:-5200}
steps=()
took() {
  local seconds=$((SECONDS - step_start))
  steps+=("$1: $seconds s")
  echo "ci: $1 took $seconds s (${SECONDS} s in all)"
  step_start=$SECONDS
}
step_start=$SECONDS
limited() { # limited SECONDS COMMAND...
  local limit=$1 left=$((budget - SECONDS - 120))
  shift
  [ "$left" -ge "$limit" ] || limit=$left
  if [ "$limit" -lt 60 ]; then
    echo "ci: NOT RUN, out of time (${SECONDS} s of ${budget} s used): $*"
    return 124
  fi
  timeout --kill-after=30 "$limit" "$@"
}
# Clippy lints the workspace while it is built, in one pass: clippy-driver is
# the workspace's compiler (what `cargo clippy` itself sets up, there for a
# `cargo check`), so the dependencies are compiled once, not checked and then
# built. The same variables stay set for every later cargo command of the
# tests, so nothing is built twice; the package build leaves them out. They are
# set before setup.sh, whose model converter (an example of the workspace)
# would otherwise compile the transcription crates once more without them.
clippy_driver="$(rustc --print sysroot)/bin/clippy-driver"
if [ ! -x "$clippy_driver" ]; then
  echo "test: clippy is missing: rustup component add clippy" >&2
  exit 1
fi
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
unlinted=(env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS)
scripts/setup.sh
took setup
# whisper.cpp and llama.cpp are C++ built by CMake in build scripts, once for
# the tests and once for the package (profile `dist`): ccache serves the second
# from the first (Cargo.toml compiles them alike in both profiles).
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=/
fi
cargo fmt --all -- --check
cargo build --workspace --all-targets --locked
took "clippy and build"
# The web app: its type check (svelte-check over the types generated from the
# service's OpenAPI document) and lint.
npm --prefix ui run check
npm --prefix ui run lint
# The browser extension: eslint, the manifest's limits (CONTRACT §10) and a
# type check of its JavaScript against Chrome's API types.
scripts/extension-dev-deps.sh
npm --prefix extension-dev run lint
npm --prefix extension-dev run check
# (Without clippy: the other platforms' code is checked to compile, not linted.)
"${unlinted[@]}" scripts/check-targets.sh
scripts/test-model.sh
SCHEMATHESIS=.venv/bin/schemathesis ST_MAX_TIME="${ST_MAX_TIME:-90}" scripts/schemathesis.sh
took "web app and extension checks, schemathesis"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
# --no-fail-fast: one failing test binary must not hide the ones after it.
limited "${CARGO_TEST_LIMIT_S:-1800}" cargo test --workspace --all-targets --locked --no-fail-fast 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
took "cargo test"
# The gateway end to end: the official MCP client (stdio, Streamable HTTP), our
# early-A2A client and a2a-sdk against a real service and gateway.
limited "${GATEWAY_LIMIT_S:-600}" scripts/gateway-tests.sh 2>&1 | tee -a "$log"
gateway_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$gateway_status
took "gateway tests"
# Nothing leaves the machine: a whole lifecycle in a network namespace with
# only loopback, every connect() of the service and gateway traced.
limited "${EGRESS_LIMIT_S:-600}" scripts/no-egress-tests.sh 2>&1 | tee -a "$log"
egress_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$egress_status
took "no-egress tests"
# The web app in Debian's Chromium against real services (Playwright, axe-core;
# screenshots of every page in target/ui-screenshots/).
limited "${UI_LIMIT_S:-1200}" scripts/ui-tests.sh 2>&1 | tee -a "$log"
ui_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$ui_status
took "UI tests"
# The extension in Chromium against real services, every request logged by a
# proxy (screenshots of the popup in target/extension-screenshots/).
limited "${EXTENSION_LIMIT_S:-900}" scripts/extension-tests.sh 2>&1 | tee -a "$log"
extension_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$extension_status
took "extension tests"
# The Debian package: built (release profile `dist`, its Rust unoptimised:
# `--quick`), installed with dpkg, checked as a person gets it (programs,
# service, man pages, completions, desktop entry, systemd unit, the packaged
# desktop app's window), removed.
limited "${DEB_LIMIT_S:-1500}" "${unlinted[@]}" scripts/deb-tests.sh --quick 2>&1 | tee -a "$log"
deb_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$deb_status
took "package tests"
set -e
# The closing lines: each step's time, the tests that ran long (a hang shows
# there when a limit stopped it), the totals,
# and the failures last, where a CI log's tail shows them.
echo "ci: ${SECONDS} s in all: $(IFS=';'; echo "${steps[*]}")"
grep -E 'has been running for over 60 seconds' "$log" | sed 's/^/slow: /' || true
# One closing line with the totals of every test binary.
# (pytest's summary line, e.g. "40 passed, 1 failed in 90.2s", and Playwright's
# "  12 passed (40.1s)" / "  1 failed" lines are added in.)
grep -E '^test result:|^(=+ )?[0-9]+ (passed|failed|skipped|deselected|errors?)\b.* in [0-9.]+s|^ +[0-9]+ (passed|failed)( \([0-9.]+(ms|s|m|h)\))?$' "$log" | awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^passed[;,]?$/) p += $(i-1); if ($i ~ /^failed[;,]?$/) f += $(i-1) } }
  END { printf "tests: %d passed, %d failed\n", p, f }'
# And which ones failed, last, where a CI log's tail shows them: cargo's
# "test x ... FAILED", pytest's "FAILED file::test", Playwright's "  1) [chromium] › …"
# the package test's "FAIL …" and a step left out of time.
grep -E '^test .* \.\.\. FAILED$|^FAILED |^ +[0-9]+\) .* › |^FAIL |^ci: NOT RUN' "$log" | sort -u | sed 's/^/failed: /' || true
exit "$status"
