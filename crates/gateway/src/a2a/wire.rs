//! The JSON shapes of the two dialects: reading what a client asks
//! (`tasks/send` params of the early protocol, `message/send` params of v0.3)
//! and writing tasks and stream events back in the dialect that created the
//! task.
//!
//! Reading is lenient: unknown fields and nulls are accepted everywhere, parts
//! may say `type` or `kind`, and parts that carry nothing usable (files) are
//! skipped. Only what the server needs is checked, and an error names the field.

use chrono::Local;
use serde_json::{json, Map, Value};

use super::rpc::RpcError;
use super::tasks::{Dialect, Snapshot, TaskState};
use crate::router;
use crate::skills::SkillCall;

/// A question, as read from either dialect.
#[derive(Debug, Clone)]
pub struct Ask {
    /// Early: `params.id`; v0.3: `message.taskId` (a task to continue).
    pub task_id: Option<String>,
    /// Early: `params.sessionId`; v0.3: `message.contextId`.
    pub context_id: Option<String>,
    pub call: SkillCall,
    /// The client's message, as it goes into the history.
    pub message: Value,
    pub metadata: Option<Value>,
    pub history_length: Option<usize>,
    /// v0.3 `configuration.blocking` (true unless false); always true early.
    pub blocking: bool,
}

fn object<'a>(value: &'a Value, field: &str) -> Result<&'a Map<String, Value>, RpcError> {
    value
        .as_object()
        .ok_or_else(|| RpcError::invalid_params(format!("`{field}` must be an object")))
}

/// An optional object field (absent or null: `None`).
fn optional_object<'a>(
    parent: &'a Map<String, Value>,
    key: &str,
    field: &str,
) -> Result<Option<&'a Map<String, Value>>, RpcError> {
    match parent.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(map)),
        Some(_) => Err(RpcError::invalid_params(format!("`{field}` must be an object"))),
    }
}

/// An optional id field: a string, or a number taken as its decimal text.
fn optional_id(
    parent: &Map<String, Value>,
    key: &str,
    field: &str,
) -> Result<Option<String>, RpcError> {
    match parent.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.is_empty() => {
            Err(RpcError::invalid_params(format!("`{field}` must not be empty")))
        }
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(Value::Number(number)) => Ok(Some(number.to_string())),
        Some(_) => Err(RpcError::invalid_params(format!("`{field}` must be a string"))),
    }
}

fn optional_length(
    parent: Option<&Map<String, Value>>,
    field: &str,
) -> Result<Option<usize>, RpcError> {
    match parent.and_then(|parent| parent.get("historyLength")) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => {
            value.as_u64().map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX))).ok_or_else(
                || RpcError::invalid_params(format!("`{field}` must be a non-negative integer")),
            )
        }
    }
}

fn metadata(parent: &Map<String, Value>) -> Option<Value> {
    parent.get("metadata").filter(|value| value.is_object()).cloned()
}

/// The name an A2A client goes by in a meeting's history (`agent:<name>`).
/// A2A has no client name of its own (MCP's `clientInfo.name`), so a client
/// names itself with `metadata.agent` on the request or on its message; one that
/// does not is `agent:a2a-client`, never the gateway's own name.
fn agent_name(params: &Map<String, Value>, message: &Map<String, Value>) -> String {
    [params, message]
        .into_iter()
        .filter_map(|parent| parent.get("metadata")?.get("agent")?.as_str())
        .map(str::trim)
        .find(|name| !name.is_empty())
        .unwrap_or(UNNAMED_CLIENT)
        .to_string()
}

/// What the history calls an A2A client that gives no name (the service keeps
/// letters, digits and `-_. ` of a name, at most 64).
pub const UNNAMED_CLIENT: &str = "a2a-client";

/// The skill a message asks for: a data part naming `skill` (the first one)
/// bypasses the router; otherwise the text parts, joined by newlines, are routed.
fn skill_call(message: &Map<String, Value>, field: &str) -> Result<SkillCall, RpcError> {
    let parts = match message.get("parts") {
        Some(Value::Array(parts)) => parts,
        _ => return Err(RpcError::invalid_params(format!("`{field}.parts` must be an array"))),
    };
    let mut texts: Vec<&str> = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let here = format!("{field}.parts[{index}]");
        let part = object(part, &here)?;
        let discriminator = ["kind", "type"].iter().find_map(|key| part.get(*key)?.as_str());
        let kind = discriminator.unwrap_or(if part.contains_key("text") {
            "text"
        } else if part.contains_key("data") {
            "data"
        } else {
            ""
        });
        match kind {
            "text" => match part.get("text") {
                Some(Value::String(text)) => texts.push(text),
                _ => {
                    return Err(RpcError::invalid_params(format!("`{here}.text` must be a string")))
                }
            },
            "data" => {
                let Some(data) = optional_object(part, "data", &format!("{here}.data"))? else {
                    continue;
                };
                match data.get("skill") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(name)) => {
                        let args = whole_numbers(data.get("args").cloned().unwrap_or(Value::Null));
                        return SkillCall::named(name, args).map_err(|error| {
                            RpcError::invalid_params(format!("{here}.data: {error}"))
                        });
                    }
                    Some(_) => {
                        let field = format!("{here}.data.skill");
                        return Err(RpcError::invalid_params(format!(
                            "`{field}` must be a string"
                        )));
                    }
                }
            }
            // File parts and kinds this agent does not know carry nothing it can use.
            _ => {}
        }
    }
    let text = texts.join("\n");
    if text.trim().is_empty() {
        return Err(RpcError::invalid_params(format!(
            "`{field}` has no text part and no data part naming a skill"
        )));
    }
    Ok(router::route(&text, Local::now()))
}

/// Numbers that are whole become integers: A2A 1.0 data parts are protobuf
/// `Value`s, whose only number is a double, so `{"limit": 2}` arrives as `2.0`.
fn whole_numbers(value: Value) -> Value {
    match value {
        Value::Number(number) => match number.as_f64() {
            Some(float) if number.is_f64() && float.fract() == 0.0 && float.abs() < 9.0e15 => {
                json!(float as i64)
            }
            _ => Value::Number(number),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(whole_numbers).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(key, value)| (key, whole_numbers(value))).collect())
        }
        other => other,
    }
}

/// `tasks/send` and `tasks/sendSubscribe` params of the early protocol:
/// `{ id?, sessionId?, message: { role, parts }, historyLength?, metadata? }`.
pub fn early_send(params: &Value) -> Result<Ask, RpcError> {
    let params = object(params, "params")?;
    let task_id = optional_id(params, "id", "params.id")?;
    let context_id = optional_id(params, "sessionId", "params.sessionId")?;
    let message = match params.get("message") {
        Some(Value::Object(message)) => message,
        _ => return Err(RpcError::invalid_params("`params.message` must be an object")),
    };
    let call = skill_call(message, "params.message")?.for_agent(Some(agent_name(params, message)));
    let history_length = optional_length(Some(params), "params.historyLength")?;
    Ok(Ask {
        task_id,
        context_id,
        call,
        message: Value::Object(message.clone()),
        metadata: metadata(params),
        history_length,
        blocking: true,
    })
}

/// The roles a v0.3 message may have.
const ROLES_V03: &[&str] = &["user", "agent"];
/// The roles a 1.0 message may have.
const ROLES_V10: &[&str] = &["ROLE_USER", "ROLE_AGENT"];

/// What the specification requires of every message: a `messageId` and a
/// `role` (-32602 naming the field otherwise).
fn required_message_fields(message: &Map<String, Value>, roles: &[&str]) -> Result<(), RpcError> {
    match message.get("messageId") {
        Some(Value::String(id)) if !id.trim().is_empty() => {}
        _ => {
            return Err(RpcError::invalid_params(
                "`params.message.messageId` is required (a non-empty string)",
            ))
        }
    }
    match message.get("role").and_then(Value::as_str) {
        Some(role) if roles.contains(&role) => Ok(()),
        _ => Err(RpcError::invalid_params(format!(
            "`params.message.role` is required: {}",
            roles.join(" or ")
        ))),
    }
}

/// `message/send` and `message/stream` params of v0.3:
/// `{ message: { kind, messageId, role, parts, contextId?, taskId? },
/// configuration?: { blocking?, historyLength? }, metadata? }`.
pub fn v03_send(params: &Value) -> Result<Ask, RpcError> {
    message_send(params, Dialect::V03)
}

/// `SendMessage` and `SendStreamingMessage` params of 1.0:
/// `{ message: { messageId, role: "ROLE_USER", parts: [{text} | {data}],
/// contextId?, taskId? }, configuration?: { returnImmediately?, historyLength? },
/// metadata? }`.
pub fn v10_send(params: &Value) -> Result<Ask, RpcError> {
    message_send(params, Dialect::V10)
}

fn message_send(params: &Value, dialect: Dialect) -> Result<Ask, RpcError> {
    let params = object(params, "params")?;
    let message = match params.get("message") {
        Some(Value::Object(message)) => message,
        _ => return Err(RpcError::invalid_params("`params.message` must be an object")),
    };
    let roles = if dialect == Dialect::V10 { ROLES_V10 } else { ROLES_V03 };
    required_message_fields(message, roles)?;
    let task_id = optional_id(message, "taskId", "params.message.taskId")?;
    let context_id = optional_id(message, "contextId", "params.message.contextId")?;
    let call = skill_call(message, "params.message")?.for_agent(Some(agent_name(params, message)));
    let configuration = optional_object(params, "configuration", "params.configuration")?;
    // v0.3 says `blocking` (true unless false), 1.0 `returnImmediately`.
    let (key, waits_when) =
        if dialect == Dialect::V10 { ("returnImmediately", false) } else { ("blocking", true) };
    let blocking = match configuration.and_then(|configuration| configuration.get(key)) {
        None | Some(Value::Null) => true,
        Some(Value::Bool(flag)) => *flag == waits_when,
        Some(_) => {
            return Err(RpcError::invalid_params(format!(
                "`params.configuration.{key}` must be a boolean"
            )))
        }
    };
    let history_length = optional_length(configuration, "params.configuration.historyLength")?;
    let mut message = message.clone();
    if dialect == Dialect::V03 {
        message.insert("kind".into(), json!("message"));
    }
    Ok(Ask {
        task_id,
        context_id,
        call,
        message: Value::Object(message),
        metadata: metadata(params),
        history_length,
        blocking,
    })
}

/// Fills `taskId` and `contextId` of a v0.3 or 1.0 message.
pub fn fill_ids(message: &mut Value, task_id: &str, context_id: &str) {
    if let Value::Object(message) = message {
        message.insert("taskId".into(), json!(task_id));
        message.insert("contextId".into(), json!(context_id));
    }
}

/// `tasks/get`, `tasks/cancel` and `tasks/resubscribe` params: `{ id, historyLength? }`.
pub fn task_query(params: &Value) -> Result<(String, Option<usize>), RpcError> {
    let params = object(params, "params")?;
    let id = optional_id(params, "id", "params.id")?
        .ok_or_else(|| RpcError::invalid_params("`params.id` is required (the task id)"))?;
    Ok((id, optional_length(Some(params), "params.historyLength")?))
}

fn text_part(dialect: Dialect, text: &str) -> Value {
    match dialect {
        Dialect::Early => json!({ "type": "text", "text": text }),
        Dialect::V03 => json!({ "kind": "text", "text": text }),
        Dialect::V10 => json!({ "text": text, "mediaType": "text/plain" }),
    }
}

/// The data part `{skill, meeting_ids, timestamps}` (CONTRACT §8). Its keys are
/// the application's data, not protocol field names, so they are the same in
/// every dialect: 1.0 names its own fields in camelCase, never what a
/// `google.protobuf.Value` carries.
fn data_part(dialect: Dialect, data: &Value) -> Value {
    match dialect {
        Dialect::Early => json!({ "type": "data", "data": data }),
        Dialect::V03 => json!({ "kind": "data", "data": data }),
        Dialect::V10 => json!({ "data": data, "mediaType": "application/json" }),
    }
}

/// The agent's status message, if it has one.
fn agent_message(task: &Snapshot) -> Option<Value> {
    let text = task.reason.as_deref()?;
    Some(match task.dialect {
        Dialect::Early => json!({ "role": "agent", "parts": [text_part(task.dialect, text)] }),
        Dialect::V03 => json!({
            "kind": "message",
            "messageId": task.agent_message_id,
            "role": "agent",
            "parts": [text_part(task.dialect, text)],
            "taskId": task.id,
            "contextId": task.context_id,
        }),
        Dialect::V10 => json!({
            "messageId": task.agent_message_id,
            "role": "ROLE_AGENT",
            "parts": [text_part(task.dialect, text)],
            "taskId": task.id,
            "contextId": task.context_id,
        }),
    })
}

/// `{ state, message?, timestamp }`.
pub fn status(task: &Snapshot) -> Value {
    let state =
        if task.dialect == Dialect::V10 { task.state.as_v10() } else { task.state.as_str() };
    let mut status = json!({ "state": state });
    if let Some(message) = agent_message(task) {
        status["message"] = message;
    }
    status["timestamp"] = json!(task.timestamp);
    status
}

/// The answer artifact: a text part with the answer, and the data part.
pub fn artifact(task: &Snapshot) -> Option<Value> {
    let answer = task.answer.as_deref()?;
    let parts = [text_part(task.dialect, &answer.text), data_part(task.dialect, &answer.data)];
    Some(match task.dialect {
        Dialect::Early => json!({
            "name": "answer",
            "index": 0,
            "parts": parts,
            "append": false,
            "lastChunk": true,
        }),
        Dialect::V03 | Dialect::V10 => json!({
            "artifactId": task.artifact_id,
            "name": "answer",
            "parts": parts,
        }),
    })
}

/// The last `length` messages of the history (all of them without a length).
fn history(task: &Snapshot, length: Option<usize>) -> Vec<Value> {
    let mut messages = vec![(*task.user_message).clone()];
    messages.extend(agent_message(task));
    let keep = length.unwrap_or(messages.len()).min(messages.len());
    messages.split_off(messages.len() - keep)
}

/// The task, in its dialect. The early protocol shows the history only when
/// `historyLength` asks for some; v0.3 and 1.0 always do.
pub fn task(task: &Snapshot, history_length: Option<usize>) -> Value {
    let mut value = match task.dialect {
        Dialect::Early => json!({
            "id": task.id,
            "sessionId": task.context_id,
            "status": status(task),
        }),
        Dialect::V03 => json!({
            "kind": "task",
            "id": task.id,
            "contextId": task.context_id,
            "status": status(task),
        }),
        Dialect::V10 => json!({
            "id": task.id,
            "contextId": task.context_id,
            "status": status(task),
        }),
    };
    if let Some(artifact) = artifact(task) {
        value["artifacts"] = json!([artifact]);
    }
    match (task.dialect, history_length) {
        (Dialect::Early, None | Some(0)) => {}
        (_, length) => value["history"] = json!(history(task, length)),
    }
    if let Some(metadata) = &task.metadata {
        value["metadata"] = (**metadata).clone();
    }
    value
}

/// `TaskStatusUpdateEvent`; `final` in a final state (1.0 has no `final`:
/// its stream simply ends, and the event comes as `{statusUpdate}`).
pub fn status_event(task: &Snapshot) -> Value {
    let last = task.state.is_final();
    match task.dialect {
        Dialect::V10 => json!({ "statusUpdate": {
            "taskId": task.id,
            "contextId": task.context_id,
            "status": status(task),
        }}),
        Dialect::Early => json!({ "id": task.id, "status": status(task), "final": last }),
        Dialect::V03 => json!({
            "kind": "status-update",
            "taskId": task.id,
            "contextId": task.context_id,
            "status": status(task),
            "final": last,
        }),
    }
}

/// `TaskArtifactUpdateEvent` with the answer, once there is one.
pub fn artifact_event(task: &Snapshot) -> Option<Value> {
    let artifact = artifact(task)?;
    Some(match task.dialect {
        Dialect::Early => json!({ "id": task.id, "artifact": artifact }),
        Dialect::V10 => json!({ "artifactUpdate": {
            "taskId": task.id,
            "contextId": task.context_id,
            "artifact": artifact,
            "append": false,
            "lastChunk": true,
        }}),
        Dialect::V03 => json!({
            "kind": "artifact-update",
            "taskId": task.id,
            "contextId": task.context_id,
            "artifact": artifact,
            "append": false,
            "lastChunk": true,
        }),
    })
}

/// What a subscriber arriving now is told: the current status, and for a
/// finished task the answer first and the final status.
pub fn catch_up(task: &Snapshot) -> Vec<Value> {
    let mut events = Vec::new();
    if task.state == TaskState::Completed {
        events.extend(artifact_event(task));
    }
    events.push(status_event(task));
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_doubles_become_integers() {
        let args = json!({ "limit": 2.0, "x": [1.5, 3.0], "query": "a", "n": 7 });
        assert_eq!(whole_numbers(args), json!({ "limit": 2, "x": [1.5, 3], "query": "a", "n": 7 }));
    }
}
