#!/usr/bin/env python3
"""Live recording benchmark: CPU, memory and transcript latency.

Builds a call of BENCH_MINUTES (default 10) minutes from bench/fixtures/
meeting-script.txt: paragraphs spoken by espeak-ng, taking turns between the
microphone file and the system-audio file, with pauses. For each model it
starts `recorder serve --mic-file --sys-file` (RECORDER_BIN, default
target/release/recorder) at real-time pace, measures 30 s idle first (no
model loaded), then records the whole call and samples the service's CPU
time and RSS every second from /proc. Latency of a line is the arrival of
its `segment.new` event minus the moment its end was played (recording start
+ end_ms). The service logs where each line's time went (`live line`:
gate_ms the pause the voice-activity gate waited for, wait_ms queue and
engine busy, engine_ms whisper, save_ms database and event); their p50/p95
are a second table. Prints Markdown tables and writes them to bench/results/.

BENCH_OVERLAP=S makes each paragraph start S seconds before the last one
ends, on the other side: both people talking at once.

Run: python3 bench/live.py   (after scripts/test-model.sh and a release build)
"""

import http.client
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("RECORDER_BIN", str(ROOT / "target/release/recorder"))
MODELS = ROOT / "target/test-models"
MINUTES = float(os.environ.get("BENCH_MINUTES", "10"))
MODEL_LIST = os.environ.get("BENCH_MODELS", "ggml-tiny.en-q8_0.bin,ggml-base-q8_0.bin").split(",")
# Seconds each paragraph starts before the last one ends (on the other side):
# both people talking at once. 0 = turns 1.5 s apart.
OVERLAP = float(os.environ.get("BENCH_OVERLAP", "0"))
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def make_call(folder):
    """Two 16 kHz mono WAVs of MINUTES minutes; paragraphs alternate sides."""
    paragraphs = [p.strip() for p in (ROOT / "bench/fixtures/meeting-script.txt").read_text().split("\n\n") if p.strip()]
    sides = {"mic": [], "sys": []}
    at, index = 0.0, 0
    while at < MINUTES * 60:
        side = "mic" if index % 2 else "sys"
        clip = folder / f"p{index}.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-w", str(clip), paragraphs[index % len(paragraphs)]], check=True)
        subprocess.run(["sox", str(clip), "-r", "16000", "-c", "1", "-b", "16", str(clip) + ".16k.wav"], check=True)
        length = float(subprocess.run(["soxi", "-D", str(clip) + ".16k.wav"], capture_output=True, text=True, check=True).stdout)
        sides[side].append((at, str(clip) + ".16k.wav", length))
        at += length - OVERLAP if OVERLAP > 0 else length + 1.5
        index += 1
    files = {}
    for side, parts in sides.items():
        pieces, cursor = [], 0.0
        for start, path, length in parts:
            gap = start - cursor
            silence = folder / f"{side}-gap{len(pieces)}.wav"
            subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(silence), "trim", "0", f"{gap:.3f}"], check=True)
            pieces += [str(silence), path]
            cursor = start + length
        tail = folder / f"{side}-tail.wav"
        subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(tail), "trim", "0", f"{max(1.0, MINUTES * 60 - cursor):.3f}"], check=True)
        files[side] = folder / f"{side}.wav"
        subprocess.run(["sox", *pieces, str(tail), str(files[side])], check=True)
    starts = {side: [start for start, _, _ in parts] for side, parts in sides.items()}
    return files, at, starts


def proc_sample(pid):
    stat = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / TICKS
    rss = int(pathlib.Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    return cpu, rss


def request(port, token, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"null")


def listen(port, token, sink, stop):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/v1/events", headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    while not stop.is_set():
        line = response.fp.readline()
        if not line:
            return
        if line.startswith(b"data:"):
            sink.append((time.time(), json.loads(line[5:])))


def utterance_latencies(events, started):
    """Lines of one utterance are published together (within a few ms); the
    utterance ended where its last line ends. Latency: that moment of the
    call (recording start + end_ms) to the arrival of the events. Lines
    published after the call ended (the stop drains the queue) are left out."""
    groups = []
    for arrived, event in events:
        if event["type"] != "segment.new" or arrived >= started + MINUTES * 60:
            continue
        data = event["data"]
        last = groups[-1] if groups else None
        if last and last["channel"] == data["channel"] and arrived - last["arrived"] < 0.05:
            last["end_ms"] = max(last["end_ms"], data["end_ms"])
        else:
            groups.append({"channel": data["channel"], "arrived": arrived, "end_ms": data["end_ms"]})
    return [g["arrived"] - (started + g["end_ms"] / 1000) for g in groups]


def measure(window, pid):
    """Average and peak CPU (% of one core) and peak RSS over `window` seconds."""
    cpu0, _ = proc_sample(pid)
    start, last_cpu, last_t, peak_cpu, peak_rss = time.time(), cpu0, time.time(), 0.0, 0
    while time.time() - start < window:
        time.sleep(1.0)
        cpu, rss = proc_sample(pid)
        now = time.time()
        peak_cpu = max(peak_cpu, 100 * (cpu - last_cpu) / (now - last_t))
        peak_rss = max(peak_rss, rss)
        last_cpu, last_t = cpu, now
    return 100 * (last_cpu - cpu0) / (last_t - start), peak_cpu, peak_rss


def partial_latencies(events, started, starts):
    """Per paragraph: from the moment its speech began to the first
    `segment.partial` of its side; and the longest gap between partials of
    one paragraph (until its first `segment.new`)."""
    firsts, gaps = [], []
    for side, side_starts in starts.items():
        channel = "mic" if side == "mic" else "sys"
        for index, start in enumerate(side_starts):
            begin = started + start
            end = started + side_starts[index + 1] if index + 1 < len(side_starts) else begin + 60
            mine = [(t, e["type"]) for t, e in events if e["type"] in ("segment.partial", "segment.new") and e["data"]["channel"] == channel and begin <= t < end]
            partials = [t for t, kind in mine if kind == "segment.partial"]
            if not partials or begin >= started + MINUTES * 60:
                continue
            firsts.append(partials[0] - begin)
            # What the person sees change: a partial or a finished line.
            updates = [t for t, _ in mine if t <= partials[-1]]
            gaps.append(max((b - a for a, b in zip(updates, updates[1:])), default=0.0))
    return firsts, gaps


def run(model, files, starts, folder):
    data = folder / f"data-{model}"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"general": {"allow_remote_start": True}}))
    env = dict(os.environ, RECORDER_MODEL_PATH=str(MODELS / model),
               RECORDER_LOG="warn,recorder_service::recording::live=debug")
    if (MODELS / "silero-vad.safetensors").is_file() and not os.environ.get("BENCH_ENERGY_VAD"):
        env["RECORDER_VAD_PATH"] = str(MODELS / "silero-vad.safetensors")
    else:
        env["RECORDER_VAD_PATH"] = str(folder / "no-vad")
    service = subprocess.Popen([BIN, "serve", "--data-dir", str(data), "--port", "0", "--mic-file", str(files["mic"]), "--sys-file", str(files["sys"])], stdout=subprocess.PIPE, env=env)
    port = int(service.stdout.readline().decode().rsplit(":", 1)[1])
    token = (data / "api_token").read_text().strip()
    ui = (data / "ui_token").read_text().strip()
    events, stop = [], threading.Event()
    threading.Thread(target=listen, args=(port, token, events, stop), daemon=True).start()
    time.sleep(2)
    idle_cpu, _, idle_rss = measure(30, service.pid)
    status, meeting = request(port, ui, "POST", "/ui/recording/start", {"title": "bench"})
    assert status == 201, meeting
    started = time.time()
    rec_cpu, rec_peak_cpu, rec_rss = measure(MINUTES * 60, service.pid)
    request(port, ui, "POST", "/ui/recording/stop")
    while request(port, token, "GET", f"/v1/meetings/{meeting['id']}")[1]["status"] != "ready":
        time.sleep(0.5)
    stop.set()
    latencies = sorted(utterance_latencies(events, started))
    parts = line_parts(data / "logs" / "recorder.log")
    first_partials, partial_gaps = partial_latencies(events, started, starts)
    lines = sum(1 for _, e in events if e["type"] == "segment.new")
    service.terminate()
    service.wait()
    pick = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else float("nan")
    return {
        "model": model, "idle_cpu": idle_cpu, "idle_rss": idle_rss / 2**20,
        "cpu": rec_cpu, "peak_cpu": rec_peak_cpu, "rss": rec_rss / 2**20,
        "p50": pick(0.50), "p95": pick(0.95), "max": latencies[-1] if latencies else float("nan"),
        "live_lines": len(latencies), "lines": lines, "parts": parts,
        "first_partial": first_partials, "partial_gap": partial_gaps,
        "partials": sum(1 for _, e in events if e["type"] == "segment.partial"),
        "vad": "energy" if "no-vad" in env["RECORDER_VAD_PATH"] else "silero",
    }


def line_parts(log):
    """Each `live line` log record's parts, in ms."""
    parts = {"gate_ms": [], "wait_ms": [], "engine_ms": [], "save_ms": []}
    for line in log.read_text(errors="replace").splitlines():
        if "live line" not in line:
            continue
        for name, values in parts.items():
            match = re.search(rf"\b{name}=(\d+)", line)
            if match:
                values.append(int(match.group(1)))
    return parts


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def main():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="recorder-live-"))
    files, length, starts = make_call(folder)
    rows = [run(model, files, starts, folder) for model in MODEL_LIST]
    out = [
        f"Live recording of a {MINUTES:g}-minute call from files at real-time pace ({os.cpu_count()} cores; `{pathlib.Path(BIN).name}`).",
        "",
        "| model | VAD | idle CPU % | idle RSS MiB | avg CPU % (1 core) | peak CPU % | peak RSS MiB | latency p50 s | p95 s | max s | utterances live / lines in all |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(f"| {r['model']} | {r['vad']} | {r['idle_cpu']:.1f} | {r['idle_rss']:.1f} | {r['cpu']:.1f} | {r['peak_cpu']:.0f} | {r['rss']:.0f} | {r['p50']:.2f} | {r['p95']:.2f} | {r['max']:.2f} | {r['live_lines']} / {r['lines']} |")
    out += [
        "",
        "Where a line's time goes (ms, p50 / p95): gate = the pause the voice-activity gate waits for before cutting; wait = queue and engine busy; engine = whisper; save = database and event.",
        "",
        "| model | VAD | lines | gate | wait | engine | save |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        cells = " | ".join(f"{percentile(r['parts'][k], 0.5):.0f} / {percentile(r['parts'][k], 0.95):.0f}" for k in ("gate_ms", "wait_ms", "engine_ms", "save_ms"))
        out.append(f"| {r['model']} | {r['vad']} | {len(r['parts']['gate_ms'])} | {cells} |")
    out += [
        "",
        "Partial lines (`segment.partial`): from the start of a paragraph's speech to its first partial, and the longest gap between updates of one paragraph while it is spoken (a partial or a finished line: what the person sees change) (s, p50 / p95 / max).",
        "",
        "| model | VAD | partials | first partial | longest gap between updates |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        spread = lambda v: f"{percentile(v, 0.5):.2f} / {percentile(v, 0.95):.2f} / {max(v, default=float('nan')):.2f}"
        out.append(f"| {r['model']} | {r['vad']} | {r['partials']} | {spread(r['first_partial'])} | {spread(r['partial_gap'])} |")
    table = "\n".join(out)
    print(table)
    models = "+".join(m.removeprefix("ggml-").removesuffix(".bin") for m in MODEL_LIST)
    overlap = f"-overlap{OVERLAP:g}s" if OVERLAP > 0 else ""
    results = ROOT / "bench/results" / f"live-{time.strftime('%Y-%m-%d')}-{models}-{MINUTES:g}min{overlap}.md"
    results.write_text(table + "\n")


if __name__ == "__main__":
    sys.exit(main())
