//! The history of a meeting's record: every change by the person, an agent or
//! the service, with what it replaced, written by [`record`] in the same
//! transaction as the change itself (by `edits.rs`, `speakers.rs` for a
//! speaker's name and `kept.rs` for the service's runs, nothing else), and
//! undone by putting `before` back through the same path.

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::Value;

use crate::rows::meeting_seq;
use crate::{StoreError, StoreResult};

/// How long the same author's next change of the same target folds into the
/// last one instead of making a new change (typing in a notepad).
pub const FOLD_MS: i64 = 60_000;

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Author {
    /// The person, in the app (or with the person's token).
    Person,
    /// An agent or a script with the API token, by its client's name.
    Agent(String),
    /// The service's own work: notes runs, transcriptions.
    Service,
}

impl Author {
    /// `person`, `agent:<client>` or `service`.
    pub fn label(&self) -> String {
        match self {
            Author::Person => "person".into(),
            Author::Agent(client) => format!("agent:{client}"),
            Author::Service => "service".into(),
        }
    }
}

/// One change, as the history lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeRecord {
    pub id: String,
    pub at: i64,
    /// `person`, `agent:<client>` or `service`.
    pub by: String,
    /// `segment:<id>`, `speaker:<label>` (every line of a speaker),
    /// `speaker_name:<number>` (a speaker renamed), `note:<id>`,
    /// `action_item:<id>`, `action_items` or `transcript`.
    pub target: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// What changed, in a line.
    pub summary: String,
}

/// A change to be recorded.
pub(crate) struct Change<'a> {
    pub target: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub summary: String,
    /// Fold into the author's last change of this target when it is recent.
    pub fold: bool,
    pub author: &'a Author,
}

/// Writes a change's history row (or folds it into the last one) and returns
/// its id.
pub(crate) fn record(
    tx: &Transaction,
    meeting: i64,
    change: Change,
    now: i64,
) -> StoreResult<String> {
    let by = change.author.label();
    if change.fold {
        if let Some(id) = fold_into_last(tx, meeting, &by, &change, now)? {
            return Ok(id);
        }
    }
    let id = recorder_domain::ChangeId::generate().to_string();
    tx.prepare_cached(
        "INSERT INTO changes (id, meeting, at, author, target, before, after, summary, open_until) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        id,
        meeting,
        now,
        by,
        change.target,
        change.before.map(|v| v.to_string()),
        change.after.map(|v| v.to_string()),
        change.summary,
        if change.fold { now + FOLD_MS } else { 0 },
    ])?;
    Ok(id)
}

/// The meeting's last change, when it is this author's of this target and
/// still open: its `after` becomes this one's.
fn fold_into_last(
    tx: &Transaction,
    meeting: i64,
    by: &str,
    change: &Change,
    now: i64,
) -> StoreResult<Option<String>> {
    let last: Option<(i64, String, String, String, i64)> = tx
        .prepare_cached(
            "SELECT seq, id, author, target, open_until FROM changes WHERE meeting = ?1 \
             ORDER BY seq DESC LIMIT 1",
        )?
        .query_row([meeting], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .optional()?;
    let Some((seq, id, author, target, open_until)) = last else { return Ok(None) };
    if author != by || target != change.target || open_until < now {
        return Ok(None);
    }
    tx.execute(
        "UPDATE changes SET at = ?2, after = ?3, summary = ?4, open_until = ?5 WHERE seq = ?1",
        params![
            seq,
            now,
            change.after.as_ref().map(|v| v.to_string()),
            change.summary,
            now + FOLD_MS
        ],
    )?;
    Ok(Some(id))
}

impl crate::Store {
    /// A meeting's changes, newest first (at most `limit`).
    pub fn history(&self, meeting_id: &str, limit: i64) -> StoreResult<Vec<ChangeRecord>> {
        self.read(|db| {
            let seq = meeting_seq(db, meeting_id)?;
            let mut query = db.prepare_cached(
                "SELECT id, at, author, target, before, after, summary FROM changes \
                 WHERE meeting = ?1 ORDER BY seq DESC LIMIT ?2",
            )?;
            let rows = query.query_map(params![seq, limit], read_change)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}

/// One change of a meeting, or `NotFound`.
pub(crate) fn change(db: &Connection, meeting: i64, id: &str) -> StoreResult<ChangeRecord> {
    db.prepare_cached(
        "SELECT id, at, author, target, before, after, summary FROM changes \
         WHERE meeting = ?1 AND id = ?2",
    )?
    .query_row(params![meeting, id], read_change)
    .optional()?
    .ok_or(StoreError::NotFound)
}

fn read_change(row: &rusqlite::Row) -> rusqlite::Result<ChangeRecord> {
    let json = |text: Option<String>| text.and_then(|t| serde_json::from_str(&t).ok());
    Ok(ChangeRecord {
        id: row.get(0)?,
        at: row.get(1)?,
        by: row.get(2)?,
        target: row.get(3)?,
        before: json(row.get(4)?),
        after: json(row.get(5)?),
        summary: row.get(6)?,
    })
}
