"""Meetings for the bench scripts to work on: written straight into
recorder.db while the service is stopped (as crates/test-support's seed()
does, with notes, and audio files when asked), or imported through the API
(`POST /v1/import`) with a wait until they are ready.

Part of bench/harness (see its docstring); not run on its own.
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import random
import shutil
import sqlite3
import time
import uuid

from .aio import Conn, list_meetings

NOTE_KINDS = ("summary", "key_points", "decisions", "action_items")


def uuid7(rng: random.Random, ms: int) -> str:
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= rng.getrandbits(12) << 64
    value |= 0b10 << 62
    value |= rng.getrandbits(62)
    return str(uuid.UUID(int=value))


def seed_meetings(data: pathlib.Path, specs: list[dict], rng: random.Random, default_lines: list[str],
                  audio: tuple[pathlib.Path, pathlib.Path] | None = None) -> list[dict]:
    """Writes ready meetings into DATA/recorder.db (the service stopped). Each
    spec has `title` and `started_at` (ms), optionally `lines` (a segment each,
    5 s apart, channels alternating), `starred` and `audio` (copies `audio`'s
    mic and sys files into meetings/<id>/). Adds `id`, `notes` (kind -> note
    id) and `ended_at` to each spec and returns the specs."""
    db = sqlite3.connect(data / "recorder.db", timeout=10)
    db.execute("PRAGMA foreign_keys = ON")
    now = int(time.time() * 1000)
    with db:
        for spec in specs:
            _seed_one(db, spec, rng, default_lines, now)
            if spec.get("audio"):
                folder = data / "meetings" / spec["id"]
                folder.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(audio[0], folder / "mic.wav")
                shutil.copyfile(audio[1], folder / "sys.wav")
    db.close()
    return specs


def _seed_one(db: sqlite3.Connection, spec: dict, rng: random.Random, default_lines: list[str], now: int) -> None:
    started = spec["started_at"]
    lines = spec.get("lines", default_lines)
    duration = len(lines) * 5000
    mid = uuid7(rng, started)
    cursor = db.execute(
        "INSERT INTO meetings (id, title, source_app, started_at, ended_at, duration_ms, status, "
        "language, starred, processing_error, created_at, updated_at) "
        "VALUES (?, ?, 'zoom', ?, ?, ?, 'ready', 'en', ?, NULL, ?, ?)",
        (mid, spec["title"], started, started + duration, duration, int(spec.get("starred", False)),
         started, started))
    seq = cursor.lastrowid
    db.execute("INSERT INTO attendees (meeting, position, name) VALUES (?, 0, 'Ada Lovelace')", (seq,))
    db.execute("INSERT INTO tags (meeting, tag) VALUES (?, 'seeded')", (seq,))
    for index, text in enumerate(lines):
        db.execute("INSERT INTO segments (meeting, channel, start_ms, end_ms, text) VALUES (?, ?, ?, ?, ?)",
                   (seq, "mic" if index % 2 == 0 else "sys", index * 5000, index * 5000 + 4000, text))
    notes = {}
    for kind in NOTE_KINDS:
        note_id = uuid7(rng, now)
        notes[kind] = note_id
        db.execute("INSERT INTO notes (id, meeting, kind, template_id, content_md, created_at) "
                   "VALUES (?, ?, ?, NULL, ?, ?)",
                   (note_id, seq, kind, f"Seeded {kind}: " + lines[0], started))
    spec["id"] = mid
    spec["notes"] = notes
    spec["ended_at"] = started + duration


async def import_files(port, token, items) -> list[str]:
    """`POST /v1/import {path, title}` for each (path, title), on one
    connection; the new meetings' ids. Exits when one is not accepted (202)."""
    conn = Conn(port)
    ids = []
    for path, title in items:
        status, body = await conn.request("POST", "/v1/import", token, {"path": str(path), "title": title})
        if status != 202:
            raise SystemExit(f"seeding: POST /v1/import answered {status}: {body[:300]!r}")
        ids.append(json.loads(body)["id"])
    conn.close()
    return ids


async def wait_ready(port, token, count: int, timeout: float) -> int:
    """Polls the meeting list every second until `count` meetings are ready or
    `timeout` s have passed; how many were ready."""
    deadline = time.monotonic() + timeout
    while True:
        ready = sum(m["status"] == "ready" for m in await list_meetings(port, token))
        if ready >= count or time.monotonic() > deadline:
            return ready
        await asyncio.sleep(1)
