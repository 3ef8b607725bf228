//! Live recording: one at a time. Starting opens both capture streams and
//! creates the meeting; a session thread moves audio along each channel's
//! chain (journal on disk first, then voice activity) and hands utterances to
//! the live transcriber. However a recording ends (stop, disk full, a device
//! gone), the session thread concludes it the same way: files closed, the
//! untranscribed rest of each channel queued as a job, `recording.stopped`.

mod backlog;
pub mod calls;
pub mod check;
pub mod context;
mod countdown;
mod echo;
pub mod ending;
mod levels;
mod live;
pub mod live_cast;
pub mod live_speakers;
mod partial;
pub mod prompts;
pub mod reading;
pub mod recorder;
pub mod recover;
mod session;

use recorder_store::MeetingRecord;

use crate::base::error::ApiError;
use crate::recording::context::RecordingContext;
use crate::state::AppState;

pub use recorder::{already_recording, not_recording, Control, Current, Recorder};
pub use session::StartSpec;

/// Starts a recording: 409 while one is going on, 503 without a model
/// or when a capture device cannot be opened.
pub async fn start(state: &AppState, spec: StartSpec) -> Result<MeetingRecord, ApiError> {
    let recorder = &state.work.recorder;
    let _gate = recorder.gate().await;
    if recorder.current().is_some() {
        return Err(already_recording());
    }
    crate::models::active_model(&state.core, &state.config)?;
    let source = recorder.source();
    tracing::info!(backend = source.name(), "starting a recording");
    let started = session::start(RecordingContext::of(state), source, spec).await?;
    recorder.set_current(Some(started.current));
    Ok(started.meeting)
}

/// Concludes stranded recordings as crash recovery would (with the end
/// they were given), once nothing records and no live transcriber
/// works; holds the start/stop gate meanwhile, so a new recording is not
/// mistaken for one. Tried again later when the database still refuses.
pub async fn finish_stranded(state: &AppState) {
    let recorder = &state.work.recorder;
    if !recorder.has_stranded() {
        return;
    }
    let _gate = recorder.gate().await;
    if !recorder.is_idle() {
        return;
    }
    let sweeping = state.clone();
    let done = tokio::task::spawn_blocking(move || recover::recover_interrupted(&sweeping));
    if matches!(done.await, Ok(true)) {
        recorder.clear_stranded();
        tracing::info!("recordings stranded by a refused database write are finished");
    }
}

/// Starts a recording for `source_app`, titled `title` (checked) or after
/// the app: the API's start and the person's own button.
/// `language` pins the language spoken (else `recording.language` applies).
pub async fn start_recording(
    state: &AppState,
    source_app: String,
    title: Option<&str>,
    language: Option<String>,
) -> Result<MeetingRecord, ApiError> {
    let title = title.map(|t| crate::http::extract::text("title", t, 500)).transpose()?;
    let spec = StartSpec {
        title: title.unwrap_or_else(|| prompts::default_title(&source_app)),
        source_app,
        attendees: Vec::new(),
        origin: None,
        language,
    };
    start(state, spec).await
}
