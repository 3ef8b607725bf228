//! The one path for every change to a meeting's record by the person or an
//! agent: a line's text or speaker, a note, the person's own notes, an action
//! item. [`crate::Store::apply_edit`] writes the change and its history row in
//! one transaction; the search indexes' dirty marks (`search_dirty`,
//! `meaning_dirty`) follow by trigger in the same transaction. The service's
//! own writes of notes and items keep what the person made (`kept.rs`).

use recorder_domain::text::clock;
use recorder_domain::{ActionItemId, Channel, MeetingStatus, NoteId};
use rusqlite::{params, OptionalExtension, Transaction};
use serde_json::{json, Value};

use crate::history::{record, Author, Change};
use crate::parts::{read_item, read_note, segment_record};
use crate::rows::meeting_seq;
use crate::status::current_status;
use crate::{ActionItemRecord, NoteRecord, SegmentRecord, StoreError, StoreResult};

/// A change to a meeting's record. Texts arrive validated (trimmed, within
/// their limits).
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// A line's words and/or its speaker.
    Line {
        segment: i64,
        text: Option<String>,
        speaker: Option<String>,
    },
    /// Every line of this line's speaker goes to `speaker`.
    SpeakerLines {
        segment: i64,
        speaker: String,
    },
    /// A note rewritten (then `written_by: person`).
    Note {
        note: NoteId,
        content_md: String,
    },
    /// The person's own notes (kind `mine`, made when missing); new lines
    /// take `moment_ms`, the meeting's moment now (None after it ended).
    MyNotes {
        content_md: String,
        moment_ms: Option<i64>,
    },
    AddItem {
        text: String,
        owner: String,
        due: Option<String>,
    },
    /// `due: Some(None)` clears it.
    UpdateItem {
        item: ActionItemId,
        text: Option<String>,
        owner: Option<String>,
        due: Option<Option<String>>,
        done: Option<bool>,
    },
    RemoveItem {
        item: ActionItemId,
    },
}

/// What an edit left.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    Line(SegmentRecord),
    Lines(Vec<SegmentRecord>),
    Note(NoteRecord),
    Item(ActionItemRecord),
    Removed,
}

impl crate::Store {
    /// Applies `edit` by `author` and records it in the history, in one
    /// transaction. A line cannot be corrected while the meeting is being
    /// transcribed (`Busy`); unknown lines, notes and items are `NotFound`.
    pub fn apply_edit(
        &self,
        meeting_id: &str,
        author: &Author,
        edit: Edit,
        now: i64,
    ) -> StoreResult<Applied> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            if matches!(edit, Edit::Line { .. } | Edit::SpeakerLines { .. }) {
                let status = current_status(tx, meeting_id)?;
                if status == MeetingStatus::Transcribing {
                    return Err(StoreError::Busy(status));
                }
            }
            let edited = EditTx { tx, meeting: seq, author, now };
            match edit {
                Edit::Line { segment, text, speaker } => edited.line(segment, text, speaker),
                Edit::SpeakerLines { segment, speaker } => edited.speaker_lines(segment, &speaker),
                Edit::Note { note, content_md } => edited.note(&note, &content_md),
                Edit::MyNotes { content_md, moment_ms } => edited.my_notes(&content_md, moment_ms),
                Edit::AddItem { text, owner, due } => edited.add_item(text, owner, due),
                Edit::UpdateItem { item, text, owner, due, done } => {
                    edited.update_item(&item, ItemFields { text, owner, due, done })
                }
                Edit::RemoveItem { item } => edited.remove_item(&item),
            }
        })
    }
}

struct ItemFields {
    text: Option<String>,
    owner: Option<String>,
    due: Option<Option<String>>,
    done: Option<bool>,
}

/// An edit inside its transaction.
struct EditTx<'a> {
    tx: &'a Transaction<'a>,
    meeting: i64,
    author: &'a Author,
    now: i64,
}

impl EditTx<'_> {
    fn record(
        &self,
        target: String,
        before: Option<Value>,
        after: Option<Value>,
        summary: String,
    ) -> StoreResult<()> {
        let fold = target.starts_with("note:");
        let change = Change { target, before, after, summary, fold, author: self.author };
        record(self.tx, self.meeting, change, self.now).map(drop)
    }

    fn line(self, id: i64, text: Option<String>, speaker: Option<String>) -> StoreResult<Applied> {
        let before = line_state(self.tx, self.meeting, id)?;
        let mut after = before.clone();
        if let Some(text) = text.filter(|text| *text != before.text) {
            after.machine_text = before.machine_text.clone().or(Some(before.text.clone()));
            after.text = text;
        }
        if let Some(speaker) = &speaker {
            (after.number, after.given) =
                speaker_for(self.tx, self.meeting, before.channel, speaker)?;
        }
        if after == before {
            return Ok(Applied::Line(segment_record(self.tx, self.meeting, id)?));
        }
        after.edited = true;
        write_line_state(self.tx, self.meeting, &after)?;
        let shown = segment_record(self.tx, self.meeting, id)?;
        let summary = if after.text != before.text {
            format!(
                "Corrected the line at {}: “{}” → “{}”",
                clock(before.start_ms),
                before.text,
                after.text
            )
        } else {
            format!(
                "Gave the line at {} to {}",
                clock(before.start_ms),
                speaker.unwrap_or_default()
            )
        };
        self.record(
            format!("segment:{id}"),
            Some(before.to_json()),
            Some(after.to_json()),
            summary,
        )?;
        Ok(Applied::Line(shown))
    }

    fn speaker_lines(self, id: i64, speaker: &str) -> StoreResult<Applied> {
        let line = line_state(self.tx, self.meeting, id)?;
        let shown_before = segment_record(self.tx, self.meeting, id)?.speaker;
        let (number, given) = speaker_for(self.tx, self.meeting, line.channel, speaker)?;
        let same = lines_of_speaker(self.tx, self.meeting, &line)?;
        let mut changed = Vec::new();
        for before in &same {
            let after = LineState { number, given: given.clone(), edited: true, ..before.clone() };
            if after != *before {
                write_line_state(self.tx, self.meeting, &after)?;
                changed.push(before.to_json());
            }
        }
        let lines = same
            .iter()
            .map(|line| segment_record(self.tx, self.meeting, line.id))
            .collect::<StoreResult<Vec<_>>>()?;
        if !changed.is_empty() {
            let from = shown_before.unwrap_or_else(|| line.channel.as_str().to_string());
            let summary = format!("Gave {} lines of {from} to {speaker}", changed.len());
            let before = json!({ "lines": changed });
            let after = json!({ "speaker": speaker });
            self.record(format!("speaker:{from}"), Some(before), Some(after), summary)?;
        }
        Ok(Applied::Lines(lines))
    }

    fn note(self, id: &NoteId, content_md: &str) -> StoreResult<Applied> {
        let before = note_by_id(self.tx, self.meeting, id)?;
        if before.content_md == content_md && before.written_by.as_deref() == Some("person") {
            return Ok(Applied::Note(before));
        }
        self.tx.execute(
            "UPDATE notes SET content_md = ?3, written_by = 'person', fallback = NULL \
             WHERE meeting = ?1 AND id = ?2",
            params![self.meeting, id.as_str(), content_md],
        )?;
        let after = note_by_id(self.tx, self.meeting, id)?;
        let summary = format!("Rewrote the {}", kind_words(&before.kind));
        self.record(
            format!("note:{id}"),
            Some(note_json(&before)),
            Some(note_json(&after)),
            summary,
        )?;
        Ok(Applied::Note(after))
    }

    fn my_notes(self, content_md: &str, moment_ms: Option<i64>) -> StoreResult<Applied> {
        let before = mine(self.tx, self.meeting)?;
        let moments = moments_for(before.as_ref(), content_md, moment_ms);
        if let Some(same) = before.as_ref().filter(|note| note.content_md == content_md) {
            return Ok(Applied::Note(same.clone()));
        }
        let id = before.as_ref().map_or_else(NoteId::generate, |note| note.id.clone());
        let note = NoteRecord {
            id: id.clone(),
            kind: "mine".into(),
            template_id: None,
            content_md: content_md.to_string(),
            written_by: Some("person".into()),
            fallback: None,
            line_moments: moments,
        };
        put_note(self.tx, self.meeting, &note, self.now)?;
        let summary = "Wrote in my notes".to_string();
        self.record(
            format!("note:{id}"),
            before.as_ref().map(note_json),
            Some(note_json(&note)),
            summary,
        )?;
        Ok(Applied::Note(note))
    }

    fn add_item(self, text: String, owner: String, due: Option<String>) -> StoreResult<Applied> {
        let item = ActionItemRecord { id: ActionItemId::generate(), text, owner, done: false, due };
        insert_item(self.tx, self.meeting, &item, true)?;
        let summary = format!("Added the action item “{}”", item.text);
        self.record(format!("action_item:{}", item.id), None, Some(item_json(&item)), summary)?;
        Ok(Applied::Item(item))
    }

    fn update_item(self, id: &ActionItemId, fields: ItemFields) -> StoreResult<Applied> {
        let before = item_by_id(self.tx, self.meeting, id)?;
        let after = ActionItemRecord {
            id: id.clone(),
            text: fields.text.unwrap_or_else(|| before.text.clone()),
            owner: fields.owner.unwrap_or_else(|| before.owner.clone()),
            due: fields.due.unwrap_or_else(|| before.due.clone()),
            done: fields.done.unwrap_or(before.done),
        };
        if after == before {
            return Ok(Applied::Item(before));
        }
        self.tx.execute(
            "UPDATE action_items SET text = ?3, owner = ?4, due = ?5, done = ?6, edited = 1 \
             WHERE meeting = ?1 AND id = ?2",
            params![self.meeting, id.as_str(), after.text, after.owner, after.due, after.done],
        )?;
        let summary = item_summary(&before, &after);
        self.record(
            format!("action_item:{id}"),
            Some(item_json(&before)),
            Some(item_json(&after)),
            summary,
        )?;
        Ok(Applied::Item(after))
    }

    fn remove_item(self, id: &ActionItemId) -> StoreResult<Applied> {
        let before = item_by_id(self.tx, self.meeting, id)?;
        self.tx.execute(
            "DELETE FROM action_items WHERE meeting = ?1 AND id = ?2",
            params![self.meeting, id.as_str()],
        )?;
        let summary = format!("Removed the action item “{}”", before.text);
        self.record(format!("action_item:{id}"), Some(item_json(&before)), None, summary)?;
        Ok(Applied::Removed)
    }
}

/// A line's stored state: what an edit changes and an undo puts back.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LineState {
    pub id: i64,
    pub channel: Channel,
    pub start_ms: i64,
    pub text: String,
    /// The speaker number told apart on `sys`.
    pub number: Option<i64>,
    /// A speaker given to this line.
    pub given: Option<String>,
    pub edited: bool,
    /// The machine's words, once the text was corrected.
    pub machine_text: Option<String>,
}

impl LineState {
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "text": self.text,
            "speaker_number": self.number,
            "speaker_name": self.given,
            "edited": self.edited,
            "machine_text": self.machine_text,
        })
    }
}

pub(crate) fn line_state(tx: &Transaction, meeting: i64, id: i64) -> StoreResult<LineState> {
    tx.prepare_cached(
        "SELECT seq, channel, start_ms, text, speaker, speaker_name, edited, machine_text \
         FROM segments WHERE meeting = ?1 AND seq = ?2",
    )?
    .query_row(params![meeting, id], read_line_state)
    .optional()?
    .ok_or(StoreError::NotFound)?
}

fn read_line_state(row: &rusqlite::Row) -> rusqlite::Result<StoreResult<LineState>> {
    let channel: String = row.get(1)?;
    let Some(channel) = Channel::parse(&channel) else {
        return Ok(Err(StoreError::Malformed(format!("channel {channel}"))));
    };
    Ok(Ok(LineState {
        id: row.get(0)?,
        channel,
        start_ms: row.get(2)?,
        text: row.get(3)?,
        number: row.get(4)?,
        given: row.get(5)?,
        edited: row.get(6)?,
        machine_text: row.get(7)?,
    }))
}

pub(crate) fn write_line_state(
    tx: &Transaction,
    meeting: i64,
    line: &LineState,
) -> StoreResult<()> {
    tx.prepare_cached(
        "UPDATE segments SET text = ?3, speaker = ?4, speaker_name = ?5, edited = ?6, \
         machine_text = ?7 WHERE meeting = ?1 AND seq = ?2",
    )?
    .execute(params![
        meeting,
        line.id,
        line.text,
        line.number,
        line.given,
        line.edited,
        line.machine_text
    ])?;
    Ok(())
}

/// Every line shown with this line's speaker: the same given name, else the
/// same speaker number, else the same channel with neither.
fn lines_of_speaker(
    tx: &Transaction,
    meeting: i64,
    line: &LineState,
) -> StoreResult<Vec<LineState>> {
    let (sql, key): (&str, Value) = match (&line.given, line.number) {
        (Some(given), _) => ("speaker_name = ?2", json!(given)),
        (None, Some(number)) => ("speaker_name IS NULL AND speaker = ?2", json!(number)),
        (None, None) => (
            "speaker_name IS NULL AND speaker IS NULL AND channel = ?2",
            json!(line.channel.as_str()),
        ),
    };
    let query = format!(
        "SELECT seq, channel, start_ms, text, speaker, speaker_name, edited, machine_text \
         FROM segments WHERE meeting = ?1 AND {sql} ORDER BY start_ms, seq"
    );
    let key: rusqlite::types::Value = match key {
        Value::Number(n) => rusqlite::types::Value::Integer(n.as_i64().unwrap_or_default()),
        other => rusqlite::types::Value::Text(other.as_str().unwrap_or_default().to_string()),
    };
    let mut statement = tx.prepare(&query)?;
    let rows = statement.query_map(params![meeting, key], read_line_state)?;
    rows.map(|row| row?).collect()
}

/// A speaker name as a line stores it: a speaker of the line's channel told
/// apart in this meeting (by its name or its key: `Speaker N`, `Them`, `In the
/// room N`) is its number, so renaming that speaker later renames the line
/// too; any other name is given to the line.
fn speaker_for(
    tx: &Transaction,
    meeting: i64,
    channel: Channel,
    name: &str,
) -> StoreResult<(Option<i64>, Option<String>)> {
    let number: Option<i64> = tx
        .prepare_cached(
            "SELECT number FROM speakers WHERE meeting = ?1 AND channel = ?3 \
             AND (name = ?2 COLLATE NOCASE OR (name IS NULL \
                  AND COALESCE(key, 'Speaker ' || number) = ?2 COLLATE NOCASE))",
        )?
        .query_row(params![meeting, name, channel.as_str()], |r| r.get(0))
        .optional()?;
    Ok(match number {
        Some(number) => (Some(number), None),
        None => (None, Some(name.to_string())),
    })
}

pub(crate) fn note_by_id(tx: &Transaction, meeting: i64, id: &str) -> StoreResult<NoteRecord> {
    tx.prepare_cached(
        "SELECT id, kind, template_id, content_md, written_by, fallback, line_moments FROM notes \
         WHERE meeting = ?1 AND id = ?2",
    )?
    .query_row(params![meeting, id], read_note)
    .optional()?
    .ok_or(StoreError::NotFound)
}

fn mine(tx: &Transaction, meeting: i64) -> StoreResult<Option<NoteRecord>> {
    Ok(tx
        .prepare_cached(
            "SELECT id, kind, template_id, content_md, written_by, fallback, line_moments \
             FROM notes WHERE meeting = ?1 AND kind = 'mine'",
        )?
        .query_row([meeting], read_note)
        .optional()?)
}

/// Replaces the note of its kind (and template) with `note`, keeping its id.
pub(crate) fn put_note(
    tx: &Transaction,
    meeting: i64,
    note: &NoteRecord,
    now: i64,
) -> StoreResult<()> {
    crate::parts::put_note_row(tx, meeting, note, now)?;
    let moments = (!note.line_moments.is_empty())
        .then(|| serde_json::to_string(&note.line_moments).unwrap_or_default());
    tx.execute(
        "UPDATE notes SET line_moments = ?3 WHERE meeting = ?1 AND id = ?2",
        params![meeting, note.id.as_str(), moments],
    )?;
    Ok(())
}

/// The moments of the new notes' lines: a line that was there keeps its
/// moment (the first unused one with the same words), a new line takes `now`.
fn moments_for(
    before: Option<&NoteRecord>,
    content_md: &str,
    now: Option<i64>,
) -> Vec<Option<i64>> {
    let mut earlier: Vec<(&str, Option<i64>)> = before
        .map(|note| {
            note.content_md
                .lines()
                .zip(note.line_moments.iter().copied().chain(std::iter::repeat(None)))
                .collect()
        })
        .unwrap_or_default();
    content_md
        .lines()
        .map(|line| {
            if line.trim().is_empty() {
                return None;
            }
            match earlier.iter().position(|(words, _)| *words == line) {
                Some(index) => earlier.remove(index).1,
                None => now,
            }
        })
        .collect()
}

pub(crate) fn item_by_id(
    tx: &Transaction,
    meeting: i64,
    id: &str,
) -> StoreResult<ActionItemRecord> {
    tx.prepare_cached(
        "SELECT id, text, owner, done, due FROM action_items WHERE meeting = ?1 AND id = ?2",
    )?
    .query_row(params![meeting, id], read_item)
    .optional()?
    .ok_or(StoreError::NotFound)
}

/// `edited`: made or changed by the person or an agent (kept through the
/// notes runs).
pub(crate) fn insert_item(
    tx: &Transaction,
    meeting: i64,
    item: &ActionItemRecord,
    edited: bool,
) -> StoreResult<()> {
    tx.prepare_cached(
        "INSERT INTO action_items (id, meeting, text, owner, done, due, edited) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        item.id.as_str(),
        meeting,
        item.text,
        item.owner,
        item.done,
        item.due,
        edited
    ])?;
    Ok(())
}

pub(crate) fn item_json(item: &ActionItemRecord) -> Value {
    json!({ "id": item.id, "text": item.text, "owner": item.owner, "due": item.due, "done": item.done })
}

pub(crate) fn note_json(note: &NoteRecord) -> Value {
    json!({
        "id": note.id,
        "kind": note.kind,
        "template_id": note.template_id,
        "content_md": note.content_md,
        "written_by": note.written_by,
        "fallback": note.fallback,
        "line_moments": note.line_moments,
    })
}

fn item_summary(before: &ActionItemRecord, after: &ActionItemRecord) -> String {
    let mut changes = Vec::new();
    if before.text != after.text {
        changes.push(format!("reworded from “{}”", before.text));
    }
    if before.owner != after.owner {
        changes.push(format!("given to {}", after.owner));
    }
    if before.due != after.due {
        changes.push(match &after.due {
            Some(due) => format!("due {due}"),
            None => "no due date".to_string(),
        });
    }
    if before.done != after.done {
        changes.push(if after.done { "ticked" } else { "unticked" }.to_string());
    }
    format!("“{}”: {}", after.text, changes.join(", "))
}

/// How a note kind reads in a sentence.
pub(crate) fn kind_words(kind: &str) -> String {
    match kind {
        "key_points" => "key points".into(),
        "action_items" => "action items".into(),
        "custom" => "notes".into(),
        "mine" => "own notes".into(),
        other => other.to_string(),
    }
}
