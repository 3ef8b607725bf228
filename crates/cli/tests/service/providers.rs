//! Notes providers end to end: a real service asks a stand-in server on
//! 127.0.0.1 (real wire formats), falls back to the built-in engine when the
//! provider is refused, unusable or unreachable, and the Privacy Ledger shows
//! every request (refused ones as blocked). Templates for custom notes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::recording::events_until;
use crate::stand_in::{Behaviour, StandIn, ITEM, SUMMARY};
use crate::{get, make_pro, person_call, post, refreshing, BIN};

const LINES: [&str; 3] = [
    "Good morning, this is the budget meeting.",
    "I will send the budget report to the finance team by Friday.",
    "We decided to keep the blue design.",
];

pub fn start(settings: Value, options: Options) -> (TestService, String) {
    let options = refreshing(Options { settings: Some(settings), ..options });
    let mut id = String::new();
    let service = TestService::start_with(BIN, options, |data| {
        id = seed(data, &[SeedMeeting::ready("Budget", 1_700_000_000_000, &LINES)]).remove(0);
    });
    (service, id)
}

/// Regenerates one note kind and returns the run's events up to `meeting.ready`.
pub async fn regenerate(service: &TestService, id: &str, body: Value) -> Vec<(String, Value)> {
    let mut stream = crate::events::open(service, None).await;
    let answer = post(service, &format!("/v1/meetings/{id}/notes"), &body).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    events_until(&mut stream, |kind, _| kind == "meeting.ready", Duration::from_secs(60)).await
}

fn providers(events: &[(String, Value)]) -> Vec<String> {
    events
        .iter()
        .filter(|(kind, _)| kind == "notes.progress")
        .map(|(_, data)| {
            format!(
                "{}:{}",
                data["stage"].as_str().unwrap_or(""),
                data["provider"].as_str().unwrap_or("")
            )
        })
        .collect()
}

async fn note(service: &TestService, id: &str, kind: &str) -> String {
    let meeting = get(service, &format!("/v1/meetings/{id}")).await.body;
    meeting["notes"]
        .as_array()
        .and_then(|notes| notes.iter().find(|note| note["kind"] == kind))
        .and_then(|note| note["content_md"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// The ledger once it holds `count` entries (they are written off the request
/// path, so the last may land just after `meeting.ready`); never more.
pub async fn ledger(service: &TestService, count: usize) -> Vec<Value> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let body = get(service, "/v1/ledger").await.body;
        let entries = body["entries"].as_array().cloned().unwrap_or_default();
        if entries.len() >= count || std::time::Instant::now() > deadline {
            assert_eq!(entries.len(), count, "{entries:?}");
            return entries;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_local_ollama_server_writes_notes_and_structured_action_items() {
    let server = StandIn::start(Behaviour { malformed_items: false }).await;
    let settings =
        json!({"ai": {"provider": "local", "local_url": server.base, "model": "stand-in-model"}});
    let (service, id) = start(settings, Options::default());
    make_pro(&service).await;

    let events = regenerate(&service, &id, json!({"kind": "summary"})).await;
    assert_eq!(
        providers(&events),
        ["started:local", "generating:local", "saving:local", "done:local"]
    );
    assert_eq!(note(&service, &id, "summary").await, SUMMARY, "the streamed answer, reassembled");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/api/chat");
    assert_eq!(requests[0].body["model"], "stand-in-model");
    assert!(requests[0].body.to_string().contains("finance team"), "the transcript is sent");

    regenerate(&service, &id, json!({"kind": "action_items"})).await;
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
    assert_eq!(meeting["action_items"][0]["text"], ITEM, "{meeting}");
    assert_eq!(meeting["action_items"][0]["owner"], "Them");

    let entries = ledger(&service, 2).await;
    for entry in &entries {
        assert_eq!(entry["purpose"], "notes");
        assert_eq!(entry["outcome"], "ok");
        assert_eq!(entry["url"], format!("{}/api/chat", server.base));
    }
}

#[tokio::test]
async fn an_openai_compatible_local_server_with_a_malformed_answer_falls_back_per_note() {
    let server = StandIn::start(Behaviour { malformed_items: true }).await;
    let settings = json!({"ai": {"provider": "local", "local_url": format!("{}/v1", server.base)}});
    let (service, id) = start(settings, Options::default());
    make_pro(&service).await;

    let events = regenerate(&service, &id, json!({"kind": "action_items"})).await;
    let stages = providers(&events);
    assert!(stages.contains(&"generating:builtin".to_string()), "{stages:?}");
    assert_eq!(stages.last().map(String::as_str), Some("done:builtin"));
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "the answer and one repair request");
    assert!(requests.iter().all(|r| r.path == "/v1/chat/completions"));
    assert!(
        requests.iter().all(|r| r.body.get("response_format").is_none()),
        "not sent to local servers"
    );
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
    let texts = meeting["action_items"].to_string();
    assert!(texts.contains("budget report") && !texts.contains(ITEM), "built-in items: {texts}");
    assert!(meeting["processing_error"].is_null());

    let events = regenerate(&service, &id, json!({"kind": "summary"})).await;
    assert_eq!(providers(&events).last().map(String::as_str), Some("done:local"));
    assert_eq!(note(&service, &id, "summary").await, SUMMARY);
}

#[tokio::test]
async fn an_unreachable_server_falls_back_to_the_builtin_engine() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://127.0.0.1:{}", closed.local_addr().expect("addr").port());
    drop(closed);
    let (service, id) =
        start(json!({"ai": {"provider": "local", "local_url": url}}), Options::default());
    make_pro(&service).await;
    let events = regenerate(&service, &id, json!({"kind": "summary"})).await;
    let stages = providers(&events);
    assert_eq!(stages.first().map(String::as_str), Some("started:local"));
    assert!(stages.contains(&"generating:builtin".to_string()), "{stages:?}");
    assert!(note(&service, &id, "summary").await.contains("budget"), "built-in summary");
    let entries = ledger(&service, 1).await;
    assert_eq!(entries[0]["outcome"], "error");
}

/// A server on 127.0.0.1 that takes connections and never answers; counts them.
async fn silent_server() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://127.0.0.1:{}", listener.local_addr().expect("addr").port());
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = accepted.clone();
    tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            open.push(socket);
        }
    });
    (url, accepted)
}

#[tokio::test]
async fn a_provider_that_never_answers_does_not_hold_up_shutdown() {
    let (silent, accepted) = silent_server().await;
    let settings = json!({"ai": {"provider": "local", "local_url": silent}});
    let (mut service, id) = start(settings, Options::default());
    make_pro(&service).await;
    let answer =
        post(&service, &format!("/v1/meetings/{id}/notes"), &json!({"kind": "summary"})).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while accepted.load(Ordering::SeqCst) == 0 {
        assert!(std::time::Instant::now() < deadline, "the provider was never asked");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // On record while the request is still open: written before it left.
    let open = ledger(&service, 1).await;
    assert_eq!((open[0]["outcome"].as_str(), open[0]["status"].is_null()), (Some("error"), true));

    let (exit, took) = service.terminate(Duration::from_secs(10));
    assert!(exit.success(), "{exit:?}");
    eprintln!("shutdown with a provider that never answers took {} ms", took.as_millis());

    // The notes job was kept: at the next start it runs again, and this time
    // the provider answers.
    let server = StandIn::start(Behaviour { malformed_items: false }).await;
    let file = service.data_dir().join("settings.json");
    let mut settings: Value =
        serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("json");
    settings["ai"]["local_url"] = json!(server.base);
    std::fs::write(&file, settings.to_string()).expect("write");
    service.restart();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while get(&service, &format!("/v1/meetings/{id}")).await.body["status"] != "ready" {
        assert!(std::time::Instant::now() < deadline, "the notes job did not resume");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(note(&service, &id, "summary").await, SUMMARY);
    assert_eq!(server.requests().len(), 1);
    let entries = ledger(&service, 2).await;
    let outcomes: Vec<&str> = entries.iter().filter_map(|e| e["outcome"].as_str()).collect();
    assert_eq!(outcomes, ["ok", "error"], "newest first: the answered request, the cut one");
}

#[tokio::test]
async fn a_regeneration_is_canceled_and_the_meeting_keeps_its_notes() {
    let (silent, accepted) = silent_server().await;
    let settings = json!({"ai": {"provider": "local", "local_url": silent}});
    let (service, id) = start(settings, Options::default());
    let path = format!("/v1/meetings/{id}/notes");
    // Pro only, like the regeneration itself: the plan is checked first.
    let free = crate::delete(&service, &path).await;
    assert_eq!((free.status, free.body["error"]["code"].as_str()), (402, Some("pro_required")));
    make_pro(&service).await;
    // Nothing to cancel yet; an unknown meeting is a 404 too.
    let none = crate::delete(&service, &path).await;
    assert_eq!((none.status, none.body["error"]["code"].as_str()), (404, Some("not_found")));
    let unknown = format!("/v1/meetings/{}/notes", recorder_domain::new_id());
    assert_eq!(crate::delete(&service, &unknown).await.status, 404);
    let before = note(&service, &id, "summary").await;

    let mut stream = crate::events::open(&service, None).await;
    let answer = post(&service, &path, &json!({"kind": "summary"})).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while accepted.load(Ordering::SeqCst) == 0 {
        assert!(std::time::Instant::now() < deadline, "the provider was never asked");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let canceled = crate::delete(&service, &path).await;
    assert_eq!(canceled.status, 200, "{}", canceled.text);
    assert_eq!(canceled.body["status"], "summarising", "a running run is told to stop");
    let events = events_until(
        &mut stream,
        |kind, data| kind == "meeting.updated" && data["status"] == "ready",
        Duration::from_secs(20),
    )
    .await;
    let stages: Vec<&str> = events
        .iter()
        .filter(|(kind, _)| kind == "notes.progress")
        .filter_map(|(_, data)| data["stage"].as_str())
        .collect();
    assert_eq!(stages.last(), Some(&"canceled"), "{events:?}");
    assert!(!events.iter().any(|(kind, _)| kind == "meeting.ready"), "{events:?}");
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
    assert_eq!(meeting["status"], "ready");
    assert!(meeting["processing_error"].is_null(), "{meeting}");
    assert_eq!(note(&service, &id, "summary").await, before, "the earlier notes are kept");
    // And the meeting takes a new regeneration (the job is gone).
    let again = post(&service, &path, &json!({"kind": "summary"})).await;
    assert_eq!(again.status, 202, "{}", again.text);
    let queued_or_running = crate::delete(&service, &path).await;
    assert_eq!(queued_or_running.status, 200, "{}", queued_or_running.text);
}

#[tokio::test]
async fn cloud_providers_use_the_saved_key_and_are_blocked_under_policy() {
    let server = StandIn::start(Behaviour { malformed_items: false }).await;
    let settings = json!({"ai": {"provider": "anthropic", "cloud_base_url": server.base}});
    let (service, id) = start(settings, Options::default());
    make_pro(&service).await;
    let secret = "sk-ant-test-0123456789abcdef";

    // Without a key the built-in engine writes, and nothing is sent.
    let events = regenerate(&service, &id, json!({"kind": "summary"})).await;
    assert!(providers(&events).iter().all(|stage| stage.ends_with(":builtin")));
    assert!(server.requests().is_empty());

    let saved =
        person_call(&service, Method::PUT, "/ui/ai/keys/anthropic", Some(&json!({"key": secret})))
            .await;
    assert_eq!(saved.status, 204, "{}", saved.text);
    let events = regenerate(&service, &id, json!({"kind": "summary"})).await;
    assert_eq!(providers(&events).last().map(String::as_str), Some("done:anthropic"));
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].headers["x-api-key"], secret);
    assert_eq!(note(&service, &id, "summary").await, SUMMARY);

    crate::apply_policy(&service, &json!({"DisableCloudAIKeys": true})).await;
    let events = regenerate(&service, &id, json!({"kind": "summary"})).await;
    assert!(providers(&events).iter().all(|stage| stage.ends_with(":builtin")), "{events:?}");
    assert_eq!(server.requests().len(), 1, "nothing more reached the server");
    let entries = ledger(&service, 2).await;
    assert_eq!(entries[0]["outcome"], "blocked", "{entries:?}");
    assert_eq!(entries[0]["purpose"], "notes");
    assert_eq!(entries[1]["outcome"], "ok");

    // The key is in the 0600 file, and nowhere else we can read.
    let data = service.data_dir();
    let everywhere = format!(
        "{}{}{}",
        serde_json::to_string(&entries).expect("ledger"),
        std::fs::read_to_string(data.join("settings.json")).expect("settings"),
        get(&service, "/v1/settings").await.text,
    );
    assert!(!everywhere.contains(secret));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(data.join("ai_keys.json")).expect("key file").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[tokio::test]
async fn templates_shape_custom_notes() {
    let (service, id) = start(json!({}), Options::default());
    make_pro(&service).await;
    let template =
        "# Board meeting\nWrite board notes.\n\n## Summary\n\n## Decisions\n\n## Next steps\n";
    std::fs::write(service.data_dir().join("templates").join("board.md"), template)
        .expect("template");
    let listed = get(&service, "/v1/templates").await.body;
    let ids: Vec<&str> = listed["templates"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(ids.contains(&"board") && ids.contains(&"standup"), "{listed}");

    post(&service, &format!("/v1/meetings/{id}/notes"), &json!({"kind": "custom"}))
        .await
        .expect_error(400, "invalid_request");
    post(
        &service,
        &format!("/v1/meetings/{id}/notes"),
        &json!({"kind": "custom", "template_id": "nope"}),
    )
    .await
    .expect_error(404, "not_found");
    regenerate(&service, &id, json!({"kind": "custom", "template_id": "board"})).await;
    let custom = note(&service, &id, "custom").await;
    for heading in ["## Summary", "## Decisions", "## Next steps"] {
        assert!(custom.contains(heading), "{custom}");
    }
    assert!(custom.contains("blue design"), "{custom}");
}
