//! A notes run with the model inside: the worker (`recorder-llm`) is started for
//! the run and ended after it, so its memory goes back at once. It waits while a
//! recording needs the CPU: before the model is loaded, and (on Unix) by pausing
//! the worker mid-answer until the recording stops or pauses. Progress reaches
//! listeners as `notes.progress` (`provider: "embedded"`, `percent`), at most
//! twice a second. A stop (shutdown, a canceled regeneration) kills the worker.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use recorder_ai::embedded::{Embedded, Step, Written};
use recorder_ai::{AiError, NotesRequest};
use recorder_api_types::{Event, NotesProgress};
use recorder_domain::MeetingId;
use recorder_llm::worker::{Launch, WorkerHandle};
use tokio_util::sync::CancellationToken;

use crate::state::AppState;

/// How often the CPU gate looks at the recorder.
const GATE_EVERY: Duration = Duration::from_millis(250);
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// What to write: the four notes of a transcription, or the notes asked for.
pub enum Ask<'a> {
    All { lines: &'a [recorder_notes::Line], context: &'a recorder_notes::Context },
    Each(Vec<NotesRequest<'a>>),
}

/// Runs the model; None when stopped.
pub fn write(
    state: &AppState,
    meeting_id: &MeetingId,
    launch: &Launch,
    ask: Ask<'_>,
    stop: &CancellationToken,
) -> Option<Result<Written, AiError>> {
    let runtime = tokio::runtime::Handle::current();
    runtime.block_on(async {
        tokio::select! {
            _ = wait_for_the_cpu(state, meeting_id) => {}
            _ = stop.cancelled() => return None,
        }
        tracing::info!(%meeting_id, model = %launch.model.display(), "notes model: starting");
        let model = tokio::select! {
            model = Embedded::start(launch, on_step(state, meeting_id)) => model,
            _ = stop.cancelled() => return None,
        };
        let model = match model {
            Ok(model) => model,
            Err(error) => return Some(Err(error)),
        };
        tracing::info!(%meeting_id, "notes model: loaded, writing");
        let gate = tokio::spawn(gate(state.clone(), model.handle()));
        let result = tokio::select! {
            result = produce(&model, ask) => Some(result),
            _ = stop.cancelled() => None,
        };
        gate.abort();
        if let Some(peak) = model.handle().peak_memory_bytes() {
            tracing::info!(%meeting_id, peak_mib = peak / (1024 * 1024), "notes model run ended");
        }
        model.stop().await;
        result
    })
}

async fn produce(model: &Embedded, ask: Ask<'_>) -> Result<Written, AiError> {
    match ask {
        Ask::All { lines, context } => {
            recorder_ai::embedded::all_notes(model, lines, context).await
        }
        Ask::Each(requests) => {
            let mut notes = Vec::with_capacity(requests.len());
            for request in requests {
                let note = recorder_ai::embedded::generate(model, &request).await;
                if let Err(AiError::Unreachable(_) | AiError::Blocked(_)) = &note {
                    return note.map(|_| Vec::new());
                }
                notes.push((request.kind, note));
            }
            Ok(notes)
        }
    }
}

/// Whether a recording is running (not paused) now.
fn recording(state: &AppState) -> bool {
    state.work.recorder.current().is_some_and(|current| !current.control.paused())
}

async fn wait_for_the_cpu(state: &AppState, meeting_id: &MeetingId) {
    if !recording(state) {
        return;
    }
    announce(state, meeting_id, "waiting", None);
    while recording(state) {
        tokio::time::sleep(GATE_EVERY).await;
    }
    announce(state, meeting_id, "generating", None);
}

/// Pauses the worker while a recording runs; ends resumed.
async fn gate(state: AppState, worker: WorkerHandle) {
    let mut paused = false;
    loop {
        let wanted = recording(&state);
        if wanted != paused {
            let done = if wanted { worker.pause() } else { worker.resume() };
            tracing::info!(paused = wanted, done, "notes model: a recording needs the CPU");
            paused = wanted;
        }
        tokio::time::sleep(GATE_EVERY).await;
    }
}

fn on_step(state: &AppState, meeting_id: &MeetingId) -> Box<dyn Fn(Step) + Send + Sync> {
    let (state, meeting_id) = (state.clone(), meeting_id.clone());
    let last = Mutex::new(None::<Instant>);
    Box::new(move |step: Step| {
        let Ok(mut last) = last.lock() else { return };
        if last.is_some_and(|at| at.elapsed() < PROGRESS_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        announce(&state, &meeting_id, "generating", Some(step.percent()));
    })
}

fn announce(state: &AppState, meeting_id: &MeetingId, stage: &str, percent: Option<u32>) {
    state.core.events.emit(Event::NotesProgress(NotesProgress {
        meeting_id: meeting_id.clone(),
        stage: stage.into(),
        provider: Some("embedded".into()),
        percent,
    }));
}
