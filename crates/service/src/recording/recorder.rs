//! The recorder component: the recording in progress (at most one), the
//! gate that serialises start and stop, the live transcribers still at work,
//! and the recordings stranded by a refused database write. What needs the
//! whole service (starting a session, finishing stranded recordings) is in
//! [`super`]; this part knows nothing of it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use recorder_api_types::StopReason;
use recorder_capture::AudioSource;
use recorder_domain::MeetingId;
use recorder_store::RecordingEnd;
use tokio::sync::watch;

use super::countdown::{CallOrigin, Countdown};
use crate::base::error::ApiError;

/// Shared between the API and a running session.
#[derive(Default)]
pub struct Control {
    pub(super) stop: AtomicBool,
    pub(super) paused: AtomicBool,
    /// The microphone channel records silence.
    pub(super) muted: AtomicBool,
    /// Recorded audio so far (paused time excluded), in ms.
    pub(super) recorded_ms: AtomicI64,
    /// The call the recording came from; it stops when the call ends while
    /// `follows_call` (until the person keeps it).
    pub(super) origin: Option<CallOrigin>,
    pub(super) follows_call: AtomicBool,
    /// The countdown to stopping by itself, while one runs.
    pub(super) ending: Mutex<Option<Countdown>>,
    /// The person kept the recording: silence counts again from now.
    pub(super) silence_kept: AtomicBool,
    /// Why it stops, once something asked.
    pub(super) reason: Mutex<Option<StopReason>>,
}

impl Control {
    /// A recording that follows the call it came from, if any.
    pub fn new(origin: Option<CallOrigin>) -> Self {
        Control { follows_call: AtomicBool::new(origin.is_some()), origin, ..Control::default() }
    }

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
    pub meeting_id: MeetingId,
    pub control: Arc<Control>,
    /// Becomes true once the session has concluded.
    pub(super) concluded: watch::Receiver<bool>,
}

pub struct Recorder {
    source: Arc<dyn AudioSource>,
    /// Serialises start and stop.
    gate: tokio::sync::Mutex<()>,
    current: Mutex<Option<Current>>,
    /// Live transcribers still working (they go on after a stop to finish
    /// their queue); the service waits for them before it ends.
    live: Arc<AtomicUsize>,
    /// Recordings whose end the database refused (a full disk, say), with
    /// that end; and whether some rest could not be queued. Finished by
    /// [`Recorder::finish_stranded`].
    stranded: Mutex<Stranded>,
}

#[derive(Default)]
struct Stranded {
    ends: HashMap<MeetingId, RecordingEnd>,
    rest: bool,
}

/// Counts a live transcriber while it works.
pub struct LiveTurn(Arc<AtomicUsize>);

impl Drop for LiveTurn {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
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
    pub fn strand(&self, meeting_id: &MeetingId, end: RecordingEnd) {
        self.stranded().ends.insert(meeting_id.clone(), end);
    }

    /// Remembers that a live transcriber could not queue what it left.
    pub fn strand_rest(&self) {
        self.stranded().rest = true;
    }

    /// The end a stranded recording was given when it stopped.
    pub fn stranded_end(&self, meeting_id: &MeetingId) -> Option<RecordingEnd> {
        self.stranded().ends.get(meeting_id).cloned()
    }

    /// Holds start and stop off while the guard lives.
    pub(super) async fn gate(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.gate.lock().await
    }

    /// Where recordings capture from.
    pub(crate) fn source(&self) -> Arc<dyn AudioSource> {
        self.source.clone()
    }

    /// Whether some recording or rest is stranded.
    pub(super) fn has_stranded(&self) -> bool {
        let stranded = self.stranded();
        !stranded.ends.is_empty() || stranded.rest
    }

    /// Forgets the stranded recordings once they are finished.
    pub(super) fn clear_stranded(&self) {
        *self.stranded() = Stranded::default();
    }

    /// Nothing records and no live transcriber works.
    pub(super) fn is_idle(&self) -> bool {
        self.current().is_none() && self.live.load(Ordering::SeqCst) == 0
    }

    /// Marks a live transcriber as working until the turn is dropped.
    pub fn live_turn(&self) -> LiveTurn {
        self.live.fetch_add(1, Ordering::SeqCst);
        LiveTurn(self.live.clone())
    }

    /// Waits (at most `limit`) until no live transcriber works: at shutdown
    /// they hand what is left to the job queue and end within a line.
    pub async fn live_finished(&self, limit: std::time::Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        while self.live.load(Ordering::SeqCst) > 0 {
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

    pub(super) fn set_current(&self, current: Option<Current>) {
        *self.current.lock().unwrap_or_else(|p| p.into_inner()) = current;
    }

    /// Stops the recording and waits until it is handed to the job queue.
    pub async fn stop(&self) -> Result<MeetingId, ApiError> {
        let _gate = self.gate.lock().await;
        let current = self.current().ok_or_else(not_recording)?;
        current.control.stop_because(StopReason::Person);
        let mut concluded = current.concluded.clone();
        // An error only means the session is gone, which is what we wait for.
        let _ = concluded.wait_for(|done| *done).await;
        Ok(current.meeting_id.clone())
    }

    /// Pauses or resumes; returns the meeting and whether this changed anything.
    pub fn pause(&self, paused: bool) -> Result<(MeetingId, bool), ApiError> {
        let current = self.current().ok_or_else(not_recording)?;
        let before = current.control.paused.swap(paused, Ordering::Relaxed);
        Ok((current.meeting_id.clone(), before != paused))
    }

    /// Called by the session thread once the meeting is handed over.
    pub(super) fn concluded(&self, meeting_id: &MeetingId) {
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if current.as_ref().is_some_and(|c| c.meeting_id == *meeting_id) {
            *current = None;
        }
    }
}

pub fn not_recording() -> ApiError {
    ApiError::new(recorder_api_types::ErrorCode::NotRecording, "nothing is being recorded")
}

pub fn already_recording() -> ApiError {
    ApiError::new(
        recorder_api_types::ErrorCode::AlreadyRecording,
        "a recording is already in progress; stop it first",
    )
}
