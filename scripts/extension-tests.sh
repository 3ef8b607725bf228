#!/usr/bin/env bash
# Tests of the browser extension against real `recorder serve` processes, with
# every request the browser makes going through a logging proxy. Headless;
# never downloads a browser.
#   1. Chromium: extension/ loaded unpacked as it is, in Debian's Chromium
#      (Playwright, extension-dev/tests/).
#   2. Firefox: the Firefox build assembled and linted with `web-ext lint`,
#      then in Debian's Firefox ESR driven by Puppeteer over WebDriver BiDi
#      (scripts/extension-firefox.sh, extension-dev/tests-firefox/).
# Each prints Playwright's summary ("  N passed (Xs)"). Exit status: non-zero
# when either suite fails.
#
# Needs: target/debug/recorder (cargo build), ui/dist (embedded by it),
# target/test-models/ggml-tiny.en-q8_0.bin (scripts/test-model.sh), espeak-ng,
# sox, openssl, chromium and firefox-esr.
# EXTENSION_BROWSERS picks the suites (default "chromium firefox"); extra
# arguments go to each `playwright test` (e.g.
# EXTENSION_BROWSERS=chromium scripts/extension-tests.sh tests/detection.spec.ts).
# Screenshots: target/extension-screenshots/*.png (Firefox's: firefox-*.png)
set -euo pipefail

cd "$(dirname "$0")/.."

die() {
  echo "extension-tests: $*" >&2
  exit 2
}

browsers="${EXTENSION_BROWSERS:-chromium firefox}"
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
FIREFOX_PATH="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
[[ -x target/debug/recorder ]] || die "target/debug/recorder is missing: run 'cargo build' first"
if [[ " $browsers " == *" chromium "* ]]; then
  [[ -x "$CHROMIUM_PATH" ]] || die "$CHROMIUM_PATH is missing: install Debian's chromium (apt-get install chromium)"
fi
if [[ " $browsers " == *" firefox "* ]]; then
  [[ -x "$FIREFOX_PATH" ]] || die "$FIREFOX_PATH is missing: install Debian's firefox-esr (apt-get install firefox-esr)"
fi
[[ -f target/test-models/ggml-tiny.en-q8_0.bin ]] ||
  die "target/test-models/ggml-tiny.en-q8_0.bin is missing: run scripts/test-model.sh"
command -v espeak-ng >/dev/null || die "espeak-ng is missing (apt-get install espeak-ng)"
command -v sox >/dev/null || die "sox is missing (apt-get install sox)"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMIUM_PATH FIREFOX_PATH

scripts/extension-dev-deps.sh
node extension-dev/scripts/verify.mjs

status=0
if [[ " $browsers " == *" chromium "* ]]; then
  echo "extension-tests: Chromium ($CHROMIUM_PATH)"
  (cd extension-dev && npx playwright test --reporter=list "$@") || status=$?
fi
if [[ " $browsers " == *" firefox "* ]]; then
  echo "extension-tests: Firefox ($FIREFOX_PATH)"
  started=$SECONDS
  firefox_status=0
  scripts/extension-firefox.sh "$@" || firefox_status=$?
  echo "extension-tests: the Firefox build, its lint and suite took $((SECONDS - started)) s"
  [[ $status -ne 0 ]] || status=$firefox_status
fi
exit "$status"
