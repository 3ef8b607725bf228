//! Server-Sent Events for the streaming methods: each frame is
//! `data: <JSON-RPC response>\n\n` carrying one event, with no `id:` lines. The
//! stream follows the task's updates and ends after the final status event.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

use super::rpc;
use super::tasks::{Snapshot, Store, TaskState, Update, UpdateKind};
use super::wire;

/// Where a stream stands.
struct Follow {
    store: Arc<Store>,
    task_id: String,
    request_id: Value,
    updates: Option<Receiver<Update>>,
    pending: VecDeque<Bytes>,
    artifact_sent: bool,
}

impl Follow {
    fn push(&mut self, event: Value) {
        let frame = rpc::success(&self.request_id, event);
        self.pending.push_back(Bytes::from(format!("data: {frame}\n\n")));
    }

    fn update(&mut self, update: Update) {
        match update.kind {
            UpdateKind::Artifact => {
                if let Some(event) = wire::artifact_event(&update.task) {
                    self.artifact_sent = true;
                    self.push(event);
                }
            }
            UpdateKind::Status => self.status(&update.task),
        }
    }

    /// A status event; the final one (after the answer, if not yet sent) ends
    /// the stream.
    fn status(&mut self, task: &Snapshot) {
        if task.state.is_final() {
            if task.state == TaskState::Completed && !self.artifact_sent {
                if let Some(event) = wire::artifact_event(task) {
                    self.artifact_sent = true;
                    self.push(event);
                }
            }
            self.updates = None;
        }
        self.push(wire::status_event(task));
    }

    /// Updates were missed (or the task left the store): tell where it stands.
    fn resync(&mut self) {
        match self.store.get(&self.task_id) {
            Some(task) => self.status(&task),
            None => self.updates = None,
        }
    }

    async fn next(mut self) -> Option<(Result<Bytes, Infallible>, Follow)> {
        loop {
            if let Some(frame) = self.pending.pop_front() {
                return Some((Ok(frame), self));
            }
            let updates = self.updates.as_mut()?;
            match updates.recv().await {
                Ok(update) => self.update(update),
                Err(RecvError::Lagged(_)) => self.resync(),
                Err(RecvError::Closed) => {
                    self.updates = None;
                    if let Some(task) = self.store.get(&self.task_id) {
                        if task.state.is_final() {
                            self.status(&task);
                        }
                    }
                }
            }
        }
    }
}

/// A streaming method that fails before its stream starts: an SSE response
/// (HTTP 200, `text/event-stream`) with one `error` event carrying the
/// JSON-RPC error, as the A2A SDKs' own servers send it (their clients expect
/// an event stream from a streaming method and cannot read a JSON body there).
pub fn failure(request_id: &Value, error: &rpc::RpcError) -> Response {
    let frame = rpc::failure(request_id, error);
    event_stream(Body::from(format!("event: error\ndata: {frame}\n\n")))
}

fn event_stream(body: Body) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// An SSE response: first `opening` (events already known), then the task's
/// updates from `updates` until the final status. Without `updates` (a task
/// already finished), only the opening.
pub fn respond(
    store: Arc<Store>,
    task: &Snapshot,
    request_id: Value,
    opening: Vec<Value>,
    updates: Option<Receiver<Update>>,
) -> Response {
    let mut follow = Follow {
        store,
        task_id: task.id.clone(),
        request_id,
        updates: if task.state.is_final() { None } else { updates },
        pending: VecDeque::new(),
        artifact_sent: false,
    };
    for event in opening {
        follow.push(event);
    }
    let stream = futures_util::stream::unfold(follow, Follow::next);
    event_stream(Body::from_stream(stream))
}
