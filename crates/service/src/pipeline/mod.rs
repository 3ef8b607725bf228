//! The processing pipeline: a queue of jobs kept in the database, worked by one
//! task, one job at a time (transcription takes every core it is given, so two
//! at once would only be slower). A meeting moves transcribing → summarising →
//! ready; jobs found at start-up are resumed where their last saved point was.

pub mod again;
mod cuts;
mod embedded;
pub mod export;
mod final_pass;
mod notes;
pub mod notes_runs;
mod playback;
pub mod provider;
pub mod room;
pub mod speakers;
pub mod templates;
mod transcribe;
mod written;

use std::time::Duration;

use recorder_api_types::Event;
use recorder_domain::MeetingId;
use recorder_store::{JobKind, JobRecord};

use crate::state::{AppState, Core};

pub use notes::announce_canceled as announce_notes_canceled;

/// Runs of one job that may end with the service gone (a crash in the engine,
/// say) before the job is given up with a `processing_error`.
const MAX_ATTEMPTS: i64 = 3;

/// Works the queue until shutdown.
pub async fn run(state: AppState) {
    loop {
        if state.core.shutdown.is_cancelled() {
            return;
        }
        let store = state.core.store.clone();
        let next = tokio::task::spawn_blocking(move || store.next_job()).await;
        match next {
            Ok(Ok(Some(job))) => work(&state, job).await,
            Ok(Ok(None)) => wait(&state, Duration::from_secs(30)).await,
            Ok(Err(error)) => {
                tracing::error!(%error, "could not read the job queue");
                wait(&state, Duration::from_secs(2)).await;
            }
            Err(error) => {
                tracing::error!(%error, "job queue task failed");
                wait(&state, Duration::from_secs(2)).await;
            }
        }
    }
}

async fn wait(state: &AppState, at_most: Duration) {
    tokio::select! {
        _ = state.core.shutdown.cancelled() => {}
        _ = state.work.pipeline.notified() => {}
        _ = tokio::time::sleep(at_most) => {}
    }
}

/// Runs one job on a blocking thread.
async fn work(state: &AppState, job: JobRecord) {
    let meeting_id = job.meeting_id.clone();
    let worker_state = state.clone();
    let result = tokio::task::spawn_blocking(move || {
        let attempts = worker_state.core.store.begin_attempt(&job).map_err(|e| e.to_string())?;
        match &job.kind {
            JobKind::Transcribe { .. } if attempts > MAX_ATTEMPTS => {
                transcribe::give_up(&worker_state, &job, attempts - 1)
            }
            JobKind::Notes { .. } if attempts > MAX_ATTEMPTS => {
                notes::give_up(&worker_state, &job, attempts - 1)
            }
            JobKind::Transcribe { source_path, channel } => {
                transcribe::run(&worker_state, &job, source_path, *channel)
            }
            JobKind::Notes { note_kind, template_id } => {
                notes::run(&worker_state, &job, note_kind.as_deref(), template_id.as_deref())
            }
        }
    })
    .await;
    let error = match result {
        Ok(Ok(())) => return,
        Ok(Err(error)) => error,
        Err(error) => error.to_string(),
    };
    report_failure(&state.core, &meeting_id, &error).await;
}

/// A job that could not even record its own failure (the database refused,
/// or the meeting was deleted meanwhile): log it and pause briefly so a
/// persistent fault does not spin.
async fn report_failure(core: &Core, meeting_id: &MeetingId, error: &str) {
    tracing::error!(%meeting_id, error, "a processing job failed");
    core.events.emit(Event::error(format!("processing a meeting failed: {error}"), None));
    tokio::time::sleep(Duration::from_millis(500)).await;
}
