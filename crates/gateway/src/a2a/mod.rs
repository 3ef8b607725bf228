//! The A2A server: the Agent Card and JSON-RPC 2.0 over HTTP, speaking both the
//! early A2A protocol (`tasks/send`, `tasks/sendSubscribe`, card at
//! `/.well-known/agent.json`) and A2A v0.3 (`message/send`, `message/stream`,
//! card also at `/.well-known/agent-card.json`).
//!
//! Every route checks the Host header; `POST /` also needs the bearer token.
//! A task runs one skill; a refused or failed skill ends the task `failed` with
//! the reason in `status.message`, never as a JSON-RPC error.

mod card;
mod methods;
mod rpc;
mod stream;
mod tasks;
mod wire;

#[cfg(test)]
mod tests;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::FutureExt;
use serde_json::Value;

use crate::guard::{check_host, check_token, Token};
use crate::skills::SkillRunner;

/// How long `tasks/send` and a blocking `message/send` wait for the answer
/// before returning the task as it is (the client then polls `tasks/get`).
pub const WAIT: Duration = Duration::from_secs(60);

/// What every request shares.
struct Shared {
    runner: Arc<dyn SkillRunner>,
    store: Arc<tasks::Store>,
    card: Arc<Value>,
    wait: Duration,
}

/// Tunables (tests shorten them).
#[derive(Debug, Clone, Copy)]
struct Options {
    wait: Duration,
    capacity: usize,
    max_age: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options { wait: WAIT, capacity: tasks::CAPACITY, max_age: tasks::MAX_AGE }
    }
}

/// The A2A application: `GET /.well-known/agent.json` and
/// `GET /.well-known/agent-card.json` (the card, no token needed) and
/// `POST /` (JSON-RPC, bearer token). `url` is the public base the card
/// advertises, such as `http://127.0.0.1:47323/`.
pub fn app(runner: Arc<dyn SkillRunner>, token: Token, url: String) -> Router {
    build(runner, token, &url, Options::default())
}

fn build(runner: Arc<dyn SkillRunner>, token: Token, url: &str, options: Options) -> Router {
    let shared = Arc::new(Shared {
        runner,
        store: Arc::new(tasks::Store::new(options.capacity, options.max_age)),
        card: Arc::new(card::card(url)),
        wait: options.wait,
    });
    let rpc = Router::new()
        .route("/", post(json_rpc))
        .route_layer(from_fn_with_state(token, check_token));
    Router::new()
        .route("/.well-known/agent.json", get(agent_card))
        .route("/.well-known/agent-card.json", get(agent_card))
        .merge(rpc)
        .with_state(shared)
        .layer(from_fn(check_host))
}

async fn agent_card(State(a2a): State<Arc<Shared>>) -> Response {
    Json(&*a2a.card).into_response()
}

async fn json_rpc(State(a2a): State<Arc<Shared>>, body: Bytes) -> Response {
    match rpc::parse(&body) {
        Ok(request) => {
            let id = request.id.clone();
            // A bug in a method answers -32603 instead of dropping the connection.
            match AssertUnwindSafe(methods::dispatch(&a2a, request)).catch_unwind().await {
                Ok(response) => response,
                Err(_) => {
                    let error = rpc::RpcError::internal("the request could not be handled");
                    Json(rpc::failure(&id, &error)).into_response()
                }
            }
        }
        Err(reply) => Json(reply).into_response(),
    }
}
