//! The microphone and speakers check of the first-run guide (`POST
//! /ui/devices/check`): both channels opened as a recording opens them, for
//! a few seconds, nothing written; each channel's peak level sent as
//! `devices.levels` four times a second, then once with `done` and whether
//! each channel had sound. It gives way to a recording that starts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use recorder_api_types::{DevicesHeard, DevicesLevels, ErrorCode, Event};
use recorder_capture::{Capture, Feed, Notice};

use super::levels::{dbfs, LEVELS_EVERY};
use crate::base::error::ApiError;
use crate::base::events::EventBus;
use crate::state::AppState;

/// How long a check listens.
pub const CHECK_FOR: Duration = Duration::from_secs(6);
/// A channel whose peak passed this had sound.
const HEARD_DBFS: f32 = -50.0;

/// Starts a check unless one runs (then its events are the answer). 409
/// while recording; 503 `recording_unavailable` when the devices cannot open.
pub fn start(state: &AppState) -> Result<(), ApiError> {
    static RUNNING: AtomicBool = AtomicBool::new(false);
    if state.work.recorder.current().is_some() {
        return Err(super::recorder::already_recording());
    }
    if RUNNING.swap(true, Ordering::AcqRel) {
        return Ok(());
    }
    let capture = state.work.recorder.source().start().map_err(|error| {
        RUNNING.store(false, Ordering::Release);
        ApiError::new(ErrorCode::RecordingUnavailable, format!("cannot open the devices: {error}"))
    })?;
    let state = state.clone();
    let spawned = std::thread::Builder::new().name("device-check".into()).spawn(move || {
        let recording = || state.work.recorder.current().is_some();
        listen(capture, &state.core.events, &recording);
        RUNNING.store(false, Ordering::Release);
    });
    spawned.map(|_| ()).map_err(|e| {
        RUNNING.store(false, Ordering::Release);
        ApiError::internal("starting the device check", e)
    })
}

/// One channel's stream and loudness.
#[derive(Default)]
struct Listening {
    feed: Option<Feed>,
    /// Linear peak since the last report, and over the whole check.
    peak: f32,
    loudest: f32,
}

impl Listening {
    fn drain(&mut self, feeds: &std::sync::mpsc::Receiver<Feed>) {
        while let Ok(feed) = feeds.try_recv() {
            self.feed = Some(feed);
        }
        let Some(feed) = self.feed.as_mut() else { return };
        let available = feed.samples.slots();
        if let Ok(chunk) = feed.samples.read_chunk(available) {
            let (first, second) = chunk.as_slices();
            let peak = first.iter().chain(second).fold(0.0_f32, |m, s| m.max(s.abs()));
            chunk.commit_all();
            self.peak = self.peak.max(peak);
            self.loudest = self.loudest.max(peak);
        }
    }

    /// The peak since the last report, in dBFS.
    fn report(&mut self) -> f32 {
        dbfs(std::mem::take(&mut self.peak))
    }
}

fn listen(capture: Capture, events: &EventBus, recording: &dyn Fn() -> bool) {
    let Capture { mic, sys, notices, guard } = capture;
    let (mut heard_mic, mut heard_sys) = (Listening::default(), Listening::default());
    let began = Instant::now();
    let mut last_report = Instant::now();
    let mut error = None;
    while began.elapsed() < CHECK_FOR && error.is_none() {
        std::thread::sleep(Duration::from_millis(50));
        heard_mic.drain(&mic);
        heard_sys.drain(&sys);
        if let Ok(Notice::Failed { message, .. }) = notices.try_recv() {
            error = Some(message);
        } else if recording() {
            error = Some("a recording started".to_string());
        }
        if last_report.elapsed() >= LEVELS_EVERY {
            last_report = Instant::now();
            let (mic, sys) = (heard_mic.report(), heard_sys.report());
            let levels = DevicesLevels { mic, sys, done: false, heard: None, error: None };
            events.emit(Event::DevicesLevels(levels));
        }
    }
    drop(guard);
    let heard = DevicesHeard {
        mic: dbfs(heard_mic.loudest) > HEARD_DBFS,
        sys: dbfs(heard_sys.loudest) > HEARD_DBFS,
    };
    let done = DevicesLevels {
        mic: dbfs(heard_mic.loudest),
        sys: dbfs(heard_sys.loudest),
        done: true,
        heard: Some(heard),
        error,
    };
    events.emit(Event::DevicesLevels(done));
}
