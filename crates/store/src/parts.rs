//! The parts of a meeting: transcript segments, notes, action items and markers.

use recorder_domain::text::strip_match_sentinels;
use recorder_domain::{ActionItemId, Channel, MarkerId, MeetingId, NoteId};
use rusqlite::{params, Connection, OptionalExtension, Transaction};

use crate::rows::{meeting_seq, speaker_label};
use crate::{StoreError, StoreResult};

/// A line of a meeting's transcript, as it is now (the person's words where
/// they corrected it).
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentRecord {
    /// Its row: stable while the line exists (`id` on the wire).
    pub id: i64,
    pub channel: Channel,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    /// Who spoke: the speaker given to this line, else, once the other side's
    /// speakers are told apart, the name given or `Speaker N`. `None`: the
    /// channel's own speaker (the person on `mic`, "Them" on `sys`).
    pub speaker: Option<String>,
    /// Corrected by the person or an agent (its text or its speaker).
    pub edited: bool,
}

impl SegmentRecord {
    /// The speaker transcripts show, `user_name` being the person's.
    pub fn speaker_name(&self, user_name: &str) -> String {
        self.speaker.clone().unwrap_or_else(|| self.channel.speaker(user_name))
    }
}

/// A line the machine made, to be saved.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSegment {
    pub channel: Channel,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    /// Ignored when inserting (speakers are told apart later).
    pub speaker: Option<String>,
}

impl NewSegment {
    /// The speaker transcripts show, `user_name` being the person's.
    pub fn speaker_name(&self, user_name: &str) -> String {
        self.speaker.clone().unwrap_or_else(|| self.channel.speaker(user_name))
    }
}

impl From<SegmentRecord> for NewSegment {
    fn from(line: SegmentRecord) -> Self {
        NewSegment {
            channel: line.channel,
            start_ms: line.start_ms,
            end_ms: line.end_ms,
            text: line.text,
            speaker: line.speaker,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NoteRecord {
    pub id: NoteId,
    pub kind: String,
    pub template_id: Option<String>,
    pub content_md: String,
    /// The engine that wrote it (`builtin`, `embedded`, `local`, …); None for
    /// notes from before this was kept.
    pub written_by: Option<String>,
    /// Why the chosen engine did not write it, when the built-in one did.
    pub fallback: Option<String>,
    /// The person's own notes (kind `mine`): the moment of the meeting each
    /// line was typed at (ms), one per line; empty for other notes.
    pub line_moments: Vec<Option<i64>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ActionItemRecord {
    pub id: ActionItemId,
    pub text: String,
    pub owner: String,
    pub done: bool,
    /// An ISO date (`2026-12-24`).
    pub due: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MarkerRecord {
    pub id: MarkerId,
    pub at_ms: i64,
    pub label: String,
}

impl crate::Store {
    /// Inserts a finished meeting with its transcript, notes and action items
    /// in one transaction (one rebuild of its search documents).
    pub fn insert_whole_meeting(
        &self,
        meeting: &crate::MeetingRecord,
        segments: &[NewSegment],
        notes: &[NoteRecord],
        items: &[ActionItemRecord],
        now: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            crate::meetings::insert_meeting(tx, meeting, now)?;
            let seq = meeting_seq(tx, &meeting.id)?;
            insert_segment_rows(tx, seq, segments)?;
            for note in notes {
                put_note_row(tx, seq, note, now)?;
            }
            replace_action_item_rows(tx, seq, items)
        })
    }

    /// Appends transcript segments to a meeting in one transaction; returns
    /// their ids, in order.
    pub fn insert_segments(
        &self,
        meeting_id: &MeetingId,
        segments: &[NewSegment],
    ) -> StoreResult<Vec<i64>> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            insert_segment_rows(tx, seq, segments)
        })
    }

    pub fn segments(&self, meeting_id: &MeetingId) -> StoreResult<Vec<SegmentRecord>> {
        self.read(|db| segment_records(db, meeting_seq(db, meeting_id)?, None))
    }

    /// Adds a note, replacing an earlier note of the same kind (and template).
    pub fn put_note(&self, meeting_id: &MeetingId, note: &NoteRecord, now: i64) -> StoreResult<()> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            put_note_row(tx, seq, note, now)
        })
    }

    /// Replaces the structured action items of a meeting.
    pub fn replace_action_items(
        &self,
        meeting_id: &MeetingId,
        items: &[ActionItemRecord],
    ) -> StoreResult<()> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            replace_action_item_rows(tx, seq, items)
        })
    }

    /// Sets `done` on one action item of a meeting and returns the item.
    pub fn set_action_item_done(
        &self,
        meeting_id: &MeetingId,
        item_id: &ActionItemId,
        done: bool,
    ) -> StoreResult<ActionItemRecord> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            tx.execute(
                "UPDATE action_items SET done = ?3, edited = 1 WHERE meeting = ?1 AND id = ?2",
                params![seq, item_id.as_str(), done],
            )?;
            tx.prepare_cached(
                "SELECT id, text, owner, done, due FROM action_items WHERE meeting = ?1 AND id = ?2",
            )?
            .query_row(params![seq, item_id.as_str()], read_item)
            .optional()?
            .ok_or(StoreError::NotFound)
        })
    }

    pub fn insert_marker(&self, meeting_id: &MeetingId, marker: &MarkerRecord) -> StoreResult<()> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            tx.execute(
                "INSERT INTO markers (id, meeting, at_ms, label) VALUES (?1, ?2, ?3, ?4)",
                params![marker.id.as_str(), seq, marker.at_ms, marker.label],
            )?;
            Ok(())
        })
    }

    /// Notes, action items and markers of a meeting, each in a stable order.
    pub fn meeting_parts(
        &self,
        meeting_id: &MeetingId,
    ) -> StoreResult<(Vec<NoteRecord>, Vec<ActionItemRecord>, Vec<MarkerRecord>)> {
        self.read(|db| {
            let seq = meeting_seq(db, meeting_id)?;
            Ok((notes(db, seq)?, items(db, seq)?, markers(db, seq)?))
        })
    }
}

fn notes(db: &Connection, seq: i64) -> StoreResult<Vec<NoteRecord>> {
    let mut query = db.prepare_cached(
        "SELECT id, kind, template_id, content_md, written_by, fallback, line_moments FROM notes \
         WHERE meeting = ?1 ORDER BY seq",
    )?;
    let rows = query.query_map([seq], read_note)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn read_note(row: &rusqlite::Row) -> rusqlite::Result<NoteRecord> {
    let moments: Option<String> = row.get(6)?;
    Ok(NoteRecord {
        id: row.get::<_, String>(0)?.into(),
        kind: row.get(1)?,
        template_id: row.get(2)?,
        content_md: row.get(3)?,
        written_by: row.get(4)?,
        fallback: row.get(5)?,
        line_moments: moments.and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default(),
    })
}

fn items(db: &Connection, seq: i64) -> StoreResult<Vec<ActionItemRecord>> {
    let mut query = db.prepare_cached(
        "SELECT id, text, owner, done, due FROM action_items WHERE meeting = ?1 ORDER BY seq",
    )?;
    let rows = query.query_map([seq], read_item)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn markers(db: &Connection, seq: i64) -> StoreResult<Vec<MarkerRecord>> {
    let mut query = db.prepare_cached(
        "SELECT id, at_ms, label FROM markers WHERE meeting = ?1 ORDER BY at_ms, seq",
    )?;
    let rows = query.query_map([seq], |row| {
        Ok(MarkerRecord {
            id: row.get::<_, String>(0)?.into(),
            at_ms: row.get(1)?,
            label: row.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn read_item(row: &rusqlite::Row) -> rusqlite::Result<ActionItemRecord> {
    Ok(ActionItemRecord {
        id: row.get::<_, String>(0)?.into(),
        text: row.get(1)?,
        owner: row.get(2)?,
        done: row.get(3)?,
        due: row.get(4)?,
    })
}

pub(crate) fn insert_segment_rows(
    tx: &Transaction,
    meeting: i64,
    segments: &[NewSegment],
) -> StoreResult<Vec<i64>> {
    insert_rows(
        tx,
        "INSERT INTO segments (meeting, channel, start_ms, end_ms, text) VALUES (?1, ?2, ?3, ?4, ?5)",
        meeting,
        segments,
    )
}

/// Lines into the transcript or a pass's staged lines (`sql`), their text
/// without search-match sentinels; their row ids, in order.
fn insert_rows(
    tx: &Transaction,
    sql: &str,
    meeting: i64,
    segments: &[NewSegment],
) -> StoreResult<Vec<i64>> {
    let mut insert = tx.prepare_cached(sql)?;
    let mut ids = Vec::with_capacity(segments.len());
    for segment in segments {
        insert.execute(params![
            meeting,
            segment.channel.as_str(),
            segment.start_ms,
            segment.end_ms,
            strip_match_sentinels(&segment.text)
        ])?;
        ids.push(tx.last_insert_rowid());
    }
    Ok(ids)
}

pub(crate) fn put_note_row(
    tx: &Transaction,
    meeting: i64,
    note: &NoteRecord,
    now: i64,
) -> StoreResult<()> {
    tx.execute(
        "DELETE FROM notes WHERE meeting = ?1 AND kind = ?2 AND template_id IS ?3",
        params![meeting, note.kind, note.template_id],
    )?;
    tx.execute(
        "INSERT INTO notes (id, meeting, kind, template_id, content_md, created_at, \
         written_by, fallback) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            note.id.as_str(),
            meeting,
            note.kind,
            note.template_id,
            strip_match_sentinels(&note.content_md),
            now,
            note.written_by,
            note.fallback
        ],
    )?;
    Ok(())
}

pub(crate) fn replace_action_item_rows(
    tx: &Transaction,
    meeting: i64,
    items: &[ActionItemRecord],
) -> StoreResult<()> {
    tx.execute("DELETE FROM action_items WHERE meeting = ?1", [meeting])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO action_items (id, meeting, text, owner, done) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for item in items {
        insert.execute(params![item.id.as_str(), meeting, item.text, item.owner, item.done])?;
    }
    Ok(())
}

/// Lines of a pass over a meeting (`again.rs`), kept apart until it is done.
pub(crate) fn insert_staged_rows(
    tx: &Transaction,
    meeting: i64,
    segments: &[NewSegment],
) -> StoreResult<()> {
    insert_rows(
        tx,
        "INSERT INTO staged_segments (meeting, channel, start_ms, end_ms, text) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        meeting,
        segments,
    )
    .map(drop)
}

/// A meeting's lines (those starting within `span` when given), in time order.
pub(crate) fn segment_records(
    db: &Connection,
    meeting: i64,
    span: Option<(i64, i64)>,
) -> StoreResult<Vec<SegmentRecord>> {
    let (from, to) = span.unwrap_or((i64::MIN, i64::MAX));
    let mut query = db.prepare_cached(
        "SELECT s.seq, s.channel, s.start_ms, s.end_ms, s.text, s.speaker, COALESCE(p.name, p.key), \
         s.speaker_name, s.edited FROM segments s \
         LEFT JOIN speakers p ON p.meeting = s.meeting AND p.number = s.speaker \
         WHERE s.meeting = ?1 AND s.start_ms >= ?2 AND s.start_ms <= ?3 ORDER BY s.start_ms, s.seq",
    )?;
    let rows = query.query_map(params![meeting, from, to], read_segment)?;
    rows.map(|row| row?).collect()
}

/// One line of a meeting, or `NotFound`.
pub(crate) fn segment_record(db: &Connection, meeting: i64, id: i64) -> StoreResult<SegmentRecord> {
    db.prepare_cached(
        "SELECT s.seq, s.channel, s.start_ms, s.end_ms, s.text, s.speaker, COALESCE(p.name, p.key), \
         s.speaker_name, s.edited FROM segments s \
         LEFT JOIN speakers p ON p.meeting = s.meeting AND p.number = s.speaker \
         WHERE s.meeting = ?1 AND s.seq = ?2",
    )?
    .query_row(params![meeting, id], read_segment)
    .optional()?
    .ok_or(StoreError::NotFound)?
}

/// A line from `seq, channel, start_ms, end_ms, text, speaker, speakers.name,
/// speaker_name, edited`.
fn read_segment(row: &rusqlite::Row) -> rusqlite::Result<StoreResult<SegmentRecord>> {
    let channel: String = row.get(1)?;
    let Some(channel) = Channel::parse(&channel) else {
        return Ok(Err(StoreError::Malformed(format!("channel {channel}"))));
    };
    let given: Option<String> = row.get(7)?;
    Ok(Ok(SegmentRecord {
        id: row.get(0)?,
        channel,
        start_ms: row.get(2)?,
        end_ms: row.get(3)?,
        text: row.get(4)?,
        speaker: given.or(speaker_label(row.get(5)?, row.get(6)?)),
        edited: row.get(8)?,
    }))
}
