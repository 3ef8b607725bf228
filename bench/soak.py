#!/usr/bin/env python3
"""Soak test: one `recorder serve` under a long recording, event streams,
API load, imports and policy changes at once (Python 3.11 standard library).

One service on a fresh data folder (`general.allow_remote_start: true`,
RECORDER_POLICY_PATH a file this script rewrites, RECORDER_POLICY_REFRESH_SECS=1,
the tiny.en test model and Silero VAD as in bench/live.py), plays a call of
`--hours` (default 2) through `--mic-file/--sys-file` at `--speed` (the
service's --audio-speed, default 8: 2 h take 15 min) and meanwhile runs:

* `--seed` meetings (default 300) imported first through `POST /v1/import`
  (short espeak-ng clips), so reads and searches have a library;
* the recording, started with `POST /ui/recording/start` (ui_token) and
  stopped with `POST /ui/recording/stop` when the audio has been played;
* `--clients` (default 100) SSE clients on `GET /v1/events` that drop their
  connection at random (every 2-30 s) and come back 0-2 s later with
  `Last-Event-ID`; every id a client receives must be the one after the last
  it saw (the bus numbers every event and keeps the last 1024 for replay),
  and at the end each comes back once more and must reach the newest id;
* `--rps` (default 200) API requests per second, open loop, over `--conns`
  (32) keep-alive connections re-opened every 50-400 requests: list (20 %),
  get (25 %), transcript in all five formats (20 %), search (25 %) and
  PATCH of a title (10 %); 5 % of gets and transcripts ask for the meeting
  being recorded;
* `--imports` (default 6) imports of a 31 s clip spread over the recording;
* the policy file rewritten atomically (temp + rename) every `--policy-every`
  s (10), alternating {"MaxRetentionDays": 3650} and {"OrganizationName":
  "Acme"}, and `GET /v1/policy` polled until the new value shows;
* optionally `--slow-clients` SSE clients that stop reading for
  `--slow-pause` s per connection (they show the 1024-event replay window).

Then it checks the recording's journal (`meetings/<id>/{mic,sys}.wav`): its
length against the audio played (wall time between the start and stop
requests x speed) and its samples against the played files at up to 400
evenly spaced windows. The service's RSS and open fds (/proc/PID/status,
/proc/PID/fd) are sampled every 2 s; start (a quarter in, once whisper's
buffers are warm), middle and end are judged. It waits (`--drain-timeout`,
300 s) for the recording and the imports to be ready. Prints a Markdown
report and writes it to `--out` (default bench/results/soak-YYYY-MM-DD.md);
exits 1 if a target is missed (the request rate, errors, 5xx, event gaps,
journal gaps, RSS or fd growth).

Run:  python3 bench/soak.py                               # 2 h of call, ~25 min
      python3 bench/soak.py --hours 0.1 --rps 50 --clients 10   # a quick look
RECORDER_BIN (default target/debug/recorder; copied before it starts, so a
rebuild meanwhile does not matter), RECORDER_MODEL_PATH and RECORDER_VAD_PATH
override the binary and the models. `--keep` keeps the work folder in /tmp.
The service, HTTP, audio, seeding, /proc sampling and report helpers are
bench/harness's; this file holds the soak's load, checks and report.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import datetime
import json
import os
import pathlib
import random
import re
import resource
import shutil
import sys
import tempfile
import time
import urllib.parse
import wave
from collections import Counter, defaultdict

from harness.aio import Conn, HttpError, call, list_meetings, split_events, stopped
from harness.audio import RATE, audio_seconds, make_call, paragraphs, speak
from harness.common import (MODELS, ROOT, build_kind, built_at, copy_binary, env_path, git_head, make_log,
                            percentile, require_files, require_tools)
from harness.report import log_findings, table_head, write_result
from harness.sampling import builds_running, proc_sample
from harness.seeding import import_files, wait_ready
from harness.service import Service, StartFailed, service_env

BIN = env_path("RECORDER_BIN", ROOT / "target/debug/recorder")
MODEL = env_path("RECORDER_MODEL_PATH", MODELS / "ggml-tiny.en-q8_0.bin")
VAD = env_path("RECORDER_VAD_PATH", MODELS / "silero-vad.safetensors")

SEARCHES = ["mobile app", "customer", "office move", '"login problem"', "notif*", "release notes",
            "battery", "Sarah", "feedback", "support team", "budget", "crash reports"]
LOAD_KINDS = ["list", "get", "transcript", "search", "patch"]
POLICIES = [{"MaxRetentionDays": 3650}, {"OrganizationName": "Acme"}]

log = make_log("soak", clock=True)


# --------------------------------------------------------------------------
# Audio and the service
# --------------------------------------------------------------------------


def make_clips(folder: pathlib.Path):
    """Short clips (first sentence of some paragraphs) for the seeded library,
    and a longer one (two paragraphs, ~30 s) for the imports during the soak."""
    parts = paragraphs()
    short = []
    for n, text in enumerate(parts[:12]):
        sentence = re.split(r"(?<=[.?!])\s", text)[0]
        clip = folder / f"seed{n}.wav"
        speak(sentence, clip, voice="en-us" if n % 2 else "en-gb")
        short.append((clip, " ".join(sentence.split()[:4]).strip(",.")))
    long = folder / "import.wav"
    speak(parts[12] + " " + parts[13], long)
    return short, long


def start_service(work: pathlib.Path, files, policy_path) -> Service:
    """`recorder serve` on a fresh data folder (remote start allowed), playing
    `files` at --speed, its policy file `policy_path` re-read every second."""
    data = work / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"general": {"allow_remote_start": True},
                                                     # the call has its silences; it must run its length
                                                     "recording": {"stop_after_silence_min": 0}}))
    # A copy: a rebuild of target/debug/recorder mid-run changes nothing here.
    binary = copy_binary(BIN, work)
    env = service_env(RECORDER_MODEL_PATH=MODEL, RECORDER_POLICY_PATH=policy_path, RECORDER_POLICY_REFRESH_SECS=1,
                      RECORDER_VAD_PATH=VAD if VAD.is_file() else work / "no-vad")
    service = Service(binary, data, ["--mic-file", files["mic"], "--sys-file", files["sys"],
                                     "--audio-speed", str(ARGS.speed)], env, work / "service.stderr", append=False)
    try:
        service.wait_listening(None)
    except StartFailed as error:
        service.kill()
        raise SystemExit(f"the service did not start: {error.line!r} (see {work / 'service.stderr'})") from None
    return service


class _Planned(Exception):
    """Our own planned disconnect."""


class _Stalled(Exception):
    """Nothing (not even a keep-alive) for 45 s."""


def _within(deadline):
    """Awaits with the connection's deadline: past it, our planned disconnect
    (_Planned); 45 s (or `stall`) without anything before it, _Stalled."""

    async def within(awaitable, stall=45.0):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            awaitable.close()
            raise _Planned()
        try:
            return await asyncio.wait_for(awaitable, min(stall, remaining))
        except asyncio.TimeoutError:
            if time.monotonic() >= deadline - 0.01:
                raise _Planned() from None
            raise _Stalled() from None

    return within


# --------------------------------------------------------------------------
# The soak
# --------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.latency = defaultdict(list)   # kind -> ms
        self.errors = Counter()            # kind -> count (non-2xx or failure)
        self.status = Counter()            # (kind, status) -> count
        self.fivexx = 0
        self.error_samples = []
        self.requests = 0
        self.queue_wait = []
        self.skipped = 0
        self.done = Counter()              # kind -> finished requests (ok or not)

    def record(self, kind, status, ms, detail=""):
        self.requests += 1
        self.done[kind] += 1
        self.status[(kind, status)] += 1
        if status is not None and 200 <= status < 300:
            self.latency[kind].append(ms)
            return
        self.errors[kind] += 1
        if status is not None and status >= 500:
            self.fivexx += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(f"{kind} {status} {detail[:200]}")


class SseClient:
    def __init__(self, index, slow=False):
        self.index = index
        self.slow = slow
        self.last = None
        self.received = 0
        self.connections = 0
        self.replayed = 0
        self.max_replay = 0
        self.gaps = 0
        self.missing = 0
        self.dups = 0
        self.server_closed = 0
        self.stalls = 0
        self.refused = 0
        self.gap_samples = []
        self.connected = False

    def see(self, event_id, replaying):
        if self.last is not None:
            if event_id == self.last + 1:
                pass
            elif event_id > self.last + 1:
                self.gaps += 1
                self.missing += event_id - self.last - 1
                if len(self.gap_samples) < 5:
                    self.gap_samples.append((self.last, event_id, replaying))
            else:
                self.dups += 1
                return
        self.last = event_id
        self.received += 1


class Soak:
    def __init__(self, service: Service, work, files, clips, import_clip, policy_path):
        self.service = service
        self.work = work
        self.files = files
        self.clips = clips
        self.import_clip = import_clip
        self.policy_path = policy_path
        self.stats = Stats()
        self.worker_conns = []
        self.clients = [SseClient(i) for i in range(ARGS.clients)]
        # Opt-in: clients that stop reading for --slow-pause s on each connection.
        self.slow_clients = [SseClient(10_000 + i, slow=True) for i in range(ARGS.slow_clients)]
        self.event_types = Counter()
        self.error_events = []
        self.channel_events = []
        self.channel_states = Counter()
        self.live_lags = []            # (arrival, wall seconds after the line's end was played)
        self.first_progress = {}       # meeting id -> first transcription.progress (client 0)
        self.ready_events = {}         # meeting id -> first meeting.ready (client 0)
        self.live_lines = Counter()    # channel -> segment.new before the stop
        self.live_upto = {}            # channel -> newest end (s of audio) before the stop
        self.meeting_ids = []
        self.recording_id = None
        self.imports = {}              # meeting id -> queued at (monotonic)
        self.import_ready = {}         # meeting id -> seconds to ready
        self.policy_lags = []
        self.policy_writes = 0
        self.policy_missed = 0
        self.samples = []              # (t from soak start, sample dict, our open connections)
        self.builds_seen = 0
        self.stop_load = asyncio.Event()
        self.stop_sse = asyncio.Event()
        self.soak_started = None
        self.rec_start = None          # (sent, received) monotonic
        self.rec_stop = None
        self.seed_seconds = 0.0

    # ---------------------------------------------------------------- seeding

    async def seed(self):
        if ARGS.seed <= 0:
            return
        port, token = self.service.port, self.service.api
        started = time.monotonic()
        items = []
        for n in range(ARGS.seed):
            clip, words = self.clips[n % len(self.clips)]
            items.append((clip, f"Seed {n:03d} {words}"))
        ids = await import_files(port, token, items)
        log(f"queued {len(ids)} seed imports in {time.monotonic() - started:.1f} s; waiting for ready")
        ready = await wait_ready(port, token, len(ids), ARGS.seed_timeout)
        if ready < len(ids):
            log(f"seeding: only {ready}/{len(ids)} ready after {ARGS.seed_timeout} s; going on")
        self.seed_seconds = time.monotonic() - started
        log(f"seeded {len(ids)} meetings in {self.seed_seconds:.1f} s")

    async def all_meetings(self):
        return [m["id"] for m in await list_meetings(self.service.port, self.service.api)]

    # ---------------------------------------------------------------- load

    def pick(self):
        kind = random.choices(["list", "get", "transcript", "search", "patch"],
                              weights=[20, 25, 20, 25, 10])[0]
        ids = self.meeting_ids
        live = self.recording_id if self.recording_id and random.random() < 0.05 else None
        some = live or (random.choice(ids) if ids else self.recording_id)
        if kind == "list" or some is None:
            total = len(ids)
            offset = random.randint(0, max(0, total - 50))
            if random.random() < 0.2:
                return "list", "GET", f"/v1/meetings?limit=20&q={urllib.parse.quote(random.choice(SEARCHES))}", None
            return "list", "GET", f"/v1/meetings?limit=50&offset={offset}", None
        if kind == "get":
            return "get", "GET", f"/v1/meetings/{some}", None
        if kind == "transcript":
            fmt = random.choice(["json", "md", "txt", "srt", "vtt"])
            return "transcript", "GET", f"/v1/meetings/{some}/transcript?format={fmt}", None
        if kind == "search":
            return "search", "GET", f"/v1/search?q={urllib.parse.quote(random.choice(SEARCHES))}&limit=20", None
        target = random.choice(ids) if ids else some
        return "patch", "PATCH", f"/v1/meetings/{target}", {"title": f"Soak title {random.randint(0, 10**6)}"}

    async def dispatcher(self, queue):
        interval = 1.0 / ARGS.rps
        next_at = time.monotonic()
        while not self.stop_load.is_set():
            now = time.monotonic()
            while next_at <= now:
                # Open loop, but never more than 2 s of requests waiting: what
                # the connections cannot take is counted as not sent.
                if queue.qsize() < 2 * ARGS.rps:
                    queue.put_nowait((next_at, self.pick()))
                else:
                    self.stats.skipped += 1
                next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        for _ in range(ARGS.conns):
            queue.put_nowait(None)

    async def worker(self, queue):
        conn = Conn(self.service.port)
        self.worker_conns.append(conn)
        budget = random.randint(50, 400)
        token = self.service.api
        while True:
            item = await queue.get()
            if item is None:
                break
            due, (kind, method, path, body) = item
            self.stats.queue_wait.append(time.monotonic() - due)
            if not conn.is_open:
                try:
                    await conn.open()
                except OSError as error:
                    self.stats.record(kind, None, 0, f"connect: {error}")
                    continue
            started = time.perf_counter()
            try:
                status, content = await asyncio.wait_for(conn.request(method, path, token, body), 60)
                ms = (time.perf_counter() - started) * 1000
                self.stats.record(kind, status, ms, f"{method} {path}: {content[:200]!r}")
            except (OSError, HttpError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
                self.stats.record(kind, None, 0, f"{method} {path}: {type(error).__name__} {error}")
                conn.close()
                continue
            budget -= 1
            if budget <= 0:
                # A client that goes away and comes back: fds must be given back.
                conn.close()
                budget = random.randint(50, 400)
        conn.close()

    # ---------------------------------------------------------------- events

    async def sse_client(self, client: SseClient):
        while not self.stop_sse.is_set():
            lifetime = random.uniform(ARGS.sse_min_life, ARGS.sse_max_life)
            if client.slow:
                lifetime = ARGS.slow_pause + 30
            await self.sse_connection(client, lifetime)
            if self.stop_sse.is_set():
                break
            await stopped(self.stop_sse, random.uniform(0, 2.0))

    async def sse_connection(self, client: SseClient, lifetime, until_id=None):
        """One connection, held for `lifetime` s (then dropped by us). One
        deadline bounds every read (no `wait_for` inside `asyncio.timeout`:
        in Python 3.11 a cancellation can be swallowed that way)."""
        conn = Conn(self.service.port, slow=client.slow and until_id is None)
        extra = {"Accept": "text/event-stream"}
        resumed = client.last is not None
        if resumed:
            extra["Last-Event-ID"] = str(client.last)
        connected_at = time.monotonic()
        deadline = connected_at + lifetime
        replay = {"count": 0, "replaying": resumed}
        within = _within(deadline)
        try:
            status, headers = await within(conn.head("GET", "/v1/events", self.service.api, extra), 30)
            if status != 200:
                client.refused += 1
                self.stats.record("events", status, 0, "GET /v1/events")
                return
            client.connections += 1
            client.connected = True
            self.stats.record("events", status, (time.monotonic() - connected_at) * 1000)
            if conn.slow:
                # Reads nothing for a while: the service's writes to it back up.
                pause = min(ARGS.slow_pause, deadline - time.monotonic() - 1)
                await stopped(self.stop_sse, max(0.0, pause))
            await self.read_events(conn, client, within, connected_at, replay, until_id)
        except _Planned:
            pass
        except _Stalled:
            client.stalls += 1
        except (OSError, HttpError, asyncio.IncompleteReadError, ValueError) as error:
            client.server_closed += 1
            if len(self.stats.error_samples) < 20:
                self.stats.error_samples.append(f"events client {client.index}: {type(error).__name__} {error}")
        finally:
            client.connected = False
            conn.close()
            if resumed:
                client.replayed += 1
                client.max_replay = max(client.max_replay, replay["count"])

    async def read_events(self, conn, client: SseClient, within, connected_at, replay, until_id):
        """Reads the stream's events until it ends, the soak stops or (with
        `until_id`) the client has seen that id; counts the replayed ones."""
        buffer = b""
        while True:
            part = await within(conn.chunk())
            if self.stop_sse.is_set():
                return
            if not part:
                client.server_closed += 1
                return
            events, buffer = split_events(buffer + part)
            for event_id, kind, data in events:
                if event_id is None:
                    continue
                # A replay is sent at once: its events happened before we
                # connected (their `at`), the live ones after.
                if replay["replaying"] and data is not None:
                    at = _at(data)
                    if at is not None and at <= self.ms_at(connected_at):
                        replay["count"] += 1
                    else:
                        replay["replaying"] = False
                client.see(event_id, replay["replaying"])
                if client.index == 0:
                    self.note_event(kind, data)
                if until_id is not None and client.last is not None and client.last >= until_id:
                    return

    def ms_at(self, monotonic):
        return self.wall_offset_ms + monotonic * 1000

    def note_event(self, kind, data):
        self.event_types[kind] += 1
        if kind == "error" and len(self.error_events) < 20:
            self.error_events.append(data.decode(errors="replace")[:300])
        if kind == "recording.channel":
            text = data.decode(errors="replace")
            state = re.search(r'"state":"(\w+)"', text)
            self.channel_states[state.group(1) if state else "?"] += 1
            # `silent`/`ok` follow the turn-taking of the call; keep the rest (lost audio, failures).
            unusual = not state or state.group(1) == "failed" or ("message" in text and "No sound" not in text)
            if unusual and len(self.channel_events) < 20:
                self.channel_events.append(text[:300])
        if kind == "segment.new" and self.rec_start is not None:
            end = re.search(rb'"end_ms":(\d+)', data)
            channel = re.search(rb'"channel":"(\w+)"', data)
            if end and channel and self.rec_stop is None:
                name = channel.group(1).decode()
                self.live_lines[name] += 1
                self.live_upto[name] = max(self.live_upto.get(name, 0), int(end.group(1)) / 1000)
            meeting = re.search(rb'"meeting_id":"([0-9a-f-]+)"', data)
            if end and channel and meeting and meeting.group(1).decode() == self.recording_id:
                said = self.rec_start[1] + int(end.group(1)) / 1000 / ARGS.speed
                self.live_lags.append((time.monotonic(), time.monotonic() - said, channel.group(1).decode()))
        if kind == "meeting.ready":
            meeting = re.search(rb'"meeting_id":"([0-9a-f-]+)"', data)
            if meeting:
                self.ready_events.setdefault(meeting.group(1).decode(), time.monotonic())
        if kind == "transcription.progress":
            meeting = re.search(rb'"meeting_id":"([0-9a-f-]+)"', data)
            if meeting:
                self.first_progress.setdefault(meeting.group(1).decode(), time.monotonic())

    # ---------------------------------------------------------------- policy, imports, sampling

    async def policy_writer(self):
        conn = Conn(self.service.port)
        n = 0
        while not self.stop_load.is_set():
            if await stopped(self.stop_load, ARGS.policy_every):
                break
            n += 1
            policy = POLICIES[n % 2]
            temp = self.policy_path.with_name(f".{self.policy_path.name}.tmp")
            temp.write_text(json.dumps(policy))
            os.replace(temp, self.policy_path)
            self.policy_writes += 1
            written = time.monotonic()
            key, value = next(iter(policy.items()))
            seen = False
            while time.monotonic() - written < 5:
                started = time.perf_counter()
                try:
                    status, body = await asyncio.wait_for(conn.request("GET", "/v1/policy", self.service.api), 30)
                except (OSError, HttpError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                    self.stats.record("policy", None, 0, f"GET /v1/policy: {error}")
                    conn.close()
                    continue
                self.stats.record("policy", status, (time.perf_counter() - started) * 1000)
                if status == 200:
                    keys = {k["key"]: k["value"] for k in json.loads(body)["keys"]}
                    other = "OrganizationName" if key == "MaxRetentionDays" else "MaxRetentionDays"
                    if keys.get(key) == value and keys.get(other) is None:
                        seen = True
                        break
                await asyncio.sleep(0.2)
            if seen:
                self.policy_lags.append(time.monotonic() - written)
            else:
                self.policy_missed += 1
        conn.close()

    async def importer(self, duration):
        if ARGS.imports <= 0:
            return
        spacing = duration / (ARGS.imports + 1)
        for n in range(ARGS.imports):
            if await stopped(self.stop_load, spacing):
                return
            started = time.perf_counter()
            try:
                status, body = await call(self.service.port, self.service.api, "POST", "/v1/import",
                                          {"path": str(self.import_clip), "title": f"Soak import {n}"})
            except (OSError, HttpError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
                self.stats.record("import", None, 0, str(error))
                continue
            self.stats.record("import", status, (time.perf_counter() - started) * 1000, repr(body[:200]))
            if status == 202:
                meeting = json.loads(body)["id"]
                self.imports[meeting] = time.monotonic()
                self.meeting_ids.append(meeting)

    async def sampler(self):
        while not self.stop_sse.is_set():
            sample = proc_sample(self.service.pid)
            ours = sum(c.is_open for c in self.worker_conns) + sum(c.connected for c in self.clients + self.slow_clients)
            self.samples.append((time.monotonic() - self.soak_started, sample, ours))
            if builds_running():
                self.builds_seen += 1
            await stopped(self.stop_sse, 2.0)

    async def progress(self, duration):
        last_requests, last_t = 0, time.monotonic()
        while not self.stop_load.is_set():
            if await stopped(self.stop_load, 30):
                return
            now = time.monotonic()
            rps = (self.stats.requests - last_requests) / (now - last_t)
            last_requests, last_t = self.stats.requests, now
            sample = self.samples[-1][1] if self.samples else {}
            gaps = sum(c.gaps for c in self.clients)
            log(f"t={now - self.soak_started:5.0f}/{duration:.0f} s  {rps:5.1f} req/s  "
                f"requests={self.stats.requests} errors={sum(self.stats.errors.values())} "
                f"5xx={self.stats.fivexx} gaps={gaps} rss={sample.get('rss_mb', 0):.0f} MB "
                f"fds={sample.get('fds', 0)} load={sample.get('load', 0):.1f}")

    async def refresh_ids(self):
        """New meetings (imports) join the pool of ids the load picks from."""
        while not self.stop_load.is_set():
            if await stopped(self.stop_load, 15):
                return
            try:
                ids = await self.all_meetings()
                self.meeting_ids = [i for i in ids if i != self.recording_id]
            except Exception as error:  # the load itself reports failures
                log(f"refreshing ids failed: {error}")

    # ---------------------------------------------------------------- main

    async def run(self):
        self.wall_offset_ms = time.time() * 1000 - time.monotonic() * 1000
        await self.seed()
        self.meeting_ids = await self.all_meetings()
        self.idle_sample = proc_sample(self.service.pid)
        duration = ARGS.hours * 3600 / ARGS.speed
        self.duration = duration
        self.soak_started = time.monotonic()
        sampler = asyncio.create_task(self.sampler())
        sse = [asyncio.create_task(self.sse_client(c)) for c in self.clients + self.slow_clients]
        await asyncio.sleep(1.0)  # streams open before the recording's first event

        self.own_cpu_start = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
        sent = time.monotonic()
        status, body = await call(self.service.port, self.service.ui, "POST", "/ui/recording/start",
                                  {"title": "Soak call"})
        received = time.monotonic()
        if status != 201:
            raise SystemExit(f"POST /ui/recording/start answered {status}: {body[:300]!r}")
        self.stats.record("recording start", status, (received - sent) * 1000)
        self.rec_start = (sent, received)
        self.recording_id = json.loads(body)["id"]
        log(f"recording {self.recording_id} for {duration:.0f} s of wall time "
            f"({ARGS.hours} h at speed {ARGS.speed})")

        queue = asyncio.Queue()
        tasks = [asyncio.create_task(self.dispatcher(queue))]
        tasks += [asyncio.create_task(self.worker(queue)) for _ in range(ARGS.conns)]
        tasks += [asyncio.create_task(self.policy_writer()), asyncio.create_task(self.importer(duration)),
                  asyncio.create_task(self.progress(duration)), asyncio.create_task(self.refresh_ids())]

        end_at = sent + duration
        await asyncio.sleep(max(0.0, end_at - time.monotonic()))

        sent = time.monotonic()
        status, body = await call(self.service.port, self.service.ui, "POST", "/ui/recording/stop", None, 120)
        received = time.monotonic()
        self.stats.record("recording stop", status, (received - sent) * 1000, repr(body[:200]))
        self.rec_stop = (sent, received)
        self.load_done_at_stop = sum(self.stats.done[k] for k in LOAD_KINDS)
        self.own_cpu = sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - self.own_cpu_start
        log(f"recording stopped ({status}) after {sent - self.rec_start[1]:.1f} s")

        # A few more seconds of load and events after the stop, then wind down.
        await asyncio.sleep(3)
        self.stop_load.set()
        await asyncio.gather(*tasks)
        self.stop_sse.set()
        await asyncio.gather(*sse)
        await sampler
        await self.final_catch_up()
        await self.drain()

    async def final_catch_up(self):
        """Every client comes back once more with its Last-Event-ID and must
        receive, without a gap, everything up to the newest id any client saw."""
        everyone = self.clients + self.slow_clients
        newest = max((c.last for c in everyone if c.last is not None), default=None)
        self.final_newest = newest
        if newest is None:
            return
        self.stop_sse.clear()
        await asyncio.gather(*[self.sse_connection(c, 10, until_id=newest) for c in everyone])
        self.stop_sse.set()
        self.behind_at_end = sum(1 for c in everyone if c.last is None or c.last < newest)

    async def drain(self):
        """Waits (up to --drain-timeout) for the recording and the imports to be ready."""
        started = time.monotonic()
        self.final_status = None
        while True:
            status, body = await call(self.service.port, self.service.api, "GET", f"/v1/meetings/{self.recording_id}")
            meeting = json.loads(body) if status == 200 else {}
            self.final_status = meeting.get("status")
            self.recording_meeting = meeting
            for meeting_id, queued in self.imports.items():
                if meeting_id not in self.import_ready:
                    s, b = await call(self.service.port, self.service.api, "GET", f"/v1/meetings/{meeting_id}")
                    if s == 200 and json.loads(b)["status"] == "ready":
                        # When it became ready: its `meeting.ready` event (client 0 sees
                        # every event, replays included), else now.
                        became = self.ready_events.get(meeting_id, time.monotonic())
                        self.import_ready[meeting_id] = became - queued
            if self.final_status == "ready" and len(self.import_ready) == len(self.imports):
                break
            if time.monotonic() - started > ARGS.drain_timeout:
                break
            await asyncio.sleep(1)
        self.drain_seconds = time.monotonic() - started
        status, body = await call(self.service.port, self.service.api, "GET",
                                  f"/v1/meetings/{self.recording_id}/transcript?format=json")
        self.segments = len(json.loads(body).get("segments", [])) if status == 200 else None
        self.after_sample = proc_sample(self.service.pid)


def _at(data: bytes):
    match = re.search(rb'"at":(\d+)\}$', data)
    return int(match.group(1)) if match else None


# --------------------------------------------------------------------------
# Journal check
# --------------------------------------------------------------------------


def check_journal(played: pathlib.Path, journal: pathlib.Path, expected_lo, expected_hi, tolerance):
    """Length against the audio played, and samples at evenly spaced windows
    against the played file (zeros after its end): a dropped or doubled block
    shifts everything after it and shows as mismatching windows."""
    result = {"channel": journal.stem, "exists": journal.is_file()}
    if not journal.is_file():
        return result
    with wave.open(str(journal)) as j, wave.open(str(played)) as p:
        frames, source_frames = j.getnframes(), p.getnframes()
        result["seconds"] = frames / RATE
        result["file_bytes_seconds"] = (journal.stat().st_size - 44) / 2 / RATE
        result["lo"], result["hi"] = expected_lo, expected_hi
        result["short_by"] = max(0.0, expected_lo - tolerance - result["seconds"])
        result["long_by"] = max(0.0, result["seconds"] - expected_hi - tolerance)
        window = RATE // 2
        step = max(RATE * 5, (frames - window) // 400) if frames > window else 1
        checked, mismatched, first_bad, worst = 0, 0, None, 0
        for start in range(0, max(0, frames - window), step):
            j.setpos(start)
            mine = array.array("h", j.readframes(window))
            if start < source_frames:
                p.setpos(start)
                theirs = array.array("h", p.readframes(window))
            else:
                theirs = array.array("h")
            theirs.extend([0] * (len(mine) - len(theirs)))
            diff = max((abs(a - b) for a, b in zip(mine, theirs)), default=0)
            checked += 1
            if diff > 2:
                mismatched += 1
                worst = max(worst, diff)
                if first_bad is None:
                    first_bad = start / RATE
        result.update(checked=checked, mismatched=mismatched, first_bad=first_bad, worst=worst)
    return result


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def resource_points(soak: Soak):
    """The samples judged: idle, start (warm), middle, end (before the stop),
    after the drain; and the samples taken while recording."""
    duration = soak.duration
    # whisper's compute buffers (two states: about 180 MB each) are touched as
    # longer utterances come, so RSS climbs for the first minutes; "start" is
    # taken at a quarter of the run (at least 60 s), when that is over.
    warm = min(max(60.0, duration * 0.25), duration / 2)

    def at(t):
        return min(soak.samples, key=lambda s: abs(s[0] - t)) if soak.samples else None

    recording_samples = [s for s in soak.samples if s[0] <= soak.rec_stop[0] - soak.soak_started]
    points = {"idle (seeded, before load)": (None, soak.idle_sample, 0),
              "start (warm)": at(warm), "middle": at(duration / 2),
              "end (before stop)": recording_samples[-1] if recording_samples else None,
              "after stop and drain": (None, soak.after_sample, 0)}
    return points, recording_samples


def judge(soak: Soak, journals, points):
    """The checks of the report's first table: (name, value, target, met);
    an empty target is reported, not judged."""
    stats = soak.stats
    start, end = points["start (warm)"], points["end (before stop)"]
    rss_growth = end[1]["rss_mb"] - start[1]["rss_mb"]
    rss_limit = max(30.0, 0.15 * start[1]["rss_mb"])
    # Sockets minus the connections this script held at that moment: what the
    # service holds beyond its clients (listener, internal); must not grow.
    excess = lambda s: s[1]["fds"] - s[2]
    fd_growth = excess(end) - excess(start)
    fd_limit = 10
    gaps = sum(c.gaps for c in soak.clients)
    missing = sum(c.missing for c in soak.clients)
    dups = sum(c.dups for c in soak.clients)
    clients_with_gaps = sum(1 for c in soak.clients if c.gaps)
    journal_bad = sum(1 for j in journals if not j.get("exists") or j.get("short_by", 0) > 0
                      or j.get("long_by", 0) > 0 or j.get("mismatched", 0) > 0)
    errors = sum(stats.errors.values())
    load_requests = sum(stats.done[k] for k in LOAD_KINDS)
    achieved = soak.load_done_at_stop / (soak.rec_stop[0] - soak.rec_start[1])
    judged = ("start (warm)", "middle", "end (before stop)")
    rss = " → ".join(f"{points[k][1]['rss_mb']:.0f}" for k in judged)
    fds = " → ".join(f"{points[k][1]['fds']}" for k in judged)
    return [
        ("requests made (all kinds)", f"{stats.requests}", "", True),
        ("API load: answered per s while recording", f"{achieved:.1f}/s ({load_requests} in all, "
         f"{stats.skipped} not sent: over 2 s behind)", f"{ARGS.rps:g}/s", achieved >= 0.95 * ARGS.rps),
        ("errors (non-2xx or failed)", f"{errors}", "0", errors == 0),
        ("5xx", f"{stats.fivexx}", "0", stats.fivexx == 0),
        ("event gaps after replay (all clients)",
         f"{gaps} gaps, {missing} ids missing, {clients_with_gaps}/{len(soak.clients)} clients", "0", gaps == 0),
        ("duplicate event ids", f"{dups}", "0", dups == 0),
    ] + ([
        (f"slow clients ({len(soak.slow_clients)}, {ARGS.slow_pause:g} s without reading): gaps after replay",
         f"{sum(c.gaps for c in soak.slow_clients)} gaps, {sum(c.missing for c in soak.slow_clients)} ids missing; "
         f"streams closed by the service {sum(c.server_closed for c in soak.slow_clients)}",
         "", True),
    ] if soak.slow_clients else []) + [
        ("journal gaps", f"{journal_bad} of {len(journals)} channel files", "0", journal_bad == 0),
        ("service RSS start → middle → end", rss + " MB",
         f"growth ≤ {rss_limit:.0f} MB", rss_growth <= rss_limit),
        ("service fds start → middle → end", fds
         + f" (beyond our connections: {excess(start)} → {excess(end)})",
         f"growth ≤ {fd_limit}", fd_growth <= fd_limit),
    ]


def report(soak: Soak, journals, started_wall):
    """The Markdown report, and the names of the targets missed."""
    points, recording_samples = resource_points(soak)
    targets = judge(soak, journals, points)
    failed = [name for name, _, target, ok in targets if target and not ok]
    out = []
    w = out.append
    report_checks(w, soak, targets, started_wall)
    report_latency(w, soak.stats)
    report_resources(w, soak, points, recording_samples)
    report_events(w, soak)
    report_journal(w, soak, journals)
    report_imports_policy(w, soak)
    report_log_samples(w, soak)
    w("\n" + ("All targets met." if not failed else "Missed: " + "; ".join(failed) + "."))
    return "\n".join(out) + "\n", failed


def report_checks(w, soak: Soak, targets, started_wall):
    span = soak.rec_stop[1] - soak.rec_start[0]
    w(f"# Soak: {ARGS.hours} h of call at speed {ARGS.speed}, {ARGS.rps} req/s, {ARGS.clients} event clients\n")
    w(f"{started_wall:%Y-%m-%d %H:%M} UTC, `{BIN.relative_to(ROOT) if BIN.is_relative_to(ROOT) else BIN}`"
      f" ({build_kind(BIN)} build), model {MODEL.name}, "
      f"VAD {'Silero' if VAD.is_file() else 'energy'}, {os.cpu_count()} cores. "
      f"Wall time of the recording {span:.0f} s; {ARGS.seed} meetings seeded by import"
      f"{f' in {soak.seed_seconds:.0f} s' if ARGS.seed else ''}; {ARGS.conns} API connections; "
      f"event clients reconnect every {ARGS.sse_min_life:g}-{ARGS.sse_max_life:g} s.\n")
    w(f"Binary built {BIN_BUILT}; checkout at {GIT_HEAD}.\n")
    w(f"`python3 bench/soak.py {' '.join(sys.argv[1:])}`\n")
    for line in table_head("check", "result", "target", "met"):
        w(line)
    for name, value, target, ok in targets:
        w(f"| {name} | {value} | {target} | {'—' if not target else ('yes' if ok else '**no**')} |")
    w("")


def report_latency(w, stats: Stats):
    w("## Latency per request kind (ms, from sending the request to its last byte)\n")
    for line in table_head("kind", "ok", "errors", "p50", "p99", "max"):
        w(line)
    kinds = LOAD_KINDS + ["events", "policy", "import", "recording start", "recording stop"]
    for kind in kinds:
        samples = stats.latency[kind]
        if not samples and not stats.errors[kind]:
            continue
        w(f"| {kind} | {len(samples)} | {stats.errors[kind]} | {percentile(samples, 50):.1f} | "
          f"{percentile(samples, 99):.1f} | {max(samples, default=float('nan')):.1f} |")
    waits = stats.queue_wait
    w(f"\nThe load generator's queue wait (due → sent): p50 {percentile(waits, 50) * 1000:.1f} ms, "
      f"p99 {percentile(waits, 99) * 1000:.1f} ms, max {max(waits, default=0) * 1000:.0f} ms "
      "(high values mean the requests were late, i.e. the service or this script could not keep up).\n")


def report_resources(w, soak: Soak, points, recording_samples):
    w("## Service resources (/proc)\n")
    for line in table_head("when", "t (s)", "RSS MB (heap / other anon / file-backed)", "fds", "sockets", "files",
                           "threads", "our connections", "load avg"):
        w(line)
    for name, point in points.items():
        if point is None:
            continue
        t, s, ours = point
        w(f"| {name} | {'' if t is None else f'{t:.0f}'} | {s['rss_mb']:.0f} ({s['heap_mb']:.0f} / {s['anon_mb']:.0f} / {s['file_mb']:.0f}) | {s['fds']} | {s['sockets']} | "
          f"{s['files']} | {s['threads']} | {ours if t is not None else ''} | {s['load']:.2f} |")
    span = soak.rec_stop[1] - soak.rec_start[0]
    peak_rss = max(s[1]["rss_mb"] for s in soak.samples)
    cpu_span = recording_samples[-1][1]["cpu"] - recording_samples[0][1]["cpu"] if len(recording_samples) > 1 else 0
    t_span = recording_samples[-1][0] - recording_samples[0][0] if len(recording_samples) > 1 else 1
    w(f"\nPeak RSS {peak_rss:.0f} MB; service CPU over the recording {100 * cpu_span / t_span:.0f} % of one core, "
      f"this script's {100 * soak.own_cpu / span:.0f} %; "
      f"a compiler was running in {soak.builds_seen} of {len(soak.samples)} samples (2 s apart). "
      "Start is the sample at a quarter of the recording (at least 60 s: the model's buffers fill first), "
      "end the last before the stop.\n")
    duration = soak.duration
    series = [min(recording_samples, key=lambda s: abs(s[0] - duration * k / 10)) for k in range(11)] if recording_samples else []
    w("RSS MB / fds every 10 % of the recording: " + ", ".join(f"{s[1]['rss_mb']:.0f}/{s[1]['fds']}" for s in series) + "\n")


def report_events(w, soak: Soak):
    w("## Event streams\n")
    connections = sum(c.connections for c in soak.clients)
    replayed = sum(c.replayed for c in soak.clients)
    for line in table_head("clients", "connections", "reconnects with Last-Event-ID", "events received",
                           "largest replay", "closed by the service", "stalls (45 s silent)", "refused",
                           "behind at the end"):
        w(line)
    w(f"| {len(soak.clients)} | {connections} | {replayed} | {sum(c.received for c in soak.clients)} | "
      f"{max(c.max_replay for c in soak.clients)} | {sum(c.server_closed for c in soak.clients)} | "
      f"{sum(c.stalls for c in soak.clients)} | {sum(c.refused for c in soak.clients)} | "
      f"{getattr(soak, 'behind_at_end', 'n/a')} |")
    w("\nEvents seen by client 0, by type: " + ", ".join(f"{k} {v}" for k, v in soak.event_types.most_common()) + ".")
    if sum(c.gaps for c in soak.clients) or any(c.gaps for c in soak.slow_clients):
        w("\nGaps (client: last id seen → next id received, during replay?; slow clients are numbered from 10000):")
        for c in soak.clients + soak.slow_clients:
            for last, got, replaying in c.gap_samples:
                w(f"- client {c.index}: {last} → {got} ({got - last - 1} missing, {'replay' if replaying else 'live'})")
    if soak.slow_clients:
        w(f"\nSlow clients stop reading for {ARGS.slow_pause:g} s on each connection, then read and come back "
          "with `Last-Event-ID`: a client more than 1024 events behind when it comes back (the contract's replay "
          "window) misses the events no longer kept. Reported, not judged.")


def report_journal(w, soak: Soak, journals):
    w("\n## Recording journal\n")
    for line in table_head("channel", "played (s, from the requests' times × speed)", "journal (s)", "short by",
                           "long by", "windows compared", "mismatched", "first mismatch (s)"):
        w(line)
    for j in journals:
        if not j.get("exists"):
            w(f"| {j['channel']} | | missing | | | | | |")
            continue
        w(f"| {j['channel']} | {j['lo']:.1f}–{j['hi']:.1f} | {j['seconds']:.1f} | {j['short_by']:.1f} | "
          f"{j['long_by']:.1f} | {j['checked']} | {j['mismatched']} | "
          f"{'' if j['first_bad'] is None else format(j['first_bad'], '.1f')} |")
    report_live(w, soak)
    meeting = getattr(soak, "recording_meeting", {}) or {}
    w(f"\nAfter the stop: the meeting was `{soak.final_status}` after {soak.drain_seconds:.0f} s "
      f"(limit {ARGS.drain_timeout} s), {soak.segments} segments, duration_ms {meeting.get('duration_ms')}, "
      f"processing_error {meeting.get('processing_error')!r}.\n")


def report_live(w, soak: Soak):
    """The live transcript's lag behind the audio played, before the stop."""
    lags = [lag for arrived, lag, _ in soak.live_lags if arrived <= soak.rec_stop[0]]
    if not lags:
        return
    tail = [lag for arrived, lag, _ in soak.live_lags if soak.rec_stop[0] - 30 <= arrived <= soak.rec_stop[0]]
    per_channel = "; ".join(
        f"`{ch}` p50 {percentile(l, 50):.1f} s, p95 {percentile(l, 95):.1f} s, max {max(l):.1f} s"
        for ch in ("mic", "sys")
        if (l := [lag for arrived, lag, c in soak.live_lags if c == ch and arrived <= soak.rec_stop[0]]))
    w(f"\nLive transcript: {len(lags)} `segment.new` of the recording before the stop (client 0); a line "
      f"arrived p50 {percentile(lags, 50):.1f} s, p95 {percentile(lags, 95):.1f} s, max {max(lags):.1f} s "
      f"(wall) after its end was played ({per_channel}); in the last 30 s before the stop "
      f"{percentile(tail, 50) if tail else float('nan'):.1f} s "
      f"(a lag that grows means the live transcriber fell behind the {ARGS.speed:g}× audio). "
      f"Channel state events: {dict(soak.channel_states)} (`silent` is the call's turn-taking at {ARGS.speed:g}×).")
    played = (soak.rec_stop[0] - soak.rec_start[1]) * ARGS.speed
    w("\nAt the stop, " + "; ".join(
        f"`{ch}`: {soak.live_lines[ch]} lines, transcribed up to {soak.live_upto.get(ch, 0):.0f} s of the "
        f"{played:.0f} s played" for ch in ("mic", "sys")) + ".")


def report_imports_policy(w, soak: Soak):
    w("## Imports and policy\n")
    ready_times = list(soak.import_ready.values())
    waits = [soak.first_progress[m] - q for m, q in soak.imports.items() if m in soak.first_progress]
    each = ", ".join(
        f"{q - soak.rec_start[1]:.0f} → " + (f"{soak.import_ready[m]:.0f}" if m in soak.import_ready else "not ready")
        for m, q in soak.imports.items())
    w(f"- Imports during the recording ({audio_seconds(soak.import_clip):.0f} s clips): {len(soak.imports)} queued "
      f"(202), {len(ready_times)} ready; queued → `meeting.ready` p50 {percentile(ready_times, 50):.0f} s, "
      f"max {max(ready_times, default=float('nan')):.0f} s; queued → first `transcription.progress` p50 "
      f"{percentile(waits, 50):.0f} s, max {max(waits, default=float('nan')):.0f} s. Each (s into the recording, "
      f"which ended at {soak.rec_stop[0] - soak.rec_start[1]:.0f} s → s to ready): {each}.")
    w(f"- Policy file rewritten {soak.policy_writes} times; the new value showed in `GET /v1/policy` "
      f"{len(soak.policy_lags)} times (p50 {percentile(soak.policy_lags, 50):.1f} s, max "
      f"{max(soak.policy_lags, default=float('nan')):.1f} s after the write), not within 5 s {soak.policy_missed} times.")


def report_log_samples(w, soak: Soak):
    """The service log's warnings and errors, and samples of what failed."""
    stats = soak.stats
    findings, examples = log_findings(soak.service.data)
    if findings:
        w("\n## Service log warnings and errors\n")
        for line in table_head("count", "message (numbers and ids as #)"):
            w(line)
        for key, count in findings.most_common(15):
            w(f"| {count} | `{key.replace('|', '/')}` |")
    if stats.error_samples or soak.error_events or soak.channel_events:
        w("\n## Samples\n")
        for line in stats.error_samples:
            w(f"- request: `{line.replace('`', '')}`")
        for line in soak.error_events:
            w(f"- `error` event: `{line}`")
        for line in soak.channel_events:
            w(f"- `recording.channel` event: `{line}`")


# --------------------------------------------------------------------------


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=2.0, help="call audio played (default 2)")
    parser.add_argument("--speed", type=float, default=8.0, help="--audio-speed (default 8)")
    parser.add_argument("--rps", type=float, default=200.0, help="API requests per second (default 200)")
    parser.add_argument("--clients", type=int, default=100, help="SSE clients (default 100)")
    parser.add_argument("--conns", type=int, default=32, help="API keep-alive connections (default 32)")
    parser.add_argument("--seed", type=int, default=300, help="meetings imported before the soak (default 300)")
    parser.add_argument("--seed-timeout", type=float, default=900)
    parser.add_argument("--imports", type=int, default=6, help="imports during the recording (default 6)")
    parser.add_argument("--policy-every", type=float, default=10.0)
    parser.add_argument("--sse-min-life", type=float, default=2.0)
    parser.add_argument("--sse-max-life", type=float, default=30.0)
    parser.add_argument("--slow-clients", type=int, default=0,
                        help="extra SSE clients that stop reading for --slow-pause s per connection (default 0)")
    parser.add_argument("--slow-pause", type=float, default=120.0)
    parser.add_argument("--drain-timeout", type=float, default=300.0,
                        help="seconds to wait after the stop for the meeting and imports to be ready")
    parser.add_argument("--out", default=str(ROOT / f"bench/results/soak-{datetime.date.today():%Y-%m-%d}.md"))
    parser.add_argument("--keep", action="store_true", help="keep the work folder (audio, data folder)")
    parser.add_argument("--random-seed", type=int, default=1)
    return parser.parse_args()


def main():
    global ARGS
    ARGS = parse_args()
    random.seed(ARGS.random_seed)
    require_files([(BIN, "build it (cargo build -p recorder-cli) or set RECORDER_BIN"),
                   (MODEL, "run scripts/test-model.sh or set RECORDER_MODEL_PATH")])
    require_tools(("espeak-ng", "sox"))
    started_wall = datetime.datetime.now(datetime.timezone.utc)
    global BIN_BUILT, GIT_HEAD
    BIN_BUILT = built_at(BIN)
    GIT_HEAD = git_head()
    work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-soak-"))
    log(f"work folder {work}")
    service = None
    try:
        audio = work / "audio"
        audio.mkdir()
        made = time.monotonic()
        files, block = make_call(audio, ARGS.hours)
        clips, import_clip = make_clips(audio)
        log(f"made {ARGS.hours} h of call audio (an {block:.0f} s block repeated) in {time.monotonic() - made:.0f} s")
        policy_path = work / "policy.json"
        policy_path.write_text(json.dumps(POLICIES[0]))
        service = start_service(work, files, policy_path)
        log(f"service pid {service.pid} on port {service.port}")
        soak = Soak(service, work, files, clips, import_clip, policy_path)
        asyncio.run(soak.run())
        start_sent, start_received = soak.rec_start
        stop_sent, stop_received = soak.rec_stop
        lo = (stop_sent - start_received) * ARGS.speed
        hi = (stop_received - start_sent) * ARGS.speed
        folder = service.data / "meetings" / soak.recording_id
        tolerance = 0.25 * ARGS.speed
        journals = [check_journal(files[ch], folder / f"{ch}.wav", lo, hi, tolerance) for ch in ("mic", "sys")]
        text, failed = report(soak, journals, started_wall)
    finally:
        if service is not None:
            service.terminate(30)
        if ARGS.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    write_result(text, ARGS.out, log)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
