#!/usr/bin/env bash
# The browser extension's cost (issue 14): content-script time per DOM mutation
# batch and CPU on busy 50-person meeting pages with and without the extension,
# and the idle worker's wake-ups per hour. Writes bench/results/extension-<date>.md.
# BENCH_SECONDS=60 for a quick run (default 300 per product).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x target/debug/recorder ]] || cargo build -p recorder-cli
scripts/extension-dev-deps.sh
cd extension-dev
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test -c bench/playwright.config.ts
