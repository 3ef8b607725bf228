#!/usr/bin/env bash
# Synthesises the two test recordings of the STT benchmark from
# bench/fixtures/meeting-script.txt (paragraphs separated by blank lines):
#
#   speech.wav   every paragraph, one speaker per paragraph (four espeak-ng
#                voices in turn), 0.7 s between paragraphs: ~10 min of talk.
#   silence.wav  the first paragraphs until ~6 min of talk, with equal pauses
#                between and around them so that ~40 % of the file is silence.
#
# Both get a faint pink-noise bed (about -60 dBFS, a quiet room) so the pauses
# are not digital zeros. 16-bit mono at espeak's 22 050 Hz; both engines
# resample to 16 kHz themselves. Next to each WAV, NAME.txt holds the words
# spoken (the WER reference).
#
# usage: make-audio.sh OUT_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
script="$here/../fixtures/meeting-script.txt"
out="$1"
work="$out/parts"
rm -rf "$work"
mkdir -p "$work"

# Speaker voices (espeak-ng voice+variant, speed in its words per minute),
# taken in turn per paragraph.
voices=("en-us+f3 138" "en-gb 140" "en-us+m3 134" "en-gb-x-rp+f2 138")
rate=22050
speech_target_s=360 # talk in silence.wav
silence_share=0.40  # share of silence.wav that is pause

# One WAV and one text file per paragraph.
awk -v dir="$work" 'BEGIN { RS = "" } { f = sprintf("%s/p%02d.txt", dir, NR); print > f; close(f) }' "$script"
i=0
for text in "$work"/p*.txt; do
  read -r voice speed <<<"${voices[i % ${#voices[@]}]}"
  espeak-ng -v "$voice" -s "$speed" -f "$text" -w "${text%.txt}.raw.wav"
  # Same format for every part, so sox can concatenate them.
  sox "${text%.txt}.raw.wav" -r "$rate" -c 1 -b 16 "${text%.txt}.wav"
  rm "${text%.txt}.raw.wav"
  i=$((i + 1))
done

gap() { sox -n -r "$rate" -c 1 -b 16 "$2" trim 0 "$1"; } # SECONDS OUT
noise_bed() { # IN OUT: mixes a faint pink noise under IN
  local length
  length="$(soxi -D "$1")"
  sox -n -r "$rate" -c 1 -b 16 "$work/noise.wav" synth "$length" pinknoise vol 0.006
  sox -m -v 1 "$1" -v 1 "$work/noise.wav" -b 16 "$2" norm -3
}

# speech.wav: all paragraphs.
gap 0.7 "$work/gap-short.wav"
parts=()
for wav in "$work"/p*.wav; do parts+=("$wav" "$work/gap-short.wav"); done
sox "${parts[@]}" "$work/speech-clean.wav"
noise_bed "$work/speech-clean.wav" "$out/speech.wav"
cat "$work"/p*.txt >"$out/speech.txt"

# silence.wav: paragraphs until speech_target_s, with pauses before, between
# and after them summing to silence_share of the total.
chosen=()
talk=0
for wav in "$work"/p*.wav; do
  chosen+=("$wav")
  talk="$(echo "$talk + $(soxi -D "$wav")" | bc -l)"
  if (($(echo "$talk >= $speech_target_s" | bc -l))); then break; fi
done
pause_total="$(echo "$talk * $silence_share / (1 - $silence_share)" | bc -l)"
pause="$(echo "$pause_total / (${#chosen[@]} + 1)" | bc -l)"
gap "$pause" "$work/gap-long.wav"
parts=("$work/gap-long.wav")
: >"$out/silence.txt"
for wav in "${chosen[@]}"; do
  parts+=("$wav" "$work/gap-long.wav")
  cat "${wav%.wav}.txt" >>"$out/silence.txt"
done
sox "${parts[@]}" "$work/silence-clean.wav"
noise_bed "$work/silence-clean.wav" "$out/silence.wav"

printf 'make-audio: speech.wav %.0f s; silence.wav %.0f s (%d paragraphs, %.0f s talk, pauses of %.1f s)\n' \
  "$(soxi -D "$out/speech.wav")" "$(soxi -D "$out/silence.wav")" "${#chosen[@]}" "$talk" "$pause" >&2
rm -rf "$work"
