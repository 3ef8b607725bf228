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
    m = setup["models"]
    top = max(setup["threads"])
    fw = {"engine": "fw", "mode": "greedy", "compute": "int8"}
    ours = {"engine": "ours", "decoding": "greedy", "vad": True}
    tiny_ours = {**ours, "weights": "tiny.en q8_0", "model": m["tiny_q8"]}
    tiny_fw = {**fw, "weights": "tiny.en int8", "model": m["tiny_ct2"]}
    out = []

    def add(file, threads, *configs):
        out.extend({**c, "file": file, "threads": threads} for c in configs)

    for file in ("speech", "silence"):
        for threads in setup["threads"]:
            add(file, threads,
                tiny_ours,
                {**tiny_ours, "vad": False},
                {**tiny_ours, "weights": "tiny.en f16", "model": m["tiny_f16"]},
                tiny_fw,
                {**tiny_fw, "weights": "tiny.en float32", "compute": "float32"})
            if file == "silence":
                add(file, threads, {**tiny_fw, "vad": True})
        # What lost: q4_0 weights (faster, 3 WER points worse on tiny.en).
        add(file, top, {**tiny_ours, "weights": "tiny.en q4_0", "model": m["tiny_q4"]})
        # Beam search both sides (faster-whisper as it comes: beam 5, previous text as prompt).
        add(file, top, {**tiny_ours, "decoding": "beam 5"}, {**tiny_fw, "mode": "default"})
    # Quick turns: a two-person call.
    add("dialogue", top, tiny_ours, {**tiny_ours, "decoding": "beam 5"}, tiny_fw, {**tiny_fw, "vad": True},
        {**tiny_fw, "mode": "default"})
    if m.get("base_q8"):
        base_ours = {**ours, "weights": "base q8_0", "model": m["base_q8"]}
        base_fw = {**fw, "weights": "base int8", "model": m["base_ct2"]}
        for threads in setup["base_threads"]:
            add("speech", threads, base_ours, base_fw)
        if "hour" in setup["files"]:
            add("hour", max(setup["base_threads"]), base_ours, base_fw)
    for c in out:
        c["label"] = engine_label(c)
        c["name"] = re.sub(r"[^a-z0-9.]+", "-", f"{c['file']} {c['label']} {c['weights']} t{c['threads']}".lower())
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


def summary(results, file, threads) -> list[str]:
    lines = []
    ours_label = engine_label({"engine": "ours", "decoding": "greedy", "vad": True})
    for model in ("tiny.en", "base"):
        ratios, wers, rss = [], [], ""
        for t in threads:
            ours = find(results, file=file, label=ours_label, weights=f"{model} q8_0", threads=t)
            fw = find(results, file=file, label="faster-whisper greedy", weights=f"{model} int8", threads=t)
            if not ours or not fw:
                continue
            ratios.append(f"{ours['rtf'] / fw['rtf']:.2f}× at {t} thread{'s' if t > 1 else ''}")
            rss = f"{ours['peak_rss_mib']:.0f} vs {fw['peak_rss_mib']:.0f} MiB"  # at the most threads
            wers.append(f"{ours['wer'] - fw['wer']:+.1f} points ({ours['wer']:.1f} % vs {fw['wer']:.1f} %)")
        if ratios:
            lines.append(
                f"- **{file}, {model}**: RTF ours (q8_0, Silero) / faster-whisper int8 = {', '.join(ratios)} "
                f"(below 1 = ours faster); peak RSS {rss}; "
                f"WER ours − theirs {'; '.join(dict.fromkeys(wers))}."
            )
        beam = find(results, file=file, label=engine_label({"engine": "ours", "decoding": "beam 5", "vad": True}),
                    weights=f"{model} q8_0")
        greedy = beam and find(results, file=file, label=ours_label, weights=f"{model} q8_0", threads=beam["threads"])
        fw_beam = find(results, file=file, label="faster-whisper defaults (beam 5)", weights=f"{model} int8")
        if beam and greedy:
            theirs = f"; faster-whisper's beam 5: RTF {fw_beam['rtf']:.3f}, WER {fw_beam['wer']:.1f} %" if fw_beam else ""
            lines.append(
                f"- **{file}, {model}, decoding modes** at {beam['threads']} threads: ours greedy RTF "
                f"{greedy['rtf']:.3f}, WER {greedy['wer']:.1f} %; ours beam 5 RTF {beam['rtf']:.3f}, "
                f"WER {beam['wer']:.1f} %{theirs}."
            )
        vad = [r for r in results if r["file"] == file and r["label"] == "faster-whisper greedy + Silero VAD"]
        for fw in vad if model == "tiny.en" else []:
            ours = find(results, file=file, label=ours_label, weights="tiny.en q8_0", threads=fw["threads"])
            if ours:
                lines.append(
                    f"- **{file}, tiny.en, both with VAD** at {fw['threads']} thread(s): RTF ratio "
                    f"{ours['rtf'] / fw['rtf']:.2f}×; WER {ours['wer']:.1f} % vs {fw['wer']:.1f} %."
                )
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
        "| file | engine | weights | threads | RTF | peak RSS MiB | load ms | WER % |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        flag = " †" if r["others"] > QUIET_CORES else ""
        lines.append(
            f"| {r['file']} | {r['label']} | {r['weights']} | {r['threads']} | {r['rtf']:.3f}{flag} | "
            f"{r['peak_rss_mib']:.0f} | {r['load_ms']:.0f} | {r['wer']:.1f} |"
        )
    lines.append("")
    for file in setup["files"]:
        lines += summary(results, file, sorted({r["threads"] for r in results}))
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
