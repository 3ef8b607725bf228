//! The notes job: the built-in engine writes notes (every kind after a
//! transcription, or the one kind asked for) and the structured action items.

use recorder_domain::{new_id, NoteKind};
use recorder_notes::{ActionItemDraft, Context, Line};
use recorder_store::{ActionItemRecord, JobRecord, NoteRecord, NotesOutcome};
use serde_json::json;

use crate::clock::now_ms;
use crate::state::AppState;

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
    save(state, job, &outcome)
}

pub fn run(
    state: &AppState,
    job: &JobRecord,
    note_kind: Option<&str>,
    template_id: Option<&str>,
) -> Result<(), String> {
    let progress = |stage: &str| {
        state.events.emit(
            "notes.progress",
            json!({ "meeting_id": job.meeting_id, "stage": stage, "provider": "builtin" }),
        );
    };
    progress("started");
    let outcome = match generate(state, job, note_kind, template_id) {
        Ok(outcome) => outcome,
        Err(error) => {
            progress("failed");
            NotesOutcome {
                processing_error: Some(format!("notes failed: {error}")),
                ..NotesOutcome::default()
            }
        }
    };
    progress("saving");
    save(state, job, &outcome)
}

/// Stores the outcome and announces the meeting ready.
fn save(state: &AppState, job: &JobRecord, outcome: &NotesOutcome) -> Result<(), String> {
    match state.store.finish_notes(job, outcome, now_ms()) {
        Ok(()) => {}
        // Deleted while its notes were being written: nothing is left to do
        // (the job went with the meeting).
        Err(recorder_store::StoreError::NotFound) => {
            tracing::info!(meeting_id = job.meeting_id, "meeting deleted during notes");
            return Ok(());
        }
        Err(error) => return Err(error.to_string()),
    }
    if outcome.processing_error.is_none() {
        state.events.emit(
            "notes.progress",
            json!({ "meeting_id": job.meeting_id, "stage": "done", "provider": "builtin" }),
        );
    }
    state
        .events
        .emit("meeting.updated", json!({ "meeting_id": job.meeting_id, "status": "ready" }));
    state.events.emit("meeting.ready", json!({ "meeting_id": job.meeting_id }));
    Ok(())
}

fn generate(
    state: &AppState,
    job: &JobRecord,
    note_kind: Option<&str>,
    template_id: Option<&str>,
) -> Result<NotesOutcome, String> {
    let meeting = state.store.meeting(&job.meeting_id).map_err(|e| e.to_string())?;
    let segments = state.store.segments(&job.meeting_id).map_err(|e| e.to_string())?;
    let (_, old_items, _) =
        state.store.meeting_parts(&job.meeting_id).map_err(|e| e.to_string())?;
    let user_name = state.effective_settings().general.user_name;
    let lines: Vec<Line> = segments
        .into_iter()
        .map(|s| Line {
            speaker: s.channel.speaker(&user_name),
            start_ms: s.start_ms,
            end_ms: s.end_ms,
            text: s.text,
        })
        .collect();
    let context = Context { user_name, attendees: meeting.attendees.clone(), title: meeting.title };
    let kinds: Vec<NoteKind> = match note_kind.and_then(NoteKind::parse) {
        Some(kind) => vec![kind],
        None => PIPELINE_KINDS.to_vec(),
    };
    state.events.emit(
        "notes.progress",
        json!({ "meeting_id": job.meeting_id, "stage": "generating", "provider": "builtin" }),
    );
    let mut outcome = NotesOutcome::default();
    for kind in kinds {
        let generated = recorder_notes::generate(kind, &lines, &context);
        outcome.notes.push(NoteRecord {
            id: new_id(),
            kind: kind.as_str().to_owned(),
            template_id: template_id.filter(|_| kind == NoteKind::Custom).map(str::to_owned),
            content_md: generated.content_md,
        });
        if let Some(drafts) = generated.action_items {
            outcome.action_items = Some(action_items(drafts, &old_items));
        }
    }
    Ok(outcome)
}

/// New action items; one that matches an earlier item keeps its id and `done`.
fn action_items(drafts: Vec<ActionItemDraft>, old: &[ActionItemRecord]) -> Vec<ActionItemRecord> {
    drafts
        .into_iter()
        .map(|draft| {
            let earlier = old.iter().find(|item| item.text.eq_ignore_ascii_case(&draft.text));
            ActionItemRecord {
                id: earlier.map_or_else(new_id, |item| item.id.clone()),
                text: draft.text,
                owner: draft.owner,
                done: earlier.is_some_and(|item| item.done),
            }
        })
        .collect()
}
