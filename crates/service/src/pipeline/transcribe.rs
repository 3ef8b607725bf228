//! The transcription job: the audio file through the speech chain, segments
//! saved chunk by chunk together with the point to resume from.

use recorder_api_types::{Event, ModelRef, TranscriptionProgress};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use recorder_domain::Channel;
use recorder_store::{JobRecord, NewSegment, TranscriptionEnd};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use recorder_stt::engine::{
    default_threads, CallOptions, ChunkResult, Decoding, EngineOptions, SttError, Transcriber,
    WhisperEngine,
};
use recorder_stt::file::{self, FileError, Report};
use recorder_stt::vad::Gate;

use recorder_settings::Settings;

use crate::clock::now_ms;
use crate::state::AppState;

/// The one loaded engine, shared by file jobs and live recordings: each call
/// holds it for one chunk, so a live call is never stuck behind a long
/// import. The model is loaded when first needed and unloaded after a quiet
/// period ([`SharedEngine::unload_if_idle`]). Partial lines of a live
/// recording use a second working state on the same weights
/// ([`SharedEngine::transcribe_partial`]), so they never hold up a final line.
pub struct SharedEngine {
    loaded: Mutex<Option<(EngineKey, WhisperEngine)>>,
    partial: Mutex<Option<(EngineKey, WhisperEngine)>>,
    last_used: Mutex<Instant>,
    /// File jobs transcribing now: live lines take two threads only without.
    jobs: AtomicUsize,
}

impl Default for SharedEngine {
    fn default() -> Self {
        SharedEngine {
            loaded: Mutex::new(None),
            partial: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
            jobs: AtomicUsize::new(0),
        }
    }
}

impl SharedEngine {
    /// Transcribes one chunk with the configured model, loading it if needed.
    pub fn transcribe(
        &self,
        state: &AppState,
        samples: &[f32],
        call: CallOptions,
    ) -> Result<ChunkResult, SttError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        let engine = load_engine(state, &mut loaded)?;
        engine.set_call(call);
        let result = engine.transcribe(samples);
        *self.last_used.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        result
    }

    /// A partial line: the open utterance on the second state, one thread,
    /// the window fitted. `None` when the model is not loaded yet or is
    /// being loaded (a partial never waits for that).
    pub fn transcribe_partial(&self, samples: &[f32]) -> Option<Result<ChunkResult, SttError>> {
        let mut partial = self.partial.lock().unwrap_or_else(|p| p.into_inner());
        {
            let loaded = self.loaded.try_lock().ok()?;
            let (key, engine) = loaded.as_ref()?;
            if partial.as_ref().is_none_or(|(current, _)| current != key) {
                *partial = Some((key.clone(), engine.sibling().ok()?));
            }
        }
        let (_, engine) = partial.as_mut()?;
        engine.set_call(CallOptions { fit_window: true, threads: Some(1), ..Default::default() });
        Some(engine.transcribe(samples))
    }

    /// Threads for a live line: two (where there are two cores) while no
    /// file job is transcribing, else the configured number.
    pub fn live_threads(&self, state: &AppState) -> usize {
        let configured = configured_threads(state);
        if self.jobs.load(Ordering::Relaxed) > 0 {
            return configured;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        configured.max(cores.min(2))
    }

    /// Loads the configured model now (at the start of a recording).
    pub fn preload(&self, state: &AppState) -> Result<(), SttError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        load_engine(state, &mut loaded)?;
        *self.last_used.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        Ok(())
    }

    /// Frees the model when nothing used it for `quiet`. Returns whether it did.
    pub fn unload_if_idle(&self, quiet: Duration) -> bool {
        let idle = self.last_used.lock().unwrap_or_else(|p| p.into_inner()).elapsed() >= quiet;
        // A busy engine is locked by its user: never wait for it here.
        let Ok(mut loaded) = self.loaded.try_lock() else { return false };
        let Ok(mut partial) = self.partial.try_lock() else { return false };
        if idle && loaded.is_some() {
            *loaded = None;
            *partial = None;
            return true;
        }
        false
    }
}

/// Counts a file job as transcribing while it lives.
struct JobRunning<'a>(&'a AtomicUsize);

impl<'a> JobRunning<'a> {
    fn new(jobs: &'a AtomicUsize) -> Self {
        jobs.fetch_add(1, Ordering::Relaxed);
        JobRunning(jobs)
    }
}

impl Drop for JobRunning<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The shared engine seen as a [`Transcriber`] by the file chain.
pub struct EngineUser<'a> {
    pub state: &'a AppState,
    pub call: CallOptions,
}

impl Transcriber for EngineUser<'_> {
    fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.state.engine.transcribe(self.state, samples, self.call)
    }
}

#[derive(Clone, PartialEq)]
struct EngineKey {
    path: PathBuf,
    threads: usize,
    language: Option<String>,
}

/// Gives a job up after it took the service down `attempts` times in a row.
pub fn give_up(state: &AppState, job: &JobRecord, attempts: i64) -> Result<(), String> {
    let end = TranscriptionEnd {
        error: Some(format!(
            "transcription was given up: the service stopped {attempts} times while working on this file"
        )),
        ..TranscriptionEnd::default()
    };
    finish(state, job, end)
}

pub fn run(
    state: &AppState,
    job: &JobRecord,
    source: &str,
    channel: Channel,
) -> Result<(), String> {
    let source = super::playback::source_for(state, &job.meeting_id, Path::new(source));
    let outcome = transcribe(state, job, &source, channel);
    let end = match outcome {
        Ok(end) => end,
        // Shutting down: the job stays queued and resumes at the next start.
        Err(FileError::Stopped) => {
            return state.store.cancel_attempt(job).map_err(|e| e.to_string());
        }
        Err(error) => TranscriptionEnd {
            error: Some(format!("transcription failed: {error}")),
            ..TranscriptionEnd::default()
        },
    };
    finish(state, job, end)
}

fn finish(state: &AppState, job: &JobRecord, end: TranscriptionEnd) -> Result<(), String> {
    let last = state.store.finish_transcription(job, end, now_ms()).map_err(|e| e.to_string())?;
    if last {
        state.events.emit(Event::meeting_status(job.meeting_id.clone(), "summarising"));
    }
    state.pipeline.wake();
    Ok(())
}

fn transcribe(
    state: &AppState,
    job: &JobRecord,
    source: &Path,
    channel: Channel,
) -> Result<TranscriptionEnd, FileError> {
    state.engine.preload(state)?;
    let _running = JobRunning::new(&state.engine.jobs);
    let mut engine = EngineUser { state, call: file_call(&state.effective_settings()) };
    let store_error = |e: recorder_store::StoreError| FileError::Engine(engine_error(e));
    state
        .store
        .discard_segments_after(&job.meeting_id, channel, job.resume_ms)
        .map_err(store_error)?;
    let ffmpeg = state.environment.find_program("ffmpeg");
    let mut stream = recorder_stt::audio::open(source, ffmpeg.as_deref())?;
    let known_duration = stream.duration_ms();
    let user_name = state.effective_settings().general.user_name;
    let mut end =
        TranscriptionEnd { duration_ms: known_duration.unwrap_or(0), ..Default::default() };
    let mut save_error = None;
    let gate = Gate::best(state.vad.get(state).as_ref());
    file::transcribe(stream.as_mut(), &mut engine, gate, job.resume_ms, |report| {
        end.language = end.language.take().or(report.language.clone());
        // The chunker pads the last frame; a header's length is exact.
        let position = known_duration.map_or(report.position_ms, |d| report.position_ms.min(d));
        end.duration_ms = end.duration_ms.max(position);
        let report = Report { position_ms: position, ..report };
        let progress = Progress { job, channel, user_name: &user_name, known_duration };
        if let Err(error) = save(state, &progress, report) {
            save_error = Some(error);
            return ControlFlow::Break(());
        }
        if state.shutdown.is_cancelled() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })
    .map_err(|error| match (error, save_error.take()) {
        (FileError::Stopped, Some(save)) => FileError::Engine(engine_error(save)),
        (error, _) => error,
    })?;
    Ok(end)
}

struct Progress<'a> {
    job: &'a JobRecord,
    channel: Channel,
    user_name: &'a str,
    known_duration: Option<i64>,
}

fn save(
    state: &AppState,
    progress: &Progress,
    report: Report,
) -> Result<(), recorder_store::StoreError> {
    let segments: Vec<NewSegment> = report
        .segments
        .iter()
        .map(|s| NewSegment {
            channel: progress.channel,
            start_ms: s.start_ms,
            end_ms: s.end_ms,
            text: s.text.clone(),
        })
        .collect();
    let job = progress.job;
    state.store.save_transcription_progress(
        job,
        &segments,
        report.settled_ms,
        report.position_ms,
    )?;
    let speaker = progress.channel.speaker(progress.user_name);
    for segment in &segments {
        state.events.emit(crate::events::segment_new(&job.meeting_id, &speaker, segment));
    }
    state.events.emit(Event::TranscriptionProgress(TranscriptionProgress {
        meeting_id: job.meeting_id.clone(),
        position_ms: report.position_ms,
        duration_ms: progress.known_duration,
    }));
    Ok(())
}

/// Loads the configured model unless the same one is already loaded.
fn load_engine<'a>(
    state: &AppState,
    loaded: &'a mut Option<(EngineKey, WhisperEngine)>,
) -> Result<&'a mut WhisperEngine, SttError> {
    let model = crate::models::active_model(state).map_err(|e| SttError::Engine(e.message))?;
    let settings = state.effective_settings();
    let threads = configured_threads(state);
    let language = Some(settings.recording.language.clone()).filter(|l| !l.is_empty());
    let key = EngineKey { path: model.path.clone(), threads, language: language.clone() };
    if loaded.as_ref().is_none_or(|(current, _)| *current != key) {
        *loaded = None;
        state.events.emit(Event::ModelsLoading(ModelRef { model: model.name.clone() }));
        let engine = WhisperEngine::load(&model.path, EngineOptions { threads, language })?;
        state.events.emit(Event::ModelsLoaded(ModelRef { model: model.name.clone() }));
        *loaded = Some((key, engine));
    }
    match loaded.as_mut() {
        Some((_, engine)) => Ok(engine),
        None => Err(SttError::Engine("no engine is loaded".into())),
    }
}

/// `transcription.threads`, else physical cores minus one.
/// A file job encodes only what each chunk fills of whisper's window (as
/// fast or faster at the same WER on the bench files) and decodes as the
/// `transcription.decoding` setting says.
fn file_call(settings: &Settings) -> CallOptions {
    let decoding = match settings.transcription.decoding.as_deref() {
        Some("beam") => Decoding::Beam(BEAM_SIZE),
        _ => Decoding::Greedy,
    };
    CallOptions { fit_window: true, threads: None, decoding }
}

/// whisper's and faster-whisper's default beam.
const BEAM_SIZE: u8 = 5;

fn configured_threads(state: &AppState) -> usize {
    state.effective_settings().transcription.threads.map_or_else(default_threads, |t| t as usize)
}

fn engine_error(error: impl std::fmt::Display) -> recorder_stt::engine::SttError {
    recorder_stt::engine::SttError::Engine(format!("saving the transcript failed: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_settings::{defaults, SettingsDocument};

    fn settings(patch: serde_json::Value) -> Settings {
        let base = SettingsDocument::from_value(defaults()).expect("defaults");
        base.patched(&patch).expect("patch").typed().clone()
    }

    #[test]
    fn file_jobs_fit_the_window_and_decode_as_the_setting_says() {
        let greedy = file_call(&settings(serde_json::json!({})));
        assert_eq!(
            greedy,
            CallOptions { fit_window: true, threads: None, decoding: Decoding::Greedy }
        );
        let beam = file_call(&settings(serde_json::json!({"transcription": {"decoding": "beam"}})));
        assert_eq!(beam.decoding, Decoding::Beam(5));
    }
}
