"""Runs the STT benchmark configurations one after the other and writes a
Markdown report. Called by bench/stt.sh, which prepares everything it needs
(see there); standard library only.

Each configuration is one process: our `transcribe` example (decode +
resample + VAD + whisper.cpp) or bench/stt/fw_run.py (faster-whisper). Both
print one JSON line; their stderr (segments with times) goes to
OUT/logs/<name>.log. RTF = transcription wall time / audio length, model load
excluded (reported apart). WER = word-level Levenshtein distance to the
script, after a light normalisation (normalize() below).

usage: stt_bench.py CONFIG.json REPORT.md
CONFIG.json: {"transcribe", "fw_python", "fw_run", "out", "threads", "base_threads",
              "files": {name: wav}, "models": {...}, "notes": [...]}
"""

import datetime
import json
import os
import re
import resource
import subprocess
import sys
import time
import wave
from pathlib import Path

# Other processes may use this many cores before a run starts (and during it
# before the row is flagged as disturbed).
QUIET_CORES = 0.25

# --- WER -------------------------------------------------------------------

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
# Spellings whisper may choose for what the script spells otherwise.
SAME = {"ok": "okay", "alright": "all right", "everyone's": "everyones"}


def number_words(n: int) -> str:
    """0 ≤ n < 1 000 000 in words, as espeak reads a number (no "and")."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + number_words(rest))
    rest = n % 1000
    return number_words(n // 1000) + " thousand" + ("" if rest == 0 else " " + number_words(rest))


def normalize(text: str) -> list[str]:
    """Lower-case words: no punctuation, apostrophes dropped (don't → dont),
    hyphens split, digits read out (the script has none, whisper may write
    "2" for "two"), a few equivalent spellings merged."""
    text = text.lower().replace("’", "'").replace("%", " percent")
    text = re.sub(r"(\d),(\d{3})", r"\1\2", text)
    text = re.sub(r"\d+", lambda m: " " + number_words(int(m.group())) + " ", text)
    words = []
    for word in re.split(r"[\s\-–—/]+", text):
        word = SAME.get(word.strip(".,;:!?\"()[]"), word)
        word = re.sub(r"[^a-z0-9 ]", "", word.replace("'", ""))
        words.extend(word.split())
    return words


def wer(reference: list[str], hypothesis: list[str]) -> float:
    """(substitutions + deletions + insertions) / reference words."""
    previous = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i] + [0] * len(hypothesis)
        for j, hyp in enumerate(hypothesis, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp))
        previous = current
    return previous[-1] / max(len(reference), 1)


# --- Running ----------------------------------------------------------------


def rust_debug_string(literal: str) -> str:
    """Our example prints the text with Rust's `{:?}`, which is JSON but for
    a few escapes (\\u{…}, \\0, \\')."""
    out, i = [], 1
    while i < len(literal) - 1:
        c = literal[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = literal[i + 1]
        if n == "u":
            end = literal.index("}", i)
            out.append(chr(int(literal[i + 3 : end], 16)))
            i = end + 1
            continue
        out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(n, n))
        i += 2
    return "".join(out)


def parse_line(stdout: str) -> dict:
    line = stdout.strip().splitlines()[-1]
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        head, text = re.match(r'(\{.*"text": )(".*")\}$', line).groups()
        result = json.loads(head + '""}')
        result["text"] = rust_debug_string(text)
        return result


def audio_seconds(path: str) -> float:
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_seconds() -> tuple[float, float]:
    """(busy, wall × CPUs) in seconds since boot, from /proc/stat."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - fields[3] - fields[4]) / hz, sum(fields) / hz


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wait_for_quiet(max_wait: float) -> float:
    """Waits until other processes use less than QUIET_CORES (sampled over
    2 s), at most max_wait seconds; returns the last sample (cores)."""
    deadline = time.monotonic() + max_wait
    while True:
        busy0, _ = cpu_seconds()
        time.sleep(2)
        others = (cpu_seconds()[0] - busy0) / 2
        if others < QUIET_CORES or time.monotonic() > deadline:
            return others
        print(f"[stt-bench]   machine busy ({others:.1f} cores in use by others), waiting", file=sys.stderr, flush=True)
        time.sleep(8)


def run(config: dict, setup: dict, logs: Path) -> dict:
    """One configuration in a fresh process; returns its JSON plus our fields,
    among which `others`: cores used by other processes during the run."""
    audio = setup["files"][config["file"]]
    if config["engine"] == "ours":
        command = [setup["transcribe"], config["model"], audio, str(config["threads"])]
        if config.get("vad"):
            command.append(setup["silero"])
        if config["decoding"].startswith("beam"):
            command += ["--beam", config["decoding"].split()[1]]
        if config.get("workers", 1) > 1:
            command += ["--workers", str(config["workers"])]
    else:
        command = [setup["fw_python"], setup["fw_run"], config["model"], audio,
                   str(config["threads"]), config["compute"], config["mode"]]
        if config.get("vad"):
            command.append("vad")
    log = logs / (config["name"] + ".log")
    wait_for_quiet(setup.get("quiet_wait_s", 900))
    busy0, child0, started = cpu_seconds()[0], children_cpu(), time.perf_counter()
    with log.open("w") as err:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=err, text=True)
    process_s = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"stt-bench: {config['name']} failed ({done.returncode}), see {log}")
    result = parse_line(done.stdout)
    result["process_s"] = round(process_s, 2)
    ours = children_cpu() - child0
    result["others"] = max(0.0, (cpu_seconds()[0] - busy0 - ours) / process_s)
    return result


# --- Configurations -----------------------------------------------------------


def configurations(setup: dict) -> list[dict]:
    """Ours as one whisper state with every thread (1×N) and as one state a
    core with one thread each (N×1), against faster-whisper int8 with the
    same threads, greedy and with its defaults (beam 5); our beam search at
    2, 3 and 5 candidates with the parallel workers."""
    m = setup["models"]
    top = max(setup["threads"])
    fw = {"engine": "fw", "mode": "greedy", "compute": "int8", "workers": 1}
    ours = {"engine": "ours", "decoding": "greedy", "vad": True, "workers": 1}
    tiny_ours = {**ours, "weights": "tiny.en q8_0", "model": m["tiny_q8"]}
    tiny_fw = {**fw, "weights": "tiny.en int8", "model": m["tiny_ct2"]}
    out = []

    def add(file, threads, *configs):
        out.extend({**c, "file": file, "threads": threads} for c in configs)

    def spread(config):  # the same cores as one state a core
        return {**config, "workers": top, "threads": 1}

    for file in ("speech", "silence", "dialogue"):
        add(file, top, tiny_ours, tiny_fw, {**tiny_fw, "mode": "default"})
        out.append(spread({**tiny_ours, "file": file}))
        if file != "silence":
            for beam in (2, 3, 5):
                out.append(spread({**tiny_ours, "file": file, "decoding": f"beam {beam}"}))
    if m.get("base_q8"):
        base_ours = {**ours, "weights": "base q8_0", "model": m["base_q8"]}
        base_fw = {**fw, "weights": "base int8", "model": m["base_ct2"]}
        for file in ("speech", "hour") if "hour" in setup["files"] else ("speech",):
            add(file, top, base_ours, base_fw)
            out.append(spread({**base_ours, "file": file}))
        add("speech", top, {**base_fw, "mode": "default"})
        out.append(spread({**base_ours, "file": "speech", "decoding": "beam 5"}))
    for c in out:
        c["label"] = engine_label(c)
        c["name"] = re.sub(r"[^a-z0-9.]+", "-",
                           f"{c['file']} {c['label']} {c['weights']} {c['workers']}x{c['threads']}".lower())
    return out


def engine_label(c: dict) -> str:
    vad = " + Silero VAD" if c.get("vad") else ""
    if c["engine"] == "ours":
        return f"ours ({c['decoding']}{vad or ', energy gate'})"
    if c["mode"] == "default":
        return "faster-whisper defaults (beam 5)"
    return "faster-whisper greedy" + vad


# --- Report --------------------------------------------------------------------


def find(results, **match):
    for r in results:
        if all(r[k] == v for k, v in match.items()):
            return r
    return None


def summary(results, file) -> list[str]:
    """Per model: our best layout against faster-whisper greedy at the same
    cores, and what beam search costs and gains."""
    lines = []
    greedy = engine_label({"engine": "ours", "decoding": "greedy", "vad": True})
    for model in ("tiny.en", "base"):
        fw = find(results, file=file, label="faster-whisper greedy", weights=f"{model} int8")
        mine = [r for r in results if r["file"] == file and r["label"] == greedy and r["weights"] == f"{model} q8_0"]
        if not fw or not mine:
            continue
        parts = [f"{r['workers']}×{r['threads']}: {r['rtf'] / fw['rtf']:.2f}× its time, "
                 f"{r['peak_rss_mib']:.0f} MiB, WER {r['wer']:.1f} %" for r in mine]
        lines.append(
            f"- **{file}, {model}**, against faster-whisper int8 greedy at {fw['threads']} threads "
            f"(RTF {fw['rtf']:.3f}, {fw['peak_rss_mib']:.0f} MiB, WER {fw['wer']:.1f} %): "
            + "; ".join(parts) + " (below 1× = ours faster)."
        )
        beams = [r for r in results if r["file"] == file and r["weights"] == f"{model} q8_0"
                 and r["label"].startswith("ours (beam")]
        spread = [r for r in mine if r["workers"] > 1]
        if beams and spread:
            base = spread[0]
            parts = [f"{r['label'].split('(')[1].split(' +')[0]}: RTF {r['rtf']:.3f} "
                     f"({r['rtf'] / base['rtf']:.2f}× greedy), WER {r['wer']:.1f} %" for r in beams]
            lines.append(f"- **{file}, {model}, beam search** at {base['workers']}×1 (greedy RTF "
                         f"{base['rtf']:.3f}, WER {base['wer']:.1f} %): " + "; ".join(parts) + ".")
    return lines


def report(results, setup, started, finished, load_before, load_after) -> str:
    rounds = max(1, setup.get("rounds", 1))
    lines = [
        f"# STT benchmark, {started:%Y-%m-%d %H:%M}",
        "",
        f"Machine: {cpu_name()}, {os.cpu_count()} logical CPUs; "
        f"load average {load_before} before, {load_after} after; run took {(finished - started).seconds // 60} min.",
        "",
    ]
    for name, wav in setup["files"].items():
        ref = normalize(Path(wav).with_suffix(".txt").read_text())
        lines.append(f"- `{name}`: {audio_seconds(wav):.0f} s, {len(ref)} reference words ({Path(wav).name}).")
    lines += [f"- {note}" for note in setup.get("notes", [])]
    lines += [
        "",
        "| file | engine | weights | workers × threads | RTF | peak RSS MiB | load ms | WER % |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        flag = " †" if r["others"] > QUIET_CORES else ""
        lines.append(
            f"| {r['file']} | {r['label']} | {r['weights']} | {r['workers']} × {r['threads']} | {r['rtf']:.3f}{flag} | "
            f"{r['peak_rss_mib']:.0f} | {r['load_ms']:.0f} | {r['wer']:.1f} |"
        )
    lines.append("")
    for file in setup["files"]:
        lines += summary(results, file)
    disturbed = [r for r in results if r["others"] > QUIET_CORES]
    if disturbed:
        lines += ["", "† other processes used " + ", ".join(
            f"{r['others']:.1f}" for r in disturbed) + " cores on average during these rows "
            "(in table order): their RTF is inflated."]
    lines += [
        "",
        "RTF: transcription wall time (decode, resample, VAD where used, inference) / audio "
        "length; model load is the load ms column. Peak RSS: VmHWM (ours) or ru_maxrss "
        "(faster-whisper), one process per row. "
        + (f"Each row is the median of {rounds} rounds (by RTF), each round an undisturbed run"
           if rounds > 1 else "Each row is one undisturbed run")
        + f" (or the least disturbed of {1 + setup.get('retries', 2)}, †): on a shared machine, "
        "differences under ~10 % are noise.",
        "",
    ]
    return "\n".join(lines)


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def measure(config: dict, setup: dict, logs: Path, step: str, reference: list[str], seconds: float) -> dict:
    """Runs one row; a run that other processes disturbed is done again (up
    to `retries` times) and the least disturbed attempt is kept."""
    best = None
    for _ in range(1 + setup.get("retries", 2)):
        again = f" (again: others used {best['others']:.2f} cores)" if best else ""
        print(f"[stt-bench] {step} {config['name']}{again} …", file=sys.stderr, flush=True)
        result = run(config, setup, logs)
        # The same denominator for both engines: the file's length.
        result["rtf"] = result["wall_s"] / seconds
        result["wer"] = 100 * wer(reference, normalize(result["text"]))
        print(f"[stt-bench]   RTF {result['rtf']:.3f}, RSS {result['peak_rss_mib']:.0f} MiB, "
              f"load {result['load_ms']} ms, WER {result['wer']:.1f} %, "
              f"others {result['others']:.2f} cores", file=sys.stderr, flush=True)
        if best is None or result["others"] < best["others"]:
            best = result
        if best["others"] <= QUIET_CORES:
            break
    return best


def main() -> None:
    setup = json.loads(Path(sys.argv[1]).read_text())
    report_path = Path(sys.argv[2])
    out = Path(setup["out"])
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    references = {name: normalize(Path(wav).with_suffix(".txt").read_text()) for name, wav in setup["files"].items()}
    durations = {name: audio_seconds(wav) for name, wav in setup["files"].items()}

    started, load_before = datetime.datetime.now(), load_average()
    plan = configurations(setup)
    rounds = max(1, setup.get("rounds", 1))
    # Rounds go through the whole plan in turn, so a slow spell of the
    # machine spreads over the configurations instead of hitting one.
    attempts: dict[str, list[dict]] = {c["name"]: [] for c in plan}
    for round_ in range(rounds):
        for i, config in enumerate(plan, 1):
            step = f"{i}/{len(plan)}" + (f" round {round_ + 1}/{rounds}" if rounds > 1 else "")
            attempts[config["name"]].append(
                measure(config, setup, logs, step, references[config["file"]], durations[config["file"]])
            )
    results = []
    for config in plan:
        # The median round by RTF stands for the row (all its fields from it).
        runs = sorted(attempts[config["name"]], key=lambda r: r["rtf"])
        row = {**config, **runs[(len(runs) - 1) // 2], "rounds_rtf": [round(r["rtf"], 4) for r in runs]}
        Path(logs / (config["name"] + ".txt")).write_text(row["text"] + "\n")
        results.append(row)
    finished, load_after = datetime.datetime.now(), load_average()

    (out / "results.json").write_text(json.dumps(results, indent=1))
    text = report(results, setup, started, finished, load_before, load_after)
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
