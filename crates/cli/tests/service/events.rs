//! The event stream: retry, ids, event names, envelopes, and replay on reconnect.

use std::time::Duration;

use futures_util::StreamExt;
use recorder_test_support::{http, seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{call, BIN};

/// One parsed SSE frame.
#[derive(Debug, Default, Clone)]
pub struct Frame {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: Option<Value>,
    retry: Option<String>,
    comment: Option<String>,
}

/// Opens the stream and returns a receiver of frames.
pub async fn open(
    service: &TestService,
    last_event_id: Option<&str>,
) -> tokio::sync::mpsc::UnboundedReceiver<Frame> {
    open_at(service, "/v1/events", &service.api_token, last_event_id).await
}

/// Opens an event stream at `path` (`/v1/events` or `/ui/events`) with `token`.
pub async fn open_at(
    service: &TestService,
    path: &str,
    token: &str,
    last_event_id: Option<&str>,
) -> tokio::sync::mpsc::UnboundedReceiver<Frame> {
    let mut request = http().get(service.url(path)).bearer_auth(token);
    if let Some(id) = last_event_id {
        request = request.header("last-event-id", id);
    }
    let response = request.send().await.expect("events");
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap_or("")
        .starts_with("text/event-stream"));
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut bytes = response.bytes_stream();
        let mut buffer = String::new();
        while let Some(Ok(chunk)) = bytes.next().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let mut frame = Frame::default();
                for line in block.lines().filter(|line| !line.is_empty()) {
                    let (field, value) = line.split_once(':').unwrap_or((line, ""));
                    let value = value.strip_prefix(' ').unwrap_or(value).to_string();
                    match field {
                        "id" => frame.id = Some(value),
                        "event" => frame.event = Some(value),
                        "data" => frame.data = serde_json::from_str(&value).ok(),
                        "retry" => frame.retry = Some(value),
                        "" => frame.comment = Some(value),
                        _ => {}
                    }
                }
                if sender.send(frame).is_err() {
                    return;
                }
            }
        }
    });
    receiver
}

async fn next_event(receiver: &mut tokio::sync::mpsc::UnboundedReceiver<Frame>) -> Frame {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), receiver.recv())
            .await
            .expect("an event within 10 s")
            .expect("stream open");
        if frame.event.is_some() {
            return frame;
        }
    }
}

async fn rename(service: &TestService, id: &str, title: &str) {
    let answer = call(
        Method::PATCH,
        &service.url(&format!("/v1/meetings/{id}")),
        Some(&service.api_token),
        Some(&json!({ "title": title })),
    )
    .await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn events_have_ids_names_envelopes_and_replay_after_reconnect() {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        ids = seed(data, &[SeedMeeting::ready("A", 1_000, &["x"])]);
    });
    let mut first = open(&service, None).await;
    let hello = tokio::time::timeout(Duration::from_secs(5), first.recv())
        .await
        .expect("first frame")
        .expect("open");
    assert_eq!(hello.retry.as_deref(), Some("2000"), "retry comes first");

    rename(&service, &ids[0], "one").await;
    let one = next_event(&mut first).await;
    assert_eq!(one.event.as_deref(), Some("meeting.updated"));
    let data = one.data.clone().expect("data");
    assert_eq!(data["type"], "meeting.updated");
    assert_eq!(data["data"], json!({ "meeting_id": ids[0] }));
    assert!(data["at"].as_i64().is_some_and(|at| at > 1_600_000_000_000));
    let first_id: u64 = one.id.clone().expect("id").parse().expect("integer id");
    drop(first);

    // Events while disconnected are replayed to a client that says where it was.
    rename(&service, &ids[0], "two").await;
    crate::pair_extension(&service).await;

    let mut resumed = open(&service, Some(&first_id.to_string())).await;
    let two = next_event(&mut resumed).await;
    assert_eq!(two.event.as_deref(), Some("meeting.updated"));
    let second_id: u64 = two.id.clone().expect("id").parse().expect("id");
    assert!(second_id > first_id);
    let pair = next_event(&mut resumed).await;
    assert_eq!(pair.event.as_deref(), Some("pair.completed"));
    assert_eq!(pair.data.expect("data")["data"], json!({}));

    // A client without Last-Event-ID only sees what happens after it connects.
    let mut fresh = open(&service, None).await;
    rename(&service, &ids[0], "three").await;
    let three = next_event(&mut fresh).await;
    assert_eq!(three.data.expect("data")["type"], "meeting.updated");
    let three_id: u64 = three.id.expect("id").parse().expect("id");
    assert!(three_id > second_id);
    let deleted = crate::delete(&service, &format!("/v1/meetings/{}", ids[0])).await;
    assert_eq!(deleted.status, 204);
    let gone = next_event(&mut fresh).await;
    assert_eq!(gone.event.as_deref(), Some("meeting.deleted"));
}

#[tokio::test]
async fn shutdown_ends_open_streams_and_exits_cleanly() {
    let mut service = crate::start();
    let mut stream = open(&service, None).await;
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.recv()).await;
    let (exit, _) = service.terminate(Duration::from_secs(10));
    assert!(exit.success(), "{exit:?}");
}

#[tokio::test]
async fn prompts_appear_as_events_and_idle_streams_get_keep_alives() {
    let service = crate::start();
    let mut stream = open(&service, None).await;
    let body = json!({"source_app": "meet", "title": "Standup", "url": "https://meet.example/s", "attendees": [{"name": "Ada"}]});
    let prompt = crate::post(&service, "/v1/recording/prompt", &body).await;
    let prompt_id = prompt.body["prompt_id"].as_str().expect("id").to_string();
    let shown = next_event(&mut stream).await;
    assert_eq!(shown.event.as_deref(), Some("prompt.shown"));
    let data = shown.data.expect("data")["data"].clone();
    assert_eq!(data["prompt_id"], prompt_id.as_str());
    assert_eq!(data["source_app"], "meet");
    assert_eq!(data["title"], "Standup");
    assert_eq!(data["url"], "https://meet.example/s");
    assert_eq!(data["attendees"], json!([{"name": "Ada"}]));
    let (created, expires) = (
        data["created_at"].as_i64().expect("created"),
        data["expires_at"].as_i64().expect("expires"),
    );
    assert_eq!(expires - created, 60_000, "prompts expire after 60 s");

    let answer_url = service.url(&format!("/ui/prompts/{prompt_id}/answer"));
    let declined = call(
        Method::POST,
        &answer_url,
        Some(&service.ui_token),
        Some(&json!({"answer": "decline"})),
    )
    .await;
    assert_eq!(declined.status, 200);
    let answered = next_event(&mut stream).await;
    assert_eq!(answered.event.as_deref(), Some("prompt.answered"));
    assert_eq!(
        answered.data.expect("data")["data"],
        json!({"prompt_id": prompt_id, "accepted": false, "answer": "decline"})
    );

    let waited = std::time::Instant::now();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), stream.recv())
            .await
            .expect("a frame within 20 s")
            .expect("open");
        if frame.comment.is_some() {
            assert_eq!(frame.comment.as_deref(), Some("keep-alive"));
            assert!(
                waited.elapsed() >= Duration::from_secs(10),
                "keep-alives are about 15 s apart"
            );
            break;
        }
    }
}

#[tokio::test]
async fn unanswered_prompts_expire_after_60_seconds() {
    let service = crate::start();
    let mut stream = open(&service, None).await;
    let body = json!({"source_app": "teams", "url": "https://teams.example/x"});
    let prompt = crate::post(&service, "/v1/recording/prompt", &body).await;
    let prompt_id = prompt.body["prompt_id"].as_str().expect("id").to_string();
    assert_eq!(next_event(&mut stream).await.event.as_deref(), Some("prompt.shown"));
    let asked = std::time::Instant::now();
    let expired = loop {
        let frame = tokio::time::timeout(Duration::from_secs(75), stream.recv())
            .await
            .expect("expiry within 75 s")
            .expect("open");
        if frame.event.as_deref() == Some("prompt.answered") {
            break frame;
        }
    };
    assert!(asked.elapsed() >= Duration::from_secs(59), "not before 60 s: {:?}", asked.elapsed());
    assert_eq!(
        expired.data.expect("data")["data"],
        json!({"prompt_id": prompt_id, "accepted": false, "answer": "expired"})
    );
    let late = call(
        Method::POST,
        &service.url(&format!("/ui/prompts/{prompt_id}/answer")),
        Some(&service.ui_token),
        Some(&json!({"answer": "decline"})),
    )
    .await;
    late.expect_error(404, "not_found");
    let again = crate::post(&service, "/v1/recording/prompt", &body).await;
    assert_ne!(again.body["prompt_id"], prompt_id.as_str(), "an expired prompt is not reused");
}
