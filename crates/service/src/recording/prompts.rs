//! Record prompts on the recording's side: how long one waits for an answer,
//! what a recording started from one is called, and how one is shown.

use recorder_api_types::{Attendee, Prompt};
use recorder_store::PromptRecord;

use super::StartSpec;

pub const PROMPT_LIFETIME_MS: i64 = 60_000;

/// What a recording started from a prompt is called and who is in it.
pub fn start_spec_of(prompt: &PromptRecord) -> StartSpec {
    StartSpec {
        title: prompt.title.clone().unwrap_or_else(|| default_title(&prompt.source_app)),
        source_app: prompt.source_app.clone(),
        attendees: prompt.attendees.clone(),
    }
}

/// A recording without a title is named after its app: never empty.
pub fn default_title(source_app: &str) -> String {
    format!("{source_app} meeting")
}

pub fn prompt_view(record: &PromptRecord) -> Prompt {
    Prompt {
        prompt_id: record.id.clone(),
        source_app: record.source_app.clone(),
        title: record.title.clone(),
        url: record.url.clone(),
        attendees: record.attendees.iter().map(|name| Attendee { name: name.clone() }).collect(),
        created_at: record.created_at,
        expires_at: record.expires_at,
    }
}
