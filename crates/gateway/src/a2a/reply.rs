//! What the JSON-RPC methods of every dialect share: the reply a method
//! gives back, and a task started (or joined) for a message, then answered as
//! an event stream (`follow`) or once it settles (`settle`).

use std::sync::Arc;
use std::time::Duration;

use axum::response::Response;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use super::rpc::RpcError;
use super::stream;
use super::tasks::{new_id, Begun, Dialect, Joined, NewTask, Snapshot, Store, UpdateKind, Watch};
use super::wire::{self, Ask};
use super::Shared;

/// What a method gives back.
pub(super) enum Reply {
    Result(Value),
    Stream(Response),
}

/// Starts a v0.3 or 1.0 task, or follows the running task the message names.
pub(super) fn begin(a2a: &Shared, ask: &mut Ask, dialect: Dialect) -> Result<Watch, RpcError> {
    if let Some(task_id) = &ask.task_id {
        return match a2a.store.join(task_id) {
            Joined::NotFound => Err(RpcError::task_not_found(task_id)),
            Joined::Final(task) => {
                let detail = format!(
                    "`params.message.taskId`: task `{task_id}` is already {}; send the message \
                     without taskId to start a new task",
                    task.state.as_str()
                );
                // 1.0 says a terminal task takes no more messages (-32004).
                Err(match dialect {
                    Dialect::V10 => RpcError::unsupported_operation(detail),
                    _ => RpcError::invalid_params(detail),
                })
            }
            Joined::Running(watch) => Ok(watch),
        };
    }
    let id = new_id();
    let context_id = ask.context_id.clone().unwrap_or_else(new_id);
    let mut message = std::mem::take(&mut ask.message);
    wire::fill_ids(&mut message, &id, &context_id);
    let new =
        NewTask { id, context_id, dialect, user_message: message, metadata: ask.metadata.take() };
    let (Begun::Started(watch) | Begun::Joined(watch)) =
        a2a.store.launch(Arc::clone(&a2a.runner), ask.call.clone(), new);
    Ok(watch)
}

pub(super) fn follow(a2a: &Shared, watch: Watch, request_id: &Value, opening: Vec<Value>) -> Reply {
    let Watch { task, updates } = watch;
    let store = Arc::clone(&a2a.store);
    Reply::Stream(stream::respond(store, &task, request_id.clone(), opening, Some(updates)))
}

/// Waits (at most `limit`) for the task to reach a final state, and returns it
/// as it then is.
pub(super) async fn settle(store: &Store, watch: Watch, limit: Duration) -> Snapshot {
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
