//! Markdown export of a meeting, with no database and no async.
//!
//! - [`render_markdown`] turns an [`ExportMeeting`] into a Markdown document with
//!   YAML front matter.
//! - [`file_name`] gives a file name that is safe on Windows, macOS and Linux.
//! - [`resolve_folder`] checks a requested folder against the AllowedExportFolder
//!   policy and returns its canonical path.
//! - [`write_new`] writes a new file next to (never over) existing ones.

mod file_name;
mod folder;
mod markdown;
mod write;

pub use file_name::file_name;
pub use folder::{resolve_folder, FolderError};
pub use markdown::render_markdown;
pub use write::write_new;

/// Everything an export shows about one meeting. Times are milliseconds: `started_at`
/// and `ended_at` are Unix timestamps, the rest are offsets or lengths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportMeeting {
    pub title: String,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub duration_ms: Option<i64>,
    pub source_app: String,
    pub language: String,
    pub attendees: Vec<String>,
    pub tags: Vec<String>,
    pub notes: Vec<ExportNote>,
    pub action_items: Vec<ExportActionItem>,
    pub markers: Vec<ExportMarker>,
    pub segments: Vec<ExportSegment>,
}

/// A generated note. `kind` is `summary`, `key_points`, `decisions`, `action_items`
/// or `custom`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportNote {
    pub kind: String,
    pub content_md: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportActionItem {
    pub text: String,
    pub owner: String,
    pub done: bool,
    /// An ISO date (`2026-12-24`).
    pub due: Option<String>,
}

/// A marker `at_ms` milliseconds into the meeting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportMarker {
    pub at_ms: i64,
    pub label: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportSegment {
    pub speaker: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

/// `ms` as a local date and time (an instant outside chrono's range becomes the epoch).
pub(crate) fn local_time(ms: i64) -> chrono::DateTime<chrono::Local> {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().with_timezone(&chrono::Local)
}

/// Whitespace runs (line breaks included) become single spaces.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
