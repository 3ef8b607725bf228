//! A stand-in LLM server on 127.0.0.1 that records every request and answers
//! from a script, an in-memory Privacy Ledger, and small builders for configs,
//! transcripts and the three wire formats (JSON, NDJSON, server-sent events).

#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use recorder_ai::{generate, AiError, NotesRequest, ProviderConfig, ProviderKind};
use recorder_domain::NoteKind;
use recorder_egress::{Egress, Verdict};
use recorder_notes::{Context, Generated, Line};
use serde_json::Value;
use url::Url;

pub const KEY: &str = "sk-test-SECRET-4242";

pub use recorder_egress::MemoryLedger as Memory;

/// One request the stand-in received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The user message of any dialect.
    pub fn user(&self) -> String {
        let messages = self.body["messages"].as_array().expect("messages");
        let user = messages.iter().find(|m| m["role"] == "user").expect("a user message");
        user["content"].as_str().expect("text content").to_string()
    }
}

/// What the stand-in answers.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

pub fn json(value: Value) -> Answer {
    Answer { status: 200, content_type: "application/json", body: value.to_string() }
}

pub fn ndjson(values: &[Value]) -> Answer {
    let body = values.iter().map(|value| format!("{value}\n")).collect();
    Answer { status: 200, content_type: "application/x-ndjson", body }
}

/// Server-sent events: (event name or "", data) pairs.
pub fn sse(events: &[(&str, String)]) -> Answer {
    let body = events
        .iter()
        .map(|(event, data)| {
            let name = if event.is_empty() { String::new() } else { format!("event: {event}\n") };
            format!("{name}data: {data}\n\n")
        })
        .collect();
    Answer { status: 200, content_type: "text/event-stream", body }
}

pub fn status(status: u16, body: Value) -> Answer {
    Answer { status, content_type: "application/json", body: body.to_string() }
}

/// Ollama's non-streamed `/api/chat` answer.
pub fn ollama(content: &str) -> Answer {
    json(serde_json::json!({
        "model": "m", "created_at": "2025-01-01T00:00:00Z",
        "message": { "role": "assistant", "content": content },
        "done": true, "done_reason": "stop", "eval_count": 10
    }))
}

type Script = Arc<dyn Fn(&Seen) -> Answer + Send + Sync>;

#[derive(Clone)]
struct Stub {
    seen: Arc<Mutex<Vec<Seen>>>,
    script: Script,
}

pub struct Server {
    pub address: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// `http://127.0.0.1:<port><path>`
    pub fn url(&self, path: &str) -> Url {
        Url::parse(&format!("http://{}{path}", self.address)).expect("url")
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }
}

/// A stand-in answering with `script(request)`.
pub async fn serve(script: impl Fn(&Seen) -> Answer + Send + Sync + 'static) -> Server {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let stub = Stub { seen: seen.clone(), script: Arc::new(script) };
    let app = Router::new().fallback(handle).with_state(stub);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    Server { address, seen }
}

/// A stand-in answering with `answers` in order.
pub async fn serve_in_order(answers: Vec<Answer>) -> Server {
    let queue = Mutex::new(VecDeque::from(answers));
    serve(move |_| queue.lock().expect("lock").pop_front().expect("a scripted answer")).await
}

async fn handle(State(stub): State<Stub>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let seen = Seen { path: uri.path().to_string(), headers, body };
    stub.seen.lock().expect("lock").push(seen.clone());
    let answer = (stub.script)(&seen);
    let status = StatusCode::from_u16(answer.status).expect("status");
    (status, [("content-type", answer.content_type)], answer.body).into_response()
}

pub fn egress() -> (Egress, Arc<Memory>) {
    let ledger = Arc::new(Memory::default());
    (Egress::new(ledger.clone()).expect("egress"), ledger)
}

pub fn config(kind: ProviderKind, base_url: Url, model: Option<&str>) -> ProviderConfig {
    ProviderConfig {
        kind,
        base_url,
        model: model.map(str::to_string),
        api_key: None,
        pinned_addrs: Vec::new(),
    }
}

pub fn context() -> Context {
    Context {
        user_name: "Ada".into(),
        attendees: vec!["Bob".into(), "carol@example.com".into()],
        title: "Budget review".into(),
        ..Context::default()
    }
}

pub fn line(speaker: &str, start_ms: i64, text: &str) -> Line {
    Line { speaker: speaker.into(), start_ms, end_ms: start_ms + 2000, text: text.into() }
}

pub fn short_meeting() -> Vec<Line> {
    vec![
        line("Ada", 1_000, "Let's review the budget for next quarter."),
        line("Them", 6_000, "Bob will send the updated numbers by Friday."),
        line("Ada", 12_000, "Agreed, we keep the travel budget as it is."),
    ]
}

/// Everything the ledger holds, as text, to look for secrets in.
pub fn ledger_text(ledger: &Memory) -> String {
    format!("{:?}", ledger.entries())
}

pub fn request<'a>(kind: NoteKind, lines: &'a [Line], context: &'a Context) -> NotesRequest<'a> {
    NotesRequest { kind, lines, context, template: None }
}

/// One note of the short meeting, with the request allowed.
pub async fn ask(
    egress: &Egress,
    config: &ProviderConfig,
    kind: NoteKind,
) -> Result<Generated, AiError> {
    let (lines, context) = (short_meeting(), context());
    generate(egress, config, Verdict::Allow, &request(kind, &lines, &context)).await
}
