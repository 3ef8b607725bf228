//! The one way a meeting's status changes: [`move_status`] refuses every move
//! that [`MeetingStatus::can_move_to`] does not allow, so no caller can put a
//! meeting back into `recording` or skip its notes by accident.

use recorder_domain::{MeetingId, MeetingStatus};
use rusqlite::{params, OptionalExtension, Transaction};

use crate::{StoreError, StoreResult};

impl crate::Store {
    /// Moves the meeting to `to` in a transaction of its own.
    pub fn move_status(&self, id: &MeetingId, to: MeetingStatus, now: i64) -> StoreResult<()> {
        self.write(|tx| move_status(tx, id, to, now))
    }
}

/// Moves the meeting to `to` if its status allows that move; otherwise
/// [`StoreError::IllegalMove`] and nothing is written.
pub(crate) fn move_status(
    tx: &Transaction,
    id: &str,
    to: MeetingStatus,
    now: i64,
) -> StoreResult<()> {
    let from = current_status(tx, id)?;
    if !from.can_move_to(to) {
        return Err(StoreError::IllegalMove { from, to });
    }
    tx.execute(
        "UPDATE meetings SET status = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, to.as_str(), now],
    )?;
    Ok(())
}

pub(crate) fn current_status(tx: &Transaction, id: &str) -> StoreResult<MeetingStatus> {
    let status: String = tx
        .query_row("SELECT status FROM meetings WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or(StoreError::NotFound)?;
    MeetingStatus::parse(&status)
        .ok_or_else(|| StoreError::Malformed(format!("meeting status {status}")))
}
