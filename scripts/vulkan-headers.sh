#!/usr/bin/env bash
# The Vulkan headers whisper.cpp's GPU backend is built against, in
# target/vulkan-sdk (which .cargo/config.toml names as VULKAN_SDK for the
# build scripts). Debian 12's libvulkan-dev (1.3.239) predates the
# VK_EXT_layer_settings types ggml-vulkan uses, so the headers come from
# Debian 13's libvulkan-dev, pinned by SHA-256, unpacked here and not
# installed: the program still links and runs against the system's loader
# (libvulkan1), which resolves every Vulkan call at run time. On a system
# whose own headers are new enough (Debian 13, Ubuntu 24.04) the same
# headers are used either way. Also links lib/libvulkan.so to the loader and
# checks that glslc (the shader compiler) is there. Linux only.
set -euo pipefail
cd "$(dirname "$0")/.."
SDK="${VULKAN_SDK_DIR:-target/vulkan-sdk}"
VERSION=1.4.309.0-1
SHA256=8d329d465e16168afff58b1bd0dd6db46aac2cc3f56054a481b25a04e90b345a
URL="https://deb.debian.org/debian/pool/main/v/vulkan-loader/libvulkan-dev_${VERSION}_amd64.deb"

[ "$(uname -s)" = Linux ] || exit 0
command -v glslc >/dev/null || { echo "vulkan-headers.sh: glslc is missing (apt-get install glslc)" >&2; exit 1; }
loader=$(ls /usr/lib/*-linux-gnu/libvulkan.so.1 /usr/lib64/libvulkan.so.1 2>/dev/null | head -1 || true)
[ -n "$loader" ] || { echo "vulkan-headers.sh: the Vulkan loader is missing (apt-get install libvulkan1)" >&2; exit 1; }
if [ "$(cat "$SDK/.version" 2>/dev/null)" = "$VERSION" ] && [ -e "$SDK/lib/libvulkan.so" ]; then
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -fsSL --retry 3 -o "$work/headers.deb" "$URL" || {
  echo "vulkan-headers.sh: cannot download $URL" >&2; exit 1; }
echo "$SHA256  $work/headers.deb" | sha256sum -c --quiet - || {
  echo "vulkan-headers.sh: $URL is not the pinned file" >&2; exit 1; }
dpkg-deb -x "$work/headers.deb" "$work/unpacked"
rm -rf "$SDK"
mkdir -p "$SDK/lib"
cp -r "$work/unpacked/usr/include" "$SDK/include"
ln -s "$loader" "$SDK/lib/libvulkan.so"
echo "$VERSION" >"$SDK/.version"
echo "vulkan-headers.sh: Vulkan headers $VERSION in $SDK" >&2
