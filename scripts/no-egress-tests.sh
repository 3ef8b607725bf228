#!/usr/bin/env bash
# The no-egress proof (tests/egress, pytest): a whole lifecycle inside a new
# network namespace that has only loopback (unshare --net; needs root, as in
# CI, else a user namespace), with every `recorder` and `recorder-gateway`
# process under `strace -f -e trace=connect`. Needs the built binaries, the
# test model, espeak-ng, sox, strace, iproute2 and the .venv of scripts/setup.sh.
# Usage: scripts/no-egress-tests.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
export RECORDER_BIN="${RECORDER_BIN:-target/debug/recorder}"
export GATEWAY_BIN="${GATEWAY_BIN:-target/debug/recorder-gateway}"
export XTASK_BIN="${XTASK_BIN:-target/debug/xtask}"
export RECORDER_MODEL_PATH="${RECORDER_MODEL_PATH:-target/test-models/ggml-tiny.en-q8_0.bin}"
isolate=(unshare --net)
[ "$(id -u)" -eq 0 ] || isolate=(unshare --net --map-root-user)
exec "${isolate[@]}" -- sh -c 'ip link set lo up && exec .venv/bin/pytest tests/egress -q -p no:cacheprovider "$@"' sh "$@"
