#!/usr/bin/env bash
# What telling speakers apart costs during a recording and after it: an hour
# of real voices (one 63 s mix of the dev set, bench/voices/, four people,
# played 57 times) pushed through the service's ChannelSpeakers in 1 s blocks
# as the recorder hands them over, then concluded. Writes a Markdown table.
# usage: bench/speakers_after.sh [OUT.md]   (after bench/voices/ built its mixes)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MODELS="${RECORDER_TEST_MODELS:-$ROOT/target/test-models}"
MIX="$ROOT/bench/out/voices/mix/sys/tune-sys-08.wav"
OUT="${1:-$ROOT/bench/results/speakers-after-$(date +%F).md}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cargo build --release -p recorder-stt --example speakers_after --manifest-path "$ROOT/Cargo.toml"
sox $(for _ in $(seq 57); do echo "$MIX"; done) "$WORK/hour.wav"
{
  echo "# Speakers during and after a recording ($(date +%F), $(nproc) cores)"
  echo
  echo "One channel of dense real speech (\`$(basename "$MIX")\` of the dev set, 57 times), through"
  echo "\`ChannelSpeakers\` with the segmentation model, release build. \"live\" is spent while the"
  echo "meeting is recorded (a worker at nice 10); \"after\" is what the notes job waits for once it ends."
  echo
  echo "| audio min | speakers | live s | after s |"
  echo "|---|---|---|---|"
  "$ROOT/target/release/examples/speakers_after" "$MODELS/speaker-campplus.safetensors" \
    "$MODELS/speaker-segmentation.safetensors" "$MODELS/silero-vad.safetensors" "$WORK/hour.wav"
} > "$OUT"
cat "$OUT"
