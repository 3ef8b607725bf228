#!/usr/bin/env bash
# Obtains, once, the Silero VAD v6 weights (16 kHz, MIT) from the PyPI wheel
# `silero-vad` 6.2.3, pinned by SHA-256, and caches them in target/test-models
# (or $RECORDER_TEST_MODELS):
#   silero-vad-16k.onnx  the published v6 network (silero_vad_16k_op15.onnx).
#   silero-vad.safetensors  its weights under our names, written by
#       scripts/vad_convert.py; what recorder runs (crates/stt/src/silero.rs).
#       Install it for the service with `recorder models add-vad FILE`.
# (The wheel's own silero_vad_16k.safetensors holds older weights that match
# none of its ONNX models, so we convert the ONNX one, and the tests check our
# implementation against onnxruntime on the very same file.)
# Needs Python with numpy, onnx and safetensors (scripts/setup.sh puts them in .venv).
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

version=6.2.3
wheel_sha=7b7f5436cfcb02fae583a05b512ea96467fd449fe54cb49a5e4f06c51a1e43b8

if [ -s "$cache/silero-vad.safetensors" ] && [ -s "$cache/silero-vad-16k.onnx" ]; then
  exit 0
fi
wheel="$cache/download/silero_vad-$version-py3-none-any.whl"
if [ ! -s "$wheel" ]; then
  "$python" -m pip download -q --disable-pip-version-check --no-deps \
    "silero-vad==$version" -d "$cache/download"
fi
check "$wheel" "$wheel_sha"
"$python" -c 'import sys, zipfile; open(sys.argv[2] + ".part", "wb").write(zipfile.ZipFile(sys.argv[1]).read("silero_vad/data/silero_vad_16k_op15.onnx"))' \
  "$wheel" "$cache/silero-vad-16k.onnx"
mv "$cache/silero-vad-16k.onnx.part" "$cache/silero-vad-16k.onnx"
"$python" scripts/vad_convert.py "$cache/silero-vad-16k.onnx" "$cache/silero-vad.safetensors"
echo "vad-model: ready in $cache"
