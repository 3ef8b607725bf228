#!/usr/bin/env python3
"""Desktop app benchmark: cold start (to the service healthy, to the window's
first page loaded), idle CPU and memory with the window hidden and shown, and
the .deb's size. Runs `recorder-desktop` (default: the packaged build,
target/dist/) under Xvfb with a private D-Bus session, each start on a new
data folder. CPU and RSS are read from /proc for the app's process alone and
for its whole tree (WebKitGTK's web and network processes are its children).

    bench/desktop.py [--binary PATH] [--runs 5] [--idle 30] [--out FILE]
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")
PAGE = 'page shown path="/"'


def session(work):
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=[write], stderr=subprocess.DEVNULL)
    os.close(write)
    display = os.read(read, 16).decode().strip()
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = bus.stdout.readline().strip()
    env = dict(os.environ, DISPLAY=f":{display}", DBUS_SESSION_BUS_ADDRESS=address,
               HOME=work, XDG_CONFIG_HOME=f"{work}/.config", XDG_DATA_HOME=f"{work}/.local/share",
               XDG_CACHE_HOME=f"{work}/.cache", RECORDER_LOG="info")
    env.pop("RECORDER_DATA_DIR", None)
    return [xvfb, bus], env


def start(binary, env, data, hidden):
    args = [binary, "--data-dir", data, "--port", "0"] + (["--hidden"] if hidden else [])
    log = open(os.path.join(data + ".log"), "w+")
    began = time.monotonic()
    app = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=log)
    return app, log, began


def wait_line(log, needle, limit=60):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        log.seek(0)
        for line in log:
            if needle in line:
                return line
        time.sleep(0.005)
    raise SystemExit(f"no {needle!r} in {limit} s")


def healthy_after(log, data, began):
    line = wait_line(log, "desktop: service")
    port = re.search(r"port=(\d+)", line).group(1)
    token = open(os.path.join(data, "api_token")).read().strip()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/health",
                                     headers={"Authorization": f"Bearer {token}"})
    while True:
        try:
            with urllib.request.urlopen(request, timeout=1) as answer:
                if answer.status == 200:
                    return time.monotonic() - began
        except OSError:
            time.sleep(0.005)


def tree(pid):
    pids, queue = [], [pid]
    while queue:
        current = queue.pop()
        pids.append(current)
        for path in glob.glob(f"/proc/{current}/task/*/children"):
            try:
                queue += [int(p) for p in open(path).read().split()]
            except OSError:
                pass
    return pids


def cpu_ticks(pid):
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def rss_mb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def idle(app, seconds):
    pids = tree(app.pid)
    before = {p: cpu_ticks(p) for p in pids}
    time.sleep(seconds)
    used = {p: cpu_ticks(p) - before[p] for p in pids}
    percent = lambda ticks: 100.0 * ticks / TICK / seconds
    return {
        "cpu_app": percent(used[app.pid]), "cpu_tree": percent(sum(used.values())),
        "rss_app": rss_mb(app.pid), "rss_tree": sum(rss_mb(p) for p in pids),
        "processes": len(pids),
    }


def run(binary, env, work, index, hidden, idle_seconds):
    data = os.path.join(work, f"data-{index}")
    os.makedirs(data)
    app, log, began = start(binary, env, data, hidden)
    try:
        health = healthy_after(log, data, began)
        # Hidden: no window and no web view at all (until Open).
        window = None if hidden else (wait_line(log, PAGE) and time.monotonic() - began)
        result = {"health": health, "window": window}
        if idle_seconds:
            time.sleep(5)
            result.update(idle(app, idle_seconds))
        return result
    finally:
        app.terminate()
        app.wait(timeout=60)
        log.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/dist/recorder-desktop")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=30)
    parser.add_argument("--out")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="desktop-bench-")
    processes, env = session(work)
    try:
        colds = [run(args.binary, env, work, i, False, 0) for i in range(args.runs)]
        shown = run(args.binary, env, work, "shown", False, args.idle)
        hidden = run(args.binary, env, work, "hidden", True, args.idle)
    finally:
        for process in processes:
            process.terminate()
        shutil.rmtree(work, ignore_errors=True)
    median = lambda key: statistics.median(r[key] for r in colds)
    debs = sorted(glob.glob("target/debian/recorder_*.deb"), key=os.path.getmtime)
    deb = f"{os.path.getsize(debs[-1]) / 1e6:.1f} MB ({os.path.basename(debs[-1])})" if debs else "not built"
    lines = [
        f"# Desktop app, {time.strftime('%Y-%m-%d')}: `{args.binary}` ({os.path.getsize(args.binary) / 1e6:.0f} MB)",
        "",
        f"Xvfb 1280x800, a private D-Bus session, new data folder per start; {os.cpu_count()} cores.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| cold start to service healthy (median of {args.runs}) | {median('health') * 1000:.0f} ms |",
        f"| cold start to the library loaded in the window (median of {args.runs}) | {median('window') * 1000:.0f} ms |",
    ]
    for name, r in (("hidden", hidden), ("shown", shown)):
        lines += [
            f"| idle CPU, window {name}: app / with WebKit's processes ({args.idle:.0f} s) | {r['cpu_app']:.2f} % / {r['cpu_tree']:.2f} % |",
            f"| RSS, window {name}: app / with WebKit's processes ({r['processes']} processes) | {r['rss_app']:.0f} MB / {r['rss_tree']:.0f} MB |",
        ]
    lines.append(f"| .deb | {deb} |")
    text = "\n".join(lines) + "\n\nRaw: " + json.dumps({"cold": colds, "shown": shown, "hidden": hidden}) + "\n"
    print(text)
    if args.out:
        open(args.out, "w").write(text)


if __name__ == "__main__":
    sys.exit(main())
