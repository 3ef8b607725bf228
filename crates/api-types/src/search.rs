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

/// `mode` of the searches: by words (the default), by meaning (the embedding
/// model), or both rankings fused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    Words,
    Meaning,
    Both,
}

/// `POST /v1/ask`: a question about the meetings (all, one, or those that
/// started in `[from, to)`, ms since the epoch).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AskRequest {
    /// 1 to 2 000 characters.
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<MeetingId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i64>,
}

/// The answer and the lines it comes from; never an answer without them
/// (when nothing relevant is found, `answer` says so and `citations` is empty).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AskAnswer {
    pub answer: String,
    pub citations: Vec<Citation>,
    /// Who wrote the answer: `builtin` (the sentences themselves), `local`,
    /// `anthropic` or `openai_compatible`.
    pub provider: String,
    /// Why the built-in engine answered instead of the chosen provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// No line passed the relevance floor: `answer` is a plain notice and the
    /// citations are the closest lines, for the person to judge.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closest: bool,
    /// Meetings in the question's scope not embedded yet, searched by their
    /// words alone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub by_words_only: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// A line (or passage) an answer comes from; opens the meeting at `start_ms`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Citation {
    pub meeting_id: MeetingId,
    pub title: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub speaker: String,
    pub text: String,
    /// Where the line that answers starts (ms), when the citation holds the
    /// lines around it too; links open the meeting there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<i64>,
}
