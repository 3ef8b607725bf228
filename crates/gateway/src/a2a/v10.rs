//! The methods only A2A 1.0 has, or that 1.0 answers differently:
//! `SendMessage` (`{task}`), `SendStreamingMessage` (`StreamResponse` events),
//! `SubscribeToTask` (the task first, -32004 for a finished one) and
//! `ListTasks` (filters, including `statusTimestampAfter`, and a page whose
//! `pageSize` is the number of tasks in it). `GetTask` and `CancelTask` are
//! the shared task methods.

use chrono::{DateTime, FixedOffset};
use serde_json::{json, Value};

use super::reply::{begin, follow, settle, Reply};
use super::rpc::RpcError;
use super::tasks::{Dialect, TaskState};
use super::{wire, Shared};

/// `ListTasks` page size when none is asked for, and the largest allowed.
const PAGE: usize = 50;
const MOST: usize = 100;

pub async fn send(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let mut ask = wire::v10_send(params)?;
    let watch = begin(a2a, &mut ask, Dialect::V10)?;
    let task = if ask.blocking { settle(&a2a.store, watch, a2a.wait).await } else { watch.task };
    Ok(Reply::Result(json!({ "task": wire::task(&task, ask.history_length) })))
}

pub fn stream(a2a: &Shared, params: &Value, request_id: &Value) -> Result<Reply, RpcError> {
    let mut ask = wire::v10_send(params)?;
    let watch = begin(a2a, &mut ask, Dialect::V10)?;
    let opening = vec![json!({ "task": wire::task(&watch.task, ask.history_length) })];
    Ok(follow(a2a, watch, request_id, opening))
}

pub fn subscribe(a2a: &Shared, params: &Value, request_id: &Value) -> Result<Reply, RpcError> {
    let (id, _) = wire::task_query(params)?;
    let watch = a2a.store.watch(&id).ok_or_else(|| RpcError::task_not_found(&id))?;
    if watch.task.state.is_final() {
        return Err(RpcError::unsupported_operation(format!(
            "task `{id}` is already {}; read it with GetTask",
            watch.task.state.as_str()
        )));
    }
    let opening = vec![json!({ "task": wire::task(&watch.task, None) })];
    Ok(follow(a2a, watch, request_id, opening))
}

/// What `ListTasks` asks: filters and a page.
struct Query {
    context_id: Option<String>,
    state: Option<TaskState>,
    /// `statusTimestampAfter`: only tasks whose status changed at or after it.
    since: Option<DateTime<FixedOffset>>,
    size: usize,
    offset: usize,
    history_length: Option<usize>,
    artifacts: bool,
}

fn query(params: &Value) -> Result<Query, RpcError> {
    let params = match params {
        Value::Null => &json!({}),
        Value::Object(_) => params,
        _ => return Err(RpcError::invalid_params("`params` must be an object")),
    };
    let text = |key: &str| params[key].as_str().filter(|text| !text.is_empty());
    let number = |key: &str| -> Result<Option<usize>, RpcError> {
        match &params[key] {
            Value::Null => Ok(None),
            value => value.as_u64().map(|n| Some(n as usize)).ok_or_else(|| {
                RpcError::invalid_params(format!("`params.{key}` must be a non-negative integer"))
            }),
        }
    };
    let state = match text("status") {
        None | Some("TASK_STATE_UNSPECIFIED") => None,
        Some(name) => Some(TaskState::parse(name).ok_or_else(|| {
            RpcError::invalid_params(format!("`params.status`: unknown task state `{name}`"))
        })?),
    };
    let since = match ["statusTimestampAfter", "status_timestamp_after"]
        .into_iter()
        .find(|key| !params[*key].is_null())
    {
        None => None,
        Some(key) => Some(params[key].as_str().and_then(rfc3339).ok_or_else(|| {
            RpcError::invalid_params(format!(
                "`params.{key}` must be an RFC 3339 timestamp such as 2026-01-31T09:00:00Z"
            ))
        })?),
    };
    let size = number("pageSize")?.unwrap_or(PAGE);
    if !(1..=MOST).contains(&size) {
        return Err(RpcError::invalid_params(format!("`params.pageSize` must be 1 to {MOST}")));
    }
    let offset = match text("pageToken") {
        None => 0,
        Some(token) => token.parse().map_err(|_| {
            RpcError::invalid_params("`params.pageToken` is not a token this agent gave")
        })?,
    };
    Ok(Query {
        context_id: text("contextId").map(str::to_string),
        state,
        since,
        size,
        offset,
        history_length: number("historyLength")?,
        artifacts: params["includeArtifacts"].as_bool().unwrap_or(false),
    })
}

/// An RFC 3339 timestamp (what a `google.protobuf.Timestamp` is in JSON).
fn rfc3339(text: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(text).ok()
}

/// The 1.0 tasks this agent keeps, the most recently updated first (by
/// status timestamp, CORE-LIST-003), a page at a time.
pub fn list(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let query = query(params)?;
    let matching: Vec<_> = a2a
        .store
        .list(Dialect::V10)
        .into_iter()
        .filter(|task| query.context_id.as_ref().is_none_or(|id| *id == task.context_id))
        .filter(|task| query.state.is_none_or(|state| state == task.state))
        .filter(|task| {
            query
                .since
                .is_none_or(|since| rfc3339(&task.timestamp).is_none_or(|changed| changed >= since))
        })
        .collect();
    let total = matching.len();
    let tasks: Vec<Value> = matching
        .iter()
        .skip(query.offset)
        .take(query.size)
        .map(|task| {
            let mut value = wire::task(task, Some(query.history_length.unwrap_or(0)));
            if !query.artifacts {
                if let Value::Object(map) = &mut value {
                    map.remove("artifacts");
                }
            }
            value
        })
        .collect();
    let next = query.offset + tasks.len();
    let next_page_token = if next < total { next.to_string() } else { String::new() };
    Ok(Reply::Result(json!({
        "tasks": tasks,
        "nextPageToken": next_page_token,
        // The size of this page, not the size asked for.
        "pageSize": tasks.len(),
        "totalSize": total,
    })))
}
