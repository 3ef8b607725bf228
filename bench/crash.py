#!/usr/bin/env python3
"""Crash trials: SIGKILL the service at random moments and check what survives.

Each trial runs in a fresh temporary data folder and picks, from its own seed
(`random.Random(seed)`), a scenario and the moments to kill the service:

  recording  `recorder serve --mic-file --sys-file --audio-speed 4`, started and
             stopped with the person's buttons (`/ui/recording/start|stop`);
             killed while starting, while recording, while stopping, or while
             the stopped recording is being transcribed
  import     `POST /v1/import {path}` (one or two WAVs, the second queued) or
             the person's upload `POST /ui/imports` (the body streamed slowly,
             so a kill can cut it off); killed at any point up to the notes
  notes      `POST /v1/meetings/:id/notes {kind}` (Pro: a development licence,
             signed here with the committed seed, installed via `/ui/license`)
             on seeded ready meetings
  export     a burst of `POST /ui/meetings/:id/export {folder}` on seeded
             meetings
  retention  `PATCH /ui/settings {"retention": {"keep_audio_days": 1, ...}}` on
             seeded meetings that ended days ago (audio files present), with a
             recent and a starred one beside them

Any trial may also kill the very first start of the fresh folder (tokens,
database and settings being created) and the restart that follows the main
kill (crash recovery under way). After the last restart it waits (at most
120 s) for every meeting to be `ready`, then checks:

  * the service restarts, and every meeting reaches `ready` with a summary note
    (GET /v1/meetings and GET /v1/meetings/:id);
  * what the service acknowledged survived: a started recording, an accepted
    import, a regenerated note (its id changed), an export file, a settings
    change;
  * recordings lost at most 2 s of audio per channel: the time between the
    start's answer and the kill (or the stop), times 4, against the length of
    meetings/<id>/{mic,sys}.wav;
  * no transcript segment is stored twice (same channel, start_ms and text),
    no note kind twice, no job is left over;
  * after a SIGTERM (which must end the service within 20 s): `PRAGMA
    integrity_check` is `ok`, no foreign key is broken, the FTS5 indexes pass
    their integrity-check;
  * nothing is left half-written or behind: no `*.part`, no `.*.tmp-*` (atomic
    writes' temporaries) anywhere in the data folder, no folder in meetings/
    without its meeting, and every file in the export folder is a whole
    export (byte-equal to a fresh export of its meeting);
  * retention: with the setting saved, every meeting past it lost its audio
    (folder gone, `audio_removed_at` set) or was deleted, and no other did.

Prints a Markdown table (also written to --out, default
bench/results/crash-<date>.md); exit status 1 when any trial failed. Progress
goes to stderr. A failing trial's folder (data, export folder, service log)
is kept and named in the output; `--only-seed S` runs that trial again (the
scenario and delays are the same; the service's own timing is not).

Run:  python3 bench/crash.py [--trials 100] [--seed 1] [--only-seed S]
      [--scenario NAME] [--out FILE] [--keep]
Needs: a built `target/debug/recorder` (RECORDER_BIN overrides; debug builds
accept the development licence), espeak-ng, sox, and
target/test-models/{ggml-tiny.en-q8_0.bin, silero-vad.safetensors}
(scripts/test-model.sh). The service, HTTP, audio, seeding, licence and report
helpers are bench/harness's; this file holds the scenarios and the checks.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import traceback

from harness.audio import run_tool, speak, wav_ms
from harness.client import call, upload
from harness.common import MODELS, ROOT, build_kind, copy_binary, env_path, make_log, require_files, require_tools
from harness.license import DEV_SEED, dev_license
from harness.report import table_head, write_result
from harness.seeding import seed_meetings
from harness.service import Killer, Service, StartFailed, service_env

BIN = env_path("RECORDER_BIN", ROOT / "target/debug/recorder")
MODEL = MODELS / "ggml-tiny.en-q8_0.bin"
VAD = MODELS / "silero-vad.safetensors"

SPEED = 4
READY_LIMIT = 120.0
LOST_LIMIT_MS = 2000
DAY_MS = 86_400_000

# The lines of crates/cli/tests/service/recording.rs (MIC_LINE, SYS_LINE) and
# more from bench/fixtures/meeting-script.txt, spoken as speech.rs does.
MIC_LINE = "I will send the quarterly budget report to the finance team by Friday."
SYS_LINE = "The marketing launch moves to the second week of March."
IMPORT_LINES = [
    "Good morning everyone, and thanks for joining on such short notice.",
    "The mobile app is in decent shape, and the crash reports have dropped a lot since Monday.",
    "Lisa is looking into it, and she expects to have a fix ready by the end of the week.",
]
UPLOAD_LINES = [
    "The search order is something we can fix quickly.",
    "If we give newer meetings a small boost, I think most people would be happy.",
]
SEED_LINES = [
    "Good morning everyone, we have three things on the agenda today.",
    "The mobile app is in decent shape and the login problem is fixed.",
    "I will send you a short summary this afternoon with the list of accounts.",
    "We decided to give newer meetings a small boost in search.",
    "Emma will ask the design team about the export button by next week.",
    "The lease on this floor ends in the spring and we found a new place.",
]
SCENARIOS = ["recording", "import", "notes", "export", "retention"]
WEIGHTS = [35, 25, 13, 13, 14]


log = make_log("crash")

# The search index's FTS5 tables, each checked with its own `integrity-check`.
# meeting_words and meeting_phrases are contentless-delete tables (SQLite
# 3.43+); an older SQLite in this Python cannot open them, so they are left to
# the service's own check there, and the run says so once.
FTS_TABLES = ("segment_words", "notes_fts") + (
    ("meeting_words", "meeting_phrases") if sqlite3.sqlite_version_info >= (3, 43, 0) else ()
)
if len(FTS_TABLES) < 4:
    log(f"Python's SQLite {sqlite3.sqlite_version} cannot open meeting_words/meeting_phrases (3.43+): not checked")


# --------------------------------------------------------------------------
# Audio fixtures (espeak-ng + sox, as crates/test-support/src/speech.rs)
# --------------------------------------------------------------------------


def speak_padded(text: str, path: pathlib.Path, before: float, after: float) -> None:
    speak(text, path, speed=150, pad=(before, after))


def make_fixtures(folder: pathlib.Path) -> dict[str, pathlib.Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"mic": folder / "mic.wav", "sys": folder / "sys.wav"}
    # As call_files in recording.rs: the person at 1 s, the other side at 9 s.
    speak_padded(MIC_LINE, files["mic"], 1.0, 12.0)
    speak_padded(SYS_LINE, files["sys"], 9.0, 6.0)
    parts = []
    for index, line in enumerate(IMPORT_LINES):
        part = folder / f"import-{index}.wav"
        speak_padded(line, part, 0.3, 0.7)
        parts.append(part)
    files["import"] = folder / "import.wav"
    run_tool("sox", *parts, files["import"])
    parts = []
    for index, line in enumerate(UPLOAD_LINES):
        part = folder / f"upload-{index}.wav"
        speak_padded(line, part, 0.3, 0.7)
        parts.append(part)
    joined = folder / "upload-16k.wav"
    run_tool("sox", *parts, joined)
    # Another layout users import: 44.1 kHz stereo 16-bit.
    files["upload"] = folder / "upload.wav"
    run_tool("sox", joined, "-r", "44100", "-c", "2", "-b", "16", "-e", "signed-integer",
             files["upload"])
    return files


# --------------------------------------------------------------------------
# A trial
# --------------------------------------------------------------------------


class Trial:
    def __init__(self, seed: int, run: "Run", forced: str | None):
        self.seed = seed
        self.run = run
        self.rng = random.Random(seed)
        self.scenario = self.rng.choices(SCENARIOS, WEIGHTS)[0]
        if forced:
            self.scenario = forced
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix=f"trial-{seed}-", dir=run.folder))
        self.data = self.folder / "data"
        self.data.mkdir()
        self.exports = self.folder / "exports"
        self.exports.mkdir()
        self.log_path = self.folder / "service.log"
        self.failures: list[str] = []
        self.notes: list[str] = []
        self.phase = ""
        self.lost = {"mic": None, "sys": None}
        self.recovered = False
        self.service: Service | None = None
        # What the service acknowledged, checked after recovery.
        self.acked_meetings: list[str] = []
        self.recording: dict | None = None
        self.seeded: list[dict] = []
        self.notes_acked: list[tuple[str, str, str | None]] = []  # (meeting, kind, old note id)
        self.exports_acked: list[str] = []
        self.settings_acked: dict | None = None
        self.settings_acked_index = 0
        # Kills besides the main one.
        self.boot_kill = self.rng.random() < 0.2
        self.boot_delay = self.rng.uniform(0.0, 0.08)
        self.recovery_kill = self.rng.random() < 0.3
        self.recovery_delay = self.rng.uniform(0.0, 0.1) if self.rng.random() < 0.4 else self.rng.uniform(0.0, 1.5)

    # -- helpers -----------------------------------------------------------

    def fail(self, what: str) -> None:
        self.failures.append(what)

    def serve_args(self) -> list[str]:
        if self.scenario == "recording":
            return ["--mic-file", str(self.run.fixtures["mic"]), "--sys-file", str(self.run.fixtures["sys"]),
                    "--audio-speed", str(SPEED)]
        return []

    def spawn(self) -> Service:
        self.service = Service(self.run.binary, self.data, self.serve_args(), self.run.env, self.log_path)
        return self.service

    def start(self) -> Service:
        service = self.spawn()
        service.wait_listening()
        return service

    def api(self, method, path, body=None, timeout=30.0):
        return call(self.service.port, self.service.api, method, path, body, timeout)

    def person(self, method, path, body=None, timeout=30.0):
        return call(self.service.port, self.service.ui, method, path, body, timeout)

    def short_delay(self, wide: float, tight: float) -> float:
        """Either a tight window, about as long as the request takes (where its
        writes are), or a wide one."""
        return self.rng.uniform(0.0, tight) if self.rng.random() < 0.4 else self.rng.uniform(0.0, wide)

    # -- the trial ---------------------------------------------------------

    def execute(self) -> None:
        settings = {"general": {"allow_remote_start": True}}
        if self.scenario == "export":
            settings["export"] = {"folder": str(self.exports)}
        (self.data / "settings.json").write_text(json.dumps(settings))
        if self.boot_kill:
            self.phase_note(f"boot kill {self.boot_delay * 1000:.0f} ms")
            service = self.spawn()
            time.sleep(self.boot_delay)
            service.kill()
        try:
            getattr(self, f"scenario_{self.scenario}")()
        except StartFailed as error:
            self.fail(f"start failed: {error}")
            self.service.kill()
            self.check_stopped()
            return
        if self.recovery_kill:
            self.phase_note(f"recovery kill {self.recovery_delay * 1000:.0f} ms")
            service = self.spawn()
            time.sleep(self.recovery_delay)
            service.kill()
        try:
            self.start()
        except StartFailed as error:
            self.fail(f"restart failed: {error}")
            self.service.kill()
            self.check_stopped()
            return
        self.check_running()
        took = self.service.terminate(20.0)
        if took is None:
            self.fail("the service did not end within 20 s of SIGTERM (killed)")
        self.check_stopped()

    def phase_note(self, text: str) -> None:
        self.phase = f"{self.phase}, {text}" if self.phase else text

    # -- (a) recording -------------------------------------------------------

    def scenario_recording(self) -> None:
        phase = self.rng.choices(["start", "recording", "stop", "after-stop"], [20, 40, 20, 20])[0]
        record_for = self.rng.uniform(0.5, 5.0)
        self.start()
        killer = Killer(self.service)
        recording = {"id": None, "t_resp": None, "t_end": None}
        self.recording = recording
        if phase == "start":
            delay = self.short_delay(0.3, 0.025)
            self.phase_note(f"recording: kill {delay * 1000:.0f} ms after start sent")
            killer.arm(delay)
        status, body = self.person("POST", "/ui/recording/start", {"title": f"Crash {self.seed}"})
        if status == 201:
            recording["t_resp"] = time.monotonic()
            recording["id"] = body["id"]
            self.acked_meetings.append(body["id"])
        elif status is not None:
            self.fail(f"start answered {status}: {body}")
        if phase == "recording":
            delay = self.rng.uniform(0.2, 8.0)
            self.phase_note(f"recording: kill {delay:.2f} s into the recording")
            killer.arm(delay)
        elif phase in ("stop", "after-stop") and status == 201:
            if not killer.sleep(record_for):
                recording["t_end"] = time.monotonic()
                if phase == "stop":
                    delay = self.short_delay(0.4, 0.025)
                    self.phase_note(f"recording {record_for:.1f} s, kill {delay * 1000:.0f} ms after stop sent")
                    killer.arm(delay)
                stop_status, stop_body = self.person("POST", "/ui/recording/stop", timeout=60)
                if stop_status is not None and stop_status != 200:
                    self.fail(f"stop answered {stop_status}: {stop_body}")
                if phase == "after-stop":
                    delay = self.rng.uniform(0.0, 3.0)
                    self.phase_note(f"recording {record_for:.1f} s, kill {delay:.2f} s after stop answered")
                    killer.arm(delay)
        killer.finish()
        if recording["t_resp"] is not None:
            end = killer.at if recording["t_end"] is None else min(killer.at, recording["t_end"])
            recording["expected_ms"] = max(0, int((end - recording["t_resp"]) * 1000 * SPEED))

    # -- (b) import ----------------------------------------------------------

    def scenario_import(self) -> None:
        self.start()
        killer = Killer(self.service)
        if self.rng.random() < 0.6:
            count = self.rng.choice([1, 1, 2])
            delay = self.short_delay(3.0, 0.02)
            self.phase_note(f"import {count} by path: kill {delay * 1000:.0f} ms after the first request")
            killer.arm(delay)
            for index in range(count):
                title = f"Import {self.seed}-{index}" if self.rng.random() < 0.5 else None
                body = {"path": str(self.run.fixtures["import"])}
                if title:
                    body["title"] = title
                status, answer = self.api("POST", "/v1/import", body)
                if status == 202:
                    self.acked_meetings.append(answer["id"])
                elif status is not None:
                    self.fail(f"import answered {status}: {answer}")
                if status is None:
                    break
        else:
            chunk = self.rng.choice([16384, 32768, 65536])
            pause = self.rng.uniform(0.005, 0.03)
            size = self.run.fixtures["upload"].stat().st_size
            upload_time = size / chunk * pause
            delay = upload_time + self.short_delay(2.5, 0.02) if self.rng.random() < 0.5 else self.rng.uniform(0.0, upload_time)
            self.phase_note(f"upload ({size // 1024} KiB in {upload_time:.2f} s): kill {delay:.2f} s after it began")
            killer.arm(delay)
            status, answer = upload(self.service.port, self.service.ui, self.run.fixtures["upload"],
                                    "Weekly%20sync.wav", chunk, pause, killer.done)
            if status == 202:
                self.acked_meetings.append(answer["id"])
            elif status is not None:
                self.fail(f"upload answered {status}: {answer}")
        killer.finish()

    # -- seeded meetings (notes, export, retention) ----------------------------

    def seed_meetings(self, specs: list[dict]) -> None:
        """Writes meetings into recorder.db while the service is stopped, as
        crates/test-support's seed() does, with audio files when asked."""
        audio = (self.run.fixtures["mic"], self.run.fixtures["sys"])
        self.seeded += seed_meetings(self.data, specs, self.rng, SEED_LINES[:4], audio)

    def prepare_seeded(self, specs: list[dict], pro: bool = False) -> None:
        """A first life makes the database (and installs a licence), then the
        meetings are seeded with the service stopped, then a second life."""
        self.start()
        if pro:
            status, body = self.person("POST", "/ui/license", {"license": self.run.license})
            if status != 200:
                self.fail(f"licence refused: {status} {body}")
        if self.service.terminate(20.0) is None:
            self.fail("setup: the service did not end within 20 s of SIGTERM")
        self.seed_meetings(specs)
        self.start()

    # -- (c) notes -------------------------------------------------------------

    def scenario_notes(self) -> None:
        now = int(time.time() * 1000)
        count = self.rng.choice([1, 2])
        specs = [{"title": f"Planning {i}", "started_at": now - (i + 1) * 3_600_000,
                  "lines": self.rng.sample(SEED_LINES, 4)} for i in range(count)]
        self.prepare_seeded(specs, pro=True)
        killer = Killer(self.service)
        delay = self.short_delay(1.5, 0.015)
        kinds = [self.rng.choices(["summary", "key_points", "decisions", "action_items"], [55, 15, 15, 15])[0]
                 for _ in specs]
        self.phase_note(f"notes {'+'.join(kinds)}: kill {delay * 1000:.0f} ms after the first request")
        killer.arm(delay)
        for spec, kind in zip(specs, kinds):
            status, body = self.api("POST", f"/v1/meetings/{spec['id']}/notes", {"kind": kind})
            if status == 202:
                self.notes_acked.append((spec["id"], kind, spec["notes"][kind]))
            elif status is not None:
                self.fail(f"notes answered {status}: {body}")
                break
            else:
                break
        killer.finish()

    # -- (d) export ------------------------------------------------------------

    def scenario_export(self) -> None:
        now = int(time.time() * 1000)
        count = self.rng.choice([1, 2])
        specs = [{"title": f"Weekly sync {i}", "started_at": now - (i + 1) * 3_600_000,
                  "lines": self.rng.sample(SEED_LINES, 5)} for i in range(count)]
        self.prepare_seeded(specs)
        killer = Killer(self.service)
        bursts = self.rng.randint(1, 12)
        delay = self.short_delay(0.6, 0.03)
        self.phase_note(f"{bursts} exports: kill {delay * 1000:.0f} ms after the first")
        killer.arm(delay)
        for index in range(bursts):
            spec = specs[index % len(specs)]
            body = {"folder": str(self.exports)} if self.rng.random() < 0.7 else None
            status, answer = self.person("POST", f"/ui/meetings/{spec['id']}/export", body)
            if status == 201:
                self.exports_acked.append(answer["path"])
            elif status is not None:
                self.fail(f"export answered {status}: {answer}")
                break
            else:
                break
            if killer.sleep(self.rng.uniform(0.0, 0.05)):
                break
        killer.finish()

    # -- (e) retention ---------------------------------------------------------

    def scenario_retention(self) -> None:
        now = int(time.time() * 1000)
        specs = []
        for index in range(self.rng.randint(2, 4)):
            specs.append({"title": f"Old {index}", "started_at": now - self.rng.randint(2, 40) * DAY_MS, "audio": True})
        specs.append({"title": "Recent", "started_at": now - 3_600_000, "audio": True})
        specs.append({"title": "Old starred", "started_at": now - 20 * DAY_MS, "audio": True, "starred": True})
        self.rng.shuffle(specs)
        self.prepare_seeded(specs)
        # A burst of changes (each one a settings.json write and a sweep); the
        # last one is the change under test.
        patches = [{"keep_audio_days": self.rng.choice([3, 7, 30])} for _ in range(self.rng.randint(0, 4))]
        final = {"keep_audio_days": 1}
        if self.rng.random() < 0.3:
            final["delete_meetings_after_days"] = 10
        patches.append(final)
        self.patches_sent = []
        killer = Killer(self.service)
        delay = self.short_delay(0.3 * len(patches), 0.006 * len(patches))
        burst = " then ".join(json.dumps(p, separators=(",", ":")) for p in patches)
        self.phase_note(f"retention {burst}: kill {delay * 1000:.0f} ms after the first PATCH")
        killer.arm(delay)
        for index, patch in enumerate(patches):
            self.patches_sent.append(patch)
            status, body = self.person("PATCH", "/ui/settings", {"retention": patch})
            if status == 200:
                self.settings_acked = patch
                self.settings_acked_index = index
            elif status is not None:
                self.fail(f"PATCH /ui/settings answered {status}: {body}")
                break
            else:
                break
            if killer.sleep(self.rng.uniform(0.0, 0.02)):
                break
        killer.finish()

    # -- checks while the last life runs ------------------------------------

    def check_running(self) -> None:
        deadline = time.monotonic() + READY_LIMIT
        meetings = []
        while True:
            status, body = self.api("GET", "/v1/meetings?limit=200")
            if status == 200:
                meetings = body["meetings"]
                if all(m["status"] == "ready" for m in meetings):
                    break
            if time.monotonic() > deadline:
                stuck = [f"{m['id'][-6:]} {m['status']}" for m in meetings if m["status"] != "ready"]
                self.fail(f"not ready within {READY_LIMIT:.0f} s: {', '.join(stuck) or status}")
                return
            time.sleep(0.25)
        self.recovered = True
        ids = {m["id"] for m in meetings}
        for acked in self.acked_meetings:
            if acked not in ids:
                self.fail(f"acknowledged meeting {acked} is gone")
        if self.scenario == "import" and "upload (" in self.phase and not self.acked_meetings and meetings:
            self.notes.append("an unacknowledged upload became a meeting")
        self.details = {}
        for meeting in meetings:
            status, full = self.api("GET", f"/v1/meetings/{meeting['id']}")
            if status != 200:
                self.fail(f"GET meeting {meeting['id']}: {status}")
                continue
            self.details[meeting["id"]] = full
            if full["status"] != "ready":
                self.fail(f"{meeting['id']}: {full['status']} in GET /v1/meetings/:id")
            kinds = [note["kind"] for note in full.get("notes") or []]
            if "summary" not in kinds:
                self.fail(f"{meeting['id'][-6:]}: ready without a summary note")
            doubled = sorted({k for k in kinds if kinds.count(k) > 1 and k != "custom"})
            if doubled:
                self.fail(f"{meeting['id'][-6:]}: note kinds stored twice: {doubled}")
            error = full.get("processing_error")
            expected_error = full["source_app"] != "import" and "cut off" in (error or "")
            if error and not expected_error:
                self.fail(f"{meeting['id'][-6:]}: processing_error {error!r}")
            status, transcript = self.api("GET", f"/v1/meetings/{meeting['id']}/transcript?format=json")
            if status != 200:
                self.fail(f"transcript of {meeting['id']}: {status}")
                continue
            seen = set()
            for segment in transcript["segments"]:
                key = (segment["channel"], segment["start_ms"], segment["text"])
                if key in seen:
                    self.fail(f"{meeting['id'][-6:]}: segment stored twice: {key}")
                seen.add(key)
        status, health = self.api("GET", "/v1/health")
        if status == 200 and health.get("recording", {}).get("active"):
            self.fail("a recording is active after the restart")
        self.check_recording()
        self.check_notes()
        self.check_exports_running()
        self.check_retention_running()
        self.wait_for_sweeps()

    def check_recording(self) -> None:
        if self.scenario != "recording":
            return
        recording = self.recording or {}
        mid = recording.get("id")
        if mid is None:
            mine = [m for m in self.details.values() if m["source_app"] == "recorder"]
            mid = mine[0]["id"] if mine else None
        if mid is None:
            return
        meeting = self.details.get(mid)
        if meeting and "cut off" in (meeting.get("processing_error") or ""):
            self.notes.append("cut off")
        expected = recording.get("expected_ms")
        for channel in ("mic", "sys"):
            path = self.data / "meetings" / mid / f"{channel}.wav"
            length = wav_ms(path)
            if length is None:
                if recording.get("id"):
                    self.fail(f"{channel}.wav of the recording is missing or unreadable")
                continue
            if expected is None:
                continue
            lost = max(0, expected - length)
            self.lost[channel] = lost
            if lost > LOST_LIMIT_MS:
                self.fail(f"{channel}: {lost} ms of audio lost (recorded {expected} ms, file {length} ms)")

    def check_notes(self) -> None:
        for mid, kind, old_id in self.notes_acked:
            meeting = self.details.get(mid)
            if not meeting:
                continue
            ids = [note["id"] for note in meeting.get("notes") or [] if note["kind"] == kind]
            if ids == [old_id]:
                self.fail(f"acknowledged {kind} regeneration of {mid[-6:]} was lost (note unchanged)")

    def check_exports_running(self) -> None:
        if self.scenario != "export":
            return
        reference = self.folder / "reference"
        reference.mkdir(exist_ok=True)
        self.references = set()
        for spec in self.seeded:
            status, answer = self.person("POST", f"/ui/meetings/{spec['id']}/export", {"folder": str(reference)})
            if status != 201:
                self.fail(f"reference export answered {status}: {answer}")
                continue
            self.references.add(pathlib.Path(answer["path"]).read_bytes())

    def check_retention_running(self) -> None:
        if self.scenario != "retention":
            return
        status, settings = self.person("GET", "/ui/settings")
        retention = (settings or {}).get("retention", {}) if status == 200 else {}
        keep, delete = retention.get("keep_audio_days"), retention.get("delete_meetings_after_days")
        now_values = {"keep_audio_days": keep, "delete_meetings_after_days": delete}
        # What is saved must be the last acknowledged change or one sent after it.
        sent = getattr(self, "patches_sent", [])
        later = sent[self.settings_acked_index:] if self.settings_acked is not None else sent
        candidates = [{"keep_audio_days": p["keep_audio_days"],
                       "delete_meetings_after_days": p.get("delete_meetings_after_days")} for p in later]
        if self.settings_acked is None:
            candidates.append({"keep_audio_days": None, "delete_meetings_after_days": None})
        if now_values not in candidates:
            self.fail(f"settings after recovery {now_values}: not the last acknowledged change "
                      f"{self.settings_acked} nor a later one")
        now = int(time.time() * 1000)
        for spec in self.seeded:
            expired = lambda days: days is not None and spec["ended_at"] < now - days * DAY_MS
            spec["expect_deleted"] = expired(delete) and not spec.get("starred")
            spec["expect_no_audio"] = expired(keep)
            # An earlier change of the burst may already have removed it.
            spec["may_lack_audio"] = any(expired(p["keep_audio_days"]) for p in sent)
        # The sweep runs at start-up: give it a moment to converge.
        deadline = time.monotonic() + 20
        while True:
            problems = self.retention_problems()
            if not problems or time.monotonic() > deadline:
                break
            time.sleep(0.25)
        for problem in problems:
            self.fail(problem)

    def retention_problems(self) -> list[str]:
        problems = []
        for spec in self.seeded:
            mid, name = spec["id"], spec["title"]
            folder = self.data / "meetings" / mid
            status, info = self.person("GET", f"/ui/meetings/{mid}/audio")
            if spec["expect_deleted"]:
                if status != 404:
                    problems.append(f"retention: {name} should be deleted (GET audio {status})")
                if folder.exists():
                    problems.append(f"retention: {name} deleted but its folder remains")
                continue
            if status != 200:
                problems.append(f"retention: {name}: GET audio {status}")
                continue
            removed = info.get("audio_removed_at")
            has_audio = (folder / "mic.wav").exists() or (folder / "sys.wav").exists()
            if spec["expect_no_audio"]:
                if has_audio or removed is None:
                    problems.append(f"retention: {name} keeps its audio (files {has_audio}, audio_removed_at {removed})")
            elif not spec["may_lack_audio"] and (not has_audio or removed is not None):
                problems.append(f"retention: {name} lost its audio before its time")
            elif has_audio != (removed is None):
                problems.append(f"retention: {name}: files present {has_audio} but audio_removed_at {removed}")
        return problems

    def wait_for_sweeps(self) -> None:
        """Uploads cut off by a crash are removed by a sweep after the start."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and list(self.data.rglob("original.*.part")):
            time.sleep(0.25)

    # -- checks with the service stopped ---------------------------------------

    def check_stopped(self) -> None:
        db_path = self.data / "recorder.db"
        meeting_ids: set[str] = set()
        try:
            db = sqlite3.connect(db_path, timeout=10)
            result = [row[0] for row in db.execute("PRAGMA integrity_check")]
            if result != ["ok"]:
                self.fail(f"integrity_check: {'; '.join(result)[:300]}")
            broken = db.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                self.fail(f"foreign_key_check: {broken[:3]}")
            for table in FTS_TABLES:
                try:
                    db.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
                except sqlite3.OperationalError as error:
                    if "no such module" not in str(error):
                        self.fail(f"{table} integrity-check: {error}")
                except sqlite3.DatabaseError as error:
                    self.fail(f"{table} integrity-check: {error}")
            db.rollback()
            meeting_ids = {row[0] for row in db.execute("SELECT id FROM meetings")}
            jobs = db.execute("SELECT j.kind, m.id, m.status FROM jobs j JOIN meetings m ON m.seq = j.meeting").fetchall()
            if jobs and self.recovered:
                self.fail(f"jobs left over: {jobs[:3]}")
            db.close()
        except sqlite3.DatabaseError as error:
            self.fail(f"recorder.db: {error}")
        for path in self.data.rglob("*"):
            name = path.name
            relative = path.relative_to(self.data)
            if name.endswith(".part") or re.search(r"\.tmp(-\d+)?$", name) or (
                    name.startswith(".") and ".tmp" in name):
                self.fail(f"left behind: {relative}")
        meetings_dir = self.data / "meetings"
        if meetings_dir.is_dir() and self.recovered:
            for folder in meetings_dir.iterdir():
                if folder.name not in meeting_ids:
                    inside = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
                    self.fail(f"folder without a meeting: meetings/{folder.name} {inside}")
        if self.scenario == "export":
            self.check_export_folder()

    def check_export_folder(self) -> None:
        references = getattr(self, "references", set())
        for path in sorted(self.exports.iterdir()):
            if not path.name.endswith(".md") or path.name.startswith("."):
                self.fail(f"export folder holds {path.name}")
                continue
            content = path.read_bytes()
            if references and content not in references:
                self.fail(f"export {path.name} is not a whole export ({len(content)} bytes)")
        for acked in self.exports_acked:
            if not pathlib.Path(acked).is_file():
                self.fail(f"acknowledged export {pathlib.Path(acked).name} is gone")

    def acknowledged(self) -> str:
        parts = []
        if self.acked_meetings:
            parts.append(f"{len(self.acked_meetings)} meeting(s)")
        if self.notes_acked:
            parts.append(f"{len(self.notes_acked)} notes")
        if self.exports_acked:
            parts.append(f"{len(self.exports_acked)} exports")
        if self.settings_acked:
            parts.append("settings")
        return ", ".join(parts)

    def cleanup(self) -> None:
        if self.service is not None and self.service.process.poll() is None:
            self.service.kill()


# --------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------


class Run:
    def __init__(self, args):
        self.args = args
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="recorder-crash-"))
        require_files([(BIN, "build it first (cargo build -p recorder-cli)")]
                      + [(needed, "run scripts/test-model.sh first") for needed in (MODEL, VAD, DEV_SEED)])
        require_tools(("espeak-ng", "sox"), "espeak-ng sox")
        # A copy: a build in the same checkout may replace the binary mid-run.
        self.binary = copy_binary(BIN, self.folder)
        self.env = service_env(RECORDER_MODEL_PATH=MODEL, RECORDER_VAD_PATH=VAD,
                               RECORDER_POLICY_PATH=self.folder / "no-policy.json",
                               RECORDER_CREDENTIAL_STORE="file")
        log(f"making speech fixtures in {self.folder}")
        self.fixtures = make_fixtures(self.folder / "audio")
        self.license = dev_license("Crash Bench")


def trial_seeds(args) -> list[int]:
    if args.only_seed is not None:
        return [args.only_seed]
    rng = random.Random(args.seed)
    return [rng.randrange(1, 2**31) for _ in range(args.trials)]


def table(args, results, run_seconds) -> str:
    lines = [
        f"# Crash trials {datetime.date.today().isoformat()}",
        "",
        f"{len(results)} trials (run seed {args.seed}" + (f", only seed {args.only_seed}" if args.only_seed is not None else "")
        + f"), SIGKILL at random moments; `{BIN.name}` ({build_kind(BIN)}), "
        f"tiny.en q8_0, Silero VAD, `--audio-speed {SPEED}`, {os.cpu_count()} cores, {run_seconds / 60:.1f} min.",
        "",
        "Checked after each trial: the service restarts; every meeting `ready` (within "
        f"{READY_LIMIT:.0f} s) with a summary note; acknowledged work kept (meeting, import, note, export, setting); "
        f"recordings lose at most {LOST_LIMIT_MS} ms per channel; no segment or note kind stored twice, no job left; "
        "`integrity_check`, foreign keys and FTS5 indexes sound; no `*.part`, `.*.tmp-*`, folder without its "
        "meeting or partial export left; retention applied exactly.",
        "",
        *table_head("scenario", "trials", "recovered", "max audio lost mic (ms)", "max audio lost sys (ms)", "failed"),
    ]

    def row(name, group):
        lost = {c: [r["lost"][c] for r in group if r["lost"][c] is not None] for c in ("mic", "sys")}
        cell = lambda c: str(max(lost[c])) if lost[c] else "–"
        return (f"| {name} | {len(group)} | {sum(r['recovered'] for r in group)} | {cell('mic')} | {cell('sys')} | "
                f"{sum(bool(r['failures']) for r in group)} |")

    for scenario in SCENARIOS:
        group = [r for r in results if r["scenario"] == scenario]
        if group:
            lines.append(row(scenario, group))
    lines.append(row("**all**", results))
    failed = [r for r in results if r["failures"]]
    lines += ["", "## Failures", ""]
    if not failed:
        lines.append("None.")
    else:
        lines += table_head("seed", "scenario", "moment", "what failed")
        for r in failed:
            what = "; ".join(f.replace("|", "\\|") for f in r["failures"])
            lines.append(f"| {r['seed']} | {r['scenario']} | {r['phase']} | {what} |")
        lines += ["", "Re-run one: `python3 bench/crash.py --only-seed SEED`."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (trial seeds derive from it)")
    parser.add_argument("--only-seed", type=int, default=None, help="run only the trial with this seed")
    parser.add_argument("--scenario", choices=SCENARIOS, default=None, help="force this scenario")
    parser.add_argument("--out", default=None, help="Markdown table (default bench/results/crash-<date>.md)")
    parser.add_argument("--keep", action="store_true", help="keep every trial's folder, not only failed ones")
    args = parser.parse_args()
    out = pathlib.Path(args.out) if args.out else ROOT / "bench/results" / f"crash-{datetime.date.today().isoformat()}.md"

    run = Run(args)
    seeds = trial_seeds(args)
    results = []
    began = time.monotonic()
    for index, seed in enumerate(seeds, 1):
        trial = Trial(seed, run, args.scenario)
        started = time.monotonic()
        try:
            trial.execute()
        except Exception as error:  # a bug here, or the service misbehaving badly
            trial.fail(f"bench error: {type(error).__name__}: {error}")
            traceback.print_exc()
        finally:
            trial.cleanup()
        result = {"seed": seed, "scenario": trial.scenario, "phase": trial.phase, "failures": trial.failures,
                  "recovered": trial.recovered, "lost": trial.lost}
        results.append(result)
        lost = ", ".join(f"{c} lost {v} ms" for c, v in trial.lost.items() if v is not None)
        acked = trial.acknowledged()
        notes = trial.notes + ([f"acknowledged: {acked}"] if acked else [])
        extra = f" [{'; '.join(notes)}]" if notes else ""
        verdict = "ok" if not trial.failures else "FAILED: " + "; ".join(trial.failures)
        log(f"{index}/{len(seeds)} seed {seed} {trial.scenario} ({trial.phase}) {time.monotonic() - started:.1f} s: "
            f"{verdict}{' (' + lost + ')' if lost else ''}{extra}")
        if trial.failures:
            log(f"    kept {trial.folder}")
        elif not args.keep:
            shutil.rmtree(trial.folder, ignore_errors=True)
    write_result(table(args, results, time.monotonic() - began), out, log)
    if not any(r["failures"] for r in results) and not args.keep:
        shutil.rmtree(run.folder, ignore_errors=True)
    else:
        pathlib.Path(run.binary).unlink(missing_ok=True)
        log(f"kept {run.folder} (fixtures and the failed trials' folders)")
    return 1 if any(r["failures"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
