//! Meetings, their parts, transcripts and search results.

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Attendee {
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Note {
    pub id: String,
    /// summary, action_items, decisions, key_points or custom
    pub kind: String,
    pub content_md: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ActionItem {
    pub id: String,
    pub text: String,
    pub owner: String,
    pub done: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Marker {
    pub id: String,
    /// Offset into the meeting in milliseconds.
    pub at_ms: i64,
    pub label: String,
}

/// A meeting. In lists, `notes`, `action_items` and `markers` are left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Meeting {
    pub id: String,
    pub title: String,
    pub source_app: String,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub duration_ms: i64,
    /// recording, transcribing, summarising or ready
    pub status: String,
    pub language: Option<String>,
    pub attendees: Vec<Attendee>,
    pub tags: Vec<String>,
    pub starred: bool,
    /// Null unless transcription or notes failed.
    pub processing_error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<Note>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_items: Option<Vec<ActionItem>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markers: Option<Vec<Marker>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MeetingList {
    pub meetings: Vec<Meeting>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Segment {
    pub speaker: String,
    /// `mic` (the local user) or `sys` (everyone else)
    pub channel: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Transcript {
    pub meeting_id: String,
    pub segments: Vec<Segment>,
}

/// Body of `PATCH /v1/meetings/:id`. Only these fields are accepted.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MeetingPatch {
    /// 1 to 500 characters.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub title: Option<String>,
    /// At most 50 tags of 1 to 64 characters after trimming; duplicates are merged.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(max_items = 50)]
    pub tags: Option<Vec<String>>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub starred: Option<bool>,
    /// Names of 1 to 200 characters.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub attendees: Option<Vec<AttendeePatch>>,
}

/// An attendee in a PATCH body: only `name`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttendeePatch {
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
}

/// Body of `PATCH /v1/meetings/:id/action_items/:item_id`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionItemPatch {
    pub done: bool,
}

/// Body of `POST /v1/meetings/:id/notes`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotesRequest {
    /// summary, action_items, decisions, key_points or custom (needs template_id)
    #[schema(value_type = NoteKindName)]
    pub kind: String,
    #[serde(default)]
    pub template_id: Option<String>,
}

/// The note kinds.
#[derive(ToSchema)]
#[schema(rename_all = "snake_case")]
pub enum NoteKindName {
    Summary,
    ActionItems,
    Decisions,
    KeyPoints,
    Custom,
}

/// Transcript formats of `GET /v1/meetings/{id}/transcript`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum TranscriptFormat {
    Json,
    Md,
    Srt,
    Vtt,
    Txt,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NotesAccepted {
    pub meeting_id: String,
    pub status: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SearchResult {
    pub meeting_id: String,
    pub meeting_title: String,
    pub started_at: i64,
    /// `transcript` or `note`
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_id: Option<String>,
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
    pub meeting_id: String,
    pub meeting_title: String,
    pub started_at: i64,
    /// Transcript lines and notes of this meeting that contain every word (0
    /// when only the title matches, or the words are on different lines).
    pub matches: i64,
    /// Its best passages: notes, then lines with every word, then lines with
    /// some of the words; each in the meeting's order.
    pub results: Vec<SearchResult>,
}

/// A field that, when present, must not be null: `null` is a wrong type (400).
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}
