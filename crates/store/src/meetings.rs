//! Meetings: create, read, list, change, delete.

use recorder_domain::text::strip_match_sentinels;
use recorder_domain::{MeetingId, MeetingStatus};
use rusqlite::{params, Connection, OptionalExtension, Row, Transaction};

use crate::matching::{self, Window};
use crate::rows::meeting_seq;
use crate::search::Query;
use crate::{StoreError, StoreResult};

/// A meeting row with its attendees and tags.
#[derive(Debug, Clone, PartialEq)]
pub struct MeetingRecord {
    pub id: MeetingId,
    pub title: String,
    pub source_app: String,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub duration_ms: i64,
    pub status: MeetingStatus,
    pub language: Option<String>,
    pub starred: bool,
    pub processing_error: Option<String>,
    pub attendees: Vec<String>,
    pub tags: Vec<String>,
    /// Words its transcription should expect, beside the attendees and title.
    pub vocabulary: Vec<String>,
}

impl MeetingRecord {
    /// A meeting made from an imported audio file, about to be transcribed.
    pub fn new_import(title: String, started_at: i64) -> Self {
        MeetingRecord {
            id: MeetingId::generate(),
            title,
            source_app: "import".to_owned(),
            started_at,
            ended_at: None,
            duration_ms: 0,
            status: MeetingStatus::Transcribing,
            language: None,
            starred: false,
            processing_error: None,
            attendees: Vec::new(),
            tags: Vec::new(),
            vocabulary: Vec::new(),
        }
    }
}

/// Filters and paging of a meeting list. `q` is raw user text.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub q: Option<String>,
    pub limit: i64,
    pub offset: i64,
    pub from: Option<i64>,
    pub to: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct MeetingPage {
    pub meetings: Vec<MeetingRecord>,
    pub total: i64,
}

/// Validated changes to a meeting; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct MeetingChanges {
    pub title: Option<String>,
    pub tags: Option<Vec<String>>,
    pub starred: Option<bool>,
    pub attendees: Option<Vec<String>>,
    pub vocabulary: Option<Vec<String>>,
    /// Pins the language of the lines still to be transcribed.
    pub language: Option<String>,
}

const COLUMNS: &str = "seq, id, title, source_app, started_at, ended_at, duration_ms, status, \
                       language, starred, processing_error";

impl crate::Store {
    pub fn insert_meeting(&self, meeting: &MeetingRecord, now: i64) -> StoreResult<()> {
        self.write(|tx| insert_meeting(tx, meeting, now))
    }

    pub fn meeting(&self, id: &MeetingId) -> StoreResult<MeetingRecord> {
        self.read(|db| meeting_by_id(db, id))
    }

    pub fn list_meetings(&self, query: &ListQuery) -> StoreResult<MeetingPage> {
        self.read(|db| list(db, query))
    }

    /// Applies changes and returns the meeting as it now is.
    pub fn update_meeting(
        &self,
        id: &MeetingId,
        changes: &MeetingChanges,
        now: i64,
    ) -> StoreResult<MeetingRecord> {
        self.write(|tx| {
            let seq = meeting_seq(tx, id)?;
            apply_changes(tx, seq, changes, now)?;
            meeting_by_id(tx, id)
        })
    }

    /// Deletes the meeting and every row that hangs off it (segments, notes, items,
    /// markers, attendees, tags and their index entries) in one transaction.
    pub fn delete_meeting(&self, id: &MeetingId) -> StoreResult<()> {
        self.write(|tx| {
            let deleted = tx.execute("DELETE FROM meetings WHERE id = ?1", [id.as_str()])?;
            if deleted == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }
}

pub(crate) fn insert_meeting(
    tx: &Transaction,
    meeting: &MeetingRecord,
    now: i64,
) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO meetings (id, title, source_app, started_at, ended_at, duration_ms, status, \
         language, starred, processing_error, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
        params![
            meeting.id.as_str(),
            strip_match_sentinels(&meeting.title),
            meeting.source_app,
            meeting.started_at,
            meeting.ended_at,
            meeting.duration_ms,
            meeting.status.as_str(),
            meeting.language,
            meeting.starred,
            meeting.processing_error,
            now
        ],
    )?;
    let seq = tx.last_insert_rowid();
    replace_attendees(tx, seq, &meeting.attendees)?;
    replace_words(tx, seq, &meeting.vocabulary)?;
    replace_tags(tx, seq, &meeting.tags)
}

fn apply_changes(
    tx: &Transaction,
    seq: i64,
    changes: &MeetingChanges,
    now: i64,
) -> StoreResult<()> {
    if let Some(title) = &changes.title {
        tx.execute(
            "UPDATE meetings SET title = ?2 WHERE seq = ?1",
            params![seq, strip_match_sentinels(title)],
        )?;
    }
    if let Some(starred) = changes.starred {
        tx.execute("UPDATE meetings SET starred = ?2 WHERE seq = ?1", params![seq, starred])?;
    }
    if let Some(tags) = &changes.tags {
        replace_tags(tx, seq, tags)?;
    }
    if let Some(attendees) = &changes.attendees {
        replace_attendees(tx, seq, attendees)?;
    }
    if let Some(words) = &changes.vocabulary {
        replace_words(tx, seq, words)?;
    }
    if let Some(language) = &changes.language {
        tx.execute("UPDATE meetings SET language = ?2 WHERE seq = ?1", params![seq, language])?;
    }
    tx.execute("UPDATE meetings SET updated_at = ?2 WHERE seq = ?1", params![seq, now])?;
    Ok(())
}

fn replace_tags(tx: &Transaction, seq: i64, tags: &[String]) -> StoreResult<()> {
    tx.execute("DELETE FROM tags WHERE meeting = ?1", [seq])?;
    let mut insert =
        tx.prepare_cached("INSERT OR IGNORE INTO tags (meeting, tag) VALUES (?1, ?2)")?;
    for tag in tags {
        insert.execute(params![seq, tag])?;
    }
    Ok(())
}

fn replace_attendees(tx: &Transaction, seq: i64, names: &[String]) -> StoreResult<()> {
    tx.execute("DELETE FROM attendees WHERE meeting = ?1", [seq])?;
    let mut insert =
        tx.prepare_cached("INSERT INTO attendees (meeting, position, name) VALUES (?1, ?2, ?3)")?;
    for (position, name) in names.iter().enumerate() {
        insert.execute(params![seq, position as i64, name])?;
    }
    Ok(())
}

fn replace_words(tx: &Transaction, seq: i64, words: &[String]) -> StoreResult<()> {
    tx.execute("DELETE FROM meeting_vocabulary WHERE meeting = ?1", [seq])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO meeting_vocabulary (meeting, position, word) VALUES (?1, ?2, ?3)",
    )?;
    for (position, word) in words.iter().enumerate() {
        insert.execute(params![seq, position as i64, word])?;
    }
    Ok(())
}

pub(crate) fn meeting_by_id(db: &Connection, id: &str) -> StoreResult<MeetingRecord> {
    let sql = format!("SELECT {COLUMNS} FROM meetings WHERE id = ?1");
    let found = db.prepare_cached(&sql)?.query_row([id], read_row).optional()?;
    let (seq, meeting) = found.ok_or(StoreError::NotFound)?;
    with_people(db, seq, meeting)
}

fn list(db: &Connection, query: &ListQuery) -> StoreResult<MeetingPage> {
    match query.q.as_deref().map(Query::parse) {
        None => list_all(db, query),
        Some(Some(search)) => list_matching(db, query, &search),
        // The query had no searchable word: nothing can match it.
        Some(None) => Ok(MeetingPage { meetings: Vec::new(), total: 0 }),
    }
}

const TIME_FILTER: &str = "(?1 IS NULL OR started_at >= ?1) AND (?2 IS NULL OR started_at < ?2)";

fn list_all(db: &Connection, query: &ListQuery) -> StoreResult<MeetingPage> {
    let total: i64 = db
        .prepare_cached(&format!("SELECT count(*) FROM meetings WHERE {TIME_FILTER}"))?
        .query_row(params![query.from, query.to], |row| row.get(0))?;
    let mut statement = db.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM meetings WHERE {TIME_FILTER} \
         ORDER BY started_at DESC, seq DESC LIMIT ?3 OFFSET ?4"
    ))?;
    let rows = statement
        .query_map(params![query.from, query.to, query.limit, query.offset], read_row)?
        .collect::<Result<Vec<_>, _>>()?;
    let meetings = rows
        .into_iter()
        .map(|(seq, meeting)| with_people(db, seq, meeting))
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(MeetingPage { meetings, total })
}

/// Meetings whose title, transcript or notes match (see [`crate::matching`]).
fn list_matching(db: &Connection, query: &ListQuery, search: &Query) -> StoreResult<MeetingPage> {
    let window = Window {
        from: query.from,
        to: query.to,
        after: None,
        offset: query.offset,
        limit: query.limit,
    };
    let (seqs, total) = matching::page(db, search, &window)?;
    let meetings = seqs.iter().map(|seq| meeting_by_seq(db, *seq)).collect::<StoreResult<_>>()?;
    Ok(MeetingPage { meetings, total })
}

pub(crate) fn meeting_by_seq(db: &Connection, seq: i64) -> StoreResult<MeetingRecord> {
    let sql = format!("SELECT {COLUMNS} FROM meetings WHERE seq = ?1");
    let (seq, meeting) = db.prepare_cached(&sql)?.query_row([seq], read_row)?;
    with_people(db, seq, meeting)
}

fn with_people(
    db: &Connection,
    seq: i64,
    mut meeting: MeetingRecord,
) -> StoreResult<MeetingRecord> {
    meeting.attendees = db
        .prepare_cached("SELECT name FROM attendees WHERE meeting = ?1 ORDER BY position")?
        .query_map([seq], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    meeting.tags = db
        .prepare_cached("SELECT tag FROM tags WHERE meeting = ?1 ORDER BY tag")?
        .query_map([seq], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    meeting.vocabulary = db
        .prepare_cached("SELECT word FROM meeting_vocabulary WHERE meeting = ?1 ORDER BY position")?
        .query_map([seq], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(meeting)
}

fn read_row(row: &Row) -> rusqlite::Result<(i64, MeetingRecord)> {
    let status: String = row.get(7)?;
    let status = MeetingStatus::parse(&status).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            7,
            rusqlite::types::Type::Text,
            format!("unknown status {status}").into(),
        )
    })?;
    Ok((
        row.get(0)?,
        MeetingRecord {
            id: row.get::<_, String>(1)?.into(),
            title: row.get(2)?,
            source_app: row.get(3)?,
            started_at: row.get(4)?,
            ended_at: row.get(5)?,
            duration_ms: row.get(6)?,
            status,
            language: row.get(8)?,
            starred: row.get(9)?,
            processing_error: row.get(10)?,
            attendees: Vec::new(),
            tags: Vec::new(),
            vocabulary: Vec::new(),
        },
    ))
}
