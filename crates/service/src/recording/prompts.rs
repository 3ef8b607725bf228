//! Record prompts on the recording's side: asking (or, for an app in
//! 'Record without asking for', starting at once), how long one waits for an
//! answer, what a recording started from one is called, and how one is shown.

use recorder_api_types::{Attendee, Event, Prompt, PromptAnswer};
use recorder_domain::PromptId;
use recorder_store::PromptRecord;

use crate::base::clock::now_ms;
use crate::base::error::ApiError;
use crate::state::AppState;

use super::countdown::CallOrigin;
use super::StartSpec;

pub const PROMPT_LIFETIME_MS: i64 = 60_000;

/// Asks the person whether to record (`prompt.shown`, once per pending
/// url), or starts at once for an app in 'Record without asking for'.
/// 409 while recording (a prompt for the call being recorded, whose end was
/// reported, calls its countdown off: the person joined again).
pub async fn ask(state: &AppState, record: PromptRecord) -> Result<PromptId, ApiError> {
    if state.work.recorder.current().is_some() {
        let context = super::context::RecordingContext::of(state);
        super::ending::call_rejoined(&context, &record.source_app, record.url.as_deref());
        return Err(super::already_recording());
    }
    let auto = state.effective_settings().recording.auto_record_apps;
    if auto.iter().any(|app| app.eq_ignore_ascii_case(&record.source_app)) {
        return start_without_asking(state, record).await;
    }
    let now = now_ms();
    let candidate = record.clone();
    let stored = state
        .db(move |store| {
            store
                .insert_or_find_prompt(&candidate, now)
                .map_err(|e| ApiError::internal("saving the prompt", e))
        })
        .await?;
    if stored.id == record.id {
        state.core.events.emit(Event::PromptShown(prompt_view(&stored)));
    }
    Ok(stored.id)
}

/// 'Record without asking for' this app: the recording starts at once and
/// the prompt is answered `auto`.
async fn start_without_asking(
    state: &AppState,
    record: PromptRecord,
) -> Result<PromptId, ApiError> {
    let meeting = super::start(state, start_spec_of(&record)).await?;
    let (prompt, meeting_id) = (record.clone(), meeting.id.clone());
    let prompt_id = state
        .db(move |store| {
            store
                .insert_or_find_prompt(&prompt, now_ms())
                .and_then(|found| {
                    store.answer_prompt(&found.id, "auto", Some(&meeting_id)).map(|_| found.id)
                })
                .map_err(|e| ApiError::internal("saving the prompt", e))
        })
        .await?;
    state.core.events.emit(Event::PromptAnswered(PromptAnswer {
        prompt_id: prompt_id.clone(),
        accepted: true,
        answer: "auto".into(),
        meeting_id: Some(meeting.id.clone()),
    }));
    Ok(prompt_id)
}

/// What a recording started from a prompt is called and who is in it.
pub fn start_spec_of(prompt: &PromptRecord) -> StartSpec {
    StartSpec {
        title: prompt.title.clone().unwrap_or_else(|| default_title(&prompt.source_app)),
        source_app: prompt.source_app.clone(),
        attendees: prompt.attendees.clone(),
        origin: Some(CallOrigin { source_app: prompt.source_app.clone(), url: prompt.url.clone() }),
        language: None,
    }
}

pub use recorder_domain::meeting_apps::default_title;

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
