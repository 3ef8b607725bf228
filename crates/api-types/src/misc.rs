//! Health, recording, pairing, ledger, policy and event shapes.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Attendee;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub ok: bool,
    pub version: String,
    pub recording: RecordingState,
    /// Present while meetings saved before this version are being added to
    /// the search index in the background (search works meanwhile, slower).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_index: Option<SearchIndexBuild>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SearchIndexBuild {
    /// Meetings still to be indexed.
    pub remaining: i64,
    /// Meetings in all.
    pub meetings: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RecordingState {
    pub active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<String>,
    /// While recording: whether it is paused (an extension of the spec).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
}

/// Lenient on purpose: extensions update on their own schedule, so fields this
/// build does not know are ignored rather than refused.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PromptRequest {
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub source_app: String,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub title: Option<String>,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 2048, pattern = r"\S")]
    pub url: Option<String>,
    #[serde(default)]
    #[schema(max_items = 200, value_type = Option<Vec<crate::AttendeePatch>>)]
    pub attendees: Option<Vec<Attendee>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PromptReply {
    pub prompt_id: String,
}

/// The pending prompt, as carried by `prompt.shown`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Prompt {
    pub prompt_id: String,
    pub source_app: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub attendees: Vec<Attendee>,
    pub created_at: i64,
    pub expires_at: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub source_app: String,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub title: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerRequest {
    #[serde(default)]
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub label: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StopReply {
    pub meeting_id: String,
    pub status: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// Absolute path, or a path starting with `~/`.
    #[schema(min_length = 1, pattern = "^(/|~/)")]
    pub path: String,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub title: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    /// The 6-digit code shown in the app.
    pub code: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PairReply {
    pub token: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LedgerEntry {
    pub id: String,
    pub at: i64,
    pub method: String,
    /// Scheme, host, port and path only: never a query string or credentials.
    pub url: String,
    pub host: String,
    pub purpose: String,
    /// HTTP status, null when no answer came back.
    pub status: Option<u16>,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub duration_ms: u64,
    /// ok, error or blocked
    pub outcome: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Ledger {
    pub entries: Vec<LedgerEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PolicyKeyValue {
    pub key: String,
    pub order: u32,
    /// Null when Not Configured.
    #[schema(value_type = Option<Object>)]
    pub value: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PolicyInvalid {
    pub key: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PolicyReport {
    /// The organisation name, or `your organisation`.
    pub managed_by: String,
    pub keys: Vec<PolicyKeyValue>,
    pub invalid: Vec<PolicyInvalid>,
    /// Present when the machine's policy could not be read or parsed the last
    /// time: the policy in force is then the last good one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `{ type, data, at }`: the data of every Server-Sent Event.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventEnvelope {
    #[serde(rename = "type")]
    pub kind: String,
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
    pub at: i64,
}
