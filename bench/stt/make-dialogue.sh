#!/usr/bin/env bash
# Synthesises a two-person phone call with quick turns from
# bench/fixtures/dialogue-script.txt ("A: text" / "B: text", one turn a line):
# one- and two-word turns, interjections, repeated greetings, the material on
# which a pipeline tuned for long read paragraphs loses words.
#
#   dialogue.wav      both speakers in one mono file (an imported call), turns
#                     0.15–0.6 s apart, a faint pink-noise bed;
#   dialogue.txt      the words spoken (the WER reference);
#   dialogue-turns.tsv  turn number, speaker, start and end in ms, text: which
#                     turn a lost word belonged to.
#
# Needs espeak-ng, sox (soxi) and awk. usage: make-dialogue.sh OUT_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
script="$here/../fixtures/dialogue-script.txt"
out="$1"
work="$out/dialogue-parts"
rm -rf "$work"
mkdir -p "$work"
rate=22050
declare -A voice=([A]="en-us+m3" [B]="en-gb+f3")
gaps=(0.25 0.4 0.15 0.6 0.3 0.2 0.5) # seconds between turns, in turn

sox -n -r "$rate" -c 1 -b 16 "$work/lead.wav" trim 0 0.8
parts=("$work/lead.wav")
position_ms=800
: >"$out/dialogue.txt"
: >"$out/dialogue-turns.tsv"
n=0
while IFS= read -r line; do
  [[ "$line" =~ ^([AB]):\ (.+)$ ]] || continue
  speaker="${BASH_REMATCH[1]}" text="${BASH_REMATCH[2]}"
  n=$((n + 1))
  espeak-ng -v "${voice[$speaker]}" -s 165 -w "$work/raw.wav" "$text"
  # espeak pads each utterance with silence: trim it, so the gap is the gap.
  sox "$work/raw.wav" -r "$rate" -c 1 -b 16 "$work/t$n.wav" silence 1 0.01 0.1% reverse silence 1 0.01 0.1% reverse
  length_ms="$(awk -v s="$(soxi -D "$work/t$n.wav")" 'BEGIN { printf "%.0f", s * 1000 }')"
  gap="${gaps[n % ${#gaps[@]}]}"
  sox -n -r "$rate" -c 1 -b 16 "$work/g$n.wav" trim 0 "$gap"
  parts+=("$work/t$n.wav" "$work/g$n.wav")
  printf '%d\t%s\t%d\t%d\t%s\n' "$n" "$speaker" "$position_ms" "$((position_ms + length_ms))" "$text" >>"$out/dialogue-turns.tsv"
  echo "$text" >>"$out/dialogue.txt"
  position_ms="$(awk -v p="$position_ms" -v l="$length_ms" -v g="$gap" 'BEGIN { printf "%.0f", p + l + g * 1000 }')"
done <"$script"
sox "${parts[@]}" "$work/clean.wav"
sox -n -r "$rate" -c 1 -b 16 "$work/noise.wav" synth "$(soxi -D "$work/clean.wav")" pinknoise vol 0.006
sox -m -v 1 "$work/clean.wav" -v 1 "$work/noise.wav" -b 16 "$out/dialogue.wav" norm -3
printf 'make-dialogue: dialogue.wav %.0f s, %d turns\n' "$(soxi -D "$out/dialogue.wav")" "$n" >&2
rm -rf "$work"
