#!/usr/bin/env python3
"""Conversations of real voices for measuring speaker diarization (dev set).

    bench/voices/fetch.sh && python3 bench/voices/mix.py --seed 1
    python3 bench/voices/mix.py --check        # re-reads what was written and checks it

Reads the single-speaker recordings that bench/voices/fetch.sh put under
bench/out/voices/src (its manifest.json says whose voice each file is) and writes,
deterministically from --seed, under bench/out/voices/mix:

  sys/<half>-sys-NN.wav + .rttm   the other side of a call: 2-4 speakers, 30-60 s,
      turns of 1-3 utterances with gaps of -0.5..1.0 s between turns, backchannels
      (0.3-0.8 s snippets cut from the backchanneler's own audio), 0-20 % of the
      speech time overlapped, each speaker louder or quieter by up to 6 dB, mild room
      reverberation (sox reverb, per speaker) and noise at 15-30 dB SNR.
  mic/<half>-mic-NN.wav + .rttm   a room at the laptop: the owner (one fixed speaker
      per half) close to the microphone plus 0-2 others, quieter (-5..-12 dB) and
      more reverberant (direct-to-reverberant ratio -4..+3 dB against the owner's
      +8..+14 dB); about a third of them are the owner alone.
  enrol/<half>-owner.wav          ~20 s of the owner from recordings no mix uses.
  index.json                      every file, its speakers, speech and overlap time.

The speakers are split into two disjoint halves (SPLIT below): "tune" to tune on,
"check" to report on. RTTM lines: SPEAKER <name> 1 <start> <dur> <NA> <NA> <spk> <NA> <NA>,
where <spk> is the real speaker's id from sources.json; a speaker's speech is where
the clean source is above its own level - 30 dB (10 ms frames), pauses under 0.3 s
bridged. Overlap share = time with 2+ speakers / time with 1+ speakers.

Needs numpy (python3 re-runs itself with the repo's .venv/bin/python when numpy is
missing there) and sox (for reverb).
"""
import argparse, json, os, random, subprocess, sys, tempfile, wave

try:
    import numpy as np
except ImportError:  # the repo's test venv has numpy (scripts/setup.sh)
    venv = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.venv/bin/python")
    if os.path.exists(venv) and not os.environ.get("VOICES_MIX_REEXEC"):
        os.environ["VOICES_MIX_REEXEC"] = "1"
        os.execv(venv, [venv] + sys.argv)
    sys.exit("mix.py needs numpy (pip install numpy, or scripts/setup.sh for .venv)")

RATE = 16000
HOP = 160  # 10 ms frames
ROOT = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(ROOT, "../out/voices")

# Disjoint speaker sets. Each half has one owner (mic mixes, enrolment) and
# nine others; sexes and narrowband (8 kHz) sources are spread over both halves.
SPLIT = {
    "tune": {"owner": "allison",
             "others": ["carlo", "june", "dalzot", "ve9qrp", "se10x016", "mls13697", "vk5qi", "cqref", "psforever"]},
    "check": {"owner": "mcauliffe",
              "others": ["ivrvoiceru", "jimenez", "desjardins", "silerotest", "librivox_ss", "chan3", "jfk",
                         "c2female16k", "psgoforward"]},
}
GAP_BRIDGE = 0.3   # pauses shorter than this inside one speaker's speech are speech
MAX_OVERLAP = 0.20


# ---------------------------------------------------------------- audio helpers
def read_wav(path):
    with wave.open(path) as w:
        if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (RATE, 1, 2):
            raise SystemExit(f"{path}: not 16 kHz mono 16-bit")
        return np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768


def write_wav(path, x):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    peak = float(np.max(np.abs(x))) if len(x) else 0.0
    if peak > 0.89:
        x = x * (0.89 / peak)
    tmp = path + ".part"
    with wave.open(tmp, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
        w.writeframes(np.round(np.clip(x, -1, 1) * 32767).astype(np.int16).tobytes())
    os.replace(tmp, path)


def frame_db(x):
    n = len(x) // HOP
    e = (x[:n * HOP].reshape(n, HOP).astype(np.float64) ** 2).mean(1)
    return 10 * np.log10(e + 1e-12)


def intervals(mask):
    """[(start_frame, end_frame)] of the True runs."""
    d = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.nonzero(d == 1)[0], np.nonzero(d == -1)[0]))


def bridge(iv, gap):
    out = []
    for a, b in sorted(iv):
        if out and a - out[-1][1] < gap:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def active(x):
    """Speech frames of a single-speaker recording: above its loud level - 30 dB and
    8 dB above its noise floor (some sources carry radio or room noise)."""
    db = frame_db(x)
    if not len(db):
        return np.zeros(0, bool)
    ref, floor = np.percentile(db, 95), np.percentile(db, 10)
    return db > max(ref - 30, floor + 8, -65)


def sox_reverb(x, reverberance, damping, room, predelay):
    """Wet-only sox reverb of x (same length)."""
    if not np.any(x):
        return np.zeros_like(x)
    scale = 0.25 / float(np.max(np.abs(x)))
    with tempfile.TemporaryDirectory() as t:
        i, o = os.path.join(t, "in.f32"), os.path.join(t, "out.f32")
        np.concatenate([x * scale, np.zeros(RATE, np.float32)]).astype("<f4").tofile(i)
        subprocess.run(["sox", "-R", "-D", "-V1", "-t", "f32", "-r", str(RATE), "-c", "1", i, "-t", "f32", o,
                        "reverb", "-w", f"{reverberance:.0f}", f"{damping:.0f}", f"{room:.0f}", "0",
                        f"{predelay:.0f}", "0"], check=True)
        y = np.fromfile(o, "<f4")
    y = np.pad(y, (0, max(0, len(x) - len(y))))[:len(x)]
    return (y / scale).astype(np.float32)


def room(x, drr_db, reverberance, damping, room_scale, predelay):
    """dry + reverberation at a direct-to-reverberant ratio of drr_db."""
    wet = sox_reverb(x, reverberance, damping, room_scale, predelay)
    pd, pw = float(np.mean(x ** 2)), float(np.mean(wet ** 2))
    if pw <= 0:
        return x
    return x + wet * np.float32(np.sqrt(pd / pw) * 10 ** (-drr_db / 20))


def noise(rng, n, kind):
    """Coloured noise (1/f^alpha), plus mains hum and a slow swell for a room."""
    alpha = rng.uniform(0.6, 1.6)
    spec = np.fft.rfft(rng.standard_normal(n + RATE))
    f = np.fft.rfftfreq(n + RATE, 1 / RATE)
    spec *= 1 / np.maximum(f, 30) ** (alpha / 2)
    spec[f < 40] *= 0.1
    y = np.fft.irfft(spec, n + RATE)[:n]
    y /= np.sqrt(np.mean(y ** 2)) + 1e-12
    if kind == "mic":
        t = np.arange(n) / RATE
        mains = rng.choice([50.0, 60.0])
        hum = sum(np.sin(2 * np.pi * mains * k * t + rng.uniform(0, 6.3)) / k for k in (1, 2, 3))
        y = y + hum * rng.uniform(0.05, 0.3)
        y *= 1 + 0.3 * np.sin(2 * np.pi * t / rng.uniform(3, 9) + rng.uniform(0, 6.3))
        y /= np.sqrt(np.mean(y ** 2)) + 1e-12
    return y.astype(np.float32)


# ---------------------------------------------------------------- material
class Utt:
    """One utterance: trimmed clean audio at -26 dBFS active level, its speech frames."""
    def __init__(self, spk, src, audio, segs):
        self.spk, self.src, self.audio, self.segs = spk, src, audio, segs
        self.dur = len(audio) / RATE


def utterances(spk, src, x):
    """Split one clean recording into utterances at pauses >= 0.4 s, 1.2-9 s each."""
    act = active(x)
    runs = bridge(intervals(act), GAP_BRIDGE * 100)
    runs = [r for r in runs if r[1] - r[0] >= 8]  # drop clicks under 80 ms
    if not runs:
        return []
    groups, cur = [], [runs[0]]
    for r in runs[1:]:
        length = r[1] - cur[0][0]
        pause = r[0] - cur[-1][1]
        if (pause >= 40 and cur[-1][1] - cur[0][0] >= 120) or length > 900 or pause >= 120:
            groups.append(cur); cur = [r]
        else:
            cur.append(r)
    groups.append(cur)
    db = np.convolve(frame_db(x), np.ones(20) / 20, "same")
    spans = []
    for g in groups:
        a, b = g[0][0], g[-1][1]
        while b - a > 900:                    # over 9 s: cut at the quietest point 3-8 s in
            c = a + 300 + int(np.argmin(db[a + 300:a + 800]))
            spans.append((a, c)); a = c
        spans.append((a, b))
    out = []
    for a, b in spans:
        a, b = max(0, a - 5), b + 5          # 50 ms margins
        seg = x[a * HOP:b * HOP].copy()
        if len(seg) < 0.6 * RATE:
            continue
        sa = active(seg)
        mask = np.zeros(len(seg), bool)
        mask[:len(sa) * HOP] = np.repeat(sa, HOP)
        level = 10 * np.log10(np.mean(seg[mask] ** 2) + 1e-12) if sa.any() else -99
        seg *= np.float32(10 ** ((-26 - level) / 20))
        fade = min(80, len(seg) // 4)
        ramp = np.linspace(0, 1, fade, dtype=np.float32)
        seg[:fade] *= ramp; seg[-fade:] *= ramp[::-1]
        segs = [(s / 100, e / 100) for s, e in bridge(intervals(sa), GAP_BRIDGE * 100) if e - s >= 5]
        if segs:
            out.append(Utt(spk, src, seg, segs))
    return out


def load(src_dir):
    man = json.load(open(os.path.join(src_dir, "manifest.json")))
    mix, enrol, sex = {}, {}, {}
    for e in man:
        x = read_wav(os.path.join(src_dir, e["wav"]))
        target = enrol if e["use"] == "enrol" else mix
        target.setdefault(e["speaker"], []).extend(utterances(e["speaker"], e["wav"], x))
        sex[e["speaker"]] = e.get("sex")
    return mix, enrol, sex


def backchannel(rng, utt):
    """A 0.3-0.8 s snippet from the start of one of the speaker's speech runs."""
    runs = [s for s in utt.segs if s[1] - s[0] >= 0.35]
    if not runs:
        return None
    s, e = runs[rng.randrange(len(runs))]
    length = min(rng.uniform(0.3, 0.8), e - s)
    a, b = int(s * RATE), int((s + length) * RATE)
    clip = utt.audio[a:b].copy() * np.float32(10 ** (rng.uniform(-6, -2) / 20))
    fade = min(480, len(clip) // 3)
    ramp = np.linspace(0, 1, fade, dtype=np.float32)
    clip[:fade] *= ramp; clip[-fade:] *= ramp[::-1]
    return Utt(utt.spk, utt.src + "#bc", clip, [(0.0, len(clip) / RATE)])


# ---------------------------------------------------------------- conversations
class Pool:
    """Hands out each speaker's utterances, least used (over all mixes) first."""
    def __init__(self, mix):
        self.mix = mix
        self.uses = {s: [0] * len(u) for s, u in mix.items()}

    def material(self, spk):
        return sum(u.dur for u in self.mix[spk])

    def take(self, rng, spk, taken):
        free = [i for i in range(len(self.mix[spk])) if (spk, i) not in taken]
        if not free:
            return None
        low = min(self.uses[spk][i] for i in free)
        i = rng.choice([i for i in free if self.uses[spk][i] == low])
        taken.add((spk, i)); self.uses[spk][i] += 1
        return self.mix[spk][i]


def converse(rng, pool, speakers, weights, target, p_overlap, p_backchannel, turn_utts=None, lead=None):
    """Places turns; returns [(start_s, Utt)]. turn_utts[spk]: weights of 1, 2, 3
    utterances in one of that speaker's turns. lead: a speaker no other may outtalk
    (by more than 0.7 x lead's time + 3 s)."""
    placed, taken, end, last, last_start = [], set(), 0.0, None, 0.0
    spoken = {s: 0.0 for s in speakers}
    while end < target:
        live = [s for s in speakers if any((s, i) not in taken for i in range(len(pool.mix[s])))]
        if lead in live:
            live = [s for s in live if s == lead or spoken[s] <= 0.7 * spoken[lead] + 3]
        if not live:
            break
        cands = [s for s in live if s != last] or live
        spk = rng.choices(cands, [weights[s] for s in cands])[0]
        n_utts = rng.choices([1, 2, 3], (turn_utts or {}).get(spk, [0.5, 0.35, 0.15]))[0]
        if spk == last:                      # the same voice again after a pause
            gap = rng.uniform(0.3, 1.5)
        elif last is not None and rng.random() < p_overlap:
            gap = -rng.uniform(0.1, 0.5)
        else:
            gap = rng.uniform(0.05, 0.5) if rng.random() < 0.7 else rng.uniform(0.5, 1.0)
        start = max(0.0, end + gap, last_start + 0.3) if placed else rng.uniform(0.2, 0.8)
        t, turn_start, n = start, start, 0
        while n < n_utts and (n == 0 or t < target):   # no further utterance past the target
            u = pool.take(rng, spk, taken)
            if u is None:
                break
            if n:
                t += rng.uniform(0.15, 0.5)
            placed.append((t, u)); spoken[spk] += u.dur
            t += u.dur; n += 1
        if not n:
            break
        turn_end = t
        # a backchannel from someone else, inside this turn
        others = [s for s in speakers if s != spk]
        for _ in range(1 + int((turn_end - turn_start) // 6)):
            if not others or turn_end - turn_start < 2.0 or rng.random() >= p_backchannel:
                break
            b = rng.choice(others)
            bc = backchannel(rng, pool.mix[b][rng.randrange(len(pool.mix[b]))])
            if bc:
                at = rng.uniform(turn_start + 0.8, max(turn_start + 0.9, turn_end - bc.dur - 0.3))
                placed.append((at, bc))
        end, last, last_start = max(end, turn_end), spk, turn_start
    return placed


def truth(placed):
    """{spk: [(start, end)]} merged per speaker."""
    per = {}
    for t, u in placed:
        per.setdefault(u.spk, []).extend((t + a, t + b) for a, b in u.segs)
    return {s: [(a, b) for a, b in bridge(iv, GAP_BRIDGE)] for s, iv in per.items()}


def overlap_stats(segs, dur):
    n = int(np.ceil(dur * 100)) + 1
    count = np.zeros(n, np.int16)
    for iv in segs.values():
        m = np.zeros(n, bool)
        for a, b in iv:
            m[int(round(a * 100)):int(round(b * 100))] = True
        count += m
    speech, over = float((count >= 1).sum()) / 100, float((count >= 2).sum()) / 100
    return speech, over


def render(rng, placed, spk_fx, kind, snr_db):
    dur = max(t + u.dur for t, u in placed) + rng.uniform(0.3, 1.0)
    n = int(dur * RATE)
    tracks = {}
    for t, u in placed:
        tr = tracks.setdefault(u.spk, np.zeros(n, np.float32))
        a = int(t * RATE)
        tr[a:a + len(u.audio)] += u.audio[:n - a]
    mixed = np.zeros(n, np.float32)
    for s, tr in tracks.items():
        fx = spk_fx[s]
        tr = tr * np.float32(10 ** (fx["gain_db"] / 20))
        mixed += room(tr, fx["drr_db"], fx["reverberance"], fx["damping"], fx["room"], fx["predelay"])
    segs = truth(placed)
    m = np.zeros(n, bool)
    for iv in segs.values():
        for a, b in iv:
            m[int(a * RATE):int(b * RATE)] = True
    p_speech = float(np.mean(mixed[m] ** 2)) if m.any() else 1e-4
    mixed += noise(rng, n, kind) * np.float32(np.sqrt(p_speech / 10 ** (snr_db / 10)))
    return mixed, segs, dur


def write_rttm(path, name, segs):
    lines = sorted((a, b, s) for s, iv in segs.items() for a, b in iv)
    with open(path, "w") as f:
        for a, b, s in lines:
            f.write(f"SPEAKER {name} 1 {a:.3f} {b - a:.3f} <NA> <NA> {s} <NA> <NA>\n")


def near_fx(rng):
    return dict(gain_db=round(rng.uniform(-6, 6), 1), drr_db=round(rng.uniform(6, 15), 1),
                reverberance=rng.uniform(15, 40), damping=rng.uniform(40, 70), room=rng.uniform(30, 60),
                predelay=rng.uniform(0, 10))


def make(rng, pool, half, kind, idx, out, sexes):
    owner = SPLIT[half]["owner"]
    others = SPLIT[half]["others"]
    uses = {s: sum(pool.uses[s]) for s in others}
    target = rng.uniform(30, 60)
    if kind == "sys":
        for _ in range(200):
            k = rng.choices([2, 3, 4], [0.4, 0.35, 0.25])[0]
            w = [pool.material(s) / (1 + uses[s]) ** 2 for s in others]
            spk = []
            while len(spk) < k:
                s = rng.choices(others, w)[0]
                if s not in spk:
                    spk.append(s)
            if sum(pool.material(s) for s in spk) >= target * 1.15:
                break
        weights = {s: rng.uniform(0.5, 1.5) * min(1.0, pool.material(s) / 30) for s in spk}
        fx = {s: near_fx(rng) for s in spk}
        snr = rng.uniform(15, 30)
        turn_utts = None
    else:
        k = [0, 1, 2][idx % 3]
        w = [pool.material(s) / (1 + uses[s]) ** 2 for s in others]
        spk = [owner]
        while len(spk) < k + 1:
            s = rng.choices(others, w)[0]
            if s not in spk:
                spk.append(s)
        weights = {owner: 2.5, **{s: rng.uniform(0.6, 1.2) for s in spk[1:]}}
        turn_utts = {owner: [0.4, 0.4, 0.2], **{s: [0.85, 0.15, 0] for s in spk[1:]}}
        fx = {owner: dict(gain_db=0.0, drr_db=round(rng.uniform(8, 14), 1), reverberance=rng.uniform(10, 30),
                          damping=rng.uniform(40, 70), room=rng.uniform(20, 45), predelay=rng.uniform(0, 5))}
        for s in spk[1:]:
            fx[s] = dict(gain_db=round(rng.uniform(-12, -5), 1), drr_db=round(rng.uniform(-4, 3), 1),
                         reverberance=rng.uniform(55, 90), damping=rng.uniform(30, 60), room=rng.uniform(70, 100),
                         predelay=rng.uniform(10, 35))
        snr = rng.uniform(15, 30)
    # overlap within 0-20 %: draw the propensities, lower them while over the cap
    p_ov, p_bc = rng.uniform(0, 0.8), rng.uniform(0, 1.0)
    state = {s: list(v) for s, v in pool.uses.items()}
    for attempt in range(20):
        pool.uses = {s: list(v) for s, v in state.items()}
        placed = converse(rng, pool, spk, weights, target, p_ov, p_bc, turn_utts, owner if kind == "mic" else None)
        segs = truth(placed)
        dur = max(t + u.dur for t, u in placed)
        speech, over = overlap_stats(segs, dur)
        if over / speech <= MAX_OVERLAP:
            break
        p_ov, p_bc = p_ov * 0.6, p_bc * 0.6
    name = f"{half}-{kind}-{idx + 1:02d}"
    audio, segs, dur = render(rng, placed, fx, kind, snr)
    speech, over = overlap_stats(segs, dur)
    wav = os.path.join(out, kind, name + ".wav")
    write_wav(wav, audio)
    write_rttm(os.path.join(out, kind, name + ".rttm"), name, segs)
    per = {s: round(sum(b - a for a, b in iv), 2) for s, iv in segs.items()}
    return dict(name=name, kind=kind, half=half, wav=f"{kind}/{name}.wav", rttm=f"{kind}/{name}.rttm",
                duration_s=round(len(audio) / RATE, 2), speakers=sorted(segs), n_speakers=len(segs),
                sexes={s: sexes.get(s) for s in sorted(segs)},
                owner=owner if kind == "mic" else None, speech_s=round(speech, 2), overlap_s=round(over, 2),
                overlap_share=round(over / speech, 4), speech_per_speaker_s=per, snr_db=round(snr, 1),
                p_overlap=round(p_ov, 3), p_backchannel=round(p_bc, 3),
                fx={s: {k: round(v, 1) for k, v in f.items()} for s, f in fx.items()},
                sources=sorted({u.src.split("#")[0] for _, u in placed}))


def enrolment(rng, enrol, half, out):
    owner = SPLIT[half]["owner"]
    utts = enrol.get(owner, [])
    if not utts:
        raise SystemExit(f"no enrolment recordings for {owner}")
    placed, t = [], 0.3
    for u in utts:
        placed.append((t, u)); t += u.dur + rng.uniform(0.3, 0.6)
    fx = {owner: dict(gain_db=0.0, drr_db=12.0, reverberance=20, damping=50, room=30, predelay=2)}
    audio, segs, dur = render(rng, placed, fx, "mic", 30.0)
    name = f"{half}-owner"
    write_wav(os.path.join(out, "enrol", name + ".wav"), audio)
    write_rttm(os.path.join(out, "enrol", name + ".rttm"), name, segs)
    speech, _ = overlap_stats(segs, dur)
    return dict(name=name, half=half, speaker=owner, wav=f"enrol/{name}.wav", rttm=f"enrol/{name}.rttm",
                duration_s=round(len(audio) / RATE, 2), speech_s=round(speech, 2),
                sources=sorted({u.src for u in utts}))


# ---------------------------------------------------------------- checks
def check(out):
    idx = json.load(open(os.path.join(out, "index.json")))
    problems = []
    halves = {h: set(v["others"]) | {v["owner"]} for h, v in idx["split"].items()}
    if halves["tune"] & halves["check"]:
        problems.append(f"halves share speakers: {halves['tune'] & halves['check']}")
    enrol_src = {e["half"]: set(e["sources"]) for e in idx["enrol"]}
    rows = []
    for m in idx["mixes"] + idx["enrol"]:
        with wave.open(os.path.join(out, m["wav"])) as w:
            ok = (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (RATE, 1, 2)
            dur = w.getnframes() / RATE
        if not ok:
            problems.append(f"{m['name']}: not 16 kHz mono 16-bit")
        segs = {}
        for line in open(os.path.join(out, m["rttm"])):
            f = line.split()
            if len(f) != 10 or f[0] != "SPEAKER" or f[1] != m["name"] or f[5:7] != ["<NA>", "<NA>"]:
                problems.append(f"{m['name']}: bad RTTM line {line!r}"); continue
            a, d = float(f[3]), float(f[4])
            if d <= 0 or a < 0 or a + d > dur + 1e-3:
                problems.append(f"{m['name']}: segment {a}+{d} outside 0..{dur:.2f}")
            segs.setdefault(f[7], []).append((a, a + d))
        speech, over = overlap_stats(segs, dur)
        spk = sorted(segs)
        half_set = halves[m["half"]]
        if not set(spk) <= half_set:
            problems.append(f"{m['name']}: speakers {set(spk) - half_set} not in the {m['half']} half")
        if "kind" in m:
            if abs(speech - m["speech_s"]) > 0.05 or abs(over - m["overlap_s"]) > 0.05:
                problems.append(f"{m['name']}: RTTM totals {speech:.2f}/{over:.2f} != index")
            if spk != m["speakers"]:
                problems.append(f"{m['name']}: RTTM speakers {spk} != index {m['speakers']}")
            if over / speech > MAX_OVERLAP + 1e-6:
                problems.append(f"{m['name']}: overlap share {over / speech:.3f} > {MAX_OVERLAP}")
            if not (25 <= dur <= 70):
                problems.append(f"{m['name']}: duration {dur:.1f} s")
            if m["kind"] == "sys" and not (2 <= len(spk) <= 4):
                problems.append(f"{m['name']}: {len(spk)} speakers in a sys mix")
            if m["kind"] == "mic":
                if m["owner"] not in spk or len(spk) > 3:
                    problems.append(f"{m['name']}: owner missing or too many speakers: {spk}")
                if enrol_src[m["half"]] & set(m["sources"]):
                    problems.append(f"{m['name']}: uses enrolment recordings")
        rows.append((m["name"], dur, len(spk), speech, over))
    for kind in ("sys", "mic"):
        for h in ("tune", "check"):
            r = [x for x in rows if x[0].startswith(f"{h}-{kind}-")]
            if r:
                print(f"{h:5} {kind}: {len(r):2} files, {sum(x[1] for x in r):6.0f} s, speakers "
                      f"{min(x[2] for x in r)}-{max(x[2] for x in r)}, overlap share "
                      f"{min(x[4] / x[3] for x in r):.3f}-{max(x[4] / x[3] for x in r):.3f} "
                      f"(mean {sum(x[4] for x in r) / sum(x[3] for x in r):.3f})")
    for e in idx["enrol"]:
        print(f"enrol {e['half']}: {e['speaker']}, {e['duration_s']} s ({e['speech_s']} s speech)")
    for p in problems:
        print("PROBLEM:", p)
    print(f"{len(rows)} files checked, {len(problems)} problems")
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sys", type=int, default=12, help="sys mixes per half")
    ap.add_argument("--mic", type=int, default=10, help="mic mixes per half")
    ap.add_argument("--src", default=os.path.join(OUT, "src"))
    ap.add_argument("--out", default=os.path.join(OUT, "mix"))
    ap.add_argument("--check", action="store_true", help="only check what is in --out")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    if a.check:
        sys.exit(check(out))
    mix, enrol, sexes = load(os.path.normpath(a.src))
    for h, v in SPLIT.items():
        for s in [v["owner"]] + v["others"]:
            if s not in mix:
                sys.exit(f"speaker {s} has no recordings in {a.src}: run bench/voices/fetch.sh")
    for sub in ("sys", "mic", "enrol"):   # a rerun replaces the whole set
        d = os.path.join(out, sub)
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.endswith((".wav", ".rttm")):
                    os.remove(os.path.join(d, f))
    index = dict(seed=a.seed, rate=RATE, split=SPLIT, gap_bridge_s=GAP_BRIDGE, mixes=[], enrol=[])
    for half in ("tune", "check"):
        pool = Pool({s: mix[s] for s in [SPLIT[half]["owner"]] + SPLIT[half]["others"]})
        for kind, n in (("sys", a.sys), ("mic", a.mic)):
            for i in range(n):
                rng = random.Random(f"{a.seed}/{half}/{kind}/{i}")
                nrng = np.random.default_rng(rng.getrandbits(64))
                m = make(Rng(rng, nrng), pool, half, kind, i, out, sexes)
                index["mixes"].append(m)
                print(f"{m['name']}: {m['duration_s']:5.1f} s, {m['n_speakers']} speakers, "
                      f"overlap {100 * m['overlap_share']:4.1f} %, SNR {m['snr_db']} dB", flush=True)
        rng = random.Random(f"{a.seed}/{half}/enrol")
        index["enrol"].append(enrolment(Rng(rng, np.random.default_rng(rng.getrandbits(64))), enrol, half, out))
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
    sys.exit(check(out))


class Rng:
    """random.Random for choices, numpy's Generator for noise, one seed."""
    def __init__(self, r, n):
        self.r, self.n = r, n

    def __getattr__(self, k):
        return getattr(self.r, k)

    def standard_normal(self, size):
        return self.n.standard_normal(size)


if __name__ == "__main__":
    main()
