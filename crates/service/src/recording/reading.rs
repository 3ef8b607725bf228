//! The owner's voice reading (`POST /ui/voices/owner/reading`, Settings →
//! Speakers): the devices opened as a recording opens them, the microphone
//! alone listened to for [`READING_FOR`] while the person reads a short text
//! aloud, nothing written to disk. Its peak level and the seconds left are
//! sent as `voice.reading` four times a second; then its speech (the voice
//! activity gate) is cut into 1.5 s windows, each gets a CAM++ embedding,
//! and their unit mean becomes the owner's voice ("Me" on the microphone).
//! Under [`SPEECH_NEEDED`] of speech nothing is saved. It gives way to a
//! recording that starts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use recorder_api_types::{ErrorCode, Event, ReadingOutcome, VoiceReading};
use recorder_capture::chain::read_mono;
use recorder_capture::{Capture, Feed, Notice};
use recorder_stt::audio::Resampler;
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::diarize::{embed_all, unit, windows};
use recorder_stt::vad::{Chunker, Gate, Profile, SpeechChunk};

use super::levels::{dbfs, LEVELS_EVERY};
use crate::base::clock::now_ms;
use crate::base::error::ApiError;
use crate::base::events::EventBus;
use crate::state::AppState;

/// How long a reading listens (`RECORDER_READING_SECS` may shorten it).
pub const READING_FOR: Duration = Duration::from_secs(20);
/// Speech a reading must have for the voice to be learned from it.
pub const SPEECH_NEEDED: Duration = Duration::from_secs(8);
/// Samples per millisecond at 16 kHz.
const PER_MS: usize = 16;

/// How long a reading listens here.
pub fn length(state: &AppState) -> Duration {
    state.core.environment.reading_length(READING_FOR)
}

/// Starts a reading unless one runs (then its events are the answer). 409
/// `already_recording` while recording; 503 `model_unavailable` without the
/// speaker model, `recording_unavailable` when the devices cannot open.
pub fn start(state: &AppState) -> Result<(), ApiError> {
    static RUNNING: AtomicBool = AtomicBool::new(false);
    if state.work.recorder.current().is_some() {
        return Err(super::recorder::already_recording());
    }
    if !state.models.speakers.installed() {
        return Err(ApiError::new(
            ErrorCode::ModelUnavailable,
            "the speaker model is not installed (recorder models add-speakers FILE)",
        ));
    }
    if RUNNING.swap(true, Ordering::AcqRel) {
        return Ok(());
    }
    let capture = state.work.recorder.source().start().map_err(|error| {
        RUNNING.store(false, Ordering::Release);
        ApiError::new(ErrorCode::RecordingUnavailable, format!("cannot open the devices: {error}"))
    })?;
    let state = state.clone();
    let spawned = std::thread::Builder::new().name("voice-reading".into()).spawn(move || {
        let recording = || state.work.recorder.current().is_some();
        let gate = Gate::best(state.models.vad.get().as_ref());
        let heard = listen(capture, gate, length(&state), &state.core.events, &recording);
        let (outcome, error) = conclude(&state, heard.as_ref());
        let speech_seconds = heard.as_ref().map_or(0.0, |h| h.speech_seconds());
        tracing::info!(?outcome, speech_seconds, "owner's voice reading");
        let done = VoiceReading {
            level_dbfs: dbfs(0.0),
            seconds_left: 0,
            speech_seconds,
            done: true,
            outcome: Some(outcome),
            error,
        };
        state.core.events.emit(Event::VoiceReading(done));
        RUNNING.store(false, Ordering::Release);
    });
    spawned.map(|_| ()).map_err(|e| {
        RUNNING.store(false, Ordering::Release);
        ApiError::internal("starting the voice reading", e)
    })
}

/// Learns the voice from what was heard: the outcome, and the reason of a
/// failure.
fn conclude(state: &AppState, heard: Result<&Heard, &String>) -> (ReadingOutcome, Option<String>) {
    let heard = match heard {
        Ok(heard) => heard,
        Err(error) => return (ReadingOutcome::Failed, Some(error.clone())),
    };
    if heard.speech_samples() < SPEECH_NEEDED.as_millis() as usize * PER_MS {
        return (ReadingOutcome::TooLittleSpeech, None);
    }
    let Some(model) = state.models.speakers.get() else {
        return (ReadingOutcome::Failed, Some("the speaker model could not be loaded".into()));
    };
    let Some(voice) = voice_of(&model, &heard.chunks) else {
        return (ReadingOutcome::TooLittleSpeech, None);
    };
    match state.core.store.enrol_owner_voice(&voice, now_ms()) {
        Ok(()) => (ReadingOutcome::Enrolled, None),
        Err(error) => {
            tracing::warn!(%error, "the owner's voice could not be saved");
            (ReadingOutcome::Failed, Some(format!("the voice could not be saved: {error}")))
        }
    }
}

/// The unit mean of the unit embeddings of the speech's 1.5 s windows;
/// `None` without a window.
fn voice_of(model: &CamPlusPlus, chunks: &[SpeechChunk]) -> Option<Vec<f32>> {
    let mut samples = Vec::new();
    let mut spans = Vec::new();
    for chunk in chunks {
        let speech = chunk_speech(chunk);
        let base = samples.len();
        samples.extend_from_slice(&chunk.samples[..speech]);
        spans.extend(windows(&[(0, speech)]).into_iter().map(|(s, e)| (base + s, base + e)));
    }
    if spans.is_empty() {
        return None;
    }
    let embeddings = embed_all(model, &samples, &spans);
    let mut sum = vec![0.0f32; embeddings.first().map_or(0, Vec::len)];
    for embedding in &embeddings {
        sum.iter_mut().zip(unit(embedding)).for_each(|(total, x)| *total += x);
    }
    Some(unit(&sum))
}

/// A chunk's samples up to its last speech (its pre-roll included).
fn chunk_speech(chunk: &SpeechChunk) -> usize {
    let ms = usize::try_from((chunk.speech_end_ms - chunk.start_ms).max(0)).unwrap_or(0);
    (ms * PER_MS).min(chunk.samples.len())
}

/// The speech a reading heard.
struct Heard {
    chunks: Vec<SpeechChunk>,
}

impl Heard {
    fn speech_samples(&self) -> usize {
        self.chunks.iter().map(chunk_speech).sum()
    }

    fn speech_seconds(&self) -> f32 {
        self.speech_samples() as f32 / (PER_MS * 1000) as f32
    }
}

/// The microphone's stream, as 16 kHz mono speech chunks.
struct Microphone {
    feed: Option<Feed>,
    resampler: Option<Resampler>,
    chunker: Chunker,
    chunks: Vec<SpeechChunk>,
    /// Linear peak since the last report.
    peak: f32,
    interleaved: Vec<f32>,
    mono: Vec<f32>,
    resampled: Vec<f32>,
}

impl Microphone {
    fn new(gate: Gate) -> Self {
        let profile = Profile::live(&gate);
        Microphone {
            feed: None,
            resampler: None,
            chunker: Chunker::new(gate, profile, 0),
            chunks: Vec::new(),
            peak: 0.0,
            interleaved: Vec::new(),
            mono: Vec::new(),
            resampled: Vec::new(),
        }
    }

    /// Moves what the feeds hold along: a new feed (a default-device
    /// switch) follows the old one's last samples.
    fn pump(&mut self, feeds: &Receiver<Feed>) -> Result<(), String> {
        while let Ok(next) = feeds.try_recv() {
            self.drain()?;
            self.flush()?;
            self.resampler = Some(Resampler::new(next.format.rate).map_err(|e| e.to_string())?);
            self.feed = Some(next);
        }
        self.drain()
    }

    fn drain(&mut self) -> Result<(), String> {
        let Some(feed) = self.feed.as_mut() else { return Ok(()) };
        let scratch = (&mut self.interleaved, &mut self.mono);
        self.resampled.clear();
        read_mono(feed, self.resampler.as_mut(), scratch, &mut self.resampled)?;
        let block = std::mem::take(&mut self.resampled);
        self.hear(&block);
        self.resampled = block;
        Ok(())
    }

    /// What the resampler still holds (at a switch or the end).
    fn flush(&mut self) -> Result<(), String> {
        let Some(mut resampler) = self.resampler.take() else { return Ok(()) };
        let mut tail = Vec::new();
        resampler.finish(&mut tail).map_err(|e| e.to_string())?;
        self.hear(&tail);
        Ok(())
    }

    fn hear(&mut self, block: &[f32]) {
        self.peak = block.iter().fold(self.peak, |peak, sample| peak.max(sample.abs()));
        self.chunker.push(block, &mut self.chunks);
    }

    fn speech_seconds(&self) -> f32 {
        let cut: usize = self.chunks.iter().map(chunk_speech).sum();
        let open = self
            .chunker
            .open_span()
            .map_or(0, |(start, end)| usize::try_from((end - start).max(0)).unwrap_or(0) * PER_MS);
        (cut + open) as f32 / (PER_MS * 1000) as f32
    }

    fn finish(mut self) -> Result<Heard, String> {
        self.drain()?;
        self.flush()?;
        self.chunker.finish(&mut self.chunks);
        Ok(Heard { chunks: self.chunks })
    }
}

/// Drops what a feed of the other channel holds (it is not listened to).
fn discard(feed: &mut Option<Feed>, feeds: &Receiver<Feed>) {
    while let Ok(next) = feeds.try_recv() {
        *feed = Some(next);
    }
    if let Some(feed) = feed.as_mut() {
        let available = feed.samples.slots();
        if let Ok(chunk) = feed.samples.read_chunk(available) {
            chunk.commit_all();
        }
    }
}

/// Listens to the microphone for `length`, reporting its level; the speech
/// heard, or why the reading ended early.
fn listen(
    capture: Capture,
    gate: Gate,
    length: Duration,
    events: &EventBus,
    recording: &dyn Fn() -> bool,
) -> Result<Heard, String> {
    let Capture { mic, sys, notices, guard } = capture;
    let mut microphone = Microphone::new(gate);
    let mut other = None;
    let began = Instant::now();
    let mut last_report = Instant::now();
    while began.elapsed() < length {
        std::thread::sleep(Duration::from_millis(50));
        microphone.pump(&mic)?;
        discard(&mut other, &sys);
        if let Ok(Notice::Failed { message, .. }) = notices.try_recv() {
            return Err(message);
        }
        if recording() {
            return Err("a recording started".to_string());
        }
        if last_report.elapsed() >= LEVELS_EVERY {
            last_report = Instant::now();
            let left = length.saturating_sub(began.elapsed());
            let level = VoiceReading {
                level_dbfs: dbfs(std::mem::take(&mut microphone.peak)),
                seconds_left: u32::try_from(left.as_millis().div_ceil(1000)).unwrap_or(0),
                speech_seconds: microphone.speech_seconds(),
                done: false,
                outcome: None,
                error: None,
            };
            events.emit(Event::VoiceReading(level));
        }
    }
    drop(guard);
    microphone.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_counts_its_speech_not_its_hangover() {
        let chunk =
            SpeechChunk { start_ms: 1_000, samples: vec![0.0; 16 * 900], speech_end_ms: 1_600 };
        assert_eq!(chunk_speech(&chunk), 16 * 600);
        let heard = Heard { chunks: vec![chunk.clone(), chunk] };
        assert!((heard.speech_seconds() - 1.2).abs() < 1e-6);
    }
}
