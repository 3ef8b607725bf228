//! Meetings: list and pagination bounds, read, change, delete, transcripts.

use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::json;

use crate::{call, get, BIN};

fn seeded(count: usize) -> (TestService, Vec<String>) {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        let meetings: Vec<SeedMeeting> = (0..count)
            .map(|index| {
                let mut meeting = SeedMeeting::ready(
                    &format!("Meeting {index:03}"),
                    1_700_000_000_000 + index as i64 * 60_000,
                    &["Hello everyone.", "Hi, I will send the budget by Friday.", "Thanks!"],
                );
                meeting.notes = vec![("summary".into(), format!("Summary of meeting {index}"))];
                meeting.action_items = vec![("Send the budget".into(), "Them".into())];
                meeting
            })
            .collect();
        ids = seed(data, &meetings);
    });
    (service, ids)
}

#[tokio::test]
async fn list_pages_are_bounded_and_newest_first() {
    let (service, ids) = seeded(205);
    let default = get(&service, "/v1/meetings").await;
    assert_eq!(default.status, 200);
    assert_eq!(default.body["total"], 205);
    assert_eq!(default.body["limit"], 50);
    assert_eq!(default.body["offset"], 0);
    let meetings = default.body["meetings"].as_array().expect("array");
    assert_eq!(meetings.len(), 50);
    assert_eq!(meetings[0]["id"], ids[204].as_str(), "newest first");
    assert!(meetings[0].get("notes").is_none(), "lists leave out notes");
    assert_eq!(meetings[0]["processing_error"], serde_json::Value::Null);

    let clamped = get(&service, "/v1/meetings?limit=1000").await;
    assert_eq!(clamped.body["limit"], 200);
    assert_eq!(clamped.body["meetings"].as_array().map(Vec::len), Some(200));
    let last = get(&service, "/v1/meetings?limit=200&offset=200").await;
    assert_eq!(last.body["meetings"].as_array().map(Vec::len), Some(5));
    let beyond = get(&service, "/v1/meetings?offset=100000").await;
    assert_eq!(beyond.body["meetings"].as_array().map(Vec::len), Some(0));
    assert_eq!(beyond.body["total"], 205);
    let one = get(&service, "/v1/meetings?limit=1").await;
    assert_eq!(one.body["meetings"].as_array().map(Vec::len), Some(1));

    let from = 1_700_000_000_000i64 + 10 * 60_000;
    let to = from + 5 * 60_000;
    let window = get(&service, &format!("/v1/meetings?from={from}&to={to}")).await;
    assert_eq!(window.body["total"], 5, "from inclusive, to exclusive");
    let titles: Vec<&str> = window.body["meetings"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|m| m["title"].as_str())
        .collect();
    assert_eq!(titles, ["Meeting 014", "Meeting 013", "Meeting 012", "Meeting 011", "Meeting 010"]);
    let searched = get(&service, "/v1/meetings?q=%22meeting%20007%22").await;
    assert_eq!(searched.body["total"], 1, "{}", searched.text);
}

#[tokio::test]
async fn a_meeting_carries_notes_items_and_markers() {
    let (service, ids) = seeded(1);
    let meeting = get(&service, &format!("/v1/meetings/{}", ids[0])).await;
    assert_eq!(meeting.status, 200);
    let body = &meeting.body;
    assert_eq!(body["title"], "Meeting 000");
    assert_eq!(body["status"], "ready");
    assert_eq!(body["attendees"], json!([{"name": "Ada Lovelace"}]));
    assert_eq!(body["notes"][0]["kind"], "summary");
    assert_eq!(body["action_items"][0]["text"], "Send the budget");
    assert_eq!(body["action_items"][0]["done"], false);
    assert_eq!(body["markers"], json!([]));
    for field in
        ["id", "source_app", "started_at", "ended_at", "duration_ms", "language", "tags", "starred"]
    {
        assert!(body.get(field).is_some(), "{field}");
    }
}

#[tokio::test]
async fn patch_validates_strictly_and_returns_the_meeting() {
    let (service, ids) = seeded(1);
    let url = service.url(&format!("/v1/meetings/{}", ids[0]));
    let patch = |body: serde_json::Value| {
        let url = url.clone();
        let token = service.api_token.clone();
        async move { call(Method::PATCH, &url, Some(&token), Some(&body)).await }
    };
    for bad in [
        json!({"title": ""}),
        json!({"title": "   "}),
        json!({"title": "x".repeat(501)}),
        // Found by schemathesis: SQLite counted "\u{0}" as empty and the
        // database refused it (500); NUL is refused as a bad value instead.
        json!({"title": "\u{0}"}),
        json!({"title": "a\u{0}b"}),
        json!({"tags": ["t\u{0}"]}),
        json!({"tags": ["ok", "  "]}),
        json!({"tags": ["x".repeat(65)]}),
        json!({"tags": (0..51).map(|i| format!("t{i}")).collect::<Vec<_>>()}),
        json!({"attendees": [{"name": ""}]}),
        json!({"attendees": [{"name": "x".repeat(201)}]}),
        json!({"attendees": [{"name": "A", "email": "a@b"}]}),
    ] {
        patch(bad.clone()).await.expect_error(400, "invalid_request");
    }
    let before = get(&service, &format!("/v1/meetings/{}", ids[0])).await;
    assert_eq!(before.body["title"], "Meeting 000", "refused patches change nothing");

    let good = patch(json!({
        "title": "  Budget review  ",
        "tags": [" finance ", "finance", "q3"],
        "starred": true,
        "attendees": [{"name": "Grace"}, {"name": "Linus"}]
    }))
    .await;
    assert_eq!(good.status, 200, "{}", good.text);
    assert_eq!(good.body["title"], "Budget review");
    assert_eq!(good.body["tags"], json!(["finance", "q3"]));
    assert_eq!(good.body["starred"], true);
    assert_eq!(good.body["attendees"], json!([{"name": "Grace"}, {"name": "Linus"}]));
    assert!(good.body["notes"].is_array(), "the whole meeting comes back");
    let exact = patch(json!({"title": "x".repeat(500), "tags": (0..50).map(|i| format!("t{i}")).collect::<Vec<_>>()})).await;
    assert_eq!(exact.status, 200, "bounds are inclusive: {}", exact.text);
}

#[tokio::test]
async fn delete_removes_rows_index_entries_and_audio() {
    let (service, ids) = seeded(2);
    let audio = service.data_dir().join("meetings").join(&ids[0]);
    std::fs::create_dir_all(&audio).expect("audio folder");
    std::fs::write(audio.join("mic.wav"), b"RIFF").expect("audio");
    let url = service.url(&format!("/v1/meetings/{}", ids[0]));
    let deleted = call(Method::DELETE, &url, Some(&service.api_token), None).await;
    assert_eq!(deleted.status, 204);
    assert!(!audio.exists(), "audio folder removed");
    get(&service, &format!("/v1/meetings/{}", ids[0])).await.expect_error(404, "not_found");
    let search = get(&service, "/v1/search?q=%22meeting%200%22").await;
    assert!(search.body["results"]
        .as_array()
        .is_some_and(|r| r.iter().all(|hit| hit["meeting_id"] != ids[0].as_str())));
    let list = get(&service, "/v1/meetings").await;
    assert_eq!(list.body["total"], 1);
    assert_eq!(list.body["meetings"][0]["id"], ids[1].as_str());
    call(Method::DELETE, &url, Some(&service.api_token), None).await.expect_error(404, "not_found");
}

#[tokio::test]
async fn transcripts_in_every_format() {
    let (service, ids) = seeded(1);
    let path = |format: &str| format!("/v1/meetings/{}/transcript{format}", ids[0]);
    let json = get(&service, &path("")).await;
    assert_eq!(json.headers["content-type"], "application/json");
    assert_eq!(json.body["meeting_id"], ids[0].as_str());
    assert_eq!(
        json.body["segments"][1],
        json!({"id": json.body["segments"][1]["id"], "speaker": "Them", "channel": "sys", "start_ms": 5000, "end_ms": 9000, "text": "Hi, I will send the budget by Friday.", "edited": false})
    );
    assert_eq!(json.body["segments"][0]["speaker"], "Me");
    let expectations = [
        ("md", "text/markdown", "**Me** [00:00] Hello everyone.\n\n**Them** [00:05] Hi, I will send the budget by Friday.\n\n**Me** [00:10] Thanks!\n\n"),
        ("srt", "application/x-subrip", "1\n00:00:00,000 --> 00:00:04,000\nMe: Hello everyone.\n\n2\n00:00:05,000 --> 00:00:09,000\nThem: Hi, I will send the budget by Friday.\n\n3\n00:00:10,000 --> 00:00:14,000\nMe: Thanks!\n\n"),
        ("vtt", "text/vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Me>Hello everyone.\n\n00:00:05.000 --> 00:00:09.000\n<v Them>Hi, I will send the budget by Friday.\n\n00:00:10.000 --> 00:00:14.000\n<v Me>Thanks!\n\n"),
        ("txt", "text/plain", "[00:00:00] Me: Hello everyone.\n[00:00:05] Them: Hi, I will send the budget by Friday.\n[00:00:10] Me: Thanks!\n"),
    ];
    for (format, content_type, expected) in expectations {
        let answer = get(&service, &path(&format!("?format={format}"))).await;
        assert_eq!(answer.status, 200);
        let header = answer.headers["content-type"].to_str().expect("header");
        assert!(header.starts_with(content_type) && header.contains("utf-8"), "{format}: {header}");
        assert_eq!(answer.text, expected, "{format}");
    }
    get(&service, &path("?format=docx")).await.expect_error(400, "invalid_request");
}

#[tokio::test]
async fn speaker_names_follow_the_user_name_setting() {
    let (service, ids) = seeded(1);
    let answer = crate::set_settings(&service, json!({"general": {"user_name": "Ada"}})).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    let json = get(&service, &format!("/v1/meetings/{}/transcript", ids[0])).await;
    assert_eq!(json.body["segments"][0]["speaker"], "Ada");
}

#[tokio::test]
async fn action_items_can_be_ticked() {
    let (service, ids) = seeded(1);
    let meeting = get(&service, &format!("/v1/meetings/{}", ids[0])).await;
    let item = meeting.body["action_items"][0]["id"].as_str().expect("item").to_string();
    let url = service.url(&format!("/v1/meetings/{}/action_items/{item}", ids[0]));
    let done =
        call(Method::PATCH, &url, Some(&service.api_token), Some(&json!({"done": true}))).await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(
        done.body,
        json!({"id": item, "text": "Send the budget", "owner": "Them", "done": true, "due": null})
    );
    call(Method::PATCH, &url, Some(&service.api_token), Some(&json!({"done": "yes"})))
        .await
        .expect_error(400, "invalid_request");
    let other = service
        .url(&format!("/v1/meetings/{}/action_items/0192f000-0000-7000-8000-000000000000", ids[0]));
    call(Method::PATCH, &other, Some(&service.api_token), Some(&json!({"done": true})))
        .await
        .expect_error(404, "not_found");
}
