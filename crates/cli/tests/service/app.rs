//! The web app's side of the service: the built app served under a strict
//! Content-Security-Policy, the person's channel for everything the app reads
//! and changes (`/ui/meetings…`, `/ui/events`, `/ui/prompts`, `/ui/logs`,
//! `/ui/license`), and the person's own imports (`/ui/imports` streamed,
//! `/ui/import` by path) without 'Allow remote start'.

use std::time::Duration;

use recorder_test_support::{http, seed, speech, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::events::open_at;
use crate::import::wait_ready;
use crate::{call, call_with, get, person_call, post, start, Answer, BIN};

fn person_with_model(policy: Option<Value>) -> TestService {
    TestService::start(
        BIN,
        Options {
            env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
            policy,
            ..Options::default()
        },
    )
}

async fn page(service: &TestService, path: &str) -> reqwest::Response {
    http().get(service.url(path)).send().await.expect("page")
}

#[tokio::test]
async fn every_page_path_serves_the_app_under_a_policy_that_allows_only_this_origin() {
    let service = start();
    let index = page(&service, "/").await;
    assert_eq!(index.status(), 200);
    let headers = index.headers().clone();
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    let csp = headers["content-security-policy"].to_str().expect("csp");
    assert!(csp.starts_with("default-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe") && !csp.contains("http"), "nothing but 'self': {csp}");
    assert_eq!(headers["cache-control"], "no-cache");
    let html = index.text().await.expect("html");
    assert!(!html.contains("http://") && !html.contains("https://"), "{html}");
    for path in ["/meetings/0192", "/recording", "/settings", "/settings/extension", "/privacy"] {
        let other = page(&service, path).await;
        assert_eq!(other.status(), 200, "{path}");
        assert_eq!(other.text().await.expect("html"), html, "{path} is the same app page");
    }
    let script = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page loads a script");
    assert!(script.starts_with("/assets/"), "{script}");
    let asset = page(&service, script).await;
    assert_eq!(asset.status(), 200);
    assert_eq!(asset.headers()["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    for missing in ["/nope", "/assets/nope.js", "/meetings", "/../Cargo.toml"] {
        let answer = call(Method::GET, &service.url(missing), None, None).await;
        answer.expect_error(404, "not_found");
    }
    call_with(Method::GET, &service.url("/"), None, None, &[("host", "evil.test")])
        .await
        .expect_error(403, "forbidden_host");
}

#[tokio::test]
async fn the_persons_channel_carries_the_apps_reads_and_edits_and_no_other_token_does() {
    let service = TestService::start_with(BIN, Options::default(), |dir| {
        seed(
            dir,
            &[SeedMeeting::ready("Budget review", 1_700_000_000_000, &["The budget is due."])],
        );
    });
    let list = person_call(&service, Method::GET, "/ui/meetings", None).await;
    assert_eq!(list.status, 200, "{}", list.text);
    assert_eq!(list.body, get(&service, "/v1/meetings").await.body, "the same reply as /v1");
    let id = list.body["meetings"][0]["id"].as_str().expect("id").to_owned();
    let meeting = format!("/ui/meetings/{id}");
    for path in [
        meeting.clone(),
        format!("{meeting}/transcript"),
        "/ui/search?q=budget".into(),
        "/ui/health".into(),
        "/ui/ledger".into(),
        "/ui/policy".into(),
        "/ui/settings/effective".into(),
    ] {
        let mine = person_call(&service, Method::GET, &path, None).await;
        assert_eq!(mine.status, 200, "{path}: {}", mine.text);
        let v1 = get(
            &service,
            &path.replacen("/ui/", "/v1/", 1).replace("settings/effective", "settings"),
        )
        .await;
        assert_eq!(mine.body, v1.body, "{path}");
        let refused = call(Method::GET, &service.url(&path), Some(&service.api_token), None).await;
        refused.expect_error(401, "unauthorized");
    }
    let renamed =
        person_call(&service, Method::PATCH, &meeting, Some(&json!({"title": "Q3 budget"}))).await;
    assert_eq!(renamed.body["title"], "Q3 budget", "{}", renamed.text);
    let item = renamed.body["action_items"][0]["id"].as_str().map(str::to_owned);
    if let Some(item) = item {
        let path = format!("{meeting}/action_items/{item}");
        let done = person_call(&service, Method::PATCH, &path, Some(&json!({"done": true}))).await;
        assert_eq!(done.body["done"], true, "{}", done.text);
    }
    person_call(
        &service,
        Method::POST,
        &format!("{meeting}/notes"),
        Some(&json!({"kind": "summary"})),
    )
    .await
    .expect_error(402, "pro_required");
    let marker =
        person_call(&service, Method::POST, "/ui/recording/marker", Some(&json!({}))).await;
    marker.expect_error(409, "not_recording");
    let gone = person_call(&service, Method::DELETE, &meeting, None).await;
    assert_eq!(gone.status, 204, "{}", gone.text);
    person_call(&service, Method::GET, &meeting, None).await.expect_error(404, "not_found");
}

#[tokio::test]
async fn ui_events_follow_the_session_with_ids_and_replay() {
    let service = TestService::start_with(BIN, Options::default(), |dir| {
        seed(dir, &[SeedMeeting::ready("Standup", 1_700_000_000_000, &["Hello."])]);
    });
    call(Method::GET, &service.url("/ui/events"), Some(&service.api_token), None)
        .await
        .expect_error(401, "unauthorized");
    let mut stream = open_at(&service, "/ui/events", &service.ui_token, None).await;
    let id = get(&service, "/v1/meetings").await.body["meetings"][0]["id"].clone();
    let path = format!("/ui/meetings/{}", id.as_str().expect("id"));
    person_call(&service, Method::PATCH, &path, Some(&json!({"starred": true}))).await;
    let frame = loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), stream.recv())
            .await
            .expect("an event in time")
            .expect("stream open");
        if frame.event.is_some() {
            break frame;
        }
    };
    assert_eq!(frame.event.as_deref(), Some("meeting.updated"));
    let data = frame.data.clone().expect("data");
    assert_eq!(data["type"], "meeting.updated");
    assert_eq!(data["data"], json!({"meeting_id": id}));
    assert!(data["at"].as_i64().is_some(), "{data}");
    let first_id = frame.id.clone().expect("id");
    person_call(&service, Method::PATCH, &path, Some(&json!({"starred": false}))).await;
    let mut replay = open_at(&service, "/ui/events", &service.ui_token, Some(&first_id)).await;
    let replayed = loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), replay.recv())
            .await
            .expect("a replayed event")
            .expect("stream open");
        if frame.event.is_some() {
            break frame;
        }
    };
    let later: u64 = replayed.id.expect("id").parse().expect("number");
    assert!(later > first_id.parse::<u64>().expect("number"), "only newer events replay");
}

#[tokio::test]
async fn a_page_opened_after_a_prompt_finds_it_pending_until_answered() {
    let service = start();
    let empty = person_call(&service, Method::GET, "/ui/prompts", None).await;
    assert_eq!(empty.body, json!({"prompts": []}), "{}", empty.text);
    let asked = post(
        &service,
        "/v1/recording/prompt",
        &json!({"source_app": "zoom", "title": "Design review", "attendees": [{"name": "Lin"}]}),
    )
    .await;
    let prompt_id = asked.body["prompt_id"].as_str().expect("prompt id").to_owned();
    let pending = person_call(&service, Method::GET, "/ui/prompts", None).await;
    let prompts = pending.body["prompts"].as_array().expect("prompts");
    assert_eq!(prompts.len(), 1, "{}", pending.text);
    assert_eq!(prompts[0]["prompt_id"], prompt_id.as_str());
    assert_eq!(prompts[0]["title"], "Design review");
    assert_eq!(prompts[0]["attendees"], json!([{"name": "Lin"}]));
    let created = prompts[0]["created_at"].as_i64().expect("created");
    assert_eq!(prompts[0]["expires_at"].as_i64(), Some(created + 60_000));
    let answer = format!("/ui/prompts/{prompt_id}/answer");
    let decline = json!({"answer": "decline"});
    let declined = person_call(&service, Method::POST, &answer, Some(&decline)).await;
    assert_eq!(declined.status, 200, "{}", declined.text);
    let after = person_call(&service, Method::GET, "/ui/prompts", None).await;
    assert_eq!(after.body, json!({"prompts": []}));
    call(Method::GET, &service.url("/ui/prompts"), Some(&service.api_token), None)
        .await
        .expect_error(401, "unauthorized");
}

#[tokio::test]
async fn diagnostics_show_the_newest_log_lines_as_text() {
    let service = start();
    let logs = person_call(&service, Method::GET, "/ui/logs", None).await;
    assert_eq!(logs.status, 200, "{}", logs.text);
    assert_eq!(logs.headers["content-type"], "text/plain; charset=utf-8");
    assert!(logs.text.contains("listening"), "the start-up line: {}", logs.text);
    assert!(!logs.text.contains(&service.api_token) && !logs.text.contains(&service.ui_token));
    let one = person_call(&service, Method::GET, "/ui/logs?lines=1", None).await;
    assert_eq!(one.text.lines().count(), 1, "{}", one.text);
    assert_eq!(logs.text.lines().last(), one.text.lines().last());
    for bad in ["0", "-3", "many"] {
        person_call(&service, Method::GET, &format!("/ui/logs?lines={bad}"), None)
            .await
            .expect_error(400, "invalid_request");
    }
    call(Method::GET, &service.url("/ui/logs"), Some(&service.api_token), None)
        .await
        .expect_error(401, "unauthorized");
}

#[tokio::test]
async fn the_licence_page_reads_the_plan_in_force() {
    let service = start();
    let free = person_call(&service, Method::GET, "/ui/license", None).await;
    assert_eq!(free.body, json!({"plan": "free", "licensee": null, "expires_at": null}));
    crate::make_pro(&service).await;
    let pro = person_call(&service, Method::GET, "/ui/license", None).await;
    assert_eq!(pro.body["plan"], "pro", "{}", pro.text);
    assert!(pro.body["licensee"].as_str().is_some_and(|l| !l.is_empty()), "{}", pro.text);
}

async fn upload(service: &TestService, name: &str, body: Vec<u8>) -> Answer {
    let response = http()
        .post(service.url("/ui/imports"))
        .bearer_auth(&service.ui_token)
        .header("x-file-name", name)
        .header("content-type", "audio/wav")
        .body(body)
        .send()
        .await
        .expect("upload");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text.clone()));
    Answer { status, headers, body, text }
}

fn meeting_folders(service: &TestService) -> usize {
    std::fs::read_dir(service.data_dir().join("meetings")).map(|d| d.count()).unwrap_or(0)
}

#[tokio::test]
async fn an_uploaded_file_becomes_a_meeting_without_remote_start_even_under_agent_policy() {
    let service = person_with_model(Some(json!({"DisableAgentRecording": true})));
    let refused = post(&service, "/v1/import", &json!({"path": speech::jfk_wav()})).await;
    refused.expect_error(403, "policy_denied");
    let bytes = std::fs::read(speech::jfk_wav()).expect("jfk.wav");
    let answer = upload(&service, "JFK%20inaugural.wav", bytes.clone()).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    assert_eq!(answer.body["title"], "JFK inaugural");
    assert_eq!(answer.body["source_app"], "import");
    let id = answer.body["id"].as_str().expect("id").to_owned();
    let stored = service.data_dir().join("meetings").join(&id).join("original.wav");
    assert_eq!(std::fs::read(&stored).expect("stored upload"), bytes, "stored whole");
    let meeting = wait_ready(&service, &id).await;
    assert!(meeting["processing_error"].is_null(), "{meeting}");
    let text = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await.text;
    assert!(text.to_lowercase().contains("country"), "{text}");
    // The app plays it: a 16 kHz copy beside the upload, with HTTP Range.
    let audio = http()
        .get(service.url(&format!("/ui/meetings/{id}/audio/sys")))
        .bearer_auth(&service.ui_token)
        .header("range", "bytes=0-43")
        .send()
        .await
        .expect("audio");
    assert_eq!(audio.status(), 206);
    assert_eq!(audio.headers()["content-type"], "audio/wav");
    let header = audio.bytes().await.expect("bytes");
    assert_eq!(&header[..4], b"RIFF");
    assert_eq!(u32::from_le_bytes([header[24], header[25], header[26], header[27]]), 16_000);

    let by_path = person_call(
        &service,
        Method::POST,
        "/ui/import",
        Some(&json!({"path": speech::jfk_wav(), "title": "By path"})),
    )
    .await;
    assert_eq!(by_path.status, 202, "no 'Allow remote start' needed: {}", by_path.text);
    assert_eq!(by_path.body["title"], "By path");
}

#[tokio::test]
async fn bad_uploads_are_refused_in_the_contracts_words_and_leave_nothing_behind() {
    let service = person_with_model(None);
    upload(&service, "notes.txt", b"hello".to_vec())
        .await
        .expect_error(415, "unsupported_audio_format");
    let nameless = http()
        .post(service.url("/ui/imports"))
        .bearer_auth(&service.ui_token)
        .body(vec![1u8; 10])
        .send()
        .await
        .expect("upload");
    assert_eq!(nameless.status(), 400);
    upload(&service, "empty.wav", Vec::new()).await.expect_error(400, "invalid_request");
    let huge = crate::raw(
        &service,
        &format!(
            "POST /ui/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\
             X-File-Name: big.wav\r\nContent-Length: 5000000000\r\nConnection: close\r\n\r\n",
            service.ui_token
        ),
    )
    .await;
    assert!(huge.starts_with("HTTP/1.1 413"), "{huge}");
    assert!(huge.contains("file_too_large"), "{huge}");
    let cut = crate::raw(
        &service,
        &format!(
            "POST /ui/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\
             X-File-Name: cut.wav\r\nContent-Length: 100000\r\n\r\nRIFF....",
            service.ui_token
        ),
    )
    .await;
    assert!(!cut.starts_with("HTTP/1.1 202"), "a cut-off upload is no meeting: {cut}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(meeting_folders(&service), 0, "nothing left on disk");
    let meetings = get(&service, "/v1/meetings").await;
    assert_eq!(meetings.body["total"], 0, "{}", meetings.text);
}

#[tokio::test]
async fn a_one_gibibyte_upload_is_streamed_to_disk_not_held_in_memory() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let service = person_with_model(None);
    let before = crate::import::peak_rss_mib(&service);
    let size: u64 = 1024 * 1024 * 1024;
    let mut stream =
        tokio::net::TcpStream::connect(("127.0.0.1", service.port)).await.expect("connect");
    let head = format!(
        "POST /ui/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\n\
         X-File-Name: long%20call.ogg\r\nContent-Type: audio/ogg\r\nContent-Length: {size}\r\n\
         Connection: close\r\n\r\n",
        service.ui_token
    );
    stream.write_all(head.as_bytes()).await.expect("head");
    let chunk = vec![0u8; 1024 * 1024];
    for _ in 0..1024 {
        stream.write_all(&chunk).await.expect("body");
    }
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(120), stream.read_to_end(&mut answer))
        .await
        .expect("an answer")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 202"), "{answer}");
    let id = answer.split("\"id\":\"").nth(1).and_then(|r| r.split('"').next()).expect("id");
    let stored = service.data_dir().join("meetings").join(id).join("original.ogg");
    assert_eq!(std::fs::metadata(&stored).expect("stored").len(), size);
    let grown = crate::import::peak_rss_mib(&service) - before;
    assert!(grown < 64.0, "peak memory grew by {grown:.0} MiB for a 1 GiB upload");
    let meeting = wait_ready(&service, id).await;
    assert!(meeting["processing_error"].is_string(), "zeros are no audio: {meeting}");
}

/// The app's API types are generated from `ui/openapi.json`; a changed Rust
/// type must change that copy, so the app's type check sees it.
#[tokio::test]
async fn the_apps_copy_of_the_openapi_document_is_current() {
    let service = start();
    let document = get(&service, "/v1/openapi.json").await.body;
    assert!(document["components"]["schemas"]["Event"].is_object(), "events are described");
    let current = serde_json::to_string_pretty(&document).expect("json") + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != current {
        std::fs::write(&path, &current).expect("rewrite ui/openapi.json");
        panic!(
            "ui/openapi.json was out of date and has been rewritten: rebuild the app \
             (npm --prefix ui run build) and commit it"
        );
    }
}

#[tokio::test]
async fn a_model_file_on_this_computer_can_be_added_from_the_app() {
    let service = start();
    let body = json!({"path": speech::test_model(), "name": "tiny-test"});
    let added = person_call(&service, Method::POST, "/ui/models/add", Some(&body)).await;
    assert_eq!(added.status, 201, "{}", added.text);
    assert_eq!(added.body, json!({"model": "tiny-test", "file_name": "ggml-tiny-test.bin"}));
    let copied = service.data_dir().join("models/ggml-tiny-test.bin");
    let original = std::fs::metadata(speech::test_model()).expect("model").len();
    assert_eq!(std::fs::metadata(&copied).expect("copied").len(), original);
    let list = person_call(&service, Method::GET, "/ui/models", None).await;
    assert!(list.text.contains("ggml-tiny-test.bin"), "{}", list.text);
    let again = person_call(&service, Method::POST, "/ui/models/add", Some(&body)).await;
    again.expect_error(400, "invalid_request");
    let not_a_model = json!({"path": speech::jfk_wav()});
    let refused = person_call(&service, Method::POST, "/ui/models/add", Some(&not_a_model)).await;
    refused.expect_error(400, "invalid_request");
    assert!(refused.text.contains("ggml"), "{}", refused.text);
    let relative = json!({"path": "models/x.bin"});
    let refused = person_call(&service, Method::POST, "/ui/models/add", Some(&relative)).await;
    refused.expect_error(400, "invalid_request");
    let url = service.url("/ui/models/add");
    let with_api = call(Method::POST, &url, Some(&service.api_token), Some(&body)).await;
    with_api.expect_error(401, "unauthorized");
}

#[tokio::test]
async fn what_a_crash_left_is_cleared_after_the_next_start() {
    // An upload cut off, a recording killed between its files and its row,
    // and temporary files of atomic writes whose process is gone.
    let unfinished = "0192a000-0000-7000-8000-000000000001";
    let orphan_recording = "0192a000-0000-7000-8000-000000000002";
    let mut kept = String::new();
    let service = TestService::start_with(BIN, Options::default(), |dir| {
        kept = seed(dir, &[SeedMeeting::ready("Kept", 1_700_000_000_000, &["Hello."])])[0].clone();
        for (id, file) in [
            (unfinished, "original.mp3.part"),
            (kept.as_str(), "original.wav.part"),
            (orphan_recording, "mic.wav"),
        ] {
            let folder = dir.join("meetings").join(id);
            std::fs::create_dir_all(&folder).expect("folder");
            std::fs::write(folder.join(file), b"half an upload").expect("part");
        }
        for stray in [".api_token.tmp-999999", ".settings.json.tmp-999998"] {
            std::fs::write(dir.join(stray), b"left by a crash").expect("stray");
        }
        std::fs::create_dir_all(dir.join("models")).expect("models");
        std::fs::write(dir.join("models/.ggml-base.en.bin.tmp-999997"), b"half").expect("stray");
    });
    let data = service.data_dir();
    let meetings = data.join("meetings");
    let left = || {
        [
            meetings.join(unfinished),
            meetings.join(orphan_recording),
            data.join(".api_token.tmp-999999"),
            data.join(".settings.json.tmp-999998"),
            data.join("models/.ggml-base.en.bin.tmp-999997"),
        ]
        .into_iter()
        .filter(|path| path.exists())
        .collect::<Vec<_>>()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !left().is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(left().is_empty(), "left: {:?}", left());
    assert!(meetings.join(&kept).join("original.wav.part").exists(), "a meeting's folder is kept");
    assert_eq!(get(&service, "/v1/meetings").await.body["total"], 1);
}

/// Settings → Diagnostics reads how the processes that parse files from
/// outside are confined: on this Linux, all of it (`/v1/health` carries the
/// same reply, like every read of the person's channel).
#[tokio::test]
async fn health_says_how_files_from_outside_are_confined() {
    let service = start();
    let person = person_call(&service, Method::GET, "/ui/health", None).await;
    assert_eq!(person.status, 200, "{}", person.text);
    let confinement = &person.body["confinement"];
    assert_eq!(confinement["whole"], true, "{}", person.text);
    let summary = confinement["summary"].as_str().expect("a summary");
    assert!(summary.starts_with("confined: files (Landlock ABI"), "{summary}");
}
