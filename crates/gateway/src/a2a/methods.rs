//! The JSON-RPC methods of the three dialects: A2A 1.0 (`SendMessage`, …),
//! v0.3 (`message/send`, …) and the early protocol (`tasks/send`, …). The task
//! methods answer in the dialect that created the task.

use std::sync::Arc;

use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;

use super::reply::{begin, follow, settle, Reply};
use super::rpc::{self, Request, RpcError};
use super::stream;
use super::tasks::{new_id, Begun, CancelError, Dialect, NewTask};
use super::wire::{self, Ask};
use super::{v10, Shared};

/// The v0.3 and early streaming methods: their errors come as the one
/// `event: error` of an event stream, which is all their SDKs' streaming
/// clients can read (the 0.3 SDK refuses a JSON body there). 1.0's
/// `SendStreamingMessage` and `SubscribeToTask` answer an error that comes
/// before the stream as a plain JSON-RPC body, as the 1.x SDKs' own servers
/// do and as their clients and the 1.0 TCK read it.
const STREAMING: [&str; 3] = ["tasks/sendSubscribe", "message/stream", "tasks/resubscribe"];

/// Runs one request; always answers (HTTP 200), errors in the JSON-RPC body
/// (or, for a v0.3/early streaming method, in the one `event: error` of its
/// stream). `version` is the request's `A2A-Version` header, if any.
pub(super) async fn dispatch(a2a: &Shared, request: Request, version: Option<&str>) -> Response {
    let Request { id, method, params } = request;
    let streaming = STREAMING.contains(&method.as_str());
    let reply = match version.filter(|version| !supported(version)) {
        Some(version) => Err(RpcError::version_not_supported(version)),
        None => answer(a2a, &method, &params, &id).await,
    };
    match reply {
        Ok(Reply::Result(result)) => Json(rpc::success(&id, result)).into_response(),
        Ok(Reply::Stream(response)) => response,
        Err(error) if streaming => stream::failure(&id, &error),
        Err(error) => Json(rpc::failure(&id, &error)).into_response(),
    }
}

/// `A2A-Version` values this agent speaks: 1.x and 0.3 (an empty header
/// means 0.3, as the specification says).
fn supported(version: &str) -> bool {
    let version = version.trim();
    version.is_empty()
        || version == "1"
        || version.starts_with("1.")
        || version == "0.3"
        || version.starts_with("0.3.")
}

/// A2A 1.0's methods (the task methods are shared with v0.3).
async fn answer(a2a: &Shared, method: &str, params: &Value, id: &Value) -> Result<Reply, RpcError> {
    match method {
        "SendMessage" => v10::send(a2a, params).await,
        "SendStreamingMessage" => v10::stream(a2a, params, id),
        "GetTask" => get(a2a, params),
        "ListTasks" => v10::list(a2a, params),
        "CancelTask" => cancel(a2a, params),
        "SubscribeToTask" => v10::subscribe(a2a, params, id),
        "GetExtendedAgentCard" => Err(RpcError::extended_card_not_configured()),
        // The card says `pushNotifications: false`, so every push-config
        // method is -32003 (1.0 §3.3.4), whatever its params; `Set…` and
        // `List…Config` (no s) are the pre-1.0 spellings.
        "CreateTaskPushNotificationConfig"
        | "SetTaskPushNotificationConfig"
        | "GetTaskPushNotificationConfig"
        | "ListTaskPushNotificationConfigs"
        | "ListTaskPushNotificationConfig"
        | "DeleteTaskPushNotificationConfig" => Err(RpcError::push_not_supported()),
        other => legacy(a2a, other, params, id).await,
    }
}

/// The early protocol's and v0.3's methods.
async fn legacy(a2a: &Shared, method: &str, params: &Value, id: &Value) -> Result<Reply, RpcError> {
    match method {
        "tasks/send" => early_send(a2a, params).await,
        "tasks/sendSubscribe" => early_subscribe(a2a, params, id),
        "message/send" => message_send(a2a, params).await,
        "message/stream" => message_stream(a2a, params, id),
        "tasks/get" => get(a2a, params),
        "tasks/cancel" => cancel(a2a, params),
        "tasks/resubscribe" => resubscribe(a2a, params, id),
        "agent/getAuthenticatedExtendedCard" => Ok(Reply::Result((*a2a.card).clone())),
        push if push.starts_with("tasks/pushNotification") => Err(RpcError::push_not_supported()),
        other => Err(RpcError::method_not_found(other)),
    }
}

/// Starts (or joins) an early-protocol task.
fn early_begin(a2a: &Shared, ask: Ask) -> Begun {
    let new = NewTask {
        id: ask.task_id.unwrap_or_else(new_id),
        context_id: ask.context_id.unwrap_or_else(new_id),
        dialect: Dialect::Early,
        user_message: ask.message,
        metadata: ask.metadata,
    };
    a2a.store.launch(Arc::clone(&a2a.runner), ask.call, new)
}

async fn early_send(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let ask = wire::early_send(params)?;
    let history_length = ask.history_length;
    let (Begun::Started(watch) | Begun::Joined(watch)) = early_begin(a2a, ask);
    let task = settle(&a2a.store, watch, a2a.wait).await;
    Ok(Reply::Result(wire::task(&task, history_length)))
}

fn early_subscribe(a2a: &Shared, params: &Value, request_id: &Value) -> Result<Reply, RpcError> {
    let ask = wire::early_send(params)?;
    let (watch, opening) = match early_begin(a2a, ask) {
        Begun::Started(watch) => {
            let opening = vec![wire::status_event(&watch.task)];
            (watch, opening)
        }
        Begun::Joined(watch) => {
            let opening = wire::catch_up(&watch.task);
            (watch, opening)
        }
    };
    Ok(follow(a2a, watch, request_id, opening))
}

async fn message_send(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let mut ask = wire::v03_send(params)?;
    let watch = begin(a2a, &mut ask, Dialect::V03)?;
    let task = if ask.blocking { settle(&a2a.store, watch, a2a.wait).await } else { watch.task };
    Ok(Reply::Result(wire::task(&task, ask.history_length)))
}

fn message_stream(a2a: &Shared, params: &Value, request_id: &Value) -> Result<Reply, RpcError> {
    let mut ask = wire::v03_send(params)?;
    let watch = begin(a2a, &mut ask, Dialect::V03)?;
    let opening = vec![wire::task(&watch.task, ask.history_length)];
    Ok(follow(a2a, watch, request_id, opening))
}

fn get(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let (id, history_length) = wire::task_query(params)?;
    let task = a2a.store.get(&id).ok_or_else(|| RpcError::task_not_found(&id))?;
    Ok(Reply::Result(wire::task(&task, history_length)))
}

fn cancel(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let (id, history_length) = wire::task_query(params)?;
    match a2a.store.cancel(&id) {
        Ok(task) => Ok(Reply::Result(wire::task(&task, history_length))),
        Err(CancelError::NotFound) => Err(RpcError::task_not_found(&id)),
        Err(CancelError::Final(state)) => Err(RpcError::not_cancelable(&id, state.as_str())),
    }
}

fn resubscribe(a2a: &Shared, params: &Value, request_id: &Value) -> Result<Reply, RpcError> {
    let (id, _) = wire::task_query(params)?;
    let watch = a2a.store.watch(&id).ok_or_else(|| RpcError::task_not_found(&id))?;
    let opening = wire::catch_up(&watch.task);
    Ok(follow(a2a, watch, request_id, opening))
}
