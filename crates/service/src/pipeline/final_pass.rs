//! The final pass (`transcription.final_pass_model`, off by default): a
//! recording, once ready, is transcribed again with a larger installed model
//! in the background (`store/src/again.rs`); its live transcript stays until
//! the new one is whole. Imports are left alone (they were transcribed from
//! the file with the model chosen), and a pass never starts another.

use recorder_api_types::Event;
use recorder_domain::{MeetingId, MeetingStatus};
use recorder_store::Pass;

use crate::base::clock::now_ms;
use crate::models::{active_model, installed_model};
use crate::state::AppState;

/// Starts the final pass of `meeting_id` if the setting asks for one.
pub fn maybe_start(state: &AppState, meeting_id: &MeetingId) {
    let Some(model) = state.effective_settings().transcription.final_pass_model else {
        return;
    };
    let Ok(meeting) = state.core.store.meeting(meeting_id) else { return };
    if meeting.source_app == "import" {
        return;
    }
    let Some(installed) = installed_model(&state.core.data_dir.models(), &model) else {
        tracing::warn!(%meeting_id, model, "no final pass: the model is not installed");
        return;
    };
    if active_model(&state.core, &state.config).is_ok_and(|live| live.path == installed.path) {
        return;
    }
    let Ok(sources) = super::again::audio_of(state, meeting_id) else { return };
    let pass = Pass { model: Some(installed.name.clone()), language: None, staged: true };
    match state.core.store.enqueue_transcription_again(meeting_id, &pass, &sources, now_ms()) {
        Ok(()) => {
            tracing::info!(%meeting_id, model = %installed.name, "final pass queued");
            let status = Event::meeting_status(meeting_id.clone(), MeetingStatus::Transcribing);
            state.core.events.emit(status);
            state.work.pipeline.wake();
        }
        Err(error) => tracing::warn!(%meeting_id, %error, "no final pass"),
    }
}
