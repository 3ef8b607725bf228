#!/usr/bin/env python3
"""API benchmark of the recorder service (Python 3.11 standard library only).

Starts `recorder serve` itself on a data folder seeded by `xtask seed`, then
measures:

* startup to healthy: spawn until GET /v1/health answers 200 (N runs);
* resident memory after startup and 5 s idle, after the latency runs and after
  the health load;
* p50/p99 latency of sequential requests on one keep-alive connection for the
  list, meeting, transcript and search endpoints (after warm-up requests);
* health requests per second from a second process (wrk, else a Python
  multi-process load generator).

It reports and never asserts: the Markdown report goes to stdout and to
BENCH_OUT; progress goes to stderr.

Environment:
  BENCH_DATA_DIR   seeded data folder            (default bench/out/data)
  RECORDER_BIN     service binary                (default target/release/recorder)
  BENCH_REQUESTS   measured requests per endpoint (default 300)
  BENCH_WARMUP     warm-up requests per endpoint (default 20)
  BENCH_STARTUP_RUNS  startup measurements       (default 10)
  BENCH_IDLE_SECS  idle time before the idle RSS reading (default 5)
  BENCH_LOAD_SECS  duration of the health load   (default 10)
  BENCH_OUT        Markdown report               (default bench/out/results.md)
  BENCH_NO_WRK=1   use the Python load generator even when wrk is installed
  BENCH_EXTRA_REQUESTS  requests per extra probe (list filtered by text, prefix
                   search, JSON transcript; no targets); 0 skips them (default 20)
"""

from __future__ import annotations

import http.client
import json
import math
import multiprocessing
import os
import platform
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def env_path(name: str, default: str) -> str:
    value = os.environ.get(name) or default
    return value if os.path.isabs(value) else os.path.join(ROOT, value)


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


DATA_DIR = env_path("BENCH_DATA_DIR", "bench/out/data")
RECORDER_BIN = env_path("RECORDER_BIN", "target/release/recorder")
OUT_FILE = env_path("BENCH_OUT", "bench/out/results.md")
REQUESTS = env_int("BENCH_REQUESTS", 300)
WARMUP = env_int("BENCH_WARMUP", 20)
STARTUP_RUNS = env_int("BENCH_STARTUP_RUNS", 10)
IDLE_SECS = env_int("BENCH_IDLE_SECS", 5)
LOAD_SECS = env_int("BENCH_LOAD_SECS", 10)
EXTRA_REQUESTS = env_int("BENCH_EXTRA_REQUESTS", 20)
OUT_DIR = os.path.dirname(OUT_FILE)
SERVICE_LOG = os.path.join(OUT_DIR, "service.log")
# A policy file that does not exist: the service then reads no system policy.
NO_POLICY = os.path.join(OUT_DIR, "no-such-policy.json")

# Targets: (limit, unit); judged on the p99 column (max for startup).
SEARCH_P99_MS = 50.0
LIST_P99_MS = 5.0
STARTUP_MS = 150.0
IDLE_RSS_MB = 40.0
PHRASE = '"quarterly roadmap review"'
# Any endpoint slower than this (median) is listed under "Problems seen".
SLOW_MS = 100.0


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# The service process
# --------------------------------------------------------------------------


@dataclass
class Service:
    process: subprocess.Popen
    port: int
    token: str
    spawned_at: float
    listening_at: float

    @property
    def pid(self) -> int:
        return self.process.pid


def service_env() -> dict[str, str]:
    env = dict(os.environ)
    env["RECORDER_POLICY_PATH"] = NO_POLICY
    env.pop("RECORDER_DATA_DIR", None)
    return env


def start_service(timeout: float = 30.0) -> Service:
    """Spawns the service and waits for its `recorder listening on` line."""
    if os.path.exists(NO_POLICY):
        raise SystemExit(f"{NO_POLICY} exists; it must not (it stands for 'no policy')")
    log_file = open(SERVICE_LOG, "ab")
    spawned_at = time.perf_counter()
    process = subprocess.Popen(
        [RECORDER_BIN, "serve", "--data-dir", DATA_DIR, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=log_file,
        stdin=subprocess.DEVNULL,
        env=service_env(),
    )
    log_file.close()
    line_holder: list[bytes] = []

    def read_first_line() -> None:
        assert process.stdout is not None
        line_holder.append(process.stdout.readline())

    reader = threading.Thread(target=read_first_line, daemon=True)
    reader.start()
    reader.join(timeout)
    listening_at = time.perf_counter()
    line = line_holder[0].decode("utf-8", "replace").strip() if line_holder else ""
    match = re.search(r"recorder listening on http://127\.0\.0\.1:(\d+)", line)
    if not match:
        stop_service_process(process)
        raise SystemExit(
            f"the service did not start (first stdout line: {line!r}); see {SERVICE_LOG}"
        )
    # Keep draining stdout so the service never blocks on a full pipe.
    threading.Thread(target=drain, args=(process.stdout,), daemon=True).start()
    with open(os.path.join(DATA_DIR, "api_token"), encoding="utf-8") as handle:
        token = handle.read().strip()
    return Service(process, int(match.group(1)), token, spawned_at, listening_at)


def drain(stream) -> None:
    try:
        while stream.read(65536):
            pass
    except (OSError, ValueError):
        pass


def stop_service_process(process: subprocess.Popen) -> float:
    """SIGTERM, then wait for exit (SIGKILL after 10 s). Returns seconds to exit."""
    started = time.perf_counter()
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            log("the service ignored SIGTERM for 10 s; killing it")
            process.kill()
            process.wait()
    return time.perf_counter() - started


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_healthy(service: Service, timeout: float = 30.0) -> float:
    """Polls GET /v1/health every 2 ms until 200; returns the time of the 200."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if service.process.poll() is not None:
            raise SystemExit(f"the service exited with {service.process.returncode}; see {SERVICE_LOG}")
        connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=2)
        try:
            connection.request("GET", "/v1/health", headers=headers(service.token))
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                return time.perf_counter()
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.002)
    raise SystemExit(f"the service was not healthy within {timeout} s")


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


def thread_count(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


# --------------------------------------------------------------------------
# Latency
# --------------------------------------------------------------------------


@dataclass
class Series:
    name: str
    target: str
    limit_ms: float | None
    samples_ms: list[float] = field(default_factory=list)
    errors: dict[int, int] = field(default_factory=dict)
    bytes_total: int = 0
    note: str = ""

    def p50(self) -> float | None:
        return statistics.median(self.samples_ms) if self.samples_ms else None

    def p99(self) -> float | None:
        return percentile(self.samples_ms, 99)


def percentile(samples: list[float], pct: float) -> float | None:
    """Nearest-rank percentile."""
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[rank - 1]


class Client:
    """One persistent keep-alive connection."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.headers = headers(token)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def get(self, path: str) -> tuple[int, bytes, float]:
        """Returns status, body and milliseconds from send to the last body byte."""
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.connection.request("GET", path, headers=self.headers)
                response = self.connection.getresponse()
                body = response.read()
                elapsed = (time.perf_counter() - started) * 1000.0
                if response.will_close:
                    self.reconnect()
                return response.status, body, elapsed
            except (http.client.HTTPException, OSError):
                if attempt == 1:
                    raise
                self.reconnect()
        raise AssertionError("unreachable")

    def get_json(self, path: str):
        status, body, _ = self.get(path)
        if status != 200:
            raise SystemExit(f"GET {path} answered {status}: {body[:300]!r}")
        return json.loads(body)

    def reconnect(self) -> None:
        self.connection.close()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def close(self) -> None:
        self.connection.close()


def measure(client: Client, series: Series, paths, requests: int = 0, warmup: int = -1) -> None:
    """`paths()` gives the next path; `warmup` unmeasured requests first."""
    for _ in range(WARMUP if warmup < 0 else warmup):
        client.get(paths())
    for _ in range(requests or REQUESTS):
        status, body, elapsed = client.get(paths())
        series.samples_ms.append(elapsed)
        series.bytes_total += len(body)
        if status != 200:
            series.errors[status] = series.errors.get(status, 0) + 1


def meeting_ids(client: Client, rng: random.Random, wanted: int = 1000) -> tuple[list[str], int]:
    first = client.get_json("/v1/meetings?limit=200")
    total = int(first.get("total", 0))
    ids = [meeting["id"] for meeting in first.get("meetings", [])]
    pages = min(8, max(0, (total - 1) // 200))
    for offset in sorted(rng.sample(range(200, max(total, 201), 200), k=pages)) if pages else []:
        page = client.get_json(f"/v1/meetings?limit=200&offset={offset}")
        ids.extend(meeting["id"] for meeting in page.get("meetings", []))
        if len(ids) >= wanted:
            break
    return ids, total


def search_hits(client: Client, query: str, limit: int = 100) -> int | None:
    status, body, _ = client.get(f"/v1/search?q={urllib.parse.quote_plus(query)}&limit={limit}")
    if status != 200:
        return None
    return len(json.loads(body).get("results", []))


# --------------------------------------------------------------------------
# Health load
# --------------------------------------------------------------------------


def wrk_available() -> str | None:
    if os.environ.get("BENCH_NO_WRK") == "1":
        return None
    return shutil.which("wrk")


def parse_duration_ms(text: str) -> float | None:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text.strip())
    if not match:
        return None
    value, unit = float(match.group(1)), match.group(2)
    return value * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def run_wrk(wrk: str, service: Service) -> dict:
    command = [
        wrk, "-t2", "-c16", f"-d{LOAD_SECS}s", "--latency",
        "-H", f"Authorization: Bearer {service.token}",
        f"http://127.0.0.1:{service.port}/v1/health",
    ]
    shown = " ".join(command).replace(service.token, "TOKEN")
    log(f"health load: {shown}")
    output = subprocess.run(command, capture_output=True, text=True, timeout=LOAD_SECS + 60)
    text = output.stdout + output.stderr
    result: dict = {"tool": "wrk -t2 -c16 --latency", "raw": text}
    if match := re.search(r"Requests/sec:\s+([\d.]+)", text):
        result["rps"] = float(match.group(1))
    for pct in ("50", "99"):
        if match := re.search(rf"^\s+{pct}(?:\.000)?%\s+(\S+)", text, re.M):
            result[f"p{pct}"] = parse_duration_ms(match.group(1))
    if match := re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text):
        result["errors"] = int(match.group(1))
    if match := re.search(r"Socket errors:(.*)", text):
        result["socket_errors"] = match.group(1).strip()
    return result


def _load_worker(port: int, token: str, seconds: float, queue) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    hdrs = headers(token)
    done = errors = 0
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    while True:
        started = time.perf_counter()
        if started >= deadline:
            break
        try:
            connection.request("GET", "/v1/health", headers=hdrs)
            response = connection.getresponse()
            response.read()
            latencies.append((time.perf_counter() - started) * 1000.0)
            if response.status == 200:
                done += 1
            else:
                errors += 1
        except (http.client.HTTPException, OSError):
            errors += 1
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.close()
    queue.put((done, errors, latencies[:: max(1, len(latencies) // 2000)]))


def run_python_load(service: Service) -> dict:
    workers = max(2, min(8, 2 * (os.cpu_count() or 1)))
    log(f"health load: {workers} Python processes × 1 keep-alive connection, {LOAD_SECS} s")
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    processes = [
        context.Process(target=_load_worker, args=(service.port, service.token, LOAD_SECS, queue))
        for _ in range(workers)
    ]
    started = time.perf_counter()
    for process in processes:
        process.start()
    results = [queue.get(timeout=LOAD_SECS + 60) for _ in processes]
    for process in processes:
        process.join()
    elapsed = time.perf_counter() - started
    done = sum(r[0] for r in results)
    latencies = [latency for r in results for latency in r[2]]
    return {
        "tool": f"Python load generator ({workers} processes, wrk not installed)",
        "rps": done / elapsed if elapsed > 0 else 0.0,
        "p50": statistics.median(latencies) if latencies else None,
        "p99": percentile(latencies, 99),
        "errors": sum(r[1] for r in results),
    }


# --------------------------------------------------------------------------
# Facts about the machine and the data
# --------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def mem_total_mb() -> float | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


def file_mb(path: str) -> float:
    try:
        return os.path.getsize(path) / (1024.0 * 1024.0)
    except OSError:
        return 0.0


def data_counts(db_path: str) -> tuple[int | None, int | None]:
    """Meetings and segments, read directly (read-only) before the service starts."""
    try:
        connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)
        try:
            meetings = connection.execute("SELECT count(*) FROM meetings").fetchone()[0]
            segments = connection.execute("SELECT count(*) FROM segments").fetchone()[0]
            return int(meetings), int(segments)
        finally:
            connection.close()
    except sqlite3.Error as error:
        log(f"cannot count rows with sqlite3: {error}")
        return None, None


def git_revision() -> str:
    try:
        revision = subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=5,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=10,
        ).stdout.strip()
        return f"{revision}{' (with local changes)' if dirty else ''}" if revision else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def service_log_problems(offset: int) -> list[str]:
    """WARN/ERROR lines the service wrote to stderr during this run."""
    try:
        with open(SERVICE_LOG, "rb") as handle:
            handle.seek(offset)
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return []
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    return [
        ansi.sub("", line).strip()
        for line in text.splitlines()
        if re.search(r"\b(WARN|ERROR)\b", ansi.sub("", line))
    ]


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def fmt_ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f} ms"


def verdict(value: float | None, limit: float | None) -> str:
    if limit is None:
        return ""
    if value is None:
        return " — n/a"
    return " — met" if value < limit else " — MISSED"


def main() -> int:
    os.makedirs(OUT_DIR, exist_ok=True)
    db_path = os.path.join(DATA_DIR, "recorder.db")
    if not os.path.isfile(RECORDER_BIN):
        raise SystemExit(f"no service binary at {RECORDER_BIN} (set RECORDER_BIN)")
    if not os.path.isfile(db_path):
        raise SystemExit(f"no database at {db_path}: seed it first (bench/run.sh does)")
    log_offset = os.path.getsize(SERVICE_LOG) if os.path.exists(SERVICE_LOG) else 0

    meetings_in_db, segments_in_db = data_counts(db_path)
    db_mb, wal_mb = file_mb(db_path), file_mb(db_path + "-wal")
    rng = random.Random(42)

    # 1. Startup to healthy, N times.
    startups_ms: list[float] = []
    listen_ms: list[float] = []
    exits_ms: list[float] = []
    for run in range(STARTUP_RUNS):
        service = start_service()
        healthy_at = wait_healthy(service)
        startups_ms.append((healthy_at - service.spawned_at) * 1000.0)
        listen_ms.append((service.listening_at - service.spawned_at) * 1000.0)
        exits_ms.append(stop_service_process(service.process) * 1000.0)
        if service.process.returncode not in (0, None):
            log(f"startup run {run + 1}: the service exited with {service.process.returncode}")
        time.sleep(0.2)
    log(f"startup to healthy over {STARTUP_RUNS} runs: {[round(v, 1) for v in startups_ms]} ms")

    # 2. One service for the rest.
    service = start_service()
    wait_healthy(service)
    log(f"service pid {service.pid} on port {service.port}; idle {IDLE_SECS} s")
    time.sleep(IDLE_SECS)
    idle_rss = rss_mb(service.pid)
    idle_threads = thread_count(service.pid)

    client = Client(service.port, service.token)
    health = client.get_json("/v1/health")
    ids, total = meeting_ids(client, rng)
    if not ids:
        log("the list returned no meetings; meeting and transcript rows will be empty")
    hits = {
        "zeppelin": search_hits(client, "zeppelin"),
        "budget": search_hits(client, "budget"),
        PHRASE: search_hits(client, PHRASE),
    }

    def random_id() -> str:
        return rng.choice(ids)

    series = [
        Series("GET /v1/meetings (list, limit 50)", f"p99 < {LIST_P99_MS:g} ms", LIST_P99_MS),
        Series("GET /v1/meetings/{id}", "", None),
        Series("GET /v1/meetings/{id}/transcript?format=md", "", None),
        Series("GET /v1/search?q=zeppelin (rare)", f"p99 < {SEARCH_P99_MS:g} ms", SEARCH_P99_MS),
        Series("GET /v1/search?q=budget (common)", f"p99 < {SEARCH_P99_MS:g} ms", SEARCH_P99_MS),
        Series('GET /v1/search?q="quarterly roadmap review" (phrase)', f"p99 < {SEARCH_P99_MS:g} ms", SEARCH_P99_MS),
    ]
    paths = [
        lambda: "/v1/meetings",
        lambda: f"/v1/meetings/{random_id()}",
        lambda: f"/v1/meetings/{random_id()}/transcript?format=md",
        lambda: "/v1/search?q=zeppelin",
        lambda: "/v1/search?q=budget",
        lambda: "/v1/search?q=%22quarterly+roadmap+review%22",
    ]
    for entry, path in zip(series, paths):
        if not ids and "{id}" in entry.name:
            continue
        log(f"measuring {entry.name}: {WARMUP} warm-up + {REQUESTS} requests")
        measure(client, entry, path)
        log(f"  p50 {fmt_ms(entry.p50())}, p99 {fmt_ms(entry.p99())}, errors {entry.errors or 0}")
    rss_after_latency = rss_mb(service.pid)

    # Extra probes: endpoints outside the targets that may be slow, few requests.
    extras = [
        (Series("GET /v1/meetings?q=budget (list filtered by a common word)", "", None),
         lambda: "/v1/meetings?q=budget"),
        (Series(f"GET /v1/meetings?q={PHRASE} (list filtered by the phrase)", "", None),
         lambda: "/v1/meetings?q=%22quarterly+roadmap+review%22"),
        (Series("GET /v1/search?q=bud* (prefix)", "", None), lambda: "/v1/search?q=bud%2A"),
        (Series("GET /v1/meetings/{id}/transcript (json)", "", None),
         lambda: f"/v1/meetings/{random_id()}/transcript"),
    ] if EXTRA_REQUESTS > 0 else []
    for entry, path in extras:
        if not ids and "{id}" in entry.name:
            continue
        log(f"extra probe {entry.name}: 2 warm-up + {EXTRA_REQUESTS} requests")
        measure(client, entry, path, requests=EXTRA_REQUESTS, warmup=2)
        log(f"  p50 {fmt_ms(entry.p50())}, p99 {fmt_ms(entry.p99())}, errors {entry.errors or 0}")
    client.close()

    # 3. Health requests per second from other processes.
    wrk = wrk_available()
    load = run_wrk(wrk, service) if wrk else run_python_load(service)
    rss_after_load = rss_mb(service.pid)
    exit_after_load_ms = stop_service_process(service.process) * 1000.0
    exit_code = service.process.returncode
    problems = service_log_problems(log_offset)

    # 4. The report.
    lines: list[str] = []
    add = lines.append
    add("# recorder API benchmark")
    add("")
    add(f"- Date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; revision {git_revision()}; "
        f"service version {health.get('version', '?')}")
    add(f"- Machine: {cpu_count()} CPUs (nproc), {cpu_model()}, "
        f"{(mem_total_mb() or 0) / 1024:.1f} GB RAM, {platform.system()} {platform.release()}")
    add(f"- Binary: `{os.path.relpath(RECORDER_BIN, ROOT)}`")
    add(f"- Data: `{os.path.relpath(DATA_DIR, ROOT)}`, recorder.db {db_mb:.2f} MB"
        + (f" (+ WAL {wal_mb:.2f} MB)" if wal_mb > 0 else "")
        + f", {meetings_in_db if meetings_in_db is not None else total} meetings, "
        f"{segments_in_db if segments_in_db is not None else '?'} segments")
    phrase_hits = hits[PHRASE]
    add(f"- Search hits (limit 100): zeppelin {hits['zeppelin']}, budget {hits['budget']}, "
        f"{PHRASE} {phrase_hits}")
    add(f"- Latency: {REQUESTS} sequential requests per endpoint after {WARMUP} warm-up "
        "requests, one keep-alive connection (Python http.client; its own overhead is "
        "included), random meeting ids from the list pages")
    add("")
    add("| metric | p50 | p99 | target |")
    add("|---|---|---|---|")
    for entry in series:
        if not entry.samples_ms:
            add(f"| {entry.name} | n/a | n/a | {entry.target} |")
            continue
        target = entry.target + verdict(entry.p99(), entry.limit_ms)
        add(f"| {entry.name} | {fmt_ms(entry.p50())} | {fmt_ms(entry.p99())} | {target} |")
    startup_median = statistics.median(startups_ms) if startups_ms else None
    startup_max = max(startups_ms) if startups_ms else None
    add(f"| startup to healthy (median / max of {len(startups_ms)}) | {fmt_ms(startup_median)} "
        f"| {fmt_ms(startup_max)} | < {STARTUP_MS:g} ms{verdict(startup_max, STARTUP_MS)} |")
    idle_text = "n/a" if idle_rss is None else f"{idle_rss:.1f} MB"
    add(f"| idle RSS (after startup + {IDLE_SECS} s idle) | {idle_text} | | "
        f"< {IDLE_RSS_MB:g} MB{verdict(idle_rss, IDLE_RSS_MB)} |")
    after_text = "n/a" if rss_after_latency is None else f"{rss_after_latency:.1f} MB"
    add(f"| RSS after the latency runs | {after_text} | | |")
    load_text = "n/a" if rss_after_load is None else f"{rss_after_load:.1f} MB"
    add(f"| RSS after the health load | {load_text} | | |")
    rps = load.get("rps")
    add(f"| GET /v1/health throughput ({load['tool']}, {LOAD_SECS} s) | "
        f"{'n/a' if rps is None else f'{rps:,.0f} req/s'} | | |")
    add(f"| GET /v1/health latency under that load | {fmt_ms(load.get('p50'))} | "
        f"{fmt_ms(load.get('p99'))} | |")
    add("")
    add("Targets are judged on the p99 column (the maximum for startup). "
        f"Startup is measured from spawn to the first 200 from GET /v1/health (polled every "
        f"2 ms); the `listening` line came after {statistics.median(listen_ms):.1f} ms (median). "
        f"Stopping with SIGTERM took {statistics.median(exits_ms + [exit_after_load_ms]):.0f} ms "
        f"(median). Idle threads: {idle_threads if idle_threads is not None else 'n/a'}. "
        "On a machine with few cores the load generator shares the CPUs with the service.")
    add("")
    if any(entry.samples_ms for entry, _ in extras):
        add(f"Extra probes ({EXTRA_REQUESTS} sequential requests each, no targets):")
        add("")
        add("| metric | p50 | max |")
        add("|---|---|---|")
        for entry, _ in extras:
            if entry.samples_ms:
                add(f"| {entry.name} | {fmt_ms(entry.p50())} | {fmt_ms(max(entry.samples_ms))} |")
        add("")
    error_rows = [
        f"{entry.name}: {entry.errors}"
        for entry in series + [entry for entry, _ in extras]
        if entry.errors
    ]
    for entry in series + [entry for entry, _ in extras]:
        median = entry.p50()
        if median is not None and median > SLOW_MS:
            error_rows.append(f"slow: {entry.name} takes {median:.0f} ms (median)")
    if load.get("errors"):
        error_rows.append(f"health load: {load['errors']} non-2xx/failed responses")
    if load.get("socket_errors"):
        error_rows.append(f"health load socket errors: {load['socket_errors']}")
    if exit_code not in (0, None):
        error_rows.append(f"the service exited with {exit_code} after SIGTERM")
    if problems:
        error_rows.append(f"{len(problems)} WARN/ERROR lines in {os.path.relpath(SERVICE_LOG, ROOT)}, "
                          f"first: `{problems[0][:200]}`")
    add("Problems seen: " + ("none" if not error_rows else ""))
    for row in error_rows:
        add(f"- {row}")
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    with open(OUT_FILE, "w", encoding="utf-8") as handle:
        handle.write(report)
    log(f"wrote {OUT_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
