//! The store's error type.

/// What can go wrong in the store. Callers map `NotFound` to 404 and everything
/// else to an internal error whose message hides the details.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    #[error("the meeting is {} and cannot take this now", .0.as_str())]
    Busy(recorder_domain::MeetingStatus),
    /// A status move `MeetingStatus::can_move_to` does not allow.
    #[error("a meeting cannot move from {} to {}", .from.as_str(), .to.as_str())]
    IllegalMove { from: recorder_domain::MeetingStatus, to: recorder_domain::MeetingStatus },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database schema is newer than this build (version {found}, known {known})")]
    FutureSchema { found: i64, known: i64 },
    /// What was asked cannot be done as things are (the message says why).
    #[error("{0}")]
    Conflict(String),
    #[error("stored data is malformed: {0}")]
    Malformed(String),
}

pub type StoreResult<T> = Result<T, StoreError>;
