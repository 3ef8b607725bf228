//! The record is the person's: lines, notes and action items corrected over
//! the API (`/v1` and `/ui`), every reading showing the correction, the
//! history naming who changed what, undo, and the words learned.

use recorder_test_support::speech::{self, Layout};
use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::import::{start_with_model, wait_ready};
use crate::{call, call_with, get, make_pro, pair_extension, person_call, post, Answer, BIN};

/// One ready meeting (lines alternate mic/sys).
fn seeded() -> (TestService, String) {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        let mut ready = SeedMeeting::ready(
            "Planning",
            1_700_000_000_000,
            &["How did the review go?", "At Scott News, Shivon approved the budget.", "Great."],
        );
        ready.notes = vec![("summary".into(), "At Scott News.".into())];
        ready.action_items = vec![("Send the proposal".into(), "Me".into())];
        ids = seed(data, &[ready]);
    });
    (service, ids[0].clone())
}

async fn lines(service: &TestService, id: &str) -> Vec<Value> {
    let transcript = get(service, &format!("/v1/meetings/{id}/transcript")).await;
    assert_eq!(transcript.status, 200, "{}", transcript.text);
    transcript.body["segments"].as_array().expect("segments").clone()
}

async fn patch(service: &TestService, token: &str, path: &str, body: Value) -> Answer {
    call(Method::PATCH, &service.url(path), Some(token), Some(&body)).await
}

#[tokio::test]
async fn a_corrected_line_is_what_every_reading_shows_and_its_history_can_undo_it() {
    let (service, id) = seeded();
    let before = lines(&service, &id).await;
    assert!(before.iter().all(|line| line["id"].is_string() && line["edited"] == false));
    let line_id = before[1]["id"].as_str().expect("id").to_string();
    let path = format!("/ui/meetings/{id}/segments/{line_id}");
    let words = "That's good news, Siobhan approved the budget.";
    let fixed =
        patch(&service, &service.ui_token, &path, json!({"text": format!("  {words} ")})).await;
    assert_eq!(fixed.status, 200, "{}", fixed.text);
    assert_eq!(fixed.body["id"], line_id.as_str(), "the id is stable");
    assert_eq!(
        (fixed.body["text"].as_str(), fixed.body["edited"].as_bool()),
        (Some(words), Some(true))
    );

    let after = lines(&service, &id).await;
    assert_eq!(after[1]["text"], words);
    assert_eq!(after[1]["id"], line_id.as_str());
    let text = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await;
    assert!(text.text.contains("good news") && !text.text.contains("Scott"), "{}", text.text);
    let found = get(&service, "/v1/search?q=Siobhan").await;
    assert!(found.text.contains(&id), "search by words finds the correction: {}", found.text);
    let gone = get(&service, "/v1/search?q=Shivon").await;
    assert!(!gone.text.contains(&id), "{}", gone.text);

    let history = get(&service, &format!("/v1/meetings/{id}/history")).await;
    assert_eq!(history.status, 200, "{}", history.text);
    let change = history.body["changes"][0].clone();
    assert_eq!(change["by"], "person");
    assert_eq!(change["target"], format!("segment:{line_id}"));
    assert_eq!(change["before"]["text"], "At Scott News, Shivon approved the budget.");
    assert_eq!(change["after"]["text"], words);

    // The rare word the person wrote in is learned; the everyday ones are not.
    let settings = person_call(&service, Method::GET, "/ui/settings", None).await;
    assert_eq!(settings.body["transcription"]["learned"], json!(["Siobhan"]), "{}", settings.text);

    let undo = format!("/v1/meetings/{id}/history/{}/undo", change["id"].as_str().expect("id"));
    let undone = call(Method::POST, &service.url(&undo), Some(&service.api_token), None).await;
    assert_eq!(undone.status, 200, "{}", undone.text);
    assert_eq!(undone.body["by"], "agent:api", "a script with the API token");
    let back = lines(&service, &id).await;
    assert_eq!(
        (back[1]["text"].as_str(), back[1]["edited"].as_bool()),
        (Some("At Scott News, Shivon approved the budget."), Some(false))
    );
}

#[tokio::test]
async fn a_line_refuses_what_is_not_a_correction() {
    let (service, id) = seeded();
    let line_id = lines(&service, &id).await[0]["id"].as_str().expect("id").to_string();
    let path = format!("/v1/meetings/{id}/segments/{line_id}");
    let token = service.api_token.clone();
    for body in [
        json!({}),
        json!({"text": "   "}),
        json!({"text": "x", "words": 1}),
        json!({"text": null}),
        json!({"speaker": ""}),
        json!({"text": "x".repeat(10_001)}),
        json!({"text": "x", "all_of_speaker": true}),
    ] {
        patch(&service, &token, &path, body.clone()).await.expect_error(400, "invalid_request");
    }
    let unknown = "0192f000-0000-7000-8000-000000000000";
    patch(
        &service,
        &token,
        &format!("/v1/meetings/{unknown}/segments/{line_id}"),
        json!({"text": "x"}),
    )
    .await
    .expect_error(404, "not_found");
    for other in ["999999", "not-a-line"] {
        patch(
            &service,
            &token,
            &format!("/v1/meetings/{id}/segments/{other}"),
            json!({"text": "x"}),
        )
        .await
        .expect_error(404, "not_found");
    }
    let paired = pair_extension(&service).await;
    patch(&service, &paired, &path, json!({"text": "x"}))
        .await
        .expect_error(403, "insufficient_scope");
    let agent = [("X-Recorder-Client", "gateway"), ("X-Recorder-Agent", "claude-code")];
    let url = service.url(&path);
    call_with(Method::PATCH, &url, Some(&token), Some(&json!({"text": "x"})), &agent)
        .await
        .expect_error(402, "pro_required");
    assert_eq!(lines(&service, &id).await[0]["edited"], false, "nothing was changed");
    assert_eq!(
        get(&service, &format!("/v1/meetings/{id}/history")).await.body["changes"],
        json!([])
    );

    make_pro(&service).await;
    let ok = call_with(Method::PATCH, &url, Some(&token), Some(&json!({"speaker": "Sam"})), &agent)
        .await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(
        (ok.body["speaker"].as_str(), ok.body["edited"].as_bool()),
        (Some("Sam"), Some(true))
    );
    let history = get(&service, &format!("/v1/meetings/{id}/history")).await;
    assert_eq!(history.body["changes"][0]["by"], "agent:claude-code");
    let settings = person_call(&service, Method::GET, "/ui/settings", None).await;
    assert_eq!(
        settings.body["transcription"]["learned"],
        json!([]),
        "an agent's change teaches nothing"
    );
}

#[tokio::test]
async fn action_items_are_added_changed_removed_and_restored() {
    let (service, id) = seeded();
    let token = service.ui_token.clone();
    let items = format!("/ui/meetings/{id}/action_items");
    let added = call(
        Method::POST,
        &service.url(&items),
        Some(&token),
        Some(&json!({"text": " Book a room "})),
    )
    .await;
    assert_eq!(added.status, 201, "{}", added.text);
    let item = added.body["id"].as_str().expect("id").to_string();
    assert_eq!(
        added.body,
        json!({"id": item, "text": "Book a room", "owner": "Me", "done": false, "due": null})
    );

    let path = format!("{items}/{item}");
    let changed = patch(
        &service,
        &token,
        &path,
        json!({"owner": "Priya", "due": "2026-12-24", "text": "Book the big room"}),
    )
    .await;
    assert_eq!(changed.status, 200, "{}", changed.text);
    assert_eq!(
        changed.body,
        json!({"id": item, "text": "Book the big room", "owner": "Priya", "done": false, "due": "2026-12-24"})
    );
    let cleared = patch(&service, &token, &path, json!({"due": null, "done": true})).await;
    assert_eq!(
        (cleared.body["due"].clone(), cleared.body["done"].clone()),
        (Value::Null, json!(true))
    );
    for body in [
        json!({}),
        json!({"due": "24.12.2026"}),
        json!({"due": "2026-02-30"}),
        json!({"text": ""}),
        json!({"owner": null}),
        json!({"colour": "red"}),
    ] {
        patch(&service, &token, &path, body).await.expect_error(400, "invalid_request");
    }
    call(Method::POST, &service.url(&items), Some(&token), Some(&json!({"owner": "Me"})))
        .await
        .expect_error(400, "invalid_request");

    let removed = call(Method::DELETE, &service.url(&path), Some(&token), None).await;
    assert_eq!(removed.status, 204, "{}", removed.text);
    call(Method::DELETE, &service.url(&path), Some(&token), None)
        .await
        .expect_error(404, "not_found");
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await;
    assert_eq!(
        meeting.body["action_items"].as_array().map(Vec::len),
        Some(1),
        "only the seeded one is left"
    );

    let history = get(&service, &format!("/v1/meetings/{id}/history")).await;
    let summaries: Vec<&str> = history.body["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter_map(|c| c["summary"].as_str())
        .collect();
    assert_eq!(summaries.len(), 4, "{summaries:?}");
    assert!(summaries[0].starts_with("Removed"), "{summaries:?}");
    let removal = history.body["changes"][0]["id"].as_str().expect("id");
    let undo = format!("/ui/meetings/{id}/history/{removal}/undo");
    let undone = call(Method::POST, &service.url(&undo), Some(&token), None).await;
    assert_eq!(undone.status, 200, "{}", undone.text);
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await;
    let back = meeting.body["action_items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == item.as_str())
        .cloned();
    assert_eq!(
        back.map(|i| i["text"].clone()),
        Some(json!("Book the big room")),
        "undone: the item is back"
    );
    call(
        Method::POST,
        &service
            .url(&format!("/ui/meetings/{id}/history/0192f000-0000-7000-8000-000000000000/undo")),
        Some(&token),
        None,
    )
    .await
    .expect_error(404, "not_found");
}

#[tokio::test]
async fn a_note_is_rewritten_and_the_persons_own_notes_are_kept_with_the_meeting() {
    let (service, id) = seeded();
    let token = service.ui_token.clone();
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await;
    let summary = meeting.body["notes"][0]["id"].as_str().expect("note").to_string();
    let path = format!("/ui/meetings/{id}/notes/{summary}");
    let rewritten =
        patch(&service, &token, &path, json!({"content_md": "Good news: the budget is approved."}))
            .await;
    assert_eq!(rewritten.status, 200, "{}", rewritten.text);
    assert_eq!(
        (rewritten.body["written_by"].as_str(), rewritten.body["kind"].as_str()),
        (Some("person"), Some("summary"))
    );
    patch(&service, &token, &path, json!({"content_md": "  "}))
        .await
        .expect_error(400, "invalid_request");
    patch(
        &service,
        &token,
        &format!("/ui/meetings/{id}/notes/0192f000-0000-7000-8000-000000000000"),
        json!({"content_md": "x"}),
    )
    .await
    .expect_error(404, "not_found");

    let mine = format!("/ui/meetings/{id}/notes/mine");
    let put = |body: Value| {
        let url = service.url(&mine);
        let token = token.clone();
        async move { call(Method::PUT, &url, Some(&token), Some(&body)).await }
    };
    let first = put(json!({"content_md": "- ask about the budget"})).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(
        (first.body["kind"].as_str(), first.body["written_by"].as_str()),
        (Some("mine"), Some("person"))
    );
    let second =
        put(json!({"content_md": "- ask about the budget\n- Siobhan owns the proposal"})).await;
    assert_eq!(second.body["id"], first.body["id"], "one note of my own per meeting");
    put(json!({"content_md": "x", "extra": 1})).await.expect_error(400, "invalid_request");
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await;
    let kinds: Vec<&str> = meeting.body["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["summary", "mine"]);
    let found = get(&service, "/v1/search?q=proposal%20Siobhan").await;
    assert!(found.text.contains(&id), "my notes are searched: {}", found.text);
    let history = get(&service, &format!("/v1/meetings/{id}/history")).await;
    assert_eq!(
        history.body["changes"].as_array().map(Vec::len),
        Some(2),
        "typing is one change: {}",
        history.text
    );
}

#[tokio::test]
async fn a_transcription_again_keeps_the_corrected_line_and_every_reading_has_it() {
    let service = start_with_model();
    let path = service.folder.path().join("budget.wav");
    speech::speak(
        "Shivon will send the budget on Friday. Then we review the dashboards.",
        &path,
        Layout::Wav22k24,
    );
    let imported = post(&service, "/v1/import", &json!({"path": path, "title": "Budget"})).await;
    let id = imported.body["id"].as_str().expect("id").to_owned();
    wait_ready(&service, &id).await;
    let first = lines(&service, &id).await[0].clone();
    let line_id = first["id"].as_str().expect("id").to_string();
    let words = "Siobhan Okonkwo will send the budget on Friday.";
    let path = format!("/ui/meetings/{id}/segments/{line_id}");
    let fixed = patch(&service, &service.ui_token, &path, json!({"text": words})).await;
    assert_eq!(fixed.status, 200, "{}", fixed.text);
    let settings = person_call(&service, Method::GET, "/ui/settings", None).await;
    let learned = settings.body["transcription"]["learned"].as_array().expect("learned").clone();
    assert!(learned.contains(&json!("Okonkwo")), "{learned:?}");

    let again = person_call(
        &service,
        Method::POST,
        &format!("/ui/meetings/{id}/transcribe"),
        Some(&json!({})),
    )
    .await;
    assert_eq!(
        (again.status, again.body["status"].as_str()),
        (202, Some("transcribing")),
        "{}",
        again.text
    );
    patch(&service, &service.ui_token, &path, json!({"text": "x"}))
        .await
        .expect_error(409, "meeting_busy");
    wait_ready(&service, &id).await;

    let after = lines(&service, &id).await;
    let kept: Vec<&Value> = after.iter().filter(|line| line["text"] == words).collect();
    assert_eq!(kept.len(), 1, "the corrected line is kept once: {after:?}");
    assert_eq!(
        (kept[0]["id"].as_str(), kept[0]["edited"].as_bool()),
        (Some(line_id.as_str()), Some(true))
    );
    let history = get(&service, &format!("/v1/meetings/{id}/history")).await;
    let changes = history.body["changes"].as_array().expect("changes");
    assert!(
        changes.iter().any(|c| c["target"] == "transcript"
            && c["by"] == "service"
            && c["summary"].as_str().is_some_and(|s| s.contains("corrected"))),
        "{}",
        history.text
    );
    for format in ["txt", "md", "srt", "vtt"] {
        let text =
            get(&service, &format!("/v1/meetings/{id}/transcript?format={format}")).await.text;
        assert!(text.contains("Okonkwo"), "{format}: {text}");
    }
    assert!(get(&service, "/v1/search?q=Okonkwo").await.text.contains(&id));
    let answer = post(&service, "/v1/ask", &json!({"question": "What will Okonkwo send?"})).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    let cited = answer.body["citations"].as_array().expect("citations");
    assert!(
        cited.iter().any(|c| c["text"].as_str().is_some_and(|t| t.contains("Okonkwo"))),
        "{}",
        answer.text
    );
}
