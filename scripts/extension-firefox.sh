#!/usr/bin/env bash
# The extension's Firefox build: extension/'s files with
# extension-firefox/manifest.json, assembled into target/extension-firefox/
# (the folder to load in about:debugging, or to zip for addons.mozilla.org with
# `npm --prefix extension-dev run package`), linted with `web-ext lint`
# (Mozilla's addons-linter; errors and warnings fail, but for the few listed in
# extension-dev/scripts/firefox-lint.mjs), then tested in Debian's Firefox ESR
# driven by Puppeteer over WebDriver BiDi (extension-dev/tests-firefox/)
# against a real `recorder serve`. Headless; never downloads a browser.
#
#   scripts/extension-firefox.sh [--no-tests] [playwright test arguments]
#
# Needs for the tests: target/debug/recorder (cargo build), ui/dist,
# target/test-models/ggml-tiny.en-q8_0.bin (scripts/test-model.sh), espeak-ng,
# sox, openssl and firefox-esr (apt-get install firefox-esr).
# Screenshots: target/extension-screenshots/firefox-*.png
set -euo pipefail

cd "$(dirname "$0")/.."

die() {
  echo "extension-firefox: $*" >&2
  exit 2
}

tests=1
if [[ "${1:-}" == "--no-tests" ]]; then
  tests=0
  shift
fi

scripts/extension-dev-deps.sh
node extension-dev/scripts/firefox.mjs
node extension-dev/scripts/firefox-lint.mjs
[[ $tests -eq 1 ]] || exit 0

FIREFOX_PATH="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
[[ -x "$FIREFOX_PATH" ]] || die "$FIREFOX_PATH is missing: install Debian's firefox-esr (apt-get install firefox-esr)"
[[ -x target/debug/recorder ]] || die "target/debug/recorder is missing: run 'cargo build' first"
[[ -f target/test-models/ggml-tiny.en-q8_0.bin ]] ||
  die "target/test-models/ggml-tiny.en-q8_0.bin is missing: run scripts/test-model.sh"
command -v espeak-ng >/dev/null || die "espeak-ng is missing (apt-get install espeak-ng)"
command -v sox >/dev/null || die "sox is missing (apt-get install sox)"
command -v openssl >/dev/null || die "openssl is missing (apt-get install openssl)"
export FIREFOX_PATH PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

cd extension-dev
exec npx playwright test -c playwright.firefox.config.ts --reporter=list "$@"
