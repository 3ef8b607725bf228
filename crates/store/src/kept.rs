//! The service's own writes to a record the person may have corrected: a
//! notes run keeps the notes the person rewrote (unless that kind was
//! regenerated on purpose) and the items the person or an agent made or
//! changed; each write is in the history, by `service`, with what it replaced.

use rusqlite::{params, OptionalExtension, Transaction};
use serde_json::json;

use crate::edits::{insert_item, item_json, kind_words, note_json};
use crate::history::{record, Author, Change};
use crate::parts::{put_note_row, read_item, read_note};
use crate::{ActionItemRecord, NoteRecord, StoreResult};

/// Writes a notes run's note. An automatic run (`on_purpose` false) leaves a
/// note of the same kind the person wrote as it is.
pub(crate) fn service_note(
    tx: &Transaction,
    meeting: i64,
    note: &NoteRecord,
    on_purpose: bool,
    now: i64,
) -> StoreResult<()> {
    let existing: Option<NoteRecord> = tx
        .prepare_cached(
            "SELECT id, kind, template_id, content_md, written_by, fallback, line_moments \
             FROM notes WHERE meeting = ?1 AND kind = ?2 AND template_id IS ?3",
        )?
        .query_row(params![meeting, note.kind, note.template_id], read_note)
        .optional()?;
    let persons = existing.as_ref().is_some_and(|n| n.written_by.as_deref() == Some("person"));
    if persons && !on_purpose {
        return Ok(());
    }
    put_note_row(tx, meeting, note, now)?;
    let kind = kind_words(&note.kind);
    let summary = match &existing {
        Some(_) if persons => format!("Wrote the {kind} again, replacing your edited one"),
        Some(_) => format!("Wrote the {kind} again"),
        None => format!("Wrote the {kind}"),
    };
    let change = Change {
        target: format!("note:{}", note.id),
        before: existing.as_ref().map(note_json),
        after: Some(note_json(note)),
        summary,
        fold: false,
        author: &Author::Service,
    };
    record(tx, meeting, change, now).map(drop)
}

/// A notes run's action items: the machine's earlier ones give way to
/// `items`; the ones the person or an agent made or changed stay, and a new
/// item with the same words (or carrying the id of one, `written.rs`) is not
/// added again.
pub(crate) fn service_items(
    tx: &Transaction,
    meeting: i64,
    items: &[ActionItemRecord],
    now: i64,
) -> StoreResult<()> {
    let mut query = tx.prepare_cached(
        "SELECT id, text, owner, done, due, edited FROM action_items WHERE meeting = ?1 ORDER BY seq",
    )?;
    let current: Vec<(ActionItemRecord, bool)> = query
        .query_map([meeting], |row| Ok((read_item(row)?, row.get(5)?)))?
        .collect::<Result<_, _>>()?;
    let same_words = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    let mut dropped = Vec::new();
    for (item, edited) in &current {
        if !edited {
            tx.execute(
                "DELETE FROM action_items WHERE meeting = ?1 AND id = ?2",
                params![meeting, item.id.as_str()],
            )?;
            dropped.push(item_json(item));
        }
    }
    let mut added = Vec::new();
    for item in items {
        let kept = current.iter().any(|(kept, edited)| {
            *edited && (kept.id == item.id || same_words(&kept.text, &item.text))
        });
        if !kept {
            insert_item(tx, meeting, item, false)?;
            added.push(item_json(item));
        }
    }
    if dropped.is_empty() && added.is_empty() {
        return Ok(());
    }
    let summary = match added.len() {
        1 => "Listed 1 action item".to_string(),
        n => format!("Listed {n} action items"),
    };
    let change = Change {
        target: "action_items".into(),
        before: Some(json!({ "items": dropped })),
        after: Some(json!({ "items": added })),
        summary,
        fold: false,
        author: &Author::Service,
    };
    record(tx, meeting, change, now).map(drop)
}

/// A transcription again replaced the transcript: `lines` new lines, `kept`
/// lines the person had corrected left as they were. Not undoable.
pub(crate) fn transcribed_again(
    tx: &Transaction,
    meeting: i64,
    replaced: usize,
    lines: usize,
    kept: usize,
    now: i64,
) -> StoreResult<()> {
    let summary = match kept {
        0 => format!("Transcribed again: {lines} lines"),
        kept => format!("Transcribed again: {lines} lines; your {kept} corrected lines were kept"),
    };
    let change = Change {
        target: "transcript".into(),
        before: Some(json!({ "lines": replaced })),
        after: Some(json!({ "lines": lines + kept, "kept": kept })),
        summary,
        fold: false,
        author: &Author::Service,
    };
    record(tx, meeting, change, now).map(drop)
}
