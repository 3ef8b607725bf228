//! The A2A server: the Agent Card and JSON-RPC 2.0 over HTTP, speaking A2A 1.0
//! (`SendMessage`, `SendStreamingMessage`, `GetTask`, `ListTasks`,
//! `CancelTask`, `SubscribeToTask`), A2A v0.3 (`message/send`,
//! `message/stream`) and the early protocol (`tasks/send`,
//! `tasks/sendSubscribe`, card at `/.well-known/agent.json`). The card at
//! `/.well-known/agent-card.json` is negotiated by `A2A-Version` (`card.rs`).
//!
//! Every route checks the Host header; `POST /` also needs the bearer token.
//! A task runs one skill; a refused or failed skill ends the task `failed` with
//! the reason in `status.message`, never as a JSON-RPC error.

mod card;
mod methods;
mod reply;
mod rpc;
mod stream;
mod tasks;
mod v10;
mod wire;

#[cfg(test)]
mod tests;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::FutureExt;
use serde_json::Value;

use crate::guard::{check_host, check_token, Token};
use crate::skills::SkillRunner;

/// The header that names the A2A version a request speaks (1.0).
pub const VERSION_HEADER: &str = "a2a-version";

/// How long `tasks/send` and a blocking `message/send` wait for the answer
/// before returning the task as it is (the client then polls `tasks/get`).
pub const WAIT: Duration = Duration::from_secs(60);

/// What every request shares.
struct Shared {
    runner: Arc<dyn SkillRunner>,
    store: Arc<tasks::Store>,
    /// The early-protocol card (`/.well-known/agent.json`).
    card_early: Arc<Value>,
    /// The v0.3 card.
    card: Arc<Value>,
    /// The 1.0 card.
    card_v10: Arc<Value>,
    /// Both merged: for clients that do not say which version they read.
    card_merged: Arc<Value>,
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
        card_early: Arc::new(card::card_early(url)),
        card: Arc::new(card::card(url)),
        card_v10: Arc::new(card::card_v10(url)),
        card_merged: Arc::new(card::card_merged(url)),
        wait: options.wait,
    });
    // The token guards JSON-RPC only; the cards are public.
    let rpc = post(json_rpc).route_layer(from_fn_with_state(token, check_token));
    Router::new()
        .route("/.well-known/agent.json", get(agent_card))
        .route("/.well-known/agent-card.json", get(negotiated_card))
        .route("/v1/.well-known/agent-card.json", get(card_v10))
        .route("/", get(merged_card).merge(rpc))
        .with_state(shared)
        .layer(from_fn(check_host))
}

async fn agent_card(State(a2a): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    card::respond(&a2a.card_early, &headers)
}

/// The pure 1.0 card, for 1.0 readers that do not send `A2A-Version` (the
/// 1.0 TCK is one): `--sut-host http://127.0.0.1:47323/v1`.
async fn card_v10(State(a2a): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    card::respond(&a2a.card_v10, &headers)
}

/// `GET /`: a person (or a v0.3 checker) opening the agent's address sees its card.
async fn merged_card(State(a2a): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    card::respond(&a2a.card_merged, &headers)
}

/// The card a client asks for with `A2A-Version` (1.x: the 1.0 card; 0.3:
/// the v0.3 card), else both merged.
async fn negotiated_card(State(a2a): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let version = headers.get(VERSION_HEADER).and_then(|value| value.to_str().ok());
    let card = match version.map(str::trim) {
        Some(v) if v == "1" || v.starts_with("1.") => &a2a.card_v10,
        Some(v) if v == "0.3" || v.starts_with("0.3.") => &a2a.card,
        _ => &a2a.card_merged,
    };
    card::respond(card, &headers)
}

async fn json_rpc(State(a2a): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let version = headers.get(VERSION_HEADER).and_then(|value| value.to_str().ok());
    let content_type = headers.get(CONTENT_TYPE).and_then(|value| value.to_str().ok());
    match rpc::parse(&body, content_type) {
        Ok(request) => {
            let id = request.id.clone();
            // A bug in a method answers -32603 instead of dropping the connection.
            let answer = methods::dispatch(&a2a, request, version);
            match AssertUnwindSafe(answer).catch_unwind().await {
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
