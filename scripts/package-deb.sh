#!/usr/bin/env bash
# Builds the Debian package target/debian/recorder_<version>_<arch>.deb with
# `recorder`, `recorder-gateway`, `recorder-desktop` and `recorder-llm` (the
# notes model inside, llama.cpp in a process of its own) (profile `dist`:
# optimised, stripped, no debug info), the desktop entry (which also handles
# recorder:// links), the icons, the systemd user unit `recorder.service`, man
# pages and bash/zsh/fish completions (generated from the programs' clap
# definitions). Dependencies on shared libraries come from dpkg-shlibdeps.
# Needs what scripts/setup.sh installs, plus dpkg-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dpkg-shlibdeps >/dev/null 2>&1 || {
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -q --no-install-recommends dpkg-dev
}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
arch=$(dpkg --print-architecture)
# --quick (scripts/deb-tests.sh in CI): the same package, its Rust left
# unoptimised (profile `dist` at opt-level 0, so debug assertions stay off
# and release behaviour is what is checked). It is for checking the package,
# not for shipping. The C++ is still compiled at -O3, so ccache serves it from
# the test build. That halves the second build that CI would otherwise spend
# on optimising.
quick=()
if [ "${1:-}" = "--quick" ]; then
  quick=(--config 'profile.dist.opt-level=0'
    --config 'profile.dist.package."whisper-rs-sys".opt-level=3'
    --config 'profile.dist.package."llama-cpp-sys-2".opt-level=3')
fi
npm --prefix ui run build >/dev/null
# recorder-stt is named for its `vulkan` feature: the package transcribes on
# a GPU where there is one.
cargo build --locked --profile dist "${quick[@]}" -p recorder-cli -p recorder-gateway -p recorder-desktop \
  -p recorder-llm-worker -p recorder-stt --features recorder-stt/vulkan --bins
bin=target/dist
root=target/debian/recorder_${version}_${arch}
rm -rf "$root" && mkdir -p "$root/DEBIAN"

. scripts/layout.sh
lay_out "$bin" "$root/usr"
install -D -m 644 crates/desktop/linux/recorder-desktop.desktop "$root/usr/share/applications/recorder-desktop.desktop"
install -D -m 644 packaging/recorder.service "$root/usr/lib/systemd/user/recorder.service"
install -D -m 644 /dev/stdin "$root/usr/share/doc/recorder/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: recorder
Files: *
License: MIT
COPYRIGHT

# Shared-library dependencies, as Debian's own packages compute them.
work=$(mktemp -d)
printf 'Source: recorder\n\nPackage: recorder\nArchitecture: any\n' >"$work/control"
mkdir -p "$work/debian" && mv "$work/control" "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e"$OLDPWD/$root/usr/bin/recorder" \
  -e"$OLDPWD/$root/usr/bin/recorder-gateway" -e"$OLDPWD/$root/usr/bin/recorder-desktop" \
  -e"$OLDPWD/$root/usr/bin/recorder-llm" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
rm -rf "$work"
size=$(du -sk "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: recorder
Version: $version
Architecture: $arch
Maintainer: recorder developers <recorder@localhost>
Installed-Size: $size
Depends: $depends
Recommends: pipewire-pulse | pulseaudio, ffmpeg, xdg-utils, mesa-vulkan-drivers
Section: sound
Priority: optional
Description: local-first meeting recorder
 Records a call (your microphone and the other side, as two channels),
 transcribes it on this computer, writes notes and action items, and keeps
 every byte here. recorder-desktop is the app (window and tray icon);
 recorder serve runs the service alone (systemctl --user enable --now
 recorder); recorder-gateway lets AI agents in over MCP and A2A.
 Transcription uses a GPU (Intel, AMD or NVIDIA, through Vulkan: Mesa's
 drivers or the GPU vendor's) where there is one, else the CPU.
CONTROL
install -m 755 packaging/debian/postinst packaging/debian/postrm "$root/DEBIAN/"
dpkg-deb --root-owner-group -Zxz --build "$root" "$root.deb" >/dev/null
echo "package-deb: $root.deb ($(du -h "$root.deb" | cut -f1))"
