//! The notes job: after a transcription, first the other side's speakers
//! (`speakers.rs`); then the chosen notes provider (or the built-in engine, when the
//! provider is refused, unreachable or unusable) writes notes (every kind after a
//! transcription, or the one kind asked for) and the structured action items.

use recorder_ai::{AiError, NotesRequest};
use recorder_api_types::{Event, MeetingRef, NotesProgress};
use recorder_domain::{MeetingId, MeetingStatus, NoteKind};
use recorder_egress::Verdict;
use recorder_notes::{Context, Generated, Line};
use recorder_store::{JobRecord, NotesOutcome};

use crate::base::clock::now_ms;
use crate::pipeline::embedded::Ask;
use crate::pipeline::provider::{self, Refusal, Writer};
use crate::pipeline::written::{builtin_note, outcome_of, Written};
use crate::state::{AppState, Core};

/// The kinds written when a meeting has just been transcribed.
const PIPELINE_KINDS: [NoteKind; 4] =
    [NoteKind::Summary, NoteKind::KeyPoints, NoteKind::Decisions, NoteKind::ActionItems];

/// Gives a notes job up after it took the service down `attempts` times.
pub fn give_up(state: &AppState, job: &JobRecord, attempts: i64) -> Result<(), String> {
    let outcome = NotesOutcome {
        processing_error: Some(format!(
            "notes were given up: the service stopped {attempts} times while writing them"
        )),
        ..NotesOutcome::default()
    };
    if save(&state.core, job, &outcome, "builtin")? {
        announce_ready(&state.core, job);
    }
    Ok(())
}

pub fn run(
    state: &AppState,
    job: &JobRecord,
    note_kind: Option<&str>,
    template_id: Option<&str>,
) -> Result<(), String> {
    if note_kind.is_none() {
        match super::speakers::tell_apart(state, &job.meeting_id) {
            Ok(super::speakers::Step::Done) => {}
            Ok(super::speakers::Step::Stopped) => {
                return state.core.store.cancel_attempt(job).map_err(|e| e.to_string());
            }
            Err(error) => {
                tracing::warn!(meeting_id = %job.meeting_id, %error, "speakers not told apart");
            }
        }
    }
    // A regeneration (one kind) can be canceled; the notes of a transcription
    // are the meeting's first and always run to the end (or to shutdown).
    let registered =
        note_kind.map(|_| state.work.notes_runs.begin(&job.meeting_id, &state.core.shutdown));
    let stop =
        registered.as_ref().map_or_else(|| state.core.shutdown.clone(), |run| run.stop.clone());
    let mut run = Run::new(state, job, stop);
    let outcome = match run.generate(note_kind, template_id) {
        Ok(Some(outcome)) => outcome,
        Ok(None) if !state.core.shutdown.is_cancelled() => return canceled(state, job),
        // Shutdown while a provider was writing: the job stays queued and runs
        // again at the next start, and this run does not count as an attempt.
        Ok(None) => {
            tracing::info!(
                meeting_id = %job.meeting_id,
                "notes stopped at shutdown; resumed at the next start"
            );
            return state.core.store.cancel_attempt(job).map_err(|e| e.to_string());
        }
        Err(error) => {
            run.progress("failed");
            NotesOutcome {
                processing_error: Some(format!("notes failed: {error}")),
                ..NotesOutcome::default()
            }
        }
    };
    run.progress("saving");
    if !save(&state.core, job, &outcome, run.provider_name())? {
        return Ok(());
    }
    if note_kind.is_none() && outcome.processing_error.is_none() {
        crate::pipeline::export::after_ready(state, &job.meeting_id);
    }
    announce_ready(&state.core, job);
    if note_kind.is_none() && !job.pass.staged {
        super::final_pass::maybe_start(state, &job.meeting_id);
    }
    Ok(())
}

/// A regeneration canceled while the provider was writing: the job goes,
/// the meeting is `ready` again with its earlier notes, and listeners hear
/// `notes.progress` `canceled`, then `meeting.updated`.
fn canceled(state: &AppState, job: &JobRecord) -> Result<(), String> {
    tracing::info!(meeting_id = %job.meeting_id, "notes regeneration canceled");
    match state.core.store.drop_notes_regeneration(&job.meeting_id, now_ms()) {
        Ok(_) => {}
        Err(recorder_store::StoreError::NotFound) => return Ok(()),
        Err(error) => return Err(error.to_string()),
    }
    announce_canceled(&state.core, &job.meeting_id);
    Ok(())
}

/// What a canceled regeneration tells listeners.
pub fn announce_canceled(core: &Core, meeting_id: &MeetingId) {
    core.events.emit(Event::NotesProgress(NotesProgress {
        meeting_id: meeting_id.clone(),
        stage: "canceled".into(),
        provider: None,
        percent: None,
    }));
    core.events.emit(Event::meeting_status(meeting_id, MeetingStatus::Ready));
}

/// Stores the outcome; false when the meeting was deleted meanwhile.
fn save(
    core: &Core,
    job: &JobRecord,
    outcome: &NotesOutcome,
    provider: &str,
) -> Result<bool, String> {
    match core.store.finish_notes(job, outcome, now_ms()) {
        Ok(()) => {}
        // Deleted while its notes were being written: nothing is left to do
        // (the job went with the meeting).
        Err(recorder_store::StoreError::NotFound) => {
            tracing::info!(meeting_id = %job.meeting_id, "meeting deleted during notes");
            return Ok(false);
        }
        Err(error) => return Err(error.to_string()),
    }
    if outcome.processing_error.is_none() {
        core.events.emit(Event::NotesProgress(NotesProgress {
            meeting_id: job.meeting_id.clone(),
            stage: "done".into(),
            provider: Some(provider.to_string()),
            percent: None,
        }));
    }
    Ok(true)
}

fn announce_ready(core: &Core, job: &JobRecord) {
    core.events.emit(Event::meeting_status(job.meeting_id.clone(), MeetingStatus::Ready));
    core.events.emit(Event::MeetingReady(MeetingRef { meeting_id: job.meeting_id.clone() }));
}

/// One notes run: who writes, and what the person is told about it.
struct Run<'a> {
    state: &'a AppState,
    job: &'a JobRecord,
    /// Cancelled at shutdown, or when the person cancels this regeneration.
    stop: tokio_util::sync::CancellationToken,
    runtime: tokio::runtime::Handle,
    writer: Writer,
    /// Why the chosen provider did not write (the last reason), when the
    /// built-in engine wrote instead.
    fallback: Option<String>,
}

impl<'a> Run<'a> {
    fn new(
        state: &'a AppState,
        job: &'a JobRecord,
        stop: tokio_util::sync::CancellationToken,
    ) -> Self {
        let runtime = tokio::runtime::Handle::current();
        Run { state, job, stop, runtime, writer: Writer::Builtin, fallback: None }
    }

    fn provider_name(&self) -> &'static str {
        match (&self.writer, &self.fallback) {
            (Writer::Provider(config), None) => config.kind.as_str(),
            (Writer::Embedded(_), None) => "embedded",
            _ => "builtin",
        }
    }

    /// The provider writing now.
    fn writer_name(&self) -> &'static str {
        match &self.writer {
            Writer::Provider(config) => config.kind.as_str(),
            Writer::Embedded(_) => "embedded",
            Writer::Builtin => "builtin",
        }
    }

    fn progress(&self, stage: &str) {
        self.state.core.events.emit(Event::NotesProgress(NotesProgress {
            meeting_id: self.job.meeting_id.clone(),
            stage: stage.into(),
            provider: Some(self.provider_name().to_string()),
            percent: None,
        }));
    }

    /// Picks the writer; a refused provider is logged (and, when policy
    /// refused it, recorded in the ledger as blocked).
    fn choose_writer(&mut self, first: &NotesRequest<'_>) {
        match provider::embedded(self.state) {
            Some(Ok(launch)) => return self.writer = Writer::Embedded(launch),
            Some(Err(reason)) => return self.note_fallback(&reason),
            None => {}
        }
        let Some(choice) = provider::choose(self.state, &self.runtime) else {
            return;
        };
        match choice.refusal {
            None => self.writer = Writer::Provider(choice.config),
            Some(Refusal::Policy(reason)) => {
                provider::record_blocked(
                    &self.state.core,
                    &self.runtime,
                    &choice.config,
                    &reason,
                    first,
                );
                self.note_fallback(&reason);
            }
            Some(Refusal::Unusable(reason)) => self.note_fallback(&reason),
        }
    }

    fn note_fallback(&mut self, reason: &str) {
        tracing::warn!(
            meeting_id = %self.job.meeting_id,
            reason,
            "notes: the built-in engine writes instead"
        );
        self.fallback = Some(reason.to_string());
    }

    fn generate(
        &mut self,
        note_kind: Option<&str>,
        template_id: Option<&str>,
    ) -> Result<Option<NotesOutcome>, String> {
        let state = self.state;
        let job = self.job;
        let meeting = state.core.store.meeting(&job.meeting_id).map_err(|e| e.to_string())?;
        let segments = state.core.store.segments(&job.meeting_id).map_err(|e| e.to_string())?;
        let (notes, old_items, _) =
            state.core.store.meeting_parts(&job.meeting_id).map_err(|e| e.to_string())?;
        let user_name = state.effective_settings().general.user_name;
        let lines: Vec<Line> = segments
            .into_iter()
            .map(|s| Line {
                speaker: s.speaker_name(&user_name),
                start_ms: s.start_ms,
                end_ms: s.end_ms,
                text: s.text,
            })
            .collect();
        // In an imported file the person speaks only as a speaker named as them.
        let person_absent = meeting.source_app == "import"
            && !lines.iter().any(|l| l.speaker.trim().eq_ignore_ascii_case(user_name.trim()));
        let context = Context {
            user_name,
            attendees: meeting.attendees.clone(),
            title: meeting.title,
            my_notes: my_notes(&notes),
            person_absent,
        };
        let kinds: Vec<NoteKind> = match note_kind.and_then(NoteKind::parse) {
            Some(kind) => vec![kind],
            None => PIPELINE_KINDS.to_vec(),
        };
        let template = template_id.and_then(|id| {
            let found = crate::pipeline::templates::find(&state.core.data_dir.templates(), id);
            if found.is_none() {
                tracing::warn!(template_id = id, "note template is gone; writing a summary");
            }
            found.map(|template| template.prompt)
        });
        let first = NotesRequest {
            kind: kinds[0],
            lines: &lines,
            context: &context,
            template: template.as_deref(),
        };
        self.choose_writer(&first);
        self.progress("started");
        self.progress("generating");
        let requests: Vec<NotesRequest<'_>> =
            kinds.iter().map(|kind| NotesRequest { kind: *kind, ..first }).collect();
        let Some(written) = self.write_all(&requests, note_kind.is_none()) else {
            return Ok(None);
        };
        Ok(Some(outcome_of(written, template_id, &old_items)))
    }

    /// Every note asked for; None when the run is stopped.
    fn write_all(&mut self, requests: &[NotesRequest<'_>], all: bool) -> Option<Vec<Written>> {
        if let Writer::Embedded(launch) = &self.writer {
            let launch = launch.clone();
            match self.write_inside(&launch, requests, all)? {
                Ok(written) => return Some(written),
                Err(error) => {
                    self.note_fallback(error.reason());
                    self.writer = Writer::Builtin;
                    self.progress("generating");
                }
            }
        }
        let mut written = Vec::with_capacity(requests.len());
        for request in requests {
            let (generated, by_provider) = self.write(request)?;
            written.push(match by_provider {
                true => Written::by(request.kind, generated, self.writer_name()),
                false => Written::instead(request.kind, generated, self.fallback.clone()),
            });
        }
        Some(written)
    }

    /// The notes from the model inside; a note it could not write comes from
    /// the built-in engine, with the reason. Err when it could not write at all.
    fn write_inside(
        &mut self,
        launch: &recorder_llm::worker::Launch,
        requests: &[NotesRequest<'_>],
        all: bool,
    ) -> Option<Result<Vec<Written>, AiError>> {
        let ask = match (all, requests.first()) {
            (true, Some(first)) => Ask::All { lines: first.lines, context: first.context },
            _ => Ask::Each(requests.to_vec()),
        };
        let notes = match super::embedded::write(
            self.state,
            &self.job.meeting_id,
            launch,
            ask,
            &self.stop,
        )? {
            Ok(notes) => notes,
            Err(error) => return Some(Err(error)),
        };
        let mut written = Vec::with_capacity(notes.len());
        for (request, (kind, note)) in requests.iter().zip(notes) {
            written.push(match note {
                Ok(generated) => Written::by(kind, generated, "embedded"),
                Err(error) => {
                    self.note_fallback(error.reason());
                    Written::instead(kind, builtin_note(request), self.fallback.clone())
                }
            });
        }
        Some(Ok(written))
    }

    /// One note, from the provider when it can, else from the built-in engine;
    /// `None` when the run is stopped (shutdown, or a canceled regeneration: a
    /// provider's answer is not waited for, it may never come).
    fn write(&mut self, request: &NotesRequest<'_>) -> Option<(Generated, bool)> {
        if self.stop.is_cancelled() {
            return None;
        }
        if let Writer::Provider(config) = &self.writer {
            let asked =
                recorder_ai::generate(&self.state.core.egress, config, Verdict::Allow, request);
            let stop = self.stop.clone();
            let answer = self.runtime.block_on(async {
                tokio::select! {
                    answer = asked => Some(answer),
                    _ = stop.cancelled() => None,
                }
            })?;
            match answer {
                Ok(generated) => return Some((generated, true)),
                // This note only: the provider may do better on the next kind.
                Err(AiError::Unusable(reason)) => {
                    self.note_fallback(&reason);
                    self.progress("generating");
                }
                // Unreachable or refused: the rest of the run is built-in.
                Err(error) => {
                    self.note_fallback(&error.to_string());
                    self.writer = Writer::Builtin;
                    self.progress("generating");
                }
            }
        }
        Some((builtin_note(request), false))
    }
}

/// The person's own notes (kind `mine`), line by line with the moment each
/// was typed at, for the notes to build on.
fn my_notes(notes: &[recorder_store::NoteRecord]) -> Vec<recorder_notes::MyNote> {
    let Some(mine) = notes.iter().find(|note| note.kind == "mine") else { return Vec::new() };
    let moments = mine.line_moments.iter().copied().chain(std::iter::repeat(None));
    mine.content_md
        .lines()
        .zip(moments)
        .filter(|(text, _)| !text.trim().is_empty())
        .map(|(text, at_ms)| recorder_notes::MyNote { at_ms, text: text.trim().to_string() })
        .collect()
}
