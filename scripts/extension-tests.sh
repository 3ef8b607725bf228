#!/usr/bin/env bash
# Tests of the browser extension (extension/, loaded unpacked as it is) in
# Debian's Chromium against real `recorder serve` processes, with every request
# the browser makes going through a logging proxy. Headless; never downloads a
# browser. Exit status: Playwright's.
#
# Needs: target/debug/recorder (cargo build), ui/dist (embedded by it),
# target/test-models/ggml-tiny.en-q8_0.bin (scripts/test-model.sh), espeak-ng, sox.
# Extra arguments go to `playwright test` (e.g. tests/detection.spec.ts, -g name).
# Screenshots: target/extension-screenshots/*.png
set -euo pipefail

cd "$(dirname "$0")/.."

die() {
  echo "extension-tests: $*" >&2
  exit 2
}

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
[[ -x target/debug/recorder ]] || die "target/debug/recorder is missing: run 'cargo build' first"
[[ -x "$CHROMIUM_PATH" ]] || die "$CHROMIUM_PATH is missing: install Debian's chromium (apt-get install chromium)"
[[ -f target/test-models/ggml-tiny.en-q8_0.bin ]] ||
  die "target/test-models/ggml-tiny.en-q8_0.bin is missing: run scripts/test-model.sh"
command -v espeak-ng >/dev/null || die "espeak-ng is missing (apt-get install espeak-ng)"
command -v sox >/dev/null || die "sox is missing (apt-get install sox)"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMIUM_PATH

scripts/extension-dev-deps.sh
node extension-dev/scripts/verify.mjs
cd extension-dev
exec npx playwright test --reporter=list "$@"
