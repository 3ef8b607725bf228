//! The transcription job: the audio file through the speech chain, segments
//! saved chunk by chunk together with the point to resume from.

use std::ops::ControlFlow;
use std::path::Path;

use recorder_api_types::{Event, TranscriptionProgress};
use recorder_domain::{Channel, MeetingStatus};
use recorder_settings::Settings;
use recorder_store::{JobRecord, NewSegment, TranscriptionEnd};
use recorder_stt::engine::{CallOptions, Decoding, Transcriber};
use recorder_stt::file::{self, FileError, Report, Workers};
use recorder_stt::vad::Gate;

use crate::base::clock::now_ms;
use crate::models::engine::{EngineUser, JobRunning, WorkerUser};
use crate::models::plan::FilePlan;
use crate::models::{installed_model, meeting_setup};
use crate::state::{AppState, Core};

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
            return state.core.store.cancel_attempt(job).map_err(|e| e.to_string());
        }
        Err(error) => TranscriptionEnd {
            error: Some(format!("transcription failed: {error}")),
            ..TranscriptionEnd::default()
        },
    };
    finish(state, job, end)
}

fn finish(state: &AppState, job: &JobRecord, end: TranscriptionEnd) -> Result<(), String> {
    let last =
        state.core.store.finish_transcription(job, end, now_ms()).map_err(|e| e.to_string())?;
    if last {
        state
            .core
            .events
            .emit(Event::meeting_status(job.meeting_id.clone(), MeetingStatus::Summarising));
    }
    state.work.pipeline.wake();
    Ok(())
}

fn transcribe(
    state: &AppState,
    job: &JobRecord,
    source: &Path,
    channel: Channel,
) -> Result<TranscriptionEnd, FileError> {
    let setup = job_setup(state, job)?;
    state.models.engine.preload(&setup)?;
    let _running = JobRunning::new(&state.models.engine);
    let settings = state.effective_settings();
    let plan = FilePlan::for_machine(&settings, state.models.engine.backend().as_ref());
    let call = file_call(&settings, plan.threads);
    let extra = state.models.engine.file_workers(&setup, plan.workers - 1)?;
    let mut workers: Vec<WorkerUser> = extra
        .into_iter()
        .map(|state| WorkerUser {
            state,
            prompt: setup.prompt.clone(),
            language: setup.language.clone(),
            call,
        })
        .collect();
    let mut engine = EngineUser { engine: &state.models.engine, setup, call };
    let store_error = |e: recorder_store::StoreError| FileError::Engine(engine_error(e));
    state
        .core
        .store
        .discard_job_segments_after(job, channel, job.resume_ms)
        .map_err(store_error)?;
    let ffmpeg = state.core.environment.find_program("ffmpeg");
    let mut stream = recorder_stt::audio::open(source, ffmpeg.as_deref())?;
    let known_duration = stream.duration_ms();
    let user_name = state.effective_settings().general.user_name;
    let mut end =
        TranscriptionEnd { duration_ms: known_duration.unwrap_or(0), ..Default::default() };
    let mut save_error = None;
    let gate = Gate::best(state.models.vad.get().as_ref());
    tracing::info!(
        meeting_id = %job.meeting_id,
        from_ms = job.resume_ms,
        workers = plan.workers,
        threads = plan.threads,
        "transcribing a file"
    );
    // The extra states first: while a recording runs only the first worker
    // works, and the shared state stays free for the live lines.
    let mut engines: Vec<&mut dyn Transcriber> =
        workers.iter_mut().map(|w| w as &mut dyn Transcriber).collect();
    engines.push(&mut engine);
    let width = || if recording(state) { 1 } else { usize::MAX };
    let workers = Workers::new(engines, &width);
    file::transcribe(stream.as_mut(), workers, gate, job.resume_ms, |report| {
        end.language = end.language.take().or(report.language.clone());
        // The chunker pads the last frame; a header's length is exact.
        let position = known_duration.map_or(report.position_ms, |d| report.position_ms.min(d));
        end.duration_ms = end.duration_ms.max(position);
        let report = Report { position_ms: position, ..report };
        let progress = Progress { job, channel, user_name: &user_name, known_duration };
        if let Err(error) = save(&state.core, &progress, report) {
            save_error = Some(error);
            return ControlFlow::Break(());
        }
        if state.core.shutdown.is_cancelled() {
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

/// The meeting's setup, with the model and language a pass over it named.
fn job_setup<'a>(
    state: &'a AppState,
    job: &JobRecord,
) -> Result<crate::models::engine::Setup<'a>, FileError> {
    let mut setup = meeting_setup(&state.core, &state.config, &job.meeting_id)?;
    if let Some(model) = &job.pass.model {
        let installed = installed_model(&state.core.data_dir.models(), model).ok_or_else(|| {
            FileError::Engine(recorder_stt::engine::SttError::Engine(format!(
                "the model {model} is not installed any more"
            )))
        })?;
        (setup.model_path, setup.model_name) = (installed.path, installed.name);
    }
    if let Some(language) = &job.pass.language {
        setup.language = Some(language.clone());
    }
    Ok(setup)
}

struct Progress<'a> {
    job: &'a JobRecord,
    channel: Channel,
    user_name: &'a str,
    known_duration: Option<i64>,
}

fn save(
    core: &Core,
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
            speaker: None,
        })
        .collect();
    let job = progress.job;
    let ids = core.store.save_transcription_progress(
        job,
        &segments,
        report.settled_ms,
        report.position_ms,
    )?;
    // A pass's lines are staged (no ids): the transcript shown is still the earlier one.
    let speaker = progress.channel.speaker(progress.user_name);
    for (segment, id) in segments.iter().zip(ids) {
        let event = crate::base::events::segment_new(&job.meeting_id, &speaker, segment, Some(id));
        core.events.emit(event);
    }
    core.events.emit(Event::TranscriptionProgress(TranscriptionProgress {
        meeting_id: job.meeting_id.clone(),
        position_ms: report.position_ms,
        duration_ms: progress.known_duration,
    }));
    Ok(())
}

/// Whether a recording (not paused) needs the CPU.
fn recording(state: &AppState) -> bool {
    state.work.recorder.current().is_some_and(|current| !current.control.paused())
}

/// A file job encodes only what each chunk fills of whisper's window (as
/// fast or faster at the same WER on the bench files), with each worker's
/// share of the threads, and decodes as the `transcription.decoding`
/// setting says.
fn file_call(settings: &Settings, threads: usize) -> CallOptions {
    let decoding = match settings.transcription.decoding.as_deref() {
        Some("beam") => Decoding::Beam(BEAM_SIZE),
        _ => Decoding::Greedy,
    };
    CallOptions { fit_window: true, threads: Some(threads), decoding }
}

/// whisper's and faster-whisper's default beam; 2 and 3 were less accurate
/// than greedy decoding on the bench files (bench/results/stt-2026-11-28.md).
const BEAM_SIZE: u8 = 5;

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
        let greedy = file_call(&settings(serde_json::json!({})), 1);
        assert_eq!(
            greedy,
            CallOptions { fit_window: true, threads: Some(1), decoding: Decoding::Greedy }
        );
        let beam =
            file_call(&settings(serde_json::json!({"transcription": {"decoding": "beam"}})), 2);
        assert_eq!(beam.decoding, Decoding::Beam(5));
    }
}
