#!/usr/bin/env bash
# Checks that the capture crate (Core Audio on macOS, WASAPI on Windows, both
# through cpal) compiles for those platforms: `cargo check --target`, with the
# standard library of each target added through rustup. Nothing can run them
# here; see ARCHITECTURE.md for what was tried.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(aarch64-apple-darwin x86_64-pc-windows-msvc)
if ! command -v rustup >/dev/null 2>&1; then
  echo "check-targets: rustup is missing, so the macOS and Windows builds were NOT checked" >&2
  exit 1
fi
for target in "${targets[@]}"; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  cargo check --locked -p recorder-capture -p recorder-credentials --target "$target"
done
echo "check-targets: recorder-capture and recorder-credentials compile for ${targets[*]}"
