#!/usr/bin/env bash
# Real voices for the tests (issue 49): two people's recordings from Debian's
# Asterisk prompt packages (Allison Smith, en; Carlo, it; CC-BY-SA-3.0), pinned
# by SHA-256 in bench/voices/sources.json, fetched and converted to 16 kHz WAV
# by bench/voices/fetch.sh into target/test-models/voices/src/<speaker>/ (or
# $RECORDER_TEST_MODELS/voices). About 21 MB of downloads, once.
set -euo pipefail
. "$(dirname "$0")/model-cache.sh"
out="$cache/voices"
if [ -s "$out/src/manifest.json" ] && [ -d "$out/src/allison" ] && [ -d "$out/src/carlo" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
  echo "real-voices: needs apt-get and dpkg-deb (Debian/Ubuntu): the real-voice speaker tests cannot run here" >&2
  exit 0
fi
VOICES_OUT="$out" VOICES_SPEAKERS="allison carlo" bench/voices/fetch.sh
echo "real-voices: ready in $out/src"
