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
            line_moments: Vec::new(),
        });
        if let Some(drafts) = note.generated.action_items {
            outcome.action_items = Some(action_items(drafts, old_items));
        }
    }
    outcome
}

/// New action items; one that matches an earlier item keeps its id and
/// `done`. Matching is by wording, not exact text: notes written again after
/// a better transcript say the same task with a name spelled right or a word
/// changed ("Shivon will review the rollout" → "Siobhan will review the
/// rollout"). Each earlier item is matched once, the closest first.
fn action_items(drafts: Vec<ActionItemDraft>, old: &[ActionItemRecord]) -> Vec<ActionItemRecord> {
    let mut taken = vec![false; old.len()];
    drafts
        .into_iter()
        .map(|draft| {
            let earlier = closest(&draft.text, old, &taken).map(|index| {
                taken[index] = true;
                &old[index]
            });
            ActionItemRecord {
                id: earlier.map_or_else(ActionItemId::generate, |item| item.id.clone()),
                text: draft.text,
                owner: draft.owner,
                done: earlier.is_some_and(|item| item.done),
                due: None,
            }
        })
        .collect()
}

/// Two texts whose words (of 3 letters or more) overlap at least this much
/// (shared / all) name the same task.
const SAME_TASK: f64 = 0.5;

/// The earlier item not yet taken whose wording is closest to `text`.
fn closest(text: &str, old: &[ActionItemRecord], taken: &[bool]) -> Option<usize> {
    let words = task_words(text);
    old.iter()
        .enumerate()
        .filter(|(index, _)| !taken[*index])
        .map(|(index, item)| (index, overlap(&words, &task_words(&item.text))))
        .filter(|(_, score)| *score >= SAME_TASK)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(index, _)| index)
}

fn task_words(text: &str) -> std::collections::BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= 3)
        .map(str::to_lowercase)
        .collect()
}

fn overlap(a: &std::collections::BTreeSet<String>, b: &std::collections::BTreeSet<String>) -> f64 {
    let all = a.union(b).count();
    if all == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / all as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str, done: bool) -> ActionItemRecord {
        ActionItemRecord {
            id: ActionItemId::generate(),
            text: text.into(),
            owner: "Them".into(),
            done,
            due: None,
        }
    }

    fn draft(text: &str) -> ActionItemDraft {
        ActionItemDraft { text: text.into(), owner: "Siobhan".into() }
    }

    #[test]
    fn an_item_said_again_with_a_name_spelled_right_keeps_its_id_and_done() {
        let old =
            [item("Shivon will review the Kubernetes rollout", true), item("Book the room", false)];
        let new = action_items(
            vec![draft("Siobhan will review the Kubernetes rollout"), draft("Send the report")],
            &old,
        );
        assert_eq!(new[0].id, old[0].id);
        assert!(new[0].done, "the checked item stays checked");
        assert_ne!(new[1].id, old[1].id, "another task is a new item");
        assert!(!new[1].done);
    }

    #[test]
    fn each_earlier_item_is_matched_once() {
        let old = [item("Review the rollout plan", true)];
        let new = action_items(
            vec![draft("Review the rollout plan"), draft("Review the rollout plan today")],
            &old,
        );
        assert!(new[0].done);
        assert!(!new[1].done, "the second draft does not take the same item");
    }
}
