//! A stand-in notes server on 127.0.0.1 speaking the real wire formats: Ollama
//! `/api/chat` (NDJSON stream), OpenAI-compatible `/v1/chat/completions` (SSE
//! stream) and Anthropic `/v1/messages` (JSON). It records every request.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::{json, Value};

pub const SUMMARY: &str = "The team agreed the stand-in budget.";
pub const ITEM: &str = "Send the stand-in report";
/// The answer to a question (`POST /v1/ask`), citing the first passage.
pub const ASK_ANSWER: &str = "The move is in May [1].";

#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Clone, Copy)]
pub struct Behaviour {
    /// Action items come back as broken JSON, even after the repair request.
    pub malformed_items: bool,
}

#[derive(Clone)]
pub struct StandIn {
    pub base: String,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl StandIn {
    pub async fn start(behaviour: Behaviour) -> StandIn {
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let app = Router::new()
            .route("/api/chat", post(answer("/api/chat", behaviour, seen.clone())))
            .route(
                "/v1/chat/completions",
                post(answer("/v1/chat/completions", behaviour, seen.clone())),
            )
            .route("/v1/messages", post(answer("/v1/messages", behaviour, seen.clone())));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://127.0.0.1:{}", listener.local_addr().expect("addr").port());
        tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
        StandIn { base, seen }
    }

    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().expect("seen").clone()
    }
}

fn answer(
    path: &'static str,
    behaviour: Behaviour,
    seen: Arc<Mutex<Vec<Seen>>>,
) -> impl Fn(HeaderMap, Bytes) -> std::future::Ready<Response> + Clone {
    move |headers: HeaderMap, body: Bytes| {
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        seen.lock().expect("seen").push(Seen { path: path.into(), headers, body: body.clone() });
        let wants_items = body.to_string().contains("action items of a meeting");
        let asked = body.to_string().contains("Question: ");
        let text = match (wants_items, behaviour.malformed_items) {
            _ if asked => ASK_ANSWER.to_string(),
            (true, true) => "Sure! Here are the items: {action_items: [oops".to_string(),
            (true, false) => json!({"action_items": [{"text": ITEM, "owner": "Them"}]}).to_string(),
            (false, _) => SUMMARY.to_string(),
        };
        std::future::ready(match path {
            "/api/chat" => ollama_stream(&text),
            "/v1/chat/completions" => openai_stream(&text),
            _ => anthropic(&text),
        })
    }
}

/// Ollama streams NDJSON by default; so does this server, whatever was asked.
fn ollama_stream(text: &str) -> Response {
    let (first, second) = text.split_at(text.len() / 2);
    let mut lines = String::new();
    for piece in [first, second] {
        let chunk = json!({"model": "m", "message": {"role": "assistant", "content": piece}, "done": false});
        lines.push_str(&format!("{chunk}\n"));
    }
    lines.push_str(&format!(
        "{}\n",
        json!({"model": "m", "message": {"role": "assistant", "content": ""}, "done": true})
    ));
    (StatusCode::OK, [("content-type", "application/x-ndjson")], lines).into_response()
}

fn openai_stream(text: &str) -> Response {
    let (first, second) = text.split_at(text.len() / 2);
    let mut events = String::new();
    for piece in [first, second] {
        let chunk = json!({"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]});
        events.push_str(&format!("data: {chunk}\n\n"));
    }
    events.push_str("data: [DONE]\n\n");
    (StatusCode::OK, [("content-type", "text/event-stream")], events).into_response()
}

fn anthropic(text: &str) -> Response {
    let body = json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}
    });
    (StatusCode::OK, [("content-type", "application/json")], body.to_string()).into_response()
}
