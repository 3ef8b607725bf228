//! Search results: passages (`/v1/search`) and meetings (`/v1/search/meetings`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::{MeetingId, NoteId};

/// Where a passage was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PassageSource {
    Transcript,
    Note,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SearchResult {
    pub meeting_id: MeetingId,
    pub meeting_title: String,
    pub started_at: i64,
    pub source: PassageSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_id: Option<NoteId>,
    /// HTML-escaped text with the matches wrapped in `<mark>…</mark>`.
    pub snippet: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SearchResults {
    pub results: Vec<SearchResult>,
}

/// Search results grouped by meeting (`GET /v1/search/meetings`, an extension
/// of the spec for the library): the meetings the meeting list with the same
/// `q` holds, newest first, a page at a time.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MeetingSearchResults {
    pub meetings: Vec<MeetingMatches>,
    /// Meetings that match in all.
    pub total: i64,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MeetingMatches {
    pub meeting_id: MeetingId,
    pub meeting_title: String,
    pub started_at: i64,
    /// Transcript lines and notes of this meeting that contain every word (0
    /// when only the title matches, or the words are on different lines).
    pub matches: i64,
    /// Its best passages: notes, then lines with every word, then lines with
    /// some of the words; each in the meeting's order.
    pub results: Vec<SearchResult>,
}
