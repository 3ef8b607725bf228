//! JSON Schemas of what each tool answers in MCP `structuredContent` (its
//! `outputSchema`): the skill's result plus `skill` (the tool's name),
//! `meeting_ids` and `timestamps`. They name the fields a program can rely on and leave room for
//! fields added later (`additionalProperties` is not closed).

use serde_json::{json, Value};

use crate::skills::Skill;

/// The output schema of `skill`.
pub fn schema(skill: Skill) -> Value {
    let (mut properties, mut required) = result_fields(skill);
    if let Value::Object(map) = &mut properties {
        map.insert("skill".into(), json!({ "type": "string", "const": skill.tool_name() }));
        map.insert("meeting_ids".into(), json!({ "type": "array", "items": { "type": "string" } }));
        map.insert("timestamps".into(), json!({ "type": "array", "items": timestamp() }));
    }
    required.extend(["skill", "meeting_ids", "timestamps"]);
    json!({ "type": "object", "properties": properties, "required": required })
}

fn timestamp() -> Value {
    json!({
        "type": "object",
        "properties": {
            "meeting_id": { "type": "string" },
            "start_ms": { "type": "integer" },
            "end_ms": { "type": "integer" },
            "started_at": { "type": "integer" },
        },
        "required": ["meeting_id"],
    })
}

fn meeting() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": { "type": "string" },
            "title": { "type": "string" },
            "status": { "type": "string" },
            "started_at": { "type": "integer" },
        },
        "required": ["id", "title", "status"],
    })
}

/// A line an answer comes from, as `POST /v1/ask` gives it.
fn citation() -> Value {
    json!({
        "type": "object",
        "properties": {
            "meeting_id": string(), "title": string(), "start_ms": integer(),
            "end_ms": integer(), "speaker": string(), "text": string(),
        },
        "required": ["meeting_id", "title", "start_ms", "end_ms", "speaker", "text"],
    })
}

/// An action item, as the service gives it.
fn action_item() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": string(), "text": string(), "owner": string(),
            "done": { "type": "boolean" }, "due": { "type": ["string", "null"] },
        },
        "required": ["id", "text", "owner", "done"],
    })
}

fn objects() -> Value {
    json!({ "type": "array", "items": { "type": "object" } })
}

fn integer() -> Value {
    json!({ "type": "integer" })
}

fn string() -> Value {
    json!({ "type": "string" })
}

fn result_fields(skill: Skill) -> (Value, Vec<&'static str>) {
    match skill {
        Skill::ListMeetings => (
            json!({
                "meetings": { "type": "array", "items": meeting() },
                "total": integer(), "limit": integer(), "offset": integer(),
            }),
            vec!["meetings", "total"],
        ),
        Skill::GetMeeting | Skill::StartRecording => {
            (json!({ "meeting": meeting() }), vec!["meeting"])
        }
        Skill::GetTranscript => (
            json!({
                "meeting_id": string(), "title": string(), "format": string(),
                "text": string(), "offset": integer(),
                "next_offset": { "type": ["integer", "null"] },
                "total": integer(), "truncated": { "type": "boolean" }, "segments": objects(),
            }),
            vec!["meeting_id", "format", "text", "truncated"],
        ),
        Skill::SearchMeetings => {
            (json!({ "query": string(), "results": objects() }), vec!["query", "results"])
        }
        Skill::Ask => (
            json!({
                "question": string(), "answer": string(),
                "citations": { "type": "array", "items": citation() },
                "provider": string(), "fallback": { "type": ["string", "null"] },
            }),
            vec!["answer", "citations", "provider"],
        ),
        Skill::GetActionItems => (
            json!({ "scope": string(), "open_only": { "type": "boolean" }, "items": objects() }),
            vec!["items"],
        ),
        Skill::AddActionItem => (
            json!({
                "meeting_id": string(), "meeting_title": { "type": ["string", "null"] },
                "item": action_item(),
            }),
            vec!["meeting_id", "item"],
        ),
        Skill::UpdateActionItem => (
            json!({
                "meeting_id": string(), "meeting_title": { "type": ["string", "null"] },
                "item": action_item(),
                "changed": {
                    "type": "array",
                    "items": { "type": "string", "enum": ["text", "owner", "due", "done"] },
                },
            }),
            vec!["meeting_id", "item", "changed"],
        ),
        Skill::RegenerateNotes => (
            json!({
                "meeting_id": string(), "kind": string(),
                "status": { "type": "string", "enum": ["ready", "summarising"] },
                "provider": { "type": ["string", "null"] },
                "notes": { "type": ["array", "null"] },
                "action_items": { "type": ["array", "null"] },
            }),
            vec!["meeting_id", "kind", "status"],
        ),
        Skill::StopRecording => {
            (json!({ "meeting_id": string(), "status": string() }), vec!["meeting_id", "status"])
        }
        Skill::AddMarker => {
            (json!({ "meeting_id": string(), "marker": { "type": "object" } }), vec!["meeting_id"])
        }
    }
}
