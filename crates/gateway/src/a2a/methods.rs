//! The JSON-RPC methods of both dialects. `tasks/get`, `tasks/cancel` and
//! `tasks/resubscribe` are shared: they answer in the dialect that created the
//! task.

use std::sync::Arc;
use std::time::Duration;

use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use super::rpc::{self, Request, RpcError};
use super::stream;
use super::tasks::{
    new_id, Begun, CancelError, Dialect, Joined, NewTask, Snapshot, Store, UpdateKind, Watch,
};
use super::wire::{self, Ask};
use super::Shared;

/// What a method gives back.
enum Reply {
    Result(Value),
    Stream(Response),
}

/// The methods that answer with an event stream, errors included.
const STREAMING: [&str; 3] = ["tasks/sendSubscribe", "message/stream", "tasks/resubscribe"];

/// Runs one request; always answers (HTTP 200), errors in the JSON-RPC body
/// (or, for a streaming method, in the one event of its stream).
pub(super) async fn dispatch(a2a: &Shared, request: Request) -> Response {
    let Request { id, method, params } = request;
    let streaming = STREAMING.contains(&method.as_str());
    let reply = match method.as_str() {
        "tasks/send" => early_send(a2a, &params).await,
        "tasks/sendSubscribe" => early_subscribe(a2a, &params, &id),
        "message/send" => message_send(a2a, &params).await,
        "message/stream" => message_stream(a2a, &params, &id),
        "tasks/get" => get(a2a, &params),
        "tasks/cancel" => cancel(a2a, &params),
        "tasks/resubscribe" => resubscribe(a2a, &params, &id),
        "agent/getAuthenticatedExtendedCard" => Ok(Reply::Result((*a2a.card).clone())),
        push if push.starts_with("tasks/pushNotification") => Err(RpcError::push_not_supported()),
        other => Err(RpcError::method_not_found(other)),
    };
    match reply {
        Ok(Reply::Result(result)) => Json(rpc::success(&id, result)).into_response(),
        Ok(Reply::Stream(response)) => response,
        Err(error) if streaming => stream::failure(&id, &error),
        Err(error) => Json(rpc::failure(&id, &error)).into_response(),
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

/// Starts a v0.3 task, or follows the running task the message names.
fn v03_begin(a2a: &Shared, ask: &mut Ask) -> Result<Watch, RpcError> {
    if let Some(task_id) = &ask.task_id {
        return match a2a.store.join(task_id) {
            Joined::NotFound => Err(RpcError::task_not_found(task_id)),
            Joined::Final(task) => Err(RpcError::invalid_params(format!(
                "`params.message.taskId`: task `{task_id}` is already {}; send the message \
                 without taskId to start a new task",
                task.state.as_str()
            ))),
            Joined::Running(watch) => Ok(watch),
        };
    }
    let id = new_id();
    let context_id = ask.context_id.clone().unwrap_or_else(new_id);
    let mut message = std::mem::take(&mut ask.message);
    wire::fill_ids(&mut message, &id, &context_id);
    let new = NewTask {
        id,
        context_id,
        dialect: Dialect::V03,
        user_message: message,
        metadata: ask.metadata.take(),
    };
    let (Begun::Started(watch) | Begun::Joined(watch)) =
        a2a.store.launch(Arc::clone(&a2a.runner), ask.call.clone(), new);
    Ok(watch)
}

async fn message_send(a2a: &Shared, params: &Value) -> Result<Reply, RpcError> {
    let mut ask = wire::v03_send(params)?;
    let watch = v03_begin(a2a, &mut ask)?;
    let task = if ask.blocking { settle(&a2a.store, watch, a2a.wait).await } else { watch.task };
    Ok(Reply::Result(wire::task(&task, ask.history_length)))
}

fn message_stream(a2a: &Shared, params: &Value, request_id: &Value) -> Result<Reply, RpcError> {
    let mut ask = wire::v03_send(params)?;
    let watch = v03_begin(a2a, &mut ask)?;
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

fn follow(a2a: &Shared, watch: Watch, request_id: &Value, opening: Vec<Value>) -> Reply {
    let Watch { task, updates } = watch;
    let store = Arc::clone(&a2a.store);
    Reply::Stream(stream::respond(store, &task, request_id.clone(), opening, Some(updates)))
}

/// Waits (at most `limit`) for the task to reach a final state, and returns it
/// as it then is.
async fn settle(store: &Store, watch: Watch, limit: Duration) -> Snapshot {
    let Watch { task, mut updates } = watch;
    if task.state.is_final() {
        return task;
    }
    let wait = async {
        loop {
            match updates.recv().await {
                Ok(update) if update.kind == UpdateKind::Status && update.task.state.is_final() => {
                    return Some(update.task);
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    if let Some(now) = store.get(&task.id).filter(|now| now.state.is_final()) {
                        return Some(now);
                    }
                }
                Err(RecvError::Closed) => return None,
            }
        }
    };
    let settled = tokio::time::timeout(limit, wait).await.ok().flatten();
    settled.or_else(|| store.get(&task.id)).unwrap_or(task)
}
