"""Diarization error rate from RTTMs, as NIST md-eval and pyannote.metrics
count it: 10 ms frames, a collar (default 0.25 s) either side of every
reference boundary left out, overlapped speech scored (a frame with two
people needs two labels), the best one-to-one map of labels. Returns the
missed speech, false alarm and speaker confusion apart, as shares of the
scored reference speech. numpy only."""
import itertools

import numpy as np

STEP = 0.01


def read_rttm(path):
    """[(start, end, speaker)] from an RTTM file."""
    turns = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 8 and parts[0] == "SPEAKER":
                start, length = float(parts[3]), float(parts[4])
                turns.append((start, start + length, parts[7]))
    return turns


def write_rttm(path, name, turns):
    with open(path, "w") as f:
        for start, end, speaker in turns:
            f.write(f"SPEAKER {name} 1 {start:.3f} {end - start:.3f} <NA> <NA> {speaker} <NA> <NA>\n")


def _grid(turns, labels, frames):
    grid = np.zeros((frames, max(len(labels), 1)), bool)
    for start, end, speaker in turns:
        grid[int(round(start / STEP)):int(round(end / STEP)), labels.index(speaker)] = True
    return grid


def _best_map(overlap):
    """hyp index -> ref index maximising matched frames (brute force when
    small, else greedy by overlap)."""
    hyps, refs = overlap.shape
    if hyps <= 7 and refs <= 7:
        best, best_score = None, -1
        for perm in itertools.permutations(range(max(hyps, refs)), hyps):
            score = sum(overlap[h, r] for h, r in enumerate(perm) if r < refs)
            if score > best_score:
                best, best_score = perm, score
        return {h: r for h, r in enumerate(best) if r < refs}
    mapping, used = {}, set()
    for h, r in sorted(np.ndindex(*overlap.shape), key=lambda hr: -overlap[hr]):
        if h not in mapping and r not in used:
            mapping[h] = r
            used.add(r)
    return mapping


def der(reference, hypothesis, collar=0.25):
    """{'der', 'missed', 'false_alarm', 'confusion', 'scored_s'} for lists of
    (start, end, speaker)."""
    length = max([e for _, e, _ in reference] + [e for _, e, _ in hypothesis] + [0.0])
    frames = int(length / STEP) + 2
    ref_labels = sorted({k for *_, k in reference})
    hyp_labels = sorted({k for *_, k in hypothesis})
    ref = _grid(reference, ref_labels, frames)
    hyp = _grid(hypothesis, hyp_labels, frames)
    scored = np.ones(frames, bool)
    for start, end, _ in reference:
        for edge in (start, end):
            scored[max(0, int(round((edge - collar) / STEP))):int(round((edge + collar) / STEP))] = False
    ref, hyp = ref[scored], hyp[scored]
    overlap = hyp.T.astype(int) @ ref.astype(int)
    mapping = _best_map(overlap)
    n_ref, n_hyp = ref.sum(1), hyp.sum(1)
    correct = np.zeros(len(ref), int)
    for h, r in mapping.items():
        correct += hyp[:, h] & ref[:, r]
    total = max(n_ref.sum(), 1)
    missed = np.maximum(n_ref - n_hyp, 0).sum()
    false_alarm = np.maximum(n_hyp - n_ref, 0).sum()
    confusion = (np.minimum(n_ref, n_hyp) - correct).sum()
    return {
        "der": (missed + false_alarm + confusion) / total,
        "missed": missed / total,
        "false_alarm": false_alarm / total,
        "confusion": confusion / total,
        "scored_s": total * STEP,
    }


if __name__ == "__main__":
    import sys
    print(der(read_rttm(sys.argv[1]), read_rttm(sys.argv[2])))
