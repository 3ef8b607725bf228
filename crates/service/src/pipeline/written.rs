//! A notes run's notes as they are kept: each with the engine that wrote it (and
//! why the built-in one did, when it stood in), the built-in engine's note for a
//! request, and the action items (an earlier item keeps its id and `done`).

use recorder_ai::NotesRequest;
use recorder_domain::{ActionItemId, NoteId, NoteKind};
use recorder_notes::{ActionItemDraft, Generated};
use recorder_store::{ActionItemRecord, NoteRecord, NotesOutcome};

/// The built-in engine's note. A custom note with a template gets the
/// template's sections the engine understands; otherwise a summary.
pub(super) fn builtin_note(request: &NotesRequest<'_>) -> Generated {
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

/// One note of a run and who wrote it.
pub(super) struct Written {
    kind: NoteKind,
    generated: Generated,
    by: &'static str,
    /// Why the chosen provider did not write it (the built-in engine did).
    fallback: Option<String>,
}

impl Written {
    pub(super) fn by(kind: NoteKind, generated: Generated, by: &'static str) -> Self {
        Written { kind, generated, by, fallback: None }
    }

    pub(super) fn instead(kind: NoteKind, generated: Generated, fallback: Option<String>) -> Self {
        Written { kind, generated, by: "builtin", fallback }
    }
}

/// The notes and action items to store.
pub(super) fn outcome_of(
    written: Vec<Written>,
    template_id: Option<&str>,
    old_items: &[ActionItemRecord],
) -> NotesOutcome {
    let mut outcome = NotesOutcome::default();
    for note in written {
        let kind = note.kind;
        outcome.notes.push(NoteRecord {
            id: NoteId::generate(),
            kind: kind.as_str().to_owned(),
            template_id: template_id.filter(|_| kind == NoteKind::Custom).map(str::to_owned),
            content_md: note.generated.content_md,
            written_by: Some(note.by.to_string()),
            fallback: note.fallback,
        });
        if let Some(drafts) = note.generated.action_items {
            outcome.action_items = Some(action_items(drafts, old_items));
        }
    }
    outcome
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
