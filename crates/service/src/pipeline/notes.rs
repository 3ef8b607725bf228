//! The notes job: after a transcription, first the other side's speakers
//! (`speakers.rs`); then the chosen notes provider (or the built-in engine, when the
//! provider is refused, unreachable or unusable) writes notes (every kind after a
//! transcription, or the one kind asked for) and the structured action items.

use recorder_ai::{AiError, NotesRequest};
use recorder_api_types::{Event, MeetingRef, NotesProgress};
use recorder_domain::{ActionItemId, MeetingId, MeetingStatus, NoteId, NoteKind};
use recorder_egress::Verdict;
use recorder_notes::{ActionItemDraft, Context, Generated, Line};
use recorder_store::{ActionItemRecord, JobRecord, NoteRecord, NotesOutcome};

use crate::base::clock::now_ms;
use crate::pipeline::provider::{self, Refusal, Writer};
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
    /// Some note of this run came from the built-in engine instead.
    fell_back: bool,
}

impl<'a> Run<'a> {
    fn new(
        state: &'a AppState,
        job: &'a JobRecord,
        stop: tokio_util::sync::CancellationToken,
    ) -> Self {
        let runtime = tokio::runtime::Handle::current();
        Run { state, job, stop, runtime, writer: Writer::Builtin, fell_back: false }
    }

    fn provider_name(&self) -> &'static str {
        match (&self.writer, self.fell_back) {
            (Writer::Provider(config), false) => config.kind.as_str(),
            _ => "builtin",
        }
    }

    fn progress(&self, stage: &str) {
        self.state.core.events.emit(Event::NotesProgress(NotesProgress {
            meeting_id: self.job.meeting_id.clone(),
            stage: stage.into(),
            provider: Some(self.provider_name().to_string()),
        }));
    }

    /// Picks the writer; a refused provider is logged (and, when policy
    /// refused it, recorded in the ledger as blocked).
    fn choose_writer(&mut self, first: &NotesRequest<'_>) {
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
        self.fell_back = true;
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
        let (_, old_items, _) =
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
        let context =
            Context { user_name, attendees: meeting.attendees.clone(), title: meeting.title };
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
        let mut outcome = NotesOutcome::default();
        for kind in kinds {
            let request = NotesRequest {
                kind,
                lines: &lines,
                context: &context,
                template: template.as_deref(),
            };
            let Some(generated) = self.write(&request) else {
                return Ok(None);
            };
            outcome.notes.push(NoteRecord {
                id: NoteId::generate(),
                kind: kind.as_str().to_owned(),
                template_id: template_id.filter(|_| kind == NoteKind::Custom).map(str::to_owned),
                content_md: generated.content_md,
            });
            if let Some(drafts) = generated.action_items {
                outcome.action_items = Some(action_items(drafts, &old_items));
            }
        }
        Ok(Some(outcome))
    }

    /// One note, from the provider when it can, else from the built-in engine;
    /// `None` when the run is stopped (shutdown, or a canceled regeneration: a
    /// provider's answer is not waited for, it may never come).
    fn write(&mut self, request: &NotesRequest<'_>) -> Option<Generated> {
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
                Ok(generated) => return Some(generated),
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
        Some(builtin_note(request))
    }
}

/// The built-in engine's note. A custom note with a template gets the
/// template's sections the engine understands; otherwise a summary.
fn builtin_note(request: &NotesRequest<'_>) -> Generated {
    let sections = request
        .template
        .filter(|_| request.kind == NoteKind::Custom)
        .map(crate::pipeline::templates::builtin_sections)
        .unwrap_or_default();
    if sections.is_empty() {
        return recorder_notes::generate(request.kind, request.lines, request.context);
    }
    let content_md = sections
        .iter()
        .map(|(heading, kind)| {
            let note = recorder_notes::generate(*kind, request.lines, request.context);
            format!("## {heading}\n\n{}", note.content_md.trim_end())
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    Generated { content_md, action_items: None }
}

/// New action items; one that matches an earlier item keeps its id and `done`.
fn action_items(drafts: Vec<ActionItemDraft>, old: &[ActionItemRecord]) -> Vec<ActionItemRecord> {
    drafts
        .into_iter()
        .map(|draft| {
            let earlier = old.iter().find(|item| item.text.eq_ignore_ascii_case(&draft.text));
            ActionItemRecord {
                id: earlier.map_or_else(ActionItemId::generate, |item| item.id.clone()),
                text: draft.text,
                owner: draft.owner,
                done: earlier.is_some_and(|item| item.done),
            }
        })
        .collect()
}
