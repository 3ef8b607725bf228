//! Meetings, their parts, transcripts and search results.

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use recorder_domain::{
    ActionItemId, Channel, MarkerId, MeetingId, MeetingStatus, NoteId, NoteKind,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Attendee {
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Note {
    pub id: NoteId,
    /// summary, action_items, decisions, key_points or custom
    pub kind: NoteKind,
    pub content_md: String,
    /// The engine that wrote it: `builtin`, `embedded` (the notes model inside),
    /// `local`, `anthropic` or `openai_compatible`; null for notes written
    /// before this was kept.
    #[serde(default)]
    pub written_by: Option<String>,
    /// Why the chosen engine did not write it, when the built-in one did.
    #[serde(default)]
    pub fallback: Option<String>,
    /// The person's own notes (kind `mine`): the moment of the meeting (ms)
    /// each line was typed at, one per line (null: typed after the meeting or
    /// blank). Left out for other notes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line_moments: Vec<Option<i64>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ActionItem {
    pub id: ActionItemId,
    pub text: String,
    pub owner: String,
    pub done: bool,
    /// An ISO date (`2026-12-24`), or null.
    #[serde(default)]
    pub due: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Marker {
    pub id: MarkerId,
    /// Offset into the meeting in milliseconds.
    pub at_ms: i64,
    pub label: String,
}

/// A meeting. In lists, `notes`, `action_items` and `markers` are left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Meeting {
    pub id: MeetingId,
    pub title: String,
    pub source_app: String,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub duration_ms: i64,
    /// recording, transcribing, summarising or ready
    pub status: MeetingStatus,
    pub language: Option<String>,
    pub attendees: Vec<Attendee>,
    pub tags: Vec<String>,
    pub starred: bool,
    /// Null unless transcription or notes failed.
    pub processing_error: Option<String>,
    /// Words its transcription should expect (names, terms), beside the
    /// attendees, the title and `transcription.vocabulary`. Left out when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vocabulary: Vec<String>,
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
    /// Stable while the line exists (`PATCH /v1/meetings/:id/segments/:segment_id`).
    pub id: String,
    pub speaker: String,
    /// `mic` (the local user) or `sys` (everyone else)
    pub channel: Channel,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    /// Corrected by the person or an agent (its words or its speaker).
    pub edited: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Transcript {
    pub meeting_id: MeetingId,
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
    /// Words its transcription should expect (names, terms): at most 200 of 1
    /// to 100 characters after trimming, duplicates merged, in this order.
    /// They count from the next transcription on (e.g. `POST
    /// /v1/meetings/:id/transcribe`).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(max_items = 200)]
    pub vocabulary: Option<Vec<String>>,
}

/// An attendee in a PATCH body: only `name`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttendeePatch {
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub name: String,
}

/// Body of `PATCH /v1/meetings/:id/action_items/:item_id`: any of these, at
/// least one.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionItemPatch {
    /// 1 to 1 000 characters after trimming.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 1000, pattern = r"\S")]
    pub text: Option<String>,
    /// 1 to 200 characters after trimming.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub owner: Option<String>,
    /// An ISO date (`2026-12-24`); null clears it.
    #[serde(default, deserialize_with = "nullable", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Date)]
    pub due: Option<Option<String>>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub done: Option<bool>,
}

/// Body of `POST /v1/meetings/:id/action_items`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewActionItem {
    /// 1 to 1 000 characters after trimming.
    #[schema(min_length = 1, max_length = 1000, pattern = r"\S")]
    pub text: String,
    /// 1 to 200 characters; default: the person's name (`general.user_name`).
    #[serde(default)]
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub owner: Option<String>,
    /// An ISO date (`2026-12-24`) or null.
    #[serde(default)]
    #[schema(format = Date)]
    pub due: Option<String>,
}

/// Body of `PATCH /v1/meetings/:id/segments/:segment_id`: `text`, `speaker`
/// or both.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SegmentPatch {
    /// The line's words: 1 to 10 000 characters after trimming.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 10000, pattern = r"\S")]
    pub text: Option<String>,
    /// Who said it: 1 to 200 characters after trimming. A speaker of the
    /// meeting (`Speaker 2`, or the name given to one) or any other name.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub speaker: Option<String>,
    /// With `speaker`: every line of this line's speaker goes to that
    /// speaker, not only this one (default false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_of_speaker: bool,
}

/// Body of `PATCH /v1/meetings/:id/notes/:note_id` and `PUT
/// /v1/meetings/:id/notes/mine`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteContent {
    /// Markdown, at most 200 000 characters (a note other than `mine` must not
    /// be empty).
    #[schema(max_length = 200000)]
    pub content_md: String,
}

/// `GET /v1/meetings/:id/history`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct History {
    /// Newest first.
    pub changes: Vec<Change>,
}

/// One change to a meeting's record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Change {
    #[schema(value_type = String)]
    pub id: recorder_domain::ChangeId,
    /// When, in ms since the epoch.
    pub at: i64,
    /// `person`, `agent:<client>` or `service`.
    pub by: String,
    /// What changed: `segment:<id>`, `speaker:<label>` (every line of a
    /// speaker), `speaker_name:<number>` (a speaker renamed), `note:<id>`,
    /// `action_item:<id>`, `action_items` (a notes
    /// run's items) or `transcript` (a transcription again).
    pub target: String,
    /// The target as it was; null when the change made it.
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    /// The target as it became; null when the change removed it.
    #[schema(value_type = Option<Object>)]
    pub after: Option<serde_json::Value>,
    /// The change in a sentence, for people.
    pub summary: String,
}

/// Body of `POST /v1/meetings/:id/notes`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotesRequest {
    /// summary, action_items, decisions, key_points or custom (needs template_id)
    #[schema(value_type = NoteKind)]
    pub kind: String,
    #[serde(default)]
    pub template_id: Option<String>,
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
    pub meeting_id: MeetingId,
    pub status: MeetingStatus,
}

/// `POST /v1/meetings/:id/transcribe`: transcribe a ready meeting again.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TranscribeRequest {
    /// An installed model (`base.en`, `small-q8_0`, …); default: the one in use.
    #[serde(default)]
    pub model: Option<String>,
    /// A language code (`en`, `de`, …) or `auto` to detect it; default:
    /// `recording.language`.
    #[serde(default)]
    pub language: Option<String>,
}

/// 202: the meeting is `transcribing`; its transcript is replaced once the
/// new one is whole (then its notes are written again).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TranscribeAccepted {
    pub meeting_id: MeetingId,
    pub status: MeetingStatus,
    /// The model the pass uses.
    pub model: String,
    pub language: String,
}

/// A field that may be null when present: `Some(None)` is null, absent is `None`.
fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A field that, when present, must not be null: `null` is a wrong type (400).
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}
