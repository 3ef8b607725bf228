#!/usr/bin/env bash
# End-to-end browser tests of the app (ui/e2e, Playwright) against real
# `recorder serve` processes with temporary data folders. Headless; works with
# CI=true and no display. Uses Debian's Chromium (/usr/bin/chromium); never
# downloads a browser. Exit status: Playwright's.
#
# Needs: target/debug/recorder and target/debug/xtask (cargo build), ui/dist
# (npm --prefix ui run build), target/test-models/ggml-tiny.en-q8_0.bin
# (scripts/test-model.sh), target/test-models/speaker-{campplus,segmentation}.safetensors
# (scripts/speaker-model.sh), espeak-ng and sox.
# Extra arguments go to `playwright test` (e.g. tests/pairing.spec.ts, -g name).
# Screenshots: target/ui-screenshots/<page>-<width>-<scheme>.png
set -euo pipefail

cd "$(dirname "$0")/.."

die() {
  echo "ui-tests: $*" >&2
  exit 2
}

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
[[ -x target/debug/recorder ]] || die "target/debug/recorder is missing: run 'cargo build' first"
[[ -x target/debug/xtask ]] || die "target/debug/xtask is missing: run 'cargo build -p xtask' first"
[[ -x "$CHROMIUM_PATH" ]] || die "$CHROMIUM_PATH is missing: install Debian's chromium (apt-get install chromium)"
[[ -f ui/dist/index.html ]] || die "ui/dist/index.html is missing: build the app (npm --prefix ui ci && npm --prefix ui run build)"
[[ -f target/test-models/ggml-tiny.en-q8_0.bin ]] ||
  die "target/test-models/ggml-tiny.en-q8_0.bin is missing: run scripts/test-model.sh"
[[ -f target/test-models/speaker-campplus.safetensors && -f target/test-models/speaker-segmentation.safetensors ]] ||
  die "target/test-models/speaker-{campplus,segmentation}.safetensors are missing: run scripts/speaker-model.sh"
command -v espeak-ng >/dev/null || die "espeak-ng is missing (apt-get install espeak-ng)"
command -v sox >/dev/null || die "sox is missing (apt-get install sox)"

# Never download a browser, in any step.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMIUM_PATH

# npm ci only when node_modules is older than the lockfile (or absent).
stamp=ui/e2e/node_modules/.package-lock.json
if [[ ! -f "$stamp" || ui/e2e/package-lock.json -nt "$stamp" ]]; then
  npm --prefix ui/e2e ci --no-audit --no-fund
fi

status=0
npx --prefix ui/e2e playwright test -c ui/e2e/playwright.config.ts --reporter=list "$@" || status=$?
exit "$status"
