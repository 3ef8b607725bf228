#!/usr/bin/env bash
# End-to-end tests of recorder-gateway (tests/gateway, pytest): real `recorder serve`
# instances on temporary data folders (seeded by xtask, one meeting imported from
# espeak-ng speech and transcribed with the tiny.en test model, Free and Pro plans,
# managed policy, settings), with the gateway driven as MCP over stdio and
# Streamable HTTP (official MCP SDK, and the official MCP conformance suite from
# tests/mcp-conformance), as an early-A2A agent (our own client), an A2A v0.3 agent
# (a2a-sdk 0.3) and an A2A 1.0 agent (a2a-sdk 1.x, run from .venv-a2a1). Needs the
# built binaries, the test model (scripts/test-model.sh), espeak-ng, sox, and the
# venvs and npm packages of scripts/setup.sh.
# Usage: scripts/gateway-tests.sh [pytest args, e.g. -k a2a -x]
# Env: RECORDER_BIN, GATEWAY_BIN, XTASK_BIN, RECORDER_MODEL_PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
export RECORDER_BIN="${RECORDER_BIN:-target/debug/recorder}"
export GATEWAY_BIN="${GATEWAY_BIN:-target/debug/recorder-gateway}"
export XTASK_BIN="${XTASK_BIN:-target/debug/xtask}"
export RECORDER_MODEL_PATH="${RECORDER_MODEL_PATH:-target/test-models/ggml-tiny.en-q8_0.bin}"
exec .venv/bin/pytest tests/gateway -q -p no:cacheprovider "$@"
