#!/usr/bin/env python3
"""Diarization on generated meetings (issue 18): 3-5
espeak-ng voices CAM++ tells apart take turns of 2-20 s, sometimes talking
over each other by up to 0.5 s; the truth is written by the generator. Runs
`target/release/examples/diarize` (the service's own path) on each meeting and reports the diarization
error rate (DER, 10 ms frames, 0.25 s collar, best one-to-one speaker map),
whether the speaker count is right, and the time against the meeting's length.
Usage: bench/diarization.py SPEAKER_MODEL [--vad SILERO [--segmentation SEG]] [--meetings N] [--seed S]
(cargo build --release -p recorder-stt --example diarize first). Seed 7 is
the set the clustering was tuned on; other seeds are held out."""
import argparse, itertools, os, random, subprocess, sys, tempfile, time, wave
import numpy as np

from people import VOICES
SENTENCES = [
    "Let us look at the budget for the next quarter.",
    "I think we should ship the release on Friday.",
    "Karen, can you review the security document this week?",
    "The customer asked for a demo of the new reports.",
    "We still have two open bugs in the import flow.",
    "Could you send me the slides after this call?",
    "Marketing wants the launch moved to the second week of March.",
    "I will update the roadmap and share it with everyone tomorrow.",
    "The servers were slow again last night around midnight.",
    "Please add the action items to the shared document.",
    "Our hiring plan needs one more engineer for the mobile team.",
    "That sounds good to me, let us go with the first option.",
]
RATE = 16000
ROOT = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(ROOT, "../target/release/examples/diarize")


def speak(person, text, folder):
    (voice, pitch), raw, out = person, os.path.join(folder, "raw.wav"), os.path.join(folder, "turn.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-p", str(pitch), "-s", "160", "-w", raw, text],
                   check=True)
    subprocess.run(["sox", raw, "-r", str(RATE), "-c", "1", "-b", "16", out], check=True)
    with wave.open(out) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768
    loud = np.nonzero(np.abs(audio) > 0.01)[0]
    return audio[loud[0]:loud[-1] + 1] if len(loud) else audio


def meeting(rng, folder):
    voices = rng.sample(VOICES, rng.randint(3, 5))
    track, truth, at, last = np.zeros(RATE * 400, np.float32), [], 0, None
    for _ in range(rng.randint(12, 18)):
        speaker = rng.choice([v for v in voices if v != last])
        text = " ".join(rng.sample(SENTENCES, rng.randint(1, 3)))
        audio = speak(speaker, text, folder)
        start = max(0, at + int(RATE * rng.choice([-0.5, 0.3, 0.5, 0.8, 1.0])))
        track[start:start + len(audio)] += audio
        truth.append((start / RATE, (start + len(audio)) / RATE, voices.index(speaker)))
        at, last = start + len(audio), speaker
    track = np.clip(track[:at + RATE], -1, 1)
    path = os.path.join(folder, "meeting.wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes((track * 32767).astype(np.int16).tobytes())
    return path, truth, len(set(t[2] for t in truth)), len(track) / RATE, voices


def der(truth, hyp, length, collar=0.25):
    frames = int(length * 100) + 1
    ref = np.zeros((frames, 6), bool)
    excluded = np.zeros(frames, bool)
    for s, e, k in truth:
        ref[int(s * 100):int(e * 100), k] = True
        for b in (s, e):
            excluded[max(0, int((b - collar) * 100)):int((b + collar) * 100)] = True
    labels = sorted({k for _, _, k in hyp})
    out = np.zeros((frames, max(len(labels), 1)), bool)
    for s, e, k in hyp:
        out[int(s * 100):int(e * 100), labels.index(k)] = True
    ref, out = ref[~excluded], out[~excluded]
    total = ref.sum()
    width = max(ref.shape[1], out.shape[1])
    ref = np.pad(ref, ((0, 0), (0, width - ref.shape[1])))
    overlap = np.array([[(out[:, h] & ref[:, r]).sum() for r in range(width)] for h in range(out.shape[1])])
    # Best one-to-one map: brute force when small, else greedy by overlap.
    if out.shape[1] <= 6 and width <= 7:
        maps = itertools.permutations(range(width), out.shape[1])
        mapping = max(maps, key=lambda m: sum(overlap[h, r] for h, r in enumerate(m)))
    else:
        mapping, used = [None] * out.shape[1], set()
        for h, r in sorted(np.ndindex(*overlap.shape), key=lambda hr: -overlap[hr]):
            if mapping[h] is None and r not in used:
                mapping[h] = r; used.add(r)
    mapped = np.zeros_like(ref)
    for h, r in enumerate(mapping):
        mapped[:, r] |= out[:, h]
    correct = (ref & mapped).sum(1)
    best = (np.maximum(ref.sum(1), mapped.sum(1)) - correct).sum()
    return best / total


def who_is_who(truth, hyp, people):
    """Each found label's person: the one it overlaps most (10 ms frames)."""
    out = {}
    for label in {k for *_, k in hyp}:
        talk = {}
        for hs, he, hk in hyp:
            if hk != label:
                continue
            for ts, te, tk in truth:
                talk[tk] = talk.get(tk, 0) + max(0.0, min(he, te) - max(hs, ts))
        out[label] = people[max(talk, key=talk.get)][0] + "/" + str(people[max(talk, key=talk.get)][1])
    return out


def recognition(voices, threshold):
    """Voices of one person in two meetings against two people's, at the
    service's threshold: how often a remembered voice would be recognised,
    and how often it would name someone else."""
    same, other = [], []
    for (m1, p1, v1), (m2, p2, v2) in itertools.combinations(voices, 2):
        if m1 == m2:
            continue
        cos = float(v1 @ v2 / np.linalg.norm(v1) / np.linalg.norm(v2))
        (same if p1 == p2 else other).append(cos)
    print(f"\nrecognition at {threshold}: same person in two meetings {len(same)} pairs, "
          f"cosine min {min(same):.3f} median {np.median(same):.3f}, recognised "
          f"{sum(c >= threshold for c in same)}/{len(same)}; two people {len(other)} pairs, "
          f"cosine max {max(other):.3f} median {np.median(other):.3f}, taken for each other "
          f"{sum(c >= threshold for c in other)}/{len(other)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--meetings", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--vad", help="Silero weights (else the energy gate)")
    parser.add_argument("--segmentation", help="pyannote segmentation-3.0 weights: pyannote 3.1's "
                        "recipe instead of 1.5 s windows (needs --vad)")
    parser.add_argument("--recognised", type=float, default=0.88,
                        help="the service's RECOGNISED threshold (pipeline/speakers.rs)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows, voices = [], []
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.meetings):
            path, truth, count, length, people = meeting(rng, folder)
            began = time.monotonic()
            out = subprocess.run([BIN, args.model, path] + ([args.vad] if args.vad else [])
                                 + ([args.segmentation] if args.segmentation else []), check=True, capture_output=True,
                                 text=True).stdout
            took = time.monotonic() - began
            lines = [l.split() for l in out.splitlines()]
            hyp = [(float(a), float(b), int(k)) for a, b, k in (l for l in lines if l[0] != "voice")]
            found = len({k for *_, k in hyp})
            rows.append((i, length, count, found, der(truth, hyp, length), took / length))
            for label, person in who_is_who(truth, hyp, people).items():
                voice = next(np.array(l[2:], float) for l in lines if l[0] == "voice" and int(l[1]) == label)
                voices.append((i, person, voice))
    gate = "Silero" if args.vad else "energy gate"
    print(f"seed {args.seed}, {args.meetings} meetings, {gate}, {os.cpu_count()} cores\n")
    print("| meeting | length s | speakers | found | DER | time / length |")
    print("|---|---|---|---|---|---|")
    for i, length, count, found, d, rtf in rows:
        print(f"| {i} | {length:.0f} | {count} | {found} | {d * 100:.1f} % | {rtf:.3f} |")
    print(f"\nmean DER {np.mean([r[4] for r in rows]) * 100:.1f} %, "
          f"speaker count right {sum(r[2] == r[3] for r in rows)}/{len(rows)}, "
          f"time {np.mean([r[5] for r in rows]):.3f} x length")
    recognition(voices, args.recognised)


if __name__ == "__main__":
    sys.exit(main())
