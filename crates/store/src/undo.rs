//! Undoing a change: its `before` is put back through the same writers the
//! edits use, and the undo is itself a change in the history (by whoever
//! undid it), so an undo can be undone.

use recorder_domain::{ActionItemId, NoteId};
use rusqlite::{params, Transaction};
use serde_json::{json, Value};

use crate::edits::{
    insert_item, item_by_id, item_json, line_state, note_by_id, note_json, put_note,
    write_line_state,
};
use crate::history::{change, record, Author, Change, ChangeRecord};
use crate::rows::meeting_seq;
use crate::{ActionItemRecord, NoteRecord, StoreError, StoreResult};

impl crate::Store {
    /// Puts back what change `change_id` replaced and returns the undo's own
    /// change. `NotFound` for an unknown change; `Conflict` when what it
    /// changed is gone (a line replaced by a transcription again) or it
    /// cannot be undone (a transcription).
    pub fn undo_change(
        &self,
        meeting_id: &str,
        change_id: &str,
        author: &Author,
        now: i64,
    ) -> StoreResult<ChangeRecord> {
        self.write(|tx| {
            let meeting = meeting_seq(tx, meeting_id)?;
            let undone = change(tx, meeting, change_id)?;
            let (kind, _) = undone.target.split_once(':').unwrap_or((&undone.target, ""));
            if matches!(kind, "segment" | "speaker" | "speaker_name") {
                let status = crate::status::current_status(tx, meeting_id)?;
                if status == recorder_domain::MeetingStatus::Transcribing {
                    return Err(StoreError::Busy(status));
                }
            }
            let before = undone.before.clone();
            let (now_state, restored) = match kind {
                "segment" => restore_line(tx, meeting, &undone)?,
                "speaker" => restore_lines(tx, meeting, before.as_ref())?,
                "note" => restore_note(tx, meeting, &undone, now)?,
                "action_item" => restore_item(tx, meeting, &undone)?,
                "action_items" => restore_items(tx, meeting, &undone)?,
                "speaker_name" => restore_speaker_name(tx, meeting, before.as_ref())?,
                _ => return Err(StoreError::Conflict("this change cannot be undone".into())),
            };
            let summary = format!("Undid: {}", undone.summary);
            let change = Change {
                target: undone.target.clone(),
                before: now_state,
                after: restored,
                summary,
                fold: false,
                author,
            };
            let id = record(tx, meeting, change, now)?;
            crate::history::change(tx, meeting, &id)
        })
    }
}

type Restored = (Option<Value>, Option<Value>);

fn gone(what: &str) -> StoreError {
    StoreError::Conflict(format!("the {what} this change was made to is no longer there"))
}

fn restore_line(tx: &Transaction, meeting: i64, undone: &ChangeRecord) -> StoreResult<Restored> {
    let before = undone.before.as_ref().ok_or_else(|| gone("line"))?;
    let id = line_id(before).ok_or_else(|| gone("line"))?;
    let current = line_state(tx, meeting, id).map_err(|_| gone("line"))?;
    let restored = overlay(&current, before);
    write_line_state(tx, meeting, &restored)?;
    Ok((Some(current.to_json()), Some(restored.to_json())))
}

fn restore_lines(tx: &Transaction, meeting: i64, before: Option<&Value>) -> StoreResult<Restored> {
    let lines = before.and_then(|b| b["lines"].as_array()).ok_or_else(|| gone("lines"))?;
    let (mut was, mut now) = (Vec::new(), Vec::new());
    for line in lines {
        let Some(current) = line_id(line).and_then(|id| line_state(tx, meeting, id).ok()) else {
            continue;
        };
        let restored = overlay(&current, line);
        write_line_state(tx, meeting, &restored)?;
        was.push(current.to_json());
        now.push(restored.to_json());
    }
    if was.is_empty() {
        return Err(gone("lines"));
    }
    Ok((Some(json!({ "lines": was })), Some(json!({ "lines": now }))))
}

/// A speaker's earlier name put back (`before`: `{number, name}`).
fn restore_speaker_name(
    tx: &Transaction,
    meeting: i64,
    before: Option<&Value>,
) -> StoreResult<Restored> {
    let number = before.and_then(|b| b["number"].as_i64()).ok_or_else(|| gone("speaker"))?;
    let wanted = before.and_then(|b| b["name"].as_str());
    let had =
        crate::speakers::set_name(tx, meeting, number, wanted).map_err(|error| match error {
            StoreError::NotFound => gone("speaker"),
            other => other,
        })?;
    Ok((
        Some(json!({ "number": number, "name": had })),
        Some(json!({ "number": number, "name": wanted })),
    ))
}

fn line_id(line: &Value) -> Option<i64> {
    line["id"].as_str().and_then(|id| id.parse().ok())
}

/// `current` with the stored fields of `before` put back.
fn overlay(current: &crate::edits::LineState, before: &Value) -> crate::edits::LineState {
    let text = |key: &str| before[key].as_str().map(str::to_string);
    crate::edits::LineState {
        text: text("text").unwrap_or_else(|| current.text.clone()),
        number: before["speaker_number"].as_i64(),
        given: text("speaker_name"),
        edited: before["edited"].as_bool().unwrap_or(false),
        machine_text: text("machine_text"),
        ..current.clone()
    }
}

fn restore_note(
    tx: &Transaction,
    meeting: i64,
    undone: &ChangeRecord,
    now: i64,
) -> StoreResult<Restored> {
    let after_id = undone.after.as_ref().and_then(|a| a["id"].as_str()).map(str::to_string);
    let current = after_id.as_deref().and_then(|id| note_by_id(tx, meeting, id).ok());
    match &undone.before {
        None => {
            let current = current.ok_or_else(|| gone("note"))?;
            tx.execute(
                "DELETE FROM notes WHERE meeting = ?1 AND id = ?2",
                params![meeting, current.id.as_str()],
            )?;
            Ok((Some(note_json(&current)), None))
        }
        Some(before) => {
            let note = note_from(before).ok_or_else(|| gone("note"))?;
            put_note(tx, meeting, &note, now)?;
            Ok((current.as_ref().map(note_json), Some(note_json(&note))))
        }
    }
}

fn note_from(value: &Value) -> Option<NoteRecord> {
    let text = |key: &str| value[key].as_str().map(str::to_string);
    Some(NoteRecord {
        id: NoteId::from(text("id")?),
        kind: text("kind")?,
        template_id: text("template_id"),
        content_md: text("content_md")?,
        written_by: text("written_by"),
        fallback: text("fallback"),
        line_moments: serde_json::from_value(value["line_moments"].clone()).unwrap_or_default(),
    })
}

fn item_from(value: &Value) -> Option<ActionItemRecord> {
    let text = |key: &str| value[key].as_str().map(str::to_string);
    Some(ActionItemRecord {
        id: ActionItemId::from(text("id")?),
        text: text("text")?,
        owner: text("owner").unwrap_or_default(),
        done: value["done"].as_bool().unwrap_or(false),
        due: text("due"),
    })
}

fn restore_item(tx: &Transaction, meeting: i64, undone: &ChangeRecord) -> StoreResult<Restored> {
    let either = undone.before.as_ref().or(undone.after.as_ref());
    let id = either.and_then(|v| v["id"].as_str()).ok_or_else(|| gone("action item"))?;
    let current = item_by_id(tx, meeting, id).ok();
    let restored = undone.before.as_ref().and_then(item_from);
    put_item(tx, meeting, id, current.as_ref(), restored.as_ref())?;
    Ok((current.as_ref().map(item_json), restored.as_ref().map(item_json)))
}

/// Makes item `id` be `wanted` (removed when None), whatever it is now.
fn put_item(
    tx: &Transaction,
    meeting: i64,
    id: &str,
    current: Option<&ActionItemRecord>,
    wanted: Option<&ActionItemRecord>,
) -> StoreResult<()> {
    match (current, wanted) {
        (Some(_), None) => {
            tx.execute(
                "DELETE FROM action_items WHERE meeting = ?1 AND id = ?2",
                params![meeting, id],
            )?;
        }
        (Some(_), Some(item)) => {
            tx.execute(
                "UPDATE action_items SET text = ?3, owner = ?4, due = ?5, done = ?6, edited = 1 \
                 WHERE meeting = ?1 AND id = ?2",
                params![meeting, id, item.text, item.owner, item.due, item.done],
            )?;
        }
        (None, Some(item)) => insert_item(tx, meeting, item, true)?,
        (None, None) => {}
    }
    Ok(())
}

/// A notes run's items put back: its new items go, the items it replaced return.
fn restore_items(tx: &Transaction, meeting: i64, undone: &ChangeRecord) -> StoreResult<Restored> {
    let list = |value: &Option<Value>| -> Vec<ActionItemRecord> {
        value
            .as_ref()
            .and_then(|v| v["items"].as_array())
            .map(|items| items.iter().filter_map(item_from).collect())
            .unwrap_or_default()
    };
    let (before, after) = (list(&undone.before), list(&undone.after));
    for item in &after {
        tx.execute(
            "DELETE FROM action_items WHERE meeting = ?1 AND id = ?2",
            params![meeting, item.id.as_str()],
        )?;
    }
    for item in &before {
        if item_by_id(tx, meeting, &item.id).is_err() {
            insert_item(tx, meeting, item, true)?;
        }
    }
    let json_list = |items: &[ActionItemRecord]| json!({ "items": items.iter().map(item_json).collect::<Vec<_>>() });
    Ok((Some(json_list(&after)), Some(json_list(&before))))
}
