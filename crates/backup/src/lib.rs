//! Backups of a data folder, and restoring one.
//!
//! A backup is one tar file: the database as it was at one moment (SQLite's
//! online backup; a recording goes on meanwhile), `settings.json`, the
//! licence and the person's note templates, every meeting's audio, and last
//! `manifest.json` listing each file with its size and SHA-256. Tokens,
//! saved API keys, models and logs are left out: tokens are made anew, keys
//! are secrets kept by the OS, models can be installed again.
//!
//! The archive is written as `FILE.part` and renamed when whole. A restore
//! goes only into an empty data folder, checks every file against the
//! manifest and the database's integrity, and leaves the folder empty again
//! when anything is wrong.

mod archive;
mod manifest;
mod restore;

use std::path::PathBuf;

pub use crate::archive::{backup, default_path, BackupSummary};
pub use crate::manifest::{FileEntry, Manifest};
pub use crate::restore::{restore, RestoreSummary};

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("there is nothing to back up: {0} has no database")]
    NothingToBackUp(PathBuf),
    #[error("{0} is not empty: a backup is restored only into an empty (or new) data folder")]
    NotEmpty(PathBuf),
    #[error("{0} is not a Recorder backup: {1}")]
    NotABackup(PathBuf, String),
    #[error("the backup is damaged: {0}")]
    Damaged(String),
    #[error("this backup was made by a newer Recorder (database version {found}; this one knows {known})")]
    TooNew { found: i64, known: i64 },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("database: {0}")]
    Store(#[from] recorder_store::StoreError),
}

impl BackupError {
    fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> BackupError {
        let path = path.into();
        move |source| BackupError::Io { path, source }
    }
}
