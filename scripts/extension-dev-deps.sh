#!/usr/bin/env bash
# Installs extension-dev's npm packages (lint, type check, Playwright, zip,
# web-ext for the Firefox build's lint, puppeteer-core to drive Firefox; none
# downloads a browser) when node_modules is older than the lockfile or absent.
# The extension itself (extension/) has no dependencies and no build step.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
stamp=extension-dev/node_modules/.package-lock.json
if [[ ! -f "$stamp" || extension-dev/package-lock.json -nt "$stamp" ]]; then
  npm --prefix extension-dev ci --no-audit --no-fund
fi
