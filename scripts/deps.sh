# Sourced by scripts/install.sh and scripts/setup.sh: the Debian/Ubuntu
# packages recorder needs, in one place, each behind the check that says it is
# there already. `run_deps`: what building and running need (the first
# command, scripts/install.sh, installs only these, and `gpu_deps` where
# there is a GPU); `test_deps`: what only the tests need (scripts/setup.sh
# installs all three). Each entry is
# "KIND WHAT PACKAGE...", KIND being `cmd` (a command on PATH), `pc` (a
# pkg-config module), `file` (a path glob that exists) or `py` (a Python
# module). scripts/deps-check.sh checks these lists against what the built
# programs load and run.

run_deps=(
  # The C/C++ toolchain, CMake and libclang: the bundled SQLite, whisper.cpp
  # and llama.cpp; ccache so that a second build of their C++ is quick.
  "cmd cc build-essential"
  "cmd pkg-config pkg-config"
  "cmd c++ g++"
  "cmd cmake cmake"
  "cmd ccache ccache"
  "cmd clang clang"
  "file /usr/lib/llvm-*/lib/libclang*.so* libclang-dev"
  # Fetching the models (pip in a venv of our own) and building the web app.
  "cmd curl curl ca-certificates"
  "cmd python3 python3 python3-venv"
  "py ensurepip python3-venv"
  "cmd npm npm"
  # Importing formats other than WAV.
  "cmd ffmpeg ffmpeg"
  # Audio capture: the PulseAudio, PipeWire and ALSA client libraries.
  "pc libpulse-simple libpulse-dev"
  "pc libpipewire-0.3 libpipewire-0.3-dev libspa-0.2-dev"
  "pc alsa libasound2-dev"
  # The desktop app (Tauri 2): WebKitGTK, the tray, icons and menus, and
  # xdg-utils for recorder:// links.
  "pc webkit2gtk-4.1 libwebkit2gtk-4.1-dev"
  "pc ayatana-appindicator3-0.1 libayatana-appindicator3-dev"
  "pc librsvg-2.0 librsvg2-dev"
  "file /usr/include/xdo.h libxdo-dev"
  "cmd xdg-open xdg-utils"
)

# whisper.cpp's Vulkan backend (transcription on a GPU): the shader compiler,
# the loader, and Mesa's Vulkan drivers for AMD and Intel GPUs. The first
# command installs these only on a machine with a GPU (has_gpu); the test
# command and the Debian package always build with them.
gpu_deps=(
  "cmd glslc glslc"
  "file /usr/include/vulkan/vulkan.h libvulkan-dev"
  "file /usr/share/vulkan/icd.d/*.json mesa-vulkan-drivers"
)

# has_gpu: this machine has a GPU that a driver serves (a DRM render node, or
# NVIDIA's device), or RECORDER_GPU=vulkan says to build for one anyway;
# RECORDER_GPU=none says not to. Linux only.
has_gpu() {
  case "${RECORDER_GPU:-}" in vulkan) return 0 ;; none) return 1 ;; esac
  [ "$(uname)" = Linux ] || return 1
  compgen -G "/dev/dri/renderD*" >/dev/null || [ -e /dev/nvidia0 ]
}

test_deps=(
  # Speech for the transcription tests.
  "cmd espeak-ng espeak-ng"
  "cmd sox sox"
  # A headless PipeWire with pipewire-pulse and pactl/paplay for the capture
  # tests (scripts/sound-server.sh), and a D-Bus session for the desktop's.
  "cmd pipewire pipewire pipewire-bin"
  "cmd wireplumber wireplumber"
  "cmd pipewire-pulse pipewire-pulse"
  "cmd paplay pulseaudio-utils"
  "cmd dbus-daemon dbus-daemon"
  "cmd Xvfb xvfb"
  # The no-egress proof: a network namespace with only loopback, every
  # connect() traced.
  "cmd unshare util-linux"
  "cmd ip iproute2"
  "cmd strace strace"
  # The browser tests drive Debian's Chromium and Firefox ESR; Mesa's software
  # Vulkan device (lavapipe) is what the GPU path is tested on.
  "cmd chromium chromium fonts-dejavu-core"
  "cmd firefox-esr firefox-esr"
  "file /usr/share/vulkan/icd.d/lvp_icd.*.json mesa-vulkan-drivers"
)

# What the test command (scripts/setup.sh) installs: all three lists.
all_deps=("${run_deps[@]}" "${gpu_deps[@]}" "${test_deps[@]}")

# The Python packages scripts/vad_convert.py reads the voice-activity model's
# ONNX with (pinned): scripts/install.sh puts them in .venv, scripts/setup.sh
# with the test tools.
vad_tools=("numpy==2.4.6" "onnx==1.20.1" "safetensors==0.8.0")

# missing_packages ENTRY...: the packages of the entries whose check fails.
missing_packages() {
  local entry kind what packages
  for entry in "$@"; do
    read -r kind what packages <<<"$entry"
    case "$kind" in
      cmd) command -v "$what" >/dev/null 2>&1 && continue ;;
      pc) pkg-config --exists "$what" 2>/dev/null && continue ;;
      file) compgen -G "$what" >/dev/null && continue ;;
      py) python3 -c "import $what" >/dev/null 2>&1 && continue ;;
    esac
    echo "$packages"
  done | tr ' ' '\n' | sort -u
}

# install_packages PACKAGE...: apt-get installs them (or says what to install).
install_packages() {
  [ $# -gt 0 ] || return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "please install: $*" >&2
    return 1
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@"
}
