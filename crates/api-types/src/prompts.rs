//! Record prompts: asking the person whether to record, the prompts waiting,
//! and the person's answer.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::{MeetingId, PromptId};

use crate::Attendee;

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
    pub prompt_id: PromptId,
}

/// The pending prompt, as carried by `prompt.shown`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Prompt {
    pub prompt_id: PromptId,
    pub source_app: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub attendees: Vec<Attendee>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// `GET /ui/prompts`: the record prompts waiting for an answer, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PendingPrompts {
    pub prompts: Vec<crate::Prompt>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptAnswerRequest {
    /// record, decline or always
    pub answer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PromptAnswer {
    pub prompt_id: PromptId,
    pub accepted: bool,
    pub answer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<MeetingId>,
}
