//! Search by meaning, as the store keeps it (migration 0009): each meeting's
//! passages with their int8 embeddings, which meetings need embedding again
//! (`meaning_dirty`, kept by triggers), and the reads a search by meaning
//! needs. The embedding itself is the service's; this knows only bytes.

use recorder_domain::{MeetingId, NoteId};
use rusqlite::{params, Connection, OptionalExtension, Transaction};

use crate::index::IndexProgress;
use crate::parts::segment_records;
use crate::rows::meeting_seq;
use crate::{SegmentRecord, StoreResult};

/// What a meeting's passages are made from, read in one snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddingSource {
    pub meeting: i64,
    pub meeting_id: MeetingId,
    /// `meaning_dirty.version` when read (0 when the meeting was not dirty).
    pub version: i64,
    /// Its passages are missing or out of date.
    pub dirty: bool,
    pub lines: Vec<SegmentRecord>,
    /// `(notes.seq, Markdown)` in the order the meeting shows them.
    pub notes: Vec<(i64, String)>,
}

/// Where a passage comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassageSource {
    Transcript,
    /// Item `item` of the note `note` (notes.seq).
    Note {
        note: i64,
        item: i64,
    },
}

/// A passage to keep.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPassage {
    pub source: PassageSource,
    pub start_ms: i64,
    pub end_ms: i64,
    pub scale: f32,
    pub vector: Vec<u8>,
}

/// A kept passage's vector and what the in-memory index needs of it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVector {
    pub passage: i64,
    pub meeting: i64,
    pub started_at: i64,
    pub scale: f32,
    pub vector: Vec<u8>,
}

/// A passage as a search result or a citation shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PassageRecord {
    pub passage: i64,
    pub meeting: i64,
    pub meeting_id: MeetingId,
    pub meeting_title: String,
    pub started_at: i64,
    pub start_ms: i64,
    pub end_ms: i64,
    pub content: PassageContent,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PassageContent {
    /// The meeting's lines that start within the passage.
    Transcript(Vec<SegmentRecord>),
    /// The whole note; `item` is which of its items (the service cuts it again).
    Note { note_id: NoteId, markdown: String, item: i64 },
}

impl crate::Store {
    /// Meetings whose passages are missing or out of date, of those ready.
    pub fn meaning_progress(&self) -> StoreResult<IndexProgress> {
        self.read(|db| {
            let remaining = db
                .prepare_cached(
                    "SELECT count(*) FROM meaning_dirty d JOIN meetings m ON m.seq = d.meeting \
                     WHERE m.status = 'ready'",
                )?
                .query_row([], |row| row.get(0))?;
            let meetings = db
                .prepare_cached("SELECT count(*) FROM meetings WHERE status = 'ready'")?
                .query_row([], |row| row.get(0))?;
            Ok(IndexProgress { remaining, meetings })
        })
    }

    /// The newest ready meeting that needs embedding, if any.
    pub fn next_to_embed(&self) -> StoreResult<Option<EmbeddingSource>> {
        self.read(|db| {
            let seq: Option<i64> = db
                .prepare_cached(
                    "SELECT d.meeting FROM meaning_dirty d JOIN meetings m ON m.seq = d.meeting \
                     WHERE m.status = 'ready' ORDER BY m.started_at DESC LIMIT 1",
                )?
                .query_row([], |row| row.get(0))
                .optional()?;
            seq.map(|seq| source(db, seq)).transpose()
        })
    }

    /// Ready meetings whose passages are missing or out of date, started
    /// within `[from, to)` (either open), newest first, at most `limit`: what
    /// a question embeds before it is answered.
    pub fn unembedded_ready(
        &self,
        from: Option<i64>,
        to: Option<i64>,
        limit: usize,
    ) -> StoreResult<Vec<EmbeddingSource>> {
        self.read(|db| {
            let seqs: Vec<i64> = db
                .prepare_cached(
                    "SELECT d.meeting FROM meaning_dirty d JOIN meetings m ON m.seq = d.meeting \
                     WHERE m.status = 'ready' AND m.started_at >= ?1 AND m.started_at < ?2 \
                     ORDER BY m.started_at DESC LIMIT ?3",
                )?
                .query_map(
                    params![from.unwrap_or(i64::MIN), to.unwrap_or(i64::MAX), limit as i64],
                    |row| row.get(0),
                )?
                .collect::<Result<_, _>>()?;
            seqs.into_iter().map(|seq| source(db, seq)).collect()
        })
    }

    /// About how many transcript lines the library holds (the newest line's
    /// row number: deleted lines still count; one index lookup).
    pub fn line_count(&self) -> StoreResult<i64> {
        self.read(|db| {
            Ok(db
                .prepare_cached("SELECT coalesce(max(seq), 0) FROM segments")?
                .query_row([], |row| row.get(0))?)
        })
    }

    /// What `meeting_id`'s passages are made from, whatever its state (a
    /// recording's lines so far).
    pub fn embedding_source(&self, meeting_id: &MeetingId) -> StoreResult<EmbeddingSource> {
        self.read(|db| source(db, meeting_seq(db, meeting_id)?))
    }

    /// Replaces a meeting's passages, unless it changed since `version` was
    /// read (`None`: it is still dirty and will be embedded again). Saved:
    /// the first new passage's id (ids only grow; `i64::MAX` when none).
    pub fn save_passages(
        &self,
        meeting: i64,
        version: i64,
        passages: &[NewPassage],
    ) -> StoreResult<Option<i64>> {
        self.write(|tx| {
            let current: Option<i64> = tx
                .prepare_cached("SELECT version FROM meaning_dirty WHERE meeting = ?1")?
                .query_row([meeting], |row| row.get(0))
                .optional()?;
            let exists: bool = tx
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM meetings WHERE seq = ?1)")?
                .query_row([meeting], |row| row.get(0))?;
            if !exists {
                tx.execute("DELETE FROM meaning_dirty WHERE meeting = ?1", [meeting])?;
                return Ok(None);
            }
            if current.is_some_and(|current| current != version) {
                return Ok(None);
            }
            tx.execute("DELETE FROM passages WHERE meeting = ?1", [meeting])?;
            let first = insert_passages(tx, meeting, passages)?;
            tx.execute("DELETE FROM meaning_dirty WHERE meeting = ?1", [meeting])?;
            Ok(Some(first.unwrap_or(i64::MAX)))
        })
    }

    /// Kept vectors with ids above `after`, oldest first, at most `limit`.
    pub fn passage_vectors_after(
        &self,
        after: i64,
        limit: usize,
    ) -> StoreResult<Vec<StoredVector>> {
        self.read(|db| {
            let mut query = db.prepare_cached(
                "SELECT p.seq, p.meeting, m.started_at, p.scale, p.vector FROM passages p \
                 JOIN meetings m ON m.seq = p.meeting WHERE p.seq > ?1 ORDER BY p.seq LIMIT ?2",
            )?;
            let rows = query.query_map(params![after, limit as i64], stored_vector)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The vectors of `passages` that still exist (deleted ones are left out).
    pub fn passage_vectors(&self, passages: &[i64]) -> StoreResult<Vec<StoredVector>> {
        self.read(|db| {
            let mut query = db.prepare_cached(
                "SELECT p.seq, p.meeting, m.started_at, p.scale, p.vector FROM passages p \
                 JOIN meetings m ON m.seq = p.meeting WHERE p.seq = ?1",
            )?;
            let mut found = Vec::with_capacity(passages.len());
            for passage in passages {
                found.extend(query.query_row([passage], stored_vector).optional()?);
            }
            Ok(found)
        })
    }

    /// `passages` as results show them, in the order asked (gone ones left out).
    pub fn passages(&self, passages: &[i64]) -> StoreResult<Vec<PassageRecord>> {
        self.read(|db| {
            let mut found = Vec::with_capacity(passages.len());
            for passage in passages {
                found.extend(passage_record(db, *passage)?);
            }
            Ok(found)
        })
    }

    /// How many passages are kept, and the bytes of their vectors.
    pub fn passage_totals(&self) -> StoreResult<(i64, i64)> {
        self.read(|db| {
            Ok(db
                .prepare_cached("SELECT count(*), coalesce(sum(length(vector)), 0) FROM passages")?
                .query_row([], |row| Ok((row.get(0)?, row.get(1)?)))?)
        })
    }

    /// The row number of a meeting (what passages and the index name it by).
    pub fn meeting_seq_of(&self, meeting_id: &MeetingId) -> StoreResult<i64> {
        self.read(|db| meeting_seq(db, meeting_id))
    }
}

fn stored_vector(row: &rusqlite::Row) -> rusqlite::Result<StoredVector> {
    Ok(StoredVector {
        passage: row.get(0)?,
        meeting: row.get(1)?,
        started_at: row.get(2)?,
        scale: row.get::<_, f64>(3)? as f32,
        vector: row.get(4)?,
    })
}

/// Inserts `passages`; the id of the first.
fn insert_passages(
    tx: &Transaction,
    meeting: i64,
    passages: &[NewPassage],
) -> StoreResult<Option<i64>> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO passages (meeting, source, start_ms, end_ms, note, item, scale, vector) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    let mut first = None;
    for passage in passages {
        let (source, note, item) = match passage.source {
            PassageSource::Transcript => ("transcript", None, 0),
            PassageSource::Note { note, item } => ("note", Some(note), item),
        };
        insert.execute(params![
            meeting,
            source,
            passage.start_ms,
            passage.end_ms,
            note,
            item,
            f64::from(passage.scale),
            passage.vector
        ])?;
        first.get_or_insert(tx.last_insert_rowid());
    }
    Ok(first)
}

fn source(db: &Connection, meeting: i64) -> StoreResult<EmbeddingSource> {
    let (meeting_id, version): (String, Option<i64>) = db
        .prepare_cached(
            "SELECT m.id, d.version FROM meetings m LEFT JOIN meaning_dirty d ON d.meeting = m.seq \
             WHERE m.seq = ?1",
        )?
        .query_row([meeting], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let lines = segment_records(db, meeting, None)?;
    let notes = db
        .prepare_cached("SELECT seq, content_md FROM notes WHERE meeting = ?1 ORDER BY seq")?
        .query_map([meeting], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(EmbeddingSource {
        meeting,
        meeting_id: meeting_id.into(),
        version: version.unwrap_or(0),
        dirty: version.is_some(),
        lines,
        notes,
    })
}

fn passage_record(db: &Connection, passage: i64) -> StoreResult<Option<PassageRecord>> {
    type Row = (i64, String, String, i64, String, i64, i64, Option<String>, Option<String>, i64);
    let row: Option<Row> = db
        .prepare_cached(
            "SELECT p.meeting, m.id, m.title, m.started_at, p.source, p.start_ms, p.end_ms, \
             n.id, n.content_md, p.item FROM passages p JOIN meetings m ON m.seq = p.meeting \
             LEFT JOIN notes n ON n.seq = p.note WHERE p.seq = ?1",
        )?
        .query_row([passage], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
                row.get(7)?,
                row.get(8)?,
                row.get(9)?,
            ))
        })
        .optional()?;
    let Some((
        meeting,
        meeting_id,
        title,
        started_at,
        source,
        start_ms,
        end_ms,
        note_id,
        markdown,
        item,
    )) = row
    else {
        return Ok(None);
    };
    let content = match (source.as_str(), note_id, markdown) {
        ("note", Some(note_id), Some(markdown)) => {
            PassageContent::Note { note_id: note_id.into(), markdown, item }
        }
        ("note", _, _) => return Ok(None),
        _ => PassageContent::Transcript(segment_records(db, meeting, Some((start_ms, end_ms)))?),
    };
    Ok(Some(PassageRecord {
        passage,
        meeting,
        meeting_id: meeting_id.into(),
        meeting_title: title,
        started_at,
        start_ms,
        end_ms,
        content,
    }))
}
