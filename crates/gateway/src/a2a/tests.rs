//! Tests of the A2A server through its axum router, with fake skill runners:
//! one that answers at once, one that never answers (until canceled), and one
//! that is refused by the plan check.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, BodyDataStream};
use axum::http::{header, Request, StatusCode};
use axum::response::Response;
use axum::Router;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::{build, Options};
use crate::catalogue;
use crate::guard::Token;
use crate::skills::{
    Answer, Gate, Progress, Skill, SkillCall, SkillError, SkillResult, SkillRunner, Timestamp, Used,
};

const TOKEN: &str = "secret-token";
const URL: &str = "http://127.0.0.1:47323/";
const HOST: &str = "127.0.0.1:47323";

type Run<'a> = Pin<Box<dyn Future<Output = SkillResult> + Send + 'a>>;

/// A line an `ask` answer comes from, as the service gives it.
fn citation() -> Value {
    json!({ "meeting_id": "m-1", "title": "Incident review", "start_ms": 1_000, "end_ms": 2_000,
        "speaker": "Dana", "text": "We will add a replica so it does not happen again." })
}

fn answer(skill: Skill) -> Answer {
    let result = match skill {
        Skill::Ask => {
            json!({ "answer": "Dana said so.", "citations": [citation()], "provider": "builtin" })
        }
        _ => json!({ "ok": true }),
    };
    Answer {
        skill,
        text: format!("The answer from {}.", skill.name()),
        result,
        used: Used {
            meeting_ids: vec!["m-1".into()],
            timestamps: vec![Timestamp {
                meeting_id: "m-1".into(),
                start_ms: Some(1_000),
                end_ms: Some(2_000),
                started_at: None,
            }],
        },
    }
}

/// Answers at once and remembers the calls.
#[derive(Default)]
struct Quick {
    calls: Mutex<Vec<SkillCall>>,
}

impl Quick {
    fn calls(&self) -> Vec<SkillCall> {
        self.calls.lock().expect("calls lock").clone()
    }
}

impl SkillRunner for Quick {
    fn run(&self, call: SkillCall, _progress: Progress) -> Run<'_> {
        self.calls.lock().expect("calls lock").push(call.clone());
        Box::pin(async move { Ok(answer(call.skill)) })
    }
}

/// Sets its flag when dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Never answers; its flag tells that the running skill was dropped (aborted).
#[derive(Default)]
struct Hang {
    started: AtomicUsize,
    dropped: Arc<AtomicBool>,
}

impl SkillRunner for Hang {
    fn run(&self, _call: SkillCall, _progress: Progress) -> Run<'_> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let flag = DropFlag(Arc::clone(&self.dropped));
        Box::pin(async move {
            let _flag = flag;
            std::future::pending().await
        })
    }
}

const REFUSAL: &str = "Cannot start a recording: needs Recorder Pro";

/// Refused by the plan check.
struct Refuse;

impl SkillRunner for Refuse {
    fn run(&self, _call: SkillCall, _progress: Progress) -> Run<'_> {
        Box::pin(async {
            Err(SkillError::Refused {
                gate: Gate::Plan,
                code: "pro_required".into(),
                message: REFUSAL.into(),
            })
        })
    }
}

fn app(runner: Arc<dyn SkillRunner>) -> Router {
    let options = Options { wait: Duration::from_millis(300), ..Options::default() };
    build(runner, Token::new(TOKEN), URL, options)
}

fn quick() -> (Arc<Quick>, Router) {
    let runner = Arc::new(Quick::default());
    (Arc::clone(&runner), app(runner))
}

fn post(body: impl Into<Body>) -> Request<Body> {
    Request::builder()
        .method("POST")
        .uri("/")
        .header(header::HOST, HOST)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .expect("request")
}

async fn send(app: &Router, request: Request<Body>) -> Response {
    app.clone().oneshot(request).await.expect("response")
}

async fn json_of(response: Response) -> Value {
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("body");
    serde_json::from_slice(&bytes).expect("JSON body")
}

async fn raw(app: &Router, body: &str) -> Value {
    let response = send(app, post(body.to_string())).await;
    assert_eq!(response.status(), StatusCode::OK);
    json_of(response).await
}

async fn call(app: &Router, method: &str, params: Value) -> Value {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    raw(app, &body.to_string()).await
}

async fn result(app: &Router, method: &str, params: Value) -> Value {
    let reply = call(app, method, params).await;
    assert!(reply.get("error").is_none(), "{method} failed: {reply}");
    reply["result"].clone()
}

async fn error(app: &Router, method: &str, params: Value) -> (i64, String) {
    let reply = call(app, method, params).await;
    assert!(reply.get("result").is_none(), "{method} should fail: {reply}");
    let code = reply["error"]["code"].as_i64().expect("error code");
    (code, reply["error"]["message"].as_str().expect("error message").to_string())
}

fn text_message(text: &str) -> Value {
    json!({ "role": "user", "parts": [{ "type": "text", "text": text }] })
}

fn v03_message(text: &str) -> Value {
    json!({
        "kind": "message",
        "messageId": "msg-1",
        "role": "user",
        "parts": [{ "kind": "text", "text": text }],
    })
}

fn is_rfc3339(value: &Value) -> bool {
    value.as_str().is_some_and(|text| chrono::DateTime::parse_from_rfc3339(text).is_ok())
}

/// An open SSE response, read frame by frame.
struct Sse {
    body: BodyDataStream,
    buffer: String,
    request_id: Value,
}

impl Sse {
    async fn open(app: &Router, request_id: Value, method: &str, params: Value) -> Sse {
        let body =
            json!({ "jsonrpc": "2.0", "id": request_id, "method": method, "params": params });
        let response = send(app, post(body.to_string())).await;
        assert_eq!(response.status(), StatusCode::OK);
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .expect("content type");
        assert!(kind.starts_with("text/event-stream"), "{kind}");
        Sse { body: response.into_body().into_data_stream(), buffer: String::new(), request_id }
    }

    /// The next event (the `result` of the frame's JSON-RPC response); `None`
    /// when the stream has ended.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                let frame = frame.trim_end();
                assert!(!frame.lines().any(|line| line.starts_with("id:")), "{frame}");
                assert_eq!(frame.lines().count(), 1, "{frame}");
                let data = frame.strip_prefix("data: ").expect("a data line");
                let reply: Value = serde_json::from_str(data).expect("JSON data");
                assert_eq!(reply["jsonrpc"], "2.0");
                assert_eq!(reply["id"], self.request_id);
                return Some(reply["result"].clone());
            }
            let chunk = tokio::time::timeout(Duration::from_secs(5), self.body.next())
                .await
                .expect("the stream stalled");
            match chunk {
                Some(chunk) => self
                    .buffer
                    .push_str(std::str::from_utf8(&chunk.expect("chunk")).expect("UTF-8")),
                None => {
                    assert!(self.buffer.trim().is_empty(), "left over: {}", self.buffer);
                    return None;
                }
            }
        }
    }

    async fn rest(&mut self) -> Vec<Value> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }
}

async fn eventually(what: &str, check: impl Fn() -> bool) {
    for _ in 0..200 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{what} did not happen");
}

// ---- card and HTTP checks ------------------------------------------------

async fn get(app: &Router, path: &str, host: &str) -> Response {
    let request = Request::builder()
        .uri(path)
        .header(header::HOST, host)
        .body(Body::empty())
        .expect("request");
    send(app, request).await
}

#[tokio::test]
async fn card_on_both_paths_without_a_token() {
    let (_, app) = quick();
    let early = get(&app, "/.well-known/agent.json", HOST).await;
    assert_eq!(early.status(), StatusCode::OK);
    let early = json_of(early).await;
    // The agent-card path without a version header serves the merged card:
    // every field of the v0.3 card is there, as it is.
    let merged = json_of(get(&app, "/.well-known/agent-card.json", "localhost").await).await;
    for (key, value) in early.as_object().expect("an object") {
        match key.as_str() {
            // The early card says `text`, as the interface specification has it;
            // the newer cards say media types.
            "defaultInputModes" | "defaultOutputModes" | "skills" => {}
            "capabilities" | "securitySchemes" => {
                for (inner, value) in value.as_object().expect("an object") {
                    let merged = &merged[key][inner];
                    for (field, value) in value.as_object().into_iter().flatten() {
                        assert_eq!(&merged[field], value, "{key}.{inner}.{field}");
                    }
                    if !value.is_object() {
                        assert_eq!(merged, value, "{key}.{inner}");
                    }
                }
            }
            _ => assert_eq!(&merged[key], value, "{key}"),
        }
    }
    let card = early;
    assert_eq!(card["name"], "Recorder");
    assert!(card["description"].as_str().is_some_and(|text| !text.is_empty()));
    assert_eq!(card["url"], URL);
    assert_eq!(card["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(card["protocolVersion"], "0.3.0");
    assert_eq!(card["preferredTransport"], "JSONRPC");
    assert_eq!(
        card["capabilities"],
        json!({ "streaming": true, "pushNotifications": false, "stateTransitionHistory": false })
    );
    assert_eq!(card["authentication"], json!({ "schemes": ["bearer"] }));
    assert_eq!(card["securitySchemes"]["bearer"]["type"], "http");
    assert_eq!(card["securitySchemes"]["bearer"]["scheme"], "bearer");
    assert!(card["securitySchemes"]["bearer"]["description"]
        .as_str()
        .is_some_and(|text| text.contains("api_token")));
    assert_eq!(card["security"], json!([{ "bearer": [] }]));
    assert_eq!(card["defaultInputModes"], json!(["text"]));
    assert_eq!(card["defaultOutputModes"], json!(["text", "application/json"]));
    assert_eq!(merged["defaultInputModes"], json!(["text/plain", "application/json"]));
    assert_eq!(merged["defaultOutputModes"], json!(["text/plain", "application/json"]));
    assert_eq!(merged["skills"][0]["inputModes"], json!(["text/plain", "application/json"]));
    assert_eq!(card["supportsAuthenticatedExtendedCard"], false);
    assert_eq!(card["provider"], json!({ "organization": "recorder", "url": URL }));
    let skills = card["skills"].as_array().expect("an array");
    assert_eq!(skills.len(), 12);
    assert!(skills.iter().any(|skill| skill["id"] == "update_action_item"));
    assert!(skills.iter().any(|skill| skill["id"] == "ask"), "the contract's `ask` skill");
    for (skill, entry) in skills.iter().zip(catalogue::entries()) {
        assert_eq!(skill["id"], entry.name());
        assert_eq!(skill["name"], entry.title);
        assert_eq!(skill["description"], entry.description);
        assert_eq!(skill["tags"], json!(entry.tags));
        assert_eq!(skill["examples"], json!(entry.examples));
        assert_eq!(skill["inputModes"], json!(["text"]));
        assert_eq!(skill["outputModes"], json!(["text", "application/json"]));
    }
}

#[tokio::test]
async fn host_check_comes_first() {
    let (_, app) = quick();
    for path in ["/.well-known/agent.json", "/.well-known/agent-card.json"] {
        assert_eq!(get(&app, path, "evil.example").await.status(), StatusCode::FORBIDDEN);
    }
    let mut request = post(call_body("tasks/get", json!({ "id": "x" })));
    request.headers_mut().insert(header::HOST, "evil.example".parse().expect("header value"));
    assert_eq!(send(&app, request).await.status(), StatusCode::FORBIDDEN);
    let mut request = post(call_body("tasks/get", json!({ "id": "x" })));
    request.headers_mut().remove(header::AUTHORIZATION);
    request.headers_mut().insert(header::HOST, "evil.example".parse().expect("header value"));
    assert_eq!(send(&app, request).await.status(), StatusCode::FORBIDDEN);
}

fn call_body(method: &str, params: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string()
}

#[tokio::test]
async fn json_rpc_needs_the_token() {
    let (runner, app) = quick();
    let send_body = call_body("tasks/send", json!({ "id": "t", "message": text_message("hi") }));
    let mut request = post(send_body.clone());
    request.headers_mut().remove(header::AUTHORIZATION);
    let response = send(&app, request).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(response.headers().get(header::WWW_AUTHENTICATE).expect("challenge"), "Bearer");
    let mut request = post(send_body);
    request
        .headers_mut()
        .insert(header::AUTHORIZATION, "Bearer wrong".parse().expect("header value"));
    assert_eq!(send(&app, request).await.status(), StatusCode::UNAUTHORIZED);
    assert!(runner.calls().is_empty());
}

// ---- JSON-RPC envelope ---------------------------------------------------

#[tokio::test]
async fn json_rpc_error_codes() {
    let (_, app) = quick();
    let reply = raw(&app, "{not json").await;
    assert_eq!(reply["error"]["code"], -32700);
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["jsonrpc"], "2.0");
    assert_eq!(raw(&app, "[1, 2]").await["error"]["code"], -32600);
    assert_eq!(raw(&app, "\"text\"").await["error"]["code"], -32600);
    let reply = raw(&app, r#"{"id": 5, "method": "tasks/get", "params": {"id": "x"}}"#).await;
    assert_eq!((reply["error"]["code"].clone(), reply["id"].clone()), (json!(-32600), json!(5)));
    let reply = raw(&app, r#"{"jsonrpc": "2.0", "id": 5, "method": 7}"#).await;
    assert_eq!(reply["error"]["code"], -32600);
    let reply = raw(&app, r#"{"jsonrpc": "1.0", "id": 5, "method": "tasks/get"}"#).await;
    assert_eq!(reply["error"]["code"], -32600);

    let (code, message) = error(&app, "tasks/frobnicate", json!({})).await;
    assert_eq!(code, -32601);
    assert!(message.contains("tasks/frobnicate"));

    let (code, message) = error(&app, "tasks/get", json!({})).await;
    assert_eq!(code, -32602);
    assert!(message.contains("params.id"), "{message}");
    let (code, message) = error(&app, "tasks/get", Value::Null).await;
    assert_eq!(code, -32602);
    assert!(message.contains("params"), "{message}");
    let (code, message) = error(&app, "tasks/send", json!({ "id": "t" })).await;
    assert_eq!(code, -32602);
    assert!(message.contains("params.message"), "{message}");
    let params = json!({ "message": { "role": "user", "parts": "hello" } });
    let (code, message) = error(&app, "tasks/send", params).await;
    assert_eq!(code, -32602);
    assert!(message.contains("params.message.parts"), "{message}");
    let params = json!({ "message": { "role": "user", "parts": [{ "type": "text", "text": 3 }] } });
    let (code, message) = error(&app, "tasks/send", params).await;
    assert_eq!(code, -32602);
    assert!(message.contains("params.message.parts[0].text"), "{message}");
    let params = json!({ "message": v03_message("x"), "configuration": { "blocking": "yes" } });
    let (code, message) = error(&app, "message/send", params).await;
    assert_eq!(code, -32602);
    assert!(message.contains("blocking"), "{message}");
    // A v0.3 message needs its messageId and its role.
    for (missing, field) in
        [("messageId", "params.message.messageId"), ("role", "params.message.role")]
    {
        let mut message = v03_message("list my meetings");
        message.as_object_mut().map(|m| m.remove(missing));
        let (code, text) = error(&app, "message/send", json!({ "message": message })).await;
        assert_eq!(code, -32602, "without {missing}");
        assert!(text.contains(field), "{text}");
    }
    let mut message = v03_message("list my meetings");
    message["role"] = json!("robot");
    assert_eq!(error(&app, "message/send", json!({ "message": message })).await.0, -32602);

    assert_eq!(error(&app, "tasks/get", json!({ "id": "nope" })).await.0, -32001);
    assert_eq!(error(&app, "tasks/cancel", json!({ "id": "nope" })).await.0, -32001);
    for method in [
        "tasks/pushNotification/set",
        "tasks/pushNotification/get",
        "tasks/pushNotificationConfig/set",
        "tasks/pushNotificationConfig/get",
        "tasks/pushNotificationConfig/list",
        "tasks/pushNotificationConfig/delete",
    ] {
        assert_eq!(error(&app, method, json!({ "id": "x" })).await.0, -32003, "{method}");
    }
}

#[tokio::test]
async fn ids_are_echoed_as_given() {
    let (_, app) = quick();
    for id in [json!("req-1"), json!(42), json!(1.5), Value::Null] {
        let body =
            json!({ "jsonrpc": "2.0", "id": id, "method": "tasks/get", "params": { "id": "x" } });
        assert_eq!(raw(&app, &body.to_string()).await["id"], id);
        let body = json!({
            "jsonrpc": "2.0", "id": id, "method": "tasks/send",
            "params": { "message": text_message("list my meetings") },
        });
        let reply = raw(&app, &body.to_string()).await;
        assert_eq!(reply["id"], id);
        assert_eq!(reply["result"]["status"]["state"], "completed");
    }
    let reply = raw(&app, r#"{"jsonrpc":"2.0","method":"tasks/get","params":{"id":"x"}}"#).await;
    assert_eq!(reply["id"], Value::Null);
}

// ---- early dialect ---------------------------------------------------------

#[tokio::test]
async fn tasks_send_completes_with_text_and_data_parts() {
    let (runner, app) = quick();
    let text = "what did we say about the launch?";
    let task =
        result(&app, "tasks/send", json!({ "id": "task-1", "message": text_message(text) })).await;
    assert_eq!(task["id"], "task-1");
    assert!(task["sessionId"].as_str().is_some_and(|id| !id.is_empty()));
    assert_eq!(task["status"]["state"], "completed");
    assert!(is_rfc3339(&task["status"]["timestamp"]));
    assert!(task.get("kind").is_none());
    let routed = crate::router::route(text, chrono::Local::now()).for_agent(unnamed());
    assert_eq!(runner.calls(), vec![routed.clone()]);
    let artifacts = task["artifacts"].as_array().expect("an array");
    assert_eq!(artifacts.len(), 1);
    let artifact = &artifacts[0];
    assert_eq!(artifact["name"], "answer");
    assert_eq!(artifact["index"], 0);
    assert_eq!(artifact["append"], false);
    assert_eq!(artifact["lastChunk"], true);
    let expected = answer(routed.skill);
    assert_eq!(
        artifact["parts"],
        json!([
            { "type": "text", "text": expected.text },
            { "type": "data", "data": expected.data_part() },
        ])
    );
    assert_eq!(artifact["parts"][1]["data"]["meeting_ids"], json!(["m-1"]));

    // tasks/get gives the same task; historyLength shows the history.
    let again = result(&app, "tasks/get", json!({ "id": "task-1" })).await;
    assert_eq!(again, task);
    let with_history =
        result(&app, "tasks/get", json!({ "id": "task-1", "historyLength": 5 })).await;
    assert_eq!(with_history["history"], json!([text_message(text)]));
}

#[tokio::test]
async fn a_missing_task_id_and_session_are_generated() {
    let (_, app) = quick();
    let params = json!({ "sessionId": "s-1", "message": text_message("list my meetings") });
    let task = result(&app, "tasks/send", params).await;
    assert!(task["id"].as_str().is_some_and(|id| id.len() >= 32));
    assert_eq!(task["sessionId"], "s-1");
    let got = result(&app, "tasks/get", json!({ "id": task["id"] })).await;
    assert_eq!(got["status"]["state"], "completed");
}

#[tokio::test]
async fn a_refused_skill_fails_the_task_with_the_reason() {
    let app = app(Arc::new(Refuse));
    let params = json!({ "id": "t-refused", "message": text_message("start recording") });
    let reply = call(&app, "tasks/send", params).await;
    assert!(reply.get("error").is_none(), "{reply}");
    let task = &reply["result"];
    assert_eq!(task["status"]["state"], "failed");
    assert_eq!(
        task["status"]["message"],
        json!({ "role": "agent", "parts": [{ "type": "text", "text": REFUSAL }] })
    );
    assert!(task.get("artifacts").is_none());
    let (code, _) = error(&app, "tasks/cancel", json!({ "id": "t-refused" })).await;
    assert_eq!(code, -32002);
}

#[tokio::test]
async fn a_data_part_bypasses_the_router() {
    let (runner, app) = quick();
    let message = json!({
        "role": "user",
        "parts": [
            { "type": "text", "text": "start recording now" },
            { "type": "data", "data": { "skill": "get_action_items", "args": { "open_only": true } } },
        ],
    });
    let task = result(&app, "tasks/send", json!({ "id": "t-data", "message": message })).await;
    assert_eq!(task["status"]["state"], "completed");
    assert_eq!(task["artifacts"][0]["parts"][1]["data"]["skill"], "get_action_items");
    let expected =
        SkillCall::named("get_action_items", json!({ "open_only": true })).expect("valid call");
    assert_eq!(runner.calls(), vec![expected.for_agent(unnamed())]);

    // `kind` instead of `type`, no args, a file part beside it.
    let message = json!({
        "role": "user",
        "parts": [
            { "kind": "file", "file": { "uri": "file:///tmp/x.wav" } },
            { "kind": "data", "data": { "skill": "stop_recording" } },
        ],
    });
    let task = result(&app, "tasks/send", json!({ "message": message })).await;
    assert_eq!(task["artifacts"][0]["parts"][1]["data"]["skill"], "stop_recording");

    // Unknown skill, bad arguments, nothing usable: -32602 with the reason.
    let part = json!({ "type": "data", "data": { "skill": "launch_rocket" } });
    let message = json!({ "role": "user", "parts": [part] });
    let (code, text) = error(&app, "tasks/send", json!({ "message": message })).await;
    assert_eq!(code, -32602);
    assert!(text.contains("unknown skill `launch_rocket`"), "{text}");
    let part =
        json!({ "type": "data", "data": { "skill": "get_meeting", "args": { "meeting": 1 } } });
    let message = json!({ "role": "user", "parts": [part] });
    let (code, text) = error(&app, "tasks/send", json!({ "message": message })).await;
    assert_eq!(code, -32602);
    assert!(text.contains("params.message.parts[0].data"), "{text}");
    for parts in [
        json!([]),
        json!([{ "type": "text", "text": "   " }]),
        json!([{ "type": "file", "file": { "bytes": "AAAA" } }]),
        json!([{ "type": "data", "data": { "note": "no skill" } }]),
    ] {
        let message = json!({ "role": "user", "parts": parts });
        let (code, text) = error(&app, "tasks/send", json!({ "message": message })).await;
        assert_eq!(code, -32602, "{parts}");
        assert!(text.contains("params.message"), "{text}");
    }
    assert_eq!(runner.calls().len(), 2);
}

/// The agent a call is made for when the client gives no name.
fn unnamed() -> Option<String> {
    Some(super::wire::UNNAMED_CLIENT.to_string())
}

#[tokio::test]
async fn a_client_names_itself_for_the_history_with_metadata_agent() {
    let (runner, app) = quick();
    let part = json!({ "type": "data", "data": { "skill": "get_action_items" } });
    let message = json!({ "role": "user", "parts": [part] });
    let params = json!({ "message": message, "metadata": { "agent": "  tracker-sync " } });
    result(&app, "tasks/send", params).await;
    let mut message = v03_message("list my meetings");
    message["metadata"] = json!({ "agent": "jira-bridge" });
    result(&app, "message/send", json!({ "message": message })).await;
    let mut message = v03_message("list my meetings");
    message["metadata"] = json!({ "agent": "   " });
    result(&app, "message/send", json!({ "message": message, "metadata": { "agent": 7 } })).await;
    let agents: Vec<Option<String>> = runner.calls().into_iter().map(|call| call.agent).collect();
    let named = |name: &str| Some(name.to_string());
    assert_eq!(agents, vec![named("tracker-sync"), named("jira-bridge"), unnamed()]);
}

#[tokio::test]
async fn a_question_is_asked_and_the_data_part_carries_citations() {
    let (runner, app) = quick();
    let text = "When will the replica be added?";
    let task =
        result(&app, "tasks/send", json!({ "id": "t-ask", "message": text_message(text) })).await;
    assert_eq!(task["status"]["state"], "completed");
    let expected = SkillCall::named("ask", json!({ "question": text })).expect("valid call");
    assert_eq!(runner.calls(), vec![expected.for_agent(unnamed())]);
    let data = &task["artifacts"][0]["parts"][1]["data"];
    assert_eq!(data["skill"], "ask");
    assert_eq!(data["meeting_ids"], json!(["m-1"]));
    assert_eq!(data["timestamps"][0]["start_ms"], 1_000);
    assert_eq!(data["citations"], json!([citation()]));

    // A data part may name the skill by its MCP tool name too.
    let part = json!({ "type": "data", "data": { "skill": "ask_meetings", "args": { "question": text } } });
    let message = json!({ "role": "user", "parts": [part] });
    let task = result(&app, "tasks/send", json!({ "message": message })).await;
    assert_eq!(task["artifacts"][0]["parts"][1]["data"]["skill"], "ask");
    // Other skills' data parts carry no citations.
    let task =
        result(&app, "tasks/send", json!({ "message": text_message("list my meetings") })).await;
    assert!(task["artifacts"][0]["parts"][1]["data"].get("citations").is_none());
}

#[tokio::test]
async fn unknown_fields_and_nulls_are_accepted() {
    let (_, app) = quick();
    let body = json!({
        "jsonrpc": "2.0",
        "id": "x-1",
        "method": "tasks/send",
        "params": {
            "id": "t-extra",
            "sessionId": null,
            "historyLength": null,
            "metadata": null,
            "pushNotification": null,
            "acceptedOutputModes": ["text"],
            "somethingNew": { "a": 1 },
            "message": {
                "role": "user",
                "metadata": null,
                "extra": true,
                "parts": [{ "type": "text", "text": "list my meetings", "metadata": null, "x": 1 }],
            },
        },
        "trailing": "ignored",
    });
    let reply = raw(&app, &body.to_string()).await;
    assert_eq!(reply["result"]["status"]["state"], "completed", "{reply}");
    let params = json!({ "id": "t-extra", "historyLength": null, "metadata": { "k": 1 }, "z": 0 });
    assert_eq!(result(&app, "tasks/get", params).await["id"], "t-extra");

    let params = json!({
        "message": {
            "kind": "message", "messageId": "m-9", "role": "user",
            "parts": [{ "kind": "text", "text": "list my meetings", "metadata": null }],
            "contextId": null, "taskId": null, "referenceTaskIds": [], "extensions": null,
        },
        "configuration": {
            "acceptedOutputModes": ["text"], "historyLength": null, "blocking": null,
            "pushNotificationConfig": null,
        },
        "metadata": { "trace": "abc" },
        "anotherField": [],
    });
    let task = result(&app, "message/send", params).await;
    assert_eq!(task["status"]["state"], "completed");
    assert_eq!(task["metadata"], json!({ "trace": "abc" }));
}

#[tokio::test]
async fn cancel_a_running_task() {
    let runner = Arc::new(Hang::default());
    let app = app(Arc::clone(&runner) as Arc<dyn SkillRunner>);
    // The wait ends before the skill does: the task comes back working.
    let params = json!({ "id": "t-long", "message": text_message("list my meetings") });
    let task = result(&app, "tasks/send", params.clone()).await;
    assert_eq!(task["status"]["state"], "working");
    // Sending the id again while it runs returns the same task, without a new run.
    let again = result(&app, "tasks/send", params.clone()).await;
    assert_eq!(again["id"], "t-long");
    assert_eq!(runner.started.load(Ordering::SeqCst), 1);

    let canceled = result(&app, "tasks/cancel", json!({ "id": "t-long" })).await;
    assert_eq!(canceled["id"], "t-long");
    assert_eq!(canceled["status"]["state"], "canceled");
    assert!(is_rfc3339(&canceled["status"]["timestamp"]));
    let dropped = Arc::clone(&runner.dropped);
    eventually("the skill being aborted", || dropped.load(Ordering::SeqCst)).await;
    let got = result(&app, "tasks/get", json!({ "id": "t-long" })).await;
    assert_eq!(got["status"]["state"], "canceled");
    assert!(got.get("artifacts").is_none());
    let (code, message) = error(&app, "tasks/cancel", json!({ "id": "t-long" })).await;
    assert_eq!(code, -32002);
    assert!(message.contains("canceled"), "{message}");
    assert_eq!(error(&app, "tasks/cancel", json!({ "id": "unknown" })).await.0, -32001);

    // A finished id sent again starts a new run under the same id.
    let task = result(&app, "tasks/send", params).await;
    assert_eq!(
        (task["id"].clone(), task["status"]["state"].clone()),
        (json!("t-long"), json!("working"))
    );
    assert_eq!(runner.started.load(Ordering::SeqCst), 2);
    result(&app, "tasks/cancel", json!({ "id": "t-long" })).await;
}

#[tokio::test]
async fn a_finished_task_sent_again_runs_again() {
    let (runner, app) = quick();
    let params = json!({ "id": "t-twice", "message": text_message("list my meetings") });
    let first = result(&app, "tasks/send", params.clone()).await;
    let second = result(&app, "tasks/send", params).await;
    assert_eq!(first["id"], second["id"]);
    assert_eq!(second["status"]["state"], "completed");
    assert_eq!(runner.calls().len(), 2);
}

#[tokio::test]
async fn send_subscribe_streams_status_artifact_final() {
    let (_, app) = quick();
    let params =
        json!({ "id": "t-stream", "sessionId": "s", "message": text_message("list my meetings") });
    let mut sse = Sse::open(&app, json!("sub-1"), "tasks/sendSubscribe", params).await;
    let events = sse.rest().await;
    assert_eq!(events.len(), 4, "{events:#?}");
    assert_eq!(events[0]["id"], "t-stream");
    assert_eq!(events[0]["status"]["state"], "submitted");
    assert_eq!(events[0]["final"], false);
    assert_eq!(events[1]["status"]["state"], "working");
    assert_eq!(events[1]["final"], false);
    assert_eq!(events[2]["id"], "t-stream");
    assert!(events[2].get("final").is_none());
    let artifact = &events[2]["artifact"];
    assert_eq!(artifact["parts"][0]["type"], "text");
    assert_eq!(artifact["parts"][1]["type"], "data");
    assert_eq!(artifact["lastChunk"], true);
    assert_eq!(events[3]["status"]["state"], "completed");
    assert_eq!(events[3]["final"], true);
    for event in &events {
        assert!(is_rfc3339(&event["status"]["timestamp"]) || event.get("artifact").is_some());
    }

    // Resubscribing to the finished task: the answer, then the final status.
    let mut sse = Sse::open(&app, json!(9), "tasks/resubscribe", json!({ "id": "t-stream" })).await;
    let events = sse.rest().await;
    assert_eq!(events.len(), 2);
    assert!(events[0].get("artifact").is_some());
    assert_eq!(
        (events[1]["status"]["state"].clone(), events[1]["final"].clone()),
        (json!("completed"), json!(true))
    );
}

#[tokio::test]
async fn a_refused_stream_ends_failed() {
    let app = app(Arc::new(Refuse));
    let params = json!({ "message": text_message("start recording") });
    let events = Sse::open(&app, json!(1), "tasks/sendSubscribe", params).await.rest().await;
    let states: Vec<&str> =
        events.iter().map(|e| e["status"]["state"].as_str().expect("a state")).collect();
    assert_eq!(states, ["submitted", "working", "failed"]);
    assert_eq!(events[2]["final"], true);
    assert_eq!(events[2]["status"]["message"]["parts"][0]["text"], REFUSAL);
}

#[tokio::test]
async fn cancel_ends_an_open_stream() {
    let runner = Arc::new(Hang::default());
    let app = app(Arc::clone(&runner) as Arc<dyn SkillRunner>);
    let params = json!({ "id": "t-open", "message": text_message("list my meetings") });
    let mut sse = Sse::open(&app, json!(3), "tasks/sendSubscribe", params).await;
    assert_eq!(sse.next().await.expect("an event")["status"]["state"], "submitted");
    assert_eq!(sse.next().await.expect("an event")["status"]["state"], "working");

    // A second subscriber joins the running task.
    let mut late = Sse::open(&app, json!(4), "tasks/resubscribe", json!({ "id": "t-open" })).await;
    let current = late.next().await.expect("an event");
    assert_eq!(
        (current["status"]["state"].clone(), current["final"].clone()),
        (json!("working"), json!(false))
    );

    result(&app, "tasks/cancel", json!({ "id": "t-open" })).await;
    for stream in [&mut sse, &mut late] {
        let last = stream.next().await.expect("an event");
        assert_eq!(last["status"]["state"], "canceled");
        assert_eq!(last["final"], true);
        assert!(stream.next().await.is_none());
    }
}

// ---- v0.3 dialect ----------------------------------------------------------

#[tokio::test]
async fn message_send_answers_a_v03_task() {
    let (_, app) = quick();
    let mut message = v03_message("list my meetings");
    message["contextId"] = json!("ctx-1");
    let task = result(&app, "message/send", json!({ "message": message })).await;
    assert_eq!(task["kind"], "task");
    let id = task["id"].as_str().expect("task id").to_string();
    assert!(id.len() >= 32 && id != "msg-1");
    assert_eq!(task["contextId"], "ctx-1");
    assert!(task.get("sessionId").is_none());
    assert_eq!(task["status"]["state"], "completed");
    assert!(is_rfc3339(&task["status"]["timestamp"]));
    let artifacts = task["artifacts"].as_array().expect("an array");
    assert_eq!(artifacts.len(), 1);
    assert!(artifacts[0]["artifactId"].as_str().is_some_and(|id| !id.is_empty()));
    assert_eq!(artifacts[0]["name"], "answer");
    assert_eq!(artifacts[0]["parts"][0]["kind"], "text");
    assert_eq!(artifacts[0]["parts"][1]["kind"], "data");
    assert!(artifacts[0]["parts"][1]["data"]["skill"].is_string());
    let history = task["history"].as_array().expect("an array");
    assert_eq!(history.len(), 1);
    assert_eq!(history[0]["kind"], "message");
    assert_eq!(history[0]["messageId"], "msg-1");
    assert_eq!(history[0]["taskId"], id.as_str());
    assert_eq!(history[0]["contextId"], "ctx-1");

    // tasks/get answers in the dialect that created the task.
    let got = result(&app, "tasks/get", json!({ "id": id })).await;
    assert_eq!(got, task);
    let limited = result(&app, "tasks/get", json!({ "id": id, "historyLength": 0 })).await;
    assert_eq!(limited["history"], json!([]));
    let early =
        result(&app, "tasks/send", json!({ "id": "e-1", "message": text_message("hi") })).await;
    let early_again = result(&app, "tasks/get", json!({ "id": "e-1" })).await;
    assert!(early_again.get("kind").is_none() && early_again["sessionId"] == early["sessionId"]);

    // Without a contextId the server makes one.
    let task = result(&app, "message/send", json!({ "message": v03_message("hi") })).await;
    assert!(task["contextId"].as_str().is_some_and(|id| id.len() >= 32));

    // A taskId the server does not know.
    let mut message = v03_message("hi");
    message["taskId"] = json!("no-such-task");
    assert_eq!(error(&app, "message/send", json!({ "message": message })).await.0, -32001);
    // A finished task cannot take another message.
    let mut message = v03_message("hi");
    message["taskId"] = json!(id);
    assert_eq!(error(&app, "message/send", json!({ "message": message })).await.0, -32602);
}

#[tokio::test]
async fn a_refused_v03_task_fails_with_an_agent_message() {
    let app = app(Arc::new(Refuse));
    let task =
        result(&app, "message/send", json!({ "message": v03_message("start recording") })).await;
    assert_eq!(task["status"]["state"], "failed");
    let status = &task["status"]["message"];
    assert_eq!(status["kind"], "message");
    assert_eq!(status["role"], "agent");
    assert_eq!(status["parts"], json!([{ "kind": "text", "text": REFUSAL }]));
    assert_eq!(status["taskId"], task["id"]);
    assert_eq!(status["contextId"], task["contextId"]);
    assert!(status["messageId"].is_string());
    let history = task["history"].as_array().expect("an array");
    assert_eq!(history.len(), 2);
    assert_eq!(&history[1], status);
}

#[tokio::test]
async fn non_blocking_message_send_returns_at_once() {
    let runner = Arc::new(Hang::default());
    let app = app(Arc::clone(&runner) as Arc<dyn SkillRunner>);
    let params = json!({ "message": v03_message("hi"), "configuration": { "blocking": false } });
    let task = result(&app, "message/send", params).await;
    assert_eq!(task["kind"], "task");
    let state = task["status"]["state"].as_str().expect("a state");
    assert!(state == "submitted" || state == "working", "{state}");
    let id = task["id"].clone();

    // Another message to the running task follows it.
    let mut message = v03_message("hi again");
    message["taskId"] = id.clone();
    let params = json!({ "message": message, "configuration": { "blocking": false } });
    assert_eq!(result(&app, "message/send", params).await["id"], id);
    eventually("the skill starting", || runner.started.load(Ordering::SeqCst) == 1).await;

    let canceled = result(&app, "tasks/cancel", json!({ "id": id })).await;
    assert_eq!(canceled["kind"], "task");
    assert_eq!(canceled["status"]["state"], "canceled");
    assert_eq!(canceled["status"]["message"]["kind"], "message");
    assert_eq!(error(&app, "tasks/cancel", json!({ "id": id })).await.0, -32002);
    assert_eq!(runner.started.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn message_stream_sends_task_then_updates() {
    let (_, app) = quick();
    let mut message = v03_message("list my meetings");
    message["contextId"] = json!("ctx-s");
    let mut sse =
        Sse::open(&app, json!("s-1"), "message/stream", json!({ "message": message })).await;
    let events = sse.rest().await;
    assert_eq!(events.len(), 4, "{events:#?}");
    let task = &events[0];
    assert_eq!(task["kind"], "task");
    assert_eq!(task["status"]["state"], "submitted");
    assert_eq!(task["contextId"], "ctx-s");
    assert_eq!(task["history"][0]["taskId"], task["id"]);
    let id = task["id"].clone();
    assert_eq!(events[1]["kind"], "status-update");
    assert_eq!(events[1]["status"]["state"], "working");
    assert_eq!(events[1]["final"], false);
    assert_eq!(events[2]["kind"], "artifact-update");
    assert_eq!(events[2]["append"], false);
    assert_eq!(events[2]["lastChunk"], true);
    assert_eq!(events[2]["artifact"]["parts"][0]["kind"], "text");
    assert_eq!(events[2]["artifact"]["parts"][1]["kind"], "data");
    assert_eq!(events[3]["kind"], "status-update");
    assert_eq!(events[3]["status"]["state"], "completed");
    assert_eq!(events[3]["final"], true);
    for event in &events[1..] {
        assert_eq!(event["taskId"], id);
        assert_eq!(event["contextId"], "ctx-s");
    }
    let got = result(&app, "tasks/get", json!({ "id": id })).await;
    assert_eq!(got["kind"], "task");
    assert_eq!(got["artifacts"][0], events[2]["artifact"]);

    let mut again = Sse::open(&app, json!(2), "tasks/resubscribe", json!({ "id": id })).await;
    let kinds: Vec<Value> = again.rest().await.iter().map(|event| event["kind"].clone()).collect();
    assert_eq!(kinds, [json!("artifact-update"), json!("status-update")]);
}

#[tokio::test]
async fn stream_errors_come_back_as_one_sse_event() {
    let (_, app) = quick();
    let bad_message = json!({ "message": { "parts": [] } });
    for (method, params) in [
        ("message/stream", bad_message.clone()),
        ("tasks/sendSubscribe", bad_message),
        ("tasks/resubscribe", json!({ "id": "no-such-task" })),
    ] {
        let response = send(&app, post(call_body(method, params))).await;
        assert_eq!(response.status(), StatusCode::OK, "{method}");
        let kind = response.headers()[header::CONTENT_TYPE].to_str().expect("content type");
        assert!(kind.starts_with("text/event-stream"), "{method}: {kind}");
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("body");
        let text = String::from_utf8_lossy(&bytes).to_string();
        let frames: Vec<&str> = text.split("\n\n").filter(|frame| !frame.is_empty()).collect();
        assert_eq!(frames.len(), 1, "{method}: {text}");
        let data = frames[0].strip_prefix("event: error\ndata: ").expect("an error event");
        let reply: Value = serde_json::from_str(data).expect("JSON-RPC");
        let expected = if method == "tasks/resubscribe" { -32001 } else { -32602 };
        assert_eq!(reply["error"]["code"], expected, "{method}: {reply}");
        assert_eq!(reply["id"], 1, "{method}: {reply}");
    }
}

#[tokio::test]
async fn the_store_is_bounded() {
    let runner = Arc::new(Quick::default());
    let options = Options { capacity: 3, ..Options::default() };
    let app = build(runner, Token::new(TOKEN), URL, options);
    for n in 0..5 {
        let params = json!({ "id": format!("b-{n}"), "message": text_message("hi") });
        result(&app, "tasks/send", params).await;
    }
    for n in 0..2 {
        assert_eq!(error(&app, "tasks/get", json!({ "id": format!("b-{n}") })).await.0, -32001);
    }
    for n in 2..5 {
        result(&app, "tasks/get", json!({ "id": format!("b-{n}") })).await;
    }
}

use proptest::strategy::Strategy as _;

/// Any JSON value, a few levels deep, with strings that look like ids and
/// methods.
fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "2.0",
            "1.0",
            "message/send",
            "tasks/get",
            "tasks/cancel",
            "text",
            "user"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "jsonrpc",
                    "id",
                    "method",
                    "params",
                    "message",
                    "parts",
                    "kind",
                    "text",
                    "role",
                    "messageId",
                    "taskId",
                    "contextId",
                    "metadata",
                    "x",
                ])
                .prop_map(str::to_string),
                inner,
                0..5,
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// A JSON-RPC envelope: sometimes right, sometimes not at all.
fn any_envelope() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let method = prop_oneof![
        prop::sample::select(vec![
            "message/send",
            "message/stream",
            "tasks/get",
            "tasks/cancel",
            "tasks/send",
            "tasks/sendSubscribe",
            "tasks/resubscribe",
            "tasks/pushNotificationConfig/set",
            "x",
        ])
        .prop_map(Value::from),
        any_json(),
    ];
    (any_json(), method, any_json(), any::<bool>()).prop_map(|(id, method, params, right)| {
        let jsonrpc = if right { json!("2.0") } else { json!(1) };
        json!({ "jsonrpc": jsonrpc, "id": id, "method": method, "params": params })
    })
}

/// The reply to any body: one JSON-RPC response with `result` or `error`.
fn check_reply(body: String) -> Result<(), proptest::test_runner::TestCaseError> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let reply = runtime.block_on(async {
        let (_, app) = quick();
        let response = send(&app, post(body.clone())).await;
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("body");
        (status, bytes)
    });
    let (status, bytes) = reply;
    proptest::prop_assert_eq!(status, StatusCode::OK, "{}", body);
    let text = String::from_utf8_lossy(&bytes).to_string();
    // A streaming method answers with SSE; each data line is one response.
    let messages: Vec<Value> = if text.starts_with('{') {
        vec![serde_json::from_str(&text)
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}: {text}")))?]
    } else {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(|data| serde_json::from_str(data.trim()))
            .collect::<Result<_, _>>()
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}: {text}")))?
    };
    proptest::prop_assert!(!messages.is_empty(), "no reply to {}: {}", body, text);
    for message in messages {
        proptest::prop_assert_eq!(&message["jsonrpc"], "2.0", "{}", message);
        let has_result = message.get("result").is_some();
        let code = message.get("error").and_then(|error| error["code"].as_i64());
        proptest::prop_assert!(has_result != code.is_some(), "result or error: {}", message);
    }
    Ok(())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    #[test]
    fn any_envelope_gets_one_json_rpc_answer(envelope in any_envelope()) {
        check_reply(envelope.to_string())?;
    }

    #[test]
    fn any_body_gets_one_json_rpc_answer(body in ".{0,80}") {
        check_reply(body)?;
    }

    /// Whatever a person asks an agent in words, the router picks a skill
    /// with arguments that skill accepts (blank messages are refused before
    /// routing, by `wire`).
    #[test]
    fn any_text_routes_to_a_skill_with_valid_arguments(text in proptest::prop_oneof![
        proptest::prelude::any::<String>(),
        proptest::collection::vec(proptest::sample::select(vec![
            "start", "stop", "recording", "record", "marker", "mark", "notes", "regenerate",
            "summary", "meeting", "meetings", "last", "week", "yesterday", "today", "month",
            "action", "items", "open", "done", "search", "for", "transcript", "of", "\"", "'",
            "019a-ffff", "latest", "called", "titled", "\n", " ", "3", "99999999999", "😀",
            "what", "when", "ask", "?", "add", "to-do", "task", ":", "due", "2026-12-24",
            "2026-02-30", "tomorrow", "Alice", "assign", "to", "reopen", "rename",
            "0194f2d3-5e6a-7b8c-9d0e-1f2a3b4c5d6e", "no", "by",
        ]), 1..10).prop_map(|words: Vec<&str>| words.join(" ")),
    ]) {
        proptest::prop_assume!(!text.trim().is_empty());
        let now = chrono::Local::now();
        let call = crate::router::route(&text, now);
        proptest::prop_assert!(
            SkillCall::new(call.skill, call.args.clone()).is_ok(),
            "{text:?} → {:?} {}", call.skill, call.args
        );
    }
}

// ---- A2A 1.0 ---------------------------------------------------------------

fn v10_message(text: &str) -> Value {
    json!({ "messageId": "m-10", "role": "ROLE_USER", "parts": [{ "text": text }] })
}

#[tokio::test]
async fn v10_send_answers_a_task_in_its_own_shape() {
    let (_, app) = quick();
    let reply =
        result(&app, "SendMessage", json!({ "message": v10_message("list my meetings") })).await;
    let task = &reply["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{reply}");
    assert!(task.get("kind").is_none(), "1.0 has no kind: {task}");
    let parts = &task["artifacts"][0]["parts"];
    assert_eq!(parts[0]["mediaType"], "text/plain");
    assert_eq!(parts[1]["data"]["skill"], "list_meetings");
    // The data part is the application's `{skill, meeting_ids, timestamps}`
    // (CONTRACT §8) in every dialect: its keys are not 1.0 field names.
    assert_eq!(
        parts[1]["data"],
        json!({
            "skill": "list_meetings",
            "meeting_ids": ["m-1"],
            "timestamps": [{ "meeting_id": "m-1", "start_ms": 1_000, "end_ms": 2_000 }],
        }),
        "{reply}"
    );
    assert_eq!(task["history"][0]["role"], "ROLE_USER");
    assert_eq!(task["history"][0]["taskId"], task["id"]);
    let id = task["id"].as_str().expect("an id").to_string();
    let got = result(&app, "GetTask", json!({ "id": id })).await;
    assert_eq!(got["id"], json!(id));
    assert_eq!(got["status"]["state"], "TASK_STATE_COMPLETED");
    let listed = result(&app, "ListTasks", json!({ "pageSize": 10 })).await;
    assert_eq!(listed["totalSize"], 1);
    assert_eq!(listed["nextPageToken"], "");
    assert_eq!(listed["tasks"][0]["id"], json!(id));
    assert!(listed["tasks"][0].get("artifacts").is_none(), "only with includeArtifacts");
    let (code, _) = error(&app, "CancelTask", json!({ "id": id })).await;
    assert_eq!(code, -32002);
    // A finished task cannot be followed: -32004, before any stream (1.0
    // answers such an error as a plain JSON-RPC body, as its SDKs do).
    let (code, _) = error(&app, "SubscribeToTask", json!({ "id": id })).await;
    assert_eq!(code, -32004);
    let reply = call(&app, "SubscribeToTask", json!({ "id": id })).await;
    assert_eq!(reply["error"]["data"][0]["reason"], "UNSUPPORTED_OPERATION");
}

/// Every key of `value` that is a protocol field name: not the keys inside a
/// data part's `data` or a `metadata` object (those are the application's).
fn field_names(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                into.push(key.clone());
                if key != "data" && key != "metadata" {
                    field_names(value, into);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| field_names(item, into)),
        _ => {}
    }
}

#[tokio::test]
async fn v10_protocol_field_names_are_camel_case() {
    let (_, app) = quick();
    let params = json!({ "message": v10_message("list my meetings"), "metadata": { "a_b": 1 } });
    let sent = result(&app, "SendMessage", params.clone()).await;
    let listed = result(&app, "ListTasks", json!({ "includeArtifacts": true })).await;
    let mut sse = Sse::open(&app, json!(2), "SendStreamingMessage", params).await;
    let streamed = sse.rest().await;
    let card = json_of(get(&app, "/v1/.well-known/agent-card.json", HOST).await).await;
    let mut names = Vec::new();
    for value in [&sent, &listed, &json!(streamed), &card] {
        field_names(value, &mut names);
    }
    assert!(names.contains(&"artifactId".to_string()), "{names:?}");
    let snake: Vec<&String> = names.iter().filter(|name| name.contains('_')).collect();
    assert!(snake.is_empty(), "snake_case protocol fields: {snake:?}");
    // The data part itself keeps the application's snake_case keys.
    assert!(sent["task"]["artifacts"][0]["parts"][1]["data"]["meeting_ids"].is_array(), "{sent}");
}

#[tokio::test]
async fn v10_list_tasks_pages_and_filters() {
    let (_, app) = quick();
    // No tasks yet: an empty page of size 0.
    let empty = result(&app, "ListTasks", json!({})).await;
    assert_eq!(
        empty,
        json!({ "tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0 }),
        "{empty}"
    );
    let before = chrono::Utc::now() - chrono::TimeDelta::seconds(5);
    for n in 0..3 {
        let message = v10_message(&format!("list my meetings {n}"));
        result(&app, "SendMessage", json!({ "message": message })).await;
    }
    // pageSize is the size of the page returned, not the size asked for.
    let all = result(&app, "ListTasks", json!({ "pageSize": 10 })).await;
    assert_eq!((all["pageSize"].clone(), all["totalSize"].clone()), (json!(3), json!(3)), "{all}");
    assert_eq!(all["tasks"].as_array().map(Vec::len), Some(3));
    let first = result(&app, "ListTasks", json!({ "pageSize": 2 })).await;
    assert_eq!((first["pageSize"].clone(), first["totalSize"].clone()), (json!(2), json!(3)));
    assert_eq!(first["nextPageToken"], "2");
    let token = first["nextPageToken"].clone();
    let last = result(&app, "ListTasks", json!({ "pageSize": 2, "pageToken": token })).await;
    assert_eq!((last["pageSize"].clone(), last["nextPageToken"].clone()), (json!(1), json!("")));
    let default = result(&app, "ListTasks", Value::Null).await;
    assert_eq!(default["pageSize"], 3, "{default}");
    // statusTimestampAfter: at or after the time given.
    let since = before.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let recent = result(&app, "ListTasks", json!({ "statusTimestampAfter": since })).await;
    assert_eq!(recent["totalSize"], 3, "{recent}");
    let later = (chrono::Utc::now() + chrono::TimeDelta::hours(1)).to_rfc3339();
    let none = result(&app, "ListTasks", json!({ "statusTimestampAfter": later })).await;
    assert_eq!((none["totalSize"].clone(), none["pageSize"].clone()), (json!(0), json!(0)));
    let snake = result(&app, "ListTasks", json!({ "status_timestamp_after": later })).await;
    assert_eq!(snake["totalSize"], 0, "{snake}");
    // A timestamp that is not RFC 3339 is invalid params, not an empty list.
    for bad in [json!("yesterday"), json!("2026-13-40T99:00:00Z"), json!("2026-01-31"), json!(12)] {
        let (code, text) = error(&app, "ListTasks", json!({ "statusTimestampAfter": bad })).await;
        assert_eq!(code, -32602, "{bad}: {text}");
        assert!(text.contains("statusTimestampAfter"), "{text}");
    }
}

/// The ids of a `ListTasks` page, in order, and their status timestamps.
fn listed(page: &Value) -> (Vec<String>, Vec<String>) {
    let tasks = page["tasks"].as_array().cloned().unwrap_or_default();
    let field = |task: &Value, pointer: &str| {
        task.pointer(pointer).and_then(Value::as_str).map(str::to_string)
    };
    (
        tasks.iter().filter_map(|task| field(task, "/id")).collect(),
        tasks.iter().filter_map(|task| field(task, "/status/timestamp")).collect(),
    )
}

#[tokio::test]
async fn v10_list_tasks_sorts_by_status_timestamp_descending() {
    // CORE-LIST-003 (1.0 §3.1.4): the most recently updated task first,
    // whatever the order in which the tasks were created.
    let runner = Arc::new(Hang::default());
    let app = app(Arc::clone(&runner) as Arc<dyn SkillRunner>);
    let mut ids = Vec::new();
    for n in 0..2 {
        // Blocking: the wait ends with the task working.
        let message = v10_message(&format!("list my meetings {n}"));
        let sent = result(&app, "SendMessage", json!({ "message": message })).await;
        assert_eq!(sent["task"]["status"]["state"], "TASK_STATE_WORKING", "{sent}");
        ids.push(sent["task"]["id"].as_str().expect("id").to_string());
    }
    let (first, second) = (ids[0].clone(), ids[1].clone());
    let before = listed(&result(&app, "ListTasks", json!({})).await);
    assert_eq!(before.0, [second.clone(), first.clone()], "{before:?}");
    // Canceling the older task updates its status last: it comes first now.
    tokio::time::sleep(Duration::from_millis(5)).await;
    result(&app, "CancelTask", json!({ "id": first })).await;
    let after = listed(&result(&app, "ListTasks", json!({})).await);
    assert_eq!(after.0, [first.clone(), second.clone()], "{after:?}");
    let mut descending = after.1.clone();
    descending.sort_by(|a, b| b.cmp(a));
    assert_eq!(after.1, descending, "status timestamps, newest first");
    assert!(after.1[0] > after.1[1], "{after:?}");
    // Pages follow the same order.
    let page = listed(&result(&app, "ListTasks", json!({ "pageSize": 1 })).await);
    assert_eq!(page.0, [first], "{page:?}");
    result(&app, "CancelTask", json!({ "id": second })).await;
}

#[tokio::test]
async fn v10_stream_opens_with_the_task_and_ends_after_the_final_status() {
    let (_, app) = quick();
    let params = json!({ "message": v10_message("list my meetings") });
    let mut sse = Sse::open(&app, json!("s-10"), "SendStreamingMessage", params).await;
    let events = sse.rest().await;
    let keys: Vec<&str> = events
        .iter()
        .map(|event| event.as_object().and_then(|o| o.keys().next()).map_or("", String::as_str))
        .collect();
    assert_eq!(keys, ["task", "statusUpdate", "artifactUpdate", "statusUpdate"], "{events:?}");
    assert_eq!(events[0]["task"]["status"]["state"], "TASK_STATE_SUBMITTED");
    assert_eq!(events[1]["statusUpdate"]["status"]["state"], "TASK_STATE_WORKING");
    assert_eq!(events[3]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert!(events[3]["statusUpdate"].get("final").is_none(), "1.0 has no final flag");
}

#[tokio::test]
async fn v10_errors() {
    let (_, app) = quick();
    let mut message = v10_message("hi");
    message["role"] = json!("user");
    let (code, text) = error(&app, "SendMessage", json!({ "message": message })).await;
    assert_eq!(code, -32602);
    assert!(text.contains("ROLE_USER"), "{text}");
    assert_eq!(error(&app, "GetExtendedAgentCard", json!({})).await.0, -32007);
    // Push notifications are not offered (the card says so): every
    // push-config method of 1.0, and its pre-1.0 spellings, is -32003.
    for method in [
        "CreateTaskPushNotificationConfig",
        "GetTaskPushNotificationConfig",
        "ListTaskPushNotificationConfigs",
        "ListTaskPushNotificationConfig",
        "DeleteTaskPushNotificationConfig",
        "SetTaskPushNotificationConfig",
    ] {
        for params in [json!({}), json!({ "taskId": "t", "id": "c", "url": "http://x/" })] {
            let reply = call(&app, method, params).await;
            assert_eq!(reply["error"]["code"], -32003, "{method}: {reply}");
            assert_eq!(reply["error"]["data"][0]["reason"], "PUSH_NOTIFICATION_NOT_SUPPORTED");
        }
    }
    assert_eq!(error(&app, "GetTask", json!({ "id": "nope" })).await.0, -32001);
    assert_eq!(error(&app, "ListTasks", json!({ "pageSize": 0 })).await.0, -32602);
    let reply = call(&app, "GetTask", json!({ "id": "nope" })).await;
    assert_eq!(reply["error"]["data"][0]["reason"], "TASK_NOT_FOUND");
    // A version this agent does not speak.
    let mut request = post(call_body("GetTask", json!({ "id": "x" })));
    request.headers_mut().insert("a2a-version", "99.0".parse().expect("header"));
    let reply = json_of(send(&app, request).await).await;
    assert_eq!(reply["error"]["code"], -32009, "{reply}");
    for version in ["1.0", "0.3", "1.2"] {
        let mut request = post(call_body("GetTask", json!({ "id": "x" })));
        request.headers_mut().insert("a2a-version", version.parse().expect("header"));
        assert_eq!(json_of(send(&app, request).await).await["error"]["code"], -32001, "{version}");
    }
}

/// Reports one step, then waits until dropped.
#[derive(Default)]
struct Stepping {
    dropped: Arc<AtomicBool>,
}

impl SkillRunner for Stepping {
    fn run(&self, _call: SkillCall, progress: Progress) -> Run<'_> {
        let flag = DropFlag(Arc::clone(&self.dropped));
        Box::pin(async move {
            let _flag = flag;
            tokio::time::sleep(Duration::from_millis(20)).await;
            progress.report(0.4, "Writing the notes.");
            std::future::pending().await
        })
    }
}

#[tokio::test]
async fn v10_progress_is_a_working_update_and_cancel_stops_the_skill() {
    let runner = Arc::new(Stepping::default());
    let app = app(Arc::clone(&runner) as Arc<dyn SkillRunner>);
    let params = json!({ "message": v10_message("regenerate the notes of the last meeting") });
    let mut sse = Sse::open(&app, json!(1), "SendStreamingMessage", params).await;
    let opening = sse.next().await.expect("the task");
    let id = opening["task"]["id"].as_str().expect("id").to_string();
    let mut said = None;
    while said.is_none() {
        let event = sse.next().await.expect("an update");
        let message = &event["statusUpdate"]["status"]["message"];
        if let Some(text) = message["parts"][0]["text"].as_str() {
            assert_eq!(event["statusUpdate"]["status"]["state"], "TASK_STATE_WORKING");
            assert_eq!(message["role"], "ROLE_AGENT");
            said = Some(text.to_string());
        }
    }
    assert_eq!(said.as_deref(), Some("Writing the notes."));
    let canceled = result(&app, "CancelTask", json!({ "id": id })).await;
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");
    let last = sse.rest().await.pop().expect("a final update");
    assert_eq!(last["statusUpdate"]["status"]["state"], "TASK_STATE_CANCELED");
    eventually("the skill to be dropped", || runner.dropped.load(Ordering::SeqCst)).await;
}

#[tokio::test]
async fn the_card_is_negotiated_by_version() {
    let (_, app) = quick();
    let card_for = |version: Option<&'static str>| {
        let app = app.clone();
        async move {
            let mut request =
                Request::builder().uri("/.well-known/agent-card.json").header(header::HOST, HOST);
            if let Some(version) = version {
                request = request.header("a2a-version", version);
            }
            let response = send(&app, request.body(Body::empty()).expect("request")).await;
            json_of(response).await
        }
    };
    let merged = card_for(None).await;
    assert!(merged["supportedInterfaces"].is_array() && merged["url"].is_string());
    let v10 = card_for(Some("1.0")).await;
    assert_eq!(v10["supportedInterfaces"][0]["protocolVersion"], "1.0");
    assert!(v10.get("url").is_none());
    // The 1.0 card declares its bearer token in 1.0's shape (an
    // `HTTPAuthSecurityScheme`, and a `SecurityRequirement` naming it).
    let bearer = &v10["securitySchemes"]["bearer"]["httpAuthSecurityScheme"];
    assert_eq!(bearer["scheme"], "Bearer", "{v10}");
    assert!(bearer["description"].as_str().is_some_and(|text| text.contains("api_token")));
    assert_eq!(v10["securitySchemes"].as_object().map(|schemes| schemes.len()), Some(1));
    assert_eq!(v10["securityRequirements"], json!([{ "schemes": { "bearer": { "list": [] } } }]));
    assert!(
        v10.get("security").is_none() && v10["securitySchemes"]["bearer"].get("type").is_none()
    );
    let v03 = card_for(Some("0.3")).await;
    assert_eq!(v03["protocolVersion"], "0.3.0");
    assert!(v03.get("supportedInterfaces").is_none());
    // The pure 1.0 card also has a path of its own, and `GET /` shows the card.
    let at_v1 = json_of(get(&app, "/v1/.well-known/agent-card.json", HOST).await).await;
    assert_eq!(at_v1, v10);
    assert_eq!(json_of(get(&app, "/", HOST).await).await, merged);
}

#[tokio::test]
async fn cards_can_be_cached() {
    let (_, app) = quick();
    let first = get(&app, "/.well-known/agent-card.json", HOST).await;
    assert_eq!(first.headers()[header::CACHE_CONTROL], "public, max-age=300");
    let tag = first.headers()[header::ETAG].to_str().expect("an etag").to_string();
    let request = Request::builder()
        .uri("/.well-known/agent-card.json")
        .header(header::HOST, HOST)
        .header(header::IF_NONE_MATCH, &tag)
        .body(Body::empty())
        .expect("request");
    assert_eq!(send(&app, request).await.status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn a_body_that_is_not_json_and_says_so_is_minus_32005() {
    let (_, app) = quick();
    let mut request = post("{'jsonrpc': '2.0'}");
    request.headers_mut().insert(header::CONTENT_TYPE, "text/plain".parse().expect("header"));
    let reply = json_of(send(&app, request).await).await;
    assert_eq!(reply["error"]["code"], -32005, "{reply}");
}
