#!/usr/bin/env bash
# Checks that the capture crate (Core Audio on macOS, WASAPI on Windows, both
# through cpal), the credential store and the desktop app's shell (Tauri's
# macOS and Windows backends, tray, notifications, deep links, autostart)
# compile for those platforms: `cargo check --target`, with the standard
# library of each target added through rustup. The shell is checked without
# its in-process service (`--no-default-features`): whisper.cpp and ring are
# C and need each platform's SDK. objc2's exception helper is Objective-C
# without headers, which clang builds for Apple targets. Nothing can run them
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
  CC_aarch64_apple_darwin=clang cargo check --locked -p recorder-desktop --no-default-features --target "$target"
done
echo "check-targets: recorder-capture, recorder-credentials and recorder-desktop (shell) compile for ${targets[*]}"
