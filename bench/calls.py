#!/usr/bin/env python3
"""Call watcher benchmark: what noticing desktop meeting apps costs while
nothing happens, and how soon a meeting app opening the microphone becomes
the record card.

A private PipeWire (scripts/sound-server.sh) and `recorder serve` on it (the
recording itself from files, so no device is opened). Then:
  idle   the service idle for --idle seconds with `recording.detect_meeting_apps`
         on, then off: CPU seconds of the whole service, and wake-ups
         (voluntary context switches) of the watcher's threads
         (`call-watch`, `call-events`) alone;
  card   --trials times: `pw-record` opens the default microphone named as a
         meeting app (taking turns among the apps, so none comes back within
         the 5 s grace period set here, in which a return is the same call), and the time from
         spawning it to `prompt.shown` on the event stream is taken; the
         prompt is then declined and the program stopped.

    bench/calls.py [--binary target/debug/recorder] [--idle 60] [--trials 30] [--out FILE]
"""
import argparse
import asyncio
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from harness import aio  # noqa: E402
from harness.common import git_head, make_log, percentile  # noqa: E402
from harness.report import table_head, table_row, write_result  # noqa: E402
from harness.sampling import cpu_seconds  # noqa: E402
from harness.service import Service, service_env  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
APPS = ["zoom", "slack", "Discord", "teams-for-linux", "webex", "skypeforlinux",
        "signal-desktop", "element-desktop"]
WATCHER_THREADS = ("call-watch", "call-events")
log = make_log("calls", clock=True)


def sound_server(folder):
    out = subprocess.run([str(ROOT / "scripts/sound-server.sh"), "start", str(folder)],
                         capture_output=True, text=True, check=True).stdout
    env = {}
    for line in out.splitlines():
        name, _, value = line.removeprefix("export ").partition("=")
        env[name] = value.strip("'")
    return env


def watcher_switches(pid):
    """Voluntary context switches of the watcher's threads (each is a wake-up)."""
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text().strip() not in WATCHER_THREADS:
                continue
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


async def set_detect(service, on):
    # A 5 s grace period: an app may come back as a new call after 5 s.
    status, body = await aio.call(service.port, service.ui, "PATCH", "/ui/settings",
                                  {"recording": {"detect_meeting_apps": on,
                                                 "stop_after_call_ends_s": 5}})
    if status != 200:
        raise SystemExit(f"settings: {status} {body[:200]!r}")


async def idle(service, seconds):
    rows = []
    for on in (True, False):
        await set_detect(service, on)
        await asyncio.sleep(8)  # a watcher turned off ends within 5 s
        cpu0, wake0 = cpu_seconds(service.pid), watcher_switches(service.pid)
        await asyncio.sleep(seconds)
        cpu1, wake1 = cpu_seconds(service.pid), watcher_switches(service.pid)
        rows.append((on, cpu1 - cpu0, wake1 - wake0))
        log(f"detect={on}: {cpu1 - cpu0:.3f} CPU s, {wake1 - wake0} watcher wake-ups in {seconds} s")
    await set_detect(service, True)
    await asyncio.sleep(2)
    return rows


async def events(port, token, queue):
    conn = aio.Conn(port)
    status, _ = await conn.head("GET", "/v1/events", token)
    if status != 200:
        raise SystemExit(f"events: {status}")
    buffer = b""
    while True:
        part = await conn.chunk()
        if not part:
            return
        frames, buffer = aio.split_events(buffer + part)
        for _, kind, data in frames:
            if kind == "prompt.shown":
                await queue.put((time.monotonic(), json.loads(data)["data"]))


async def card(service, env, folder, trials):
    queue = asyncio.Queue()
    reader = asyncio.create_task(events(service.port, service.api, queue))
    await asyncio.sleep(0.5)
    latencies = []
    for trial in range(trials):
        app = APPS[trial % len(APPS)]
        began = time.monotonic()
        holder = subprocess.Popen(
            ["pw-record", "-P", f'{{ application.process.binary = "{app}" }}',
             str(folder / f"{trial}.wav")], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        try:
            shown_at, prompt = await asyncio.wait_for(queue.get(), 10)
        except asyncio.TimeoutError:
            raise SystemExit(f"trial {trial}: no prompt.shown for {app} within 10 s")
        latencies.append((shown_at - began) * 1000)
        await aio.call(service.port, service.ui, "POST",
                       f"/ui/prompts/{prompt['prompt_id']}/answer", {"answer": "decline"})
        holder.terminate()
        holder.wait()
        await asyncio.sleep(1.5)
    reader.cancel()
    return latencies


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / "target/debug/recorder"))
    parser.add_argument("--idle", type=int, default=60)
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--out", default=str(ROOT / f"bench/results/calls-{time.strftime('%Y-%m-%d')}.md"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        env = dict(os.environ, **sound_server(work / "sound"))
        silence = work / "silence.wav"
        subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", str(silence), "trim", "0", "1"], check=True)
        data = work / "data"
        service = Service(args.binary, data,
                          extra=["--mic-file", silence, "--sys-file", silence],
                          env=service_env(**{k: env[k] for k in ("XDG_RUNTIME_DIR", "PULSE_SERVER",
                                                                  "PIPEWIRE_RUNTIME_DIR",
                                                                  "DBUS_SESSION_BUS_ADDRESS")}),
                          log_path=work / "service.log")
        try:
            service.wait_listening()
            idle_rows = await idle(service, args.idle)
            latencies = await card(service, env, work, args.trials)
        except BaseException:
            log(f"the service said: {service.stderr_tail(20)}")
            raise
        finally:
            service.terminate()
            subprocess.run([str(ROOT / "scripts/sound-server.sh"), "stop", str(work / "sound")])
    lines = [f"# Call watcher: idle cost and time to the record card ({time.strftime('%Y-%m-%d')})", "",
             f"`bench/calls.py --idle {args.idle} --trials {args.trials}` on {os.cpu_count()} cores, "
             f"commit {git_head()}, {pathlib.Path(args.binary).name} "
             f"({'debug' if 'debug' in args.binary else 'release'} build); a private PipeWire "
             "with pipewire-pulse; the watcher follows pipewire-pulse's source-output events.", "",
             "## Idle", ""]
    lines += table_head("detect_meeting_apps", "service CPU s", "CPU % of one core",
                        "watcher wake-ups", "wake-ups / min")
    for on, cpu, wakes in idle_rows:
        lines.append(table_row("on" if on else "off", f"{cpu:.3f}", f"{cpu / args.idle * 100:.3f}",
                               wakes, f"{wakes / args.idle * 60:.1f}"))
    lines += ["", "Wake-ups are the voluntary context switches of the watcher's two threads; with "
              "nothing opening a microphone they come only from the main loop's 5 s check of the "
              "stop flag. Off, the watcher does not run.", "", "## Microphone opened → prompt.shown", ""]
    lines += table_head("trials", "p50 ms", "p95 ms", "max ms")
    lines.append(table_row(len(latencies), f"{percentile(latencies, 50):.0f}",
                           f"{percentile(latencies, 95):.0f}", f"{max(latencies):.0f}"))
    lines += ["", "From spawning `pw-record` (named as the app) to the event on `/v1/events`: "
              "the program's start, the stream's creation in PipeWire, pipewire-pulse's event, "
              "the service's prompt (a database write) and the event stream.", ""]
    write_result("\n".join(lines), args.out, log)


if __name__ == "__main__":
    asyncio.run(main())
