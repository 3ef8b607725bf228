# Sourced by the model scripts (test-model.sh, vad-model.sh, speaker-model.sh...): where downloaded
# and converted models are cached ($cache: target/test-models, or
# $RECORDER_TEST_MODELS), the Python to run (.venv's when set up), and
# `check FILE SHA256`, which deletes a download with the wrong checksum.
cd "$(dirname "$0")/.."
cache="${RECORDER_TEST_MODELS:-$PWD/target/test-models}"
mkdir -p "$cache/download"
python=python3
[ -x .venv/bin/python ] && python=.venv/bin/python

check() { # FILE SHA256
  echo "$2  $1" | sha256sum --check --quiet - || { echo "$(basename "$0"): $1 has the wrong checksum" >&2; rm -f "$1"; exit 1; }
}

# converter: the path of the CTranslate2-to-ggml converter: RECORDER_CONVERT
# when set (scripts/install.sh builds it with the programs), else the
# workspace's example, built here.
converter() {
  if [ -n "${RECORDER_CONVERT:-}" ]; then
    echo "$RECORDER_CONVERT"
  else
    cargo build -q --locked --workspace --example convert >&2 || return 1
    echo target/debug/examples/convert
  fi
}
