/**
 * Meetings with chosen lines, written straight into a data folder's
 * recorder.db before the service starts: the same rows as `seed` in
 * crates/test-support (a ready Zoom meeting, attendee "Ada Lovelace", tag
 * "seeded", lines alternating mic/sys 5 s apart, 4 s long). The schema comes
 * from the store itself (`xtask seed --meetings 0` when there is no database
 * yet); the search and meaning indexes follow from the store's triggers.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { XTASK_BIN } from './paths';

export interface SeedMeeting {
  title: string;
  /** ms since the epoch */
  startedAt: number;
  lines: string[];
  /** Notes by kind (`summary`, …), written by the built-in engine. */
  notes?: Record<string, string>;
  /** Action items, owned by "Me". */
  actionItems?: string[];
}

/** A seeded line's start: the n-th line (from 0) starts at n × 5 s. */
export function lineStart(index: number): number {
  return index * 5000;
}

const INSERT = `
import json, sqlite3, sys, uuid
meetings = json.load(sys.stdin)
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA foreign_keys = ON")
with db:
    for m in meetings:
        duration = len(m["lines"]) * 5000
        cur = db.execute(
            "INSERT INTO meetings (id, title, source_app, started_at, ended_at, duration_ms, status, language, "
            "starred, processing_error, created_at, updated_at) "
            "VALUES (?, ?, 'zoom', ?, ?, ?, 'ready', 'en', 0, NULL, ?, ?)",
            (m["id"], m["title"], m["startedAt"], m["startedAt"] + duration, duration, m["startedAt"], m["startedAt"]),
        )
        seq = cur.lastrowid
        db.execute("INSERT INTO attendees (meeting, position, name) VALUES (?, 0, 'Ada Lovelace')", (seq,))
        db.execute("INSERT INTO tags (meeting, tag) VALUES (?, 'seeded')", (seq,))
        for kind, content in (m.get("notes") or {}).items():
            db.execute(
                "INSERT INTO notes (id, meeting, kind, content_md, created_at, written_by) "
                "VALUES (?, ?, ?, ?, ?, 'builtin')",
                (str(uuid.uuid4()), seq, kind, content, m["startedAt"]),
            )
        for text in m.get("actionItems") or []:
            db.execute(
                "INSERT INTO action_items (id, meeting, text, owner, done) VALUES (?, ?, ?, 'Me', 0)",
                (str(uuid.uuid4()), seq, text),
            )
        for i, text in enumerate(m["lines"]):
            db.execute(
                "INSERT INTO segments (meeting, channel, start_ms, end_ms, text) VALUES (?, ?, ?, ?, ?)",
                (seq, "mic" if i % 2 == 0 else "sys", i * 5000, i * 5000 + 4000, text),
            )
db.close()
`;

/** Writes `meetings` into `dataDir` (the service not running); returns their ids in order. */
export function seedMeetings(dataDir: string, meetings: SeedMeeting[]): string[] {
  const db = path.join(dataDir, 'recorder.db');
  if (!fs.existsSync(db)) {
    execFileSync(XTASK_BIN, ['seed', '--data-dir', dataDir, '--meetings', '0', '--segments', '0'], { stdio: 'pipe' });
  }
  const rows = meetings.map((meeting) => ({ ...meeting, id: randomUUID() }));
  execFileSync('python3', ['-c', INSERT, db], { input: JSON.stringify(rows), stdio: ['pipe', 'pipe', 'pipe'] });
  return rows.map((row) => row.id);
}
