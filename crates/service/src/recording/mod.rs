//! Live recording: one at a time. Starting opens both capture streams and
//! creates the meeting; a session thread moves audio along each channel's
//! chain (journal on disk first, then voice activity) and hands utterances to
//! the live transcriber. However a recording ends (stop, disk full, a device
//! gone), the session thread concludes it the same way: files closed, the
//! untranscribed rest of each channel queued as a job, `recording.stopped`.

mod backlog;
mod echo;
mod levels;
mod live;
mod partial;
pub mod prompts;
pub mod recover;
mod session;

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use recorder_capture::AudioSource;
use recorder_store::{MeetingRecord, RecordingEnd};
use tokio::sync::watch;

use crate::error::ApiError;
use crate::state::AppState;

pub use session::StartSpec;

/// Shared between the API and a running session.
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    paused: AtomicBool,
    /// Recorded audio so far (paused time excluded), in ms.
    recorded_ms: AtomicI64,
}

impl Control {
    pub fn paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    pub fn recorded_ms(&self) -> i64 {
        self.recorded_ms.load(Ordering::Relaxed)
    }
}

/// The recording in progress.
#[derive(Clone)]
pub struct Current {
    pub meeting_id: String,
    pub control: Arc<Control>,
    /// Becomes true once the session has concluded.
    concluded: watch::Receiver<bool>,
}

pub struct Recorder {
    source: Arc<dyn AudioSource>,
    /// Serialises start and stop.
    gate: tokio::sync::Mutex<()>,
    current: Mutex<Option<Current>>,
    /// Live transcribers still working (they go on after a stop to finish
    /// their queue); the service waits for them before it ends.
    live: Arc<std::sync::atomic::AtomicUsize>,
    /// Recordings whose end the database refused (a full disk, say), with
    /// that end; and whether some rest could not be queued. Finished by
    /// [`Recorder::finish_stranded`].
    stranded: Mutex<Stranded>,
}

#[derive(Default)]
struct Stranded {
    ends: std::collections::HashMap<String, RecordingEnd>,
    rest: bool,
}

/// Counts a live transcriber while it works.
pub struct LiveTurn(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for LiveTurn {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Recorder {
    pub fn new(source: Arc<dyn AudioSource>) -> Self {
        Recorder {
            source,
            gate: tokio::sync::Mutex::new(()),
            current: Mutex::new(None),
            live: Arc::default(),
            stranded: Mutex::default(),
        }
    }

    fn stranded(&self) -> std::sync::MutexGuard<'_, Stranded> {
        self.stranded.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Remembers a recording whose end could not be saved.
    pub fn strand(&self, meeting_id: &str, end: RecordingEnd) {
        self.stranded().ends.insert(meeting_id.to_owned(), end);
    }

    /// Remembers that a live transcriber could not queue what it left.
    pub fn strand_rest(&self) {
        self.stranded().rest = true;
    }

    /// The end a stranded recording was given when it stopped.
    pub fn stranded_end(&self, meeting_id: &str) -> Option<RecordingEnd> {
        self.stranded().ends.get(meeting_id).cloned()
    }

    /// Concludes stranded recordings as crash recovery would (with the end
    /// they were given), once nothing records and no live transcriber
    /// works; holds the start/stop gate meanwhile, so a new recording is not
    /// mistaken for one. Tried again later when the database still refuses.
    pub async fn finish_stranded(&self, state: &AppState) {
        {
            let stranded = self.stranded();
            if stranded.ends.is_empty() && !stranded.rest {
                return;
            }
        }
        let _gate = self.gate.lock().await;
        if self.current().is_some() || self.live.load(Ordering::SeqCst) > 0 {
            return;
        }
        let sweeping = state.clone();
        let done = tokio::task::spawn_blocking(move || recover::recover_interrupted(&sweeping));
        if matches!(done.await, Ok(true)) {
            *self.stranded() = Stranded::default();
            tracing::info!("recordings stranded by a refused database write are finished");
        }
    }

    /// Marks a live transcriber as working until the turn is dropped.
    pub fn live_turn(&self) -> LiveTurn {
        self.live.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        LiveTurn(self.live.clone())
    }

    /// Waits (at most `limit`) until no live transcriber works: at shutdown
    /// they hand what is left to the job queue and end within a line.
    pub async fn live_finished(&self, limit: std::time::Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        while self.live.load(std::sync::atomic::Ordering::SeqCst) > 0 {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        true
    }

    /// The recording in progress, if any.
    pub fn current(&self) -> Option<Current> {
        self.current.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set_current(&self, current: Option<Current>) {
        *self.current.lock().unwrap_or_else(|p| p.into_inner()) = current;
    }

    /// Starts a recording: 409 while one is going on, 503 without a model
    /// or when a capture device cannot be opened.
    pub async fn start(
        &self,
        state: &AppState,
        spec: StartSpec,
    ) -> Result<MeetingRecord, ApiError> {
        let _gate = self.gate.lock().await;
        if self.current().is_some() {
            return Err(already_recording());
        }
        crate::models::active_model(state)?;
        tracing::info!(backend = self.source.name(), "starting a recording");
        let started = session::start(state.clone(), self.source.clone(), spec).await?;
        self.set_current(Some(started.current));
        Ok(started.meeting)
    }

    /// Stops the recording and waits until it is handed to the job queue.
    pub async fn stop(&self) -> Result<String, ApiError> {
        let _gate = self.gate.lock().await;
        let current = self.current().ok_or_else(not_recording)?;
        current.control.stop.store(true, Ordering::Relaxed);
        let mut concluded = current.concluded.clone();
        // An error only means the session is gone, which is what we wait for.
        let _ = concluded.wait_for(|done| *done).await;
        Ok(current.meeting_id)
    }

    /// Pauses or resumes; returns the meeting and whether this changed anything.
    pub fn pause(&self, paused: bool) -> Result<(String, bool), ApiError> {
        let current = self.current().ok_or_else(not_recording)?;
        let before = current.control.paused.swap(paused, Ordering::Relaxed);
        Ok((current.meeting_id, before != paused))
    }

    /// Called by the session thread once the meeting is handed over.
    fn concluded(&self, meeting_id: &str) {
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if current.as_ref().is_some_and(|c| c.meeting_id == meeting_id) {
            *current = None;
        }
    }
}

pub fn not_recording() -> ApiError {
    ApiError::new(recorder_api_types::ErrorCode::NotRecording, "nothing is being recorded")
}

/// Starts a recording for `source_app`, titled `title` (checked) or after
/// the app: the API's start and the person's own button.
pub async fn start_recording(
    state: &AppState,
    source_app: String,
    title: Option<&str>,
) -> Result<MeetingRecord, ApiError> {
    let title = title.map(|t| crate::extract::text("title", t, 500)).transpose()?;
    let spec = StartSpec {
        title: title.unwrap_or_else(|| prompts::default_title(&source_app)),
        source_app,
        attendees: Vec::new(),
    };
    state.recorder.start(state, spec).await
}

pub fn already_recording() -> ApiError {
    ApiError::new(
        recorder_api_types::ErrorCode::AlreadyRecording,
        "a recording is already in progress; stop it first",
    )
}
