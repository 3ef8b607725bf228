//! Retention: which meetings have outlived 'Keep audio files' and 'Delete
//! meetings after'. A meeting's age counts from when it ended (its start when it
//! has no end). Meetings still recording or transcribing are never touched;
//! starred meetings are never deleted, though their audio follows the audio rule.

use recorder_domain::MeetingId;
use rusqlite::params;

use crate::StoreResult;

/// Meetings that ended before these instants (ms) are due; `None` keeps forever.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetentionCutoffs {
    pub audio_before: Option<i64>,
    pub meetings_before: Option<i64>,
}

/// What is due now, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RetentionDue {
    /// Meetings whose audio files should go (and have not gone yet).
    pub audio: Vec<MeetingId>,
    /// Meetings to delete whole.
    pub meetings: Vec<MeetingId>,
}

const SETTLED: &str = "status IN ('summarising', 'ready')";

impl crate::Store {
    pub fn retention_due(&self, cutoffs: RetentionCutoffs) -> StoreResult<RetentionDue> {
        self.read(|db| {
            let mut due = RetentionDue::default();
            if let Some(before) = cutoffs.meetings_before {
                let sql = format!(
                    "SELECT id FROM meetings WHERE {SETTLED} AND starred = 0 \
                     AND coalesce(ended_at, started_at) < ?1 ORDER BY coalesce(ended_at, started_at)"
                );
                let mut query = db.prepare_cached(&sql)?;
                let ids = query.query_map([before], |row| row.get::<_, String>(0).map(MeetingId::from))?;
                due.meetings = ids.collect::<Result<_, _>>()?;
            }
            if let Some(before) = cutoffs.audio_before {
                let sql = format!(
                    "SELECT id FROM meetings WHERE {SETTLED} AND audio_removed_at IS NULL \
                     AND coalesce(ended_at, started_at) < ?1 ORDER BY coalesce(ended_at, started_at)"
                );
                let mut query = db.prepare_cached(&sql)?;
                let ids = query.query_map([before], |row| row.get::<_, String>(0).map(MeetingId::from))?;
                due.audio = ids
                    .collect::<Result<Vec<_>, _>>()?
                    .into_iter()
                    .filter(|id| !due.meetings.contains(id))
                    .collect();
            }
            Ok(due)
        })
    }

    /// Deletes a meeting the sweeper found due, unless it changed meanwhile
    /// (starred, or busy again after a notes regeneration). True when deleted.
    pub fn delete_expired_meeting(&self, id: &MeetingId, before: i64) -> StoreResult<bool> {
        self.write(|tx| {
            let sql = format!(
                "DELETE FROM meetings WHERE id = ?1 AND {SETTLED} AND starred = 0 \
                 AND coalesce(ended_at, started_at) < ?2"
            );
            Ok(tx.execute(&sql, params![id.as_str(), before])? > 0)
        })
    }

    /// Notes that a meeting's audio files were removed.
    pub fn mark_audio_removed(&self, id: &MeetingId, now: i64) -> StoreResult<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE meetings SET audio_removed_at = ?2 WHERE id = ?1 AND audio_removed_at IS NULL",
                params![id.as_str(), now],
            )?;
            Ok(())
        })
    }

    /// When the sweeper removed this meeting's audio, if it did.
    pub fn audio_removed_at(&self, id: &MeetingId) -> StoreResult<Option<i64>> {
        self.read(|db| {
            let seq = crate::rows::meeting_seq(db, id)?;
            Ok(db.query_row(
                "SELECT audio_removed_at FROM meetings WHERE seq = ?1",
                [seq],
                |row| row.get(0),
            )?)
        })
    }
}
