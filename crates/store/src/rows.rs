//! Row helpers the other modules share: a meeting's row number, and the label
//! a speaker's number and name give.

use rusqlite::{Connection, OptionalExtension};

use crate::{StoreError, StoreResult};

/// The internal row number of a meeting, or `NotFound`.
pub(crate) fn meeting_seq(db: &Connection, id: &str) -> StoreResult<i64> {
    db.prepare_cached("SELECT seq FROM meetings WHERE id = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()?
        .ok_or(StoreError::NotFound)
}

/// A segment's speaker label from its number and that speaker's name.
pub(crate) fn speaker_label(number: Option<i64>, name: Option<String>) -> Option<String> {
    number.map(|n| name.unwrap_or_else(|| label_of(n)))
}

/// `Speaker N`.
pub fn label_of(number: i64) -> String {
    format!("Speaker {number}")
}
