//! Every error of the contract that this build can produce, each in its own case,
//! with the order of checks: Host → token → scope → policy → plan → setting → state.

use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::json;

use crate::{call, call_with, get, make_pro, set_settings, start, BIN};

#[tokio::test]
async fn malformed_json_is_400() {
    let service = start();
    let answer = crate::raw(
        &service,
        &format!(
            "PATCH /v1/meetings/0192f000-0000-7000-8000-000000000000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Authorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{{\"title\":",
            service.api_token
        ),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("\"invalid_request\""), "{answer}");
}

#[tokio::test]
async fn wrong_types_and_unknown_fields_name_the_field() {
    let service = start();
    let url = service.url("/v1/meetings/0192f000-0000-7000-8000-000000000000");
    for (body, field) in [
        (json!({"title": 5}), "title"),
        (json!({"starred": "yes"}), "starred"),
        (json!({"tags": "a"}), "tags"),
        (json!({"attendees": [{"name": 1}]}), "attendees"),
        (json!({"title": null}), "title"),
        (json!({"status": "ready"}), "status"),
        (json!([1, 2]), "body"),
    ] {
        let answer = call(Method::PATCH, &url, Some(&service.api_token), Some(&body)).await;
        answer.expect_error(400, "invalid_request");
        let message = answer.body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains(field), "{body}: {message}");
    }
}

#[tokio::test]
async fn bad_query_values_are_400() {
    let service = start();
    for path in [
        "/v1/meetings?limit=abc",
        "/v1/meetings?limit=0",
        "/v1/meetings?offset=-1",
        "/v1/meetings?from=yesterday",
        "/v1/search?q=",
        "/v1/search?q=%20%20",
        "/v1/search",
        "/v1/search?q=a&limit=-3",
    ] {
        get(&service, path).await.expect_error(400, "invalid_request");
    }
}

#[tokio::test]
async fn unknown_routes_are_404_and_wrong_methods_405_in_json() {
    let service = start();
    get(&service, "/v1/nothing-here").await.expect_error(404, "not_found");
    get(&service, "/elsewhere").await.expect_error(404, "not_found");
    crate::delete(&service, "/v1/health").await.expect_error(405, "method_not_allowed");
    call(Method::GET, &service.url("/v1/nothing-here"), None, None)
        .await
        .expect_error(401, "unauthorized");
}

#[tokio::test]
async fn unknown_meetings_are_404() {
    let service = start();
    for id in ["0192f000-0000-7000-8000-000000000000", "not-a-uuid", "..%2F..%2Fetc"] {
        get(&service, &format!("/v1/meetings/{id}")).await.expect_error(404, "not_found");
        get(&service, &format!("/v1/meetings/{id}/transcript"))
            .await
            .expect_error(404, "not_found");
        crate::delete(&service, &format!("/v1/meetings/{id}")).await.expect_error(404, "not_found");
    }
}

#[tokio::test]
async fn bodies_over_1_mib_are_413() {
    let service = start();
    let big = json!({ "title": "x".repeat(1024 * 1024 + 1) });
    let answer = call(
        Method::PATCH,
        &service.url("/v1/meetings/0192f000-0000-7000-8000-000000000000"),
        Some(&service.api_token),
        Some(&big),
    )
    .await;
    answer.expect_error(413, "payload_too_large");
}

#[tokio::test]
async fn pro_operations_on_free_are_402_before_state() {
    let service = start();
    let body = json!({"kind": "summary"});
    // The meeting does not exist: the plan check comes first.
    crate::post(&service, "/v1/meetings/0192f000-0000-7000-8000-000000000000/notes", &body)
        .await
        .expect_error(402, "pro_required");
    crate::post(&service, "/v1/recording/start", &json!({"source_app": "zoom"}))
        .await
        .expect_error(402, "pro_required");
}

#[tokio::test]
async fn stop_and_marker_need_pro_for_agents_only() {
    let service = start();
    let agent = [("x-recorder-client", "gateway")];
    for path in ["/v1/recording/stop", "/v1/recording/marker"] {
        call_with(Method::POST, &service.url(path), Some(&service.api_token), None, &agent)
            .await
            .expect_error(402, "pro_required");
        call(Method::POST, &service.url(path), Some(&service.api_token), None)
            .await
            .expect_error(409, "not_recording");
    }
    make_pro(&service).await;
    call_with(
        Method::POST,
        &service.url("/v1/recording/stop"),
        Some(&service.api_token),
        None,
        &agent,
    )
    .await
    .expect_error(409, "not_recording");
}

#[tokio::test]
async fn start_and_import_need_allow_remote_start() {
    let service = start();
    make_pro(&service).await;
    crate::post(&service, "/v1/recording/start", &json!({"source_app": "zoom"}))
        .await
        .expect_error(403, "remote_start_disabled");
    crate::post(&service, "/v1/import", &json!({"path": "/tmp/a.wav"}))
        .await
        .expect_error(403, "remote_start_disabled");
    assert_eq!(
        set_settings(&service, json!({"general": {"allow_remote_start": true}})).await.status,
        200
    );
    let answer = crate::post(&service, "/v1/recording/start", &json!({"source_app": "zoom"})).await;
    // Every gate passed; without a transcription model nothing is recorded.
    answer.expect_error(503, "model_unavailable");
}

#[tokio::test]
async fn agent_recording_policy_refuses_start_import_and_agent_prompts() {
    let options = Options {
        policy: Some(json!({"DisableAgentRecording": true, "OrganizationName": "Acme"})),
        settings: Some(json!({"general": {"allow_remote_start": true}})),
        ..Options::default()
    };
    let service = TestService::start(BIN, options);
    // Policy comes before the plan: Free gets policy_denied, not pro_required.
    for (path, body) in [
        ("/v1/recording/start", json!({"source_app": "zoom"})),
        ("/v1/import", json!({"path": "/tmp/a.wav"})),
    ] {
        let answer = crate::post(&service, path, &body).await;
        answer.expect_error(403, "policy_denied");
        let message = answer.body["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.contains("DisableAgentRecording") && message.contains("Managed by Acme"),
            "{message}"
        );
    }
    let prompt = json!({"source_app": "zoom", "title": "Call"});
    call_with(
        Method::POST,
        &service.url("/v1/recording/prompt"),
        Some(&service.api_token),
        Some(&prompt),
        &[("x-recorder-client", "gateway")],
    )
    .await
    .expect_error(403, "policy_denied");
    let person = crate::post(&service, "/v1/recording/prompt", &prompt).await;
    assert_eq!(person.status, 200, "a person answers prompts from the extension: {}", person.text);
}

#[tokio::test]
async fn notes_regeneration_validates_kind_then_queues_the_job() {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        ids = seed(data, &[SeedMeeting::ready("Done", 1_000, &["hello"])]);
    });
    make_pro(&service).await;
    let url = service.url(&format!("/v1/meetings/{}/notes", ids[0]));
    for body in [json!({"kind": "poem"}), json!({"kind": "custom"}), json!({})] {
        call(Method::POST, &url, Some(&service.api_token), Some(&body))
            .await
            .expect_error(400, "invalid_request");
    }
    let custom = json!({"kind": "custom", "template_id": "weekly"});
    call(Method::POST, &url, Some(&service.api_token), Some(&custom))
        .await
        .expect_error(404, "not_found");
    let accepted =
        call(Method::POST, &url, Some(&service.api_token), Some(&json!({"kind": "summary"}))).await;
    assert_eq!(accepted.status, 202, "{}", accepted.text);
    assert_eq!(accepted.body, json!({"meeting_id": ids[0], "status": "summarising"}));
}

#[tokio::test]
async fn import_checks_paths_formats_and_sizes() {
    let empty_path = tempfile::tempdir().expect("temp");
    let options = Options {
        settings: Some(json!({"general": {"allow_remote_start": true}})),
        search_path: Some(empty_path.path().to_path_buf()),
        ..Options::default()
    };
    let service = TestService::start(BIN, options);
    let files = service.folder.path();
    std::fs::write(files.join("notes.txt"), "text").expect("txt");
    std::fs::write(files.join("talk.wav"), wav_header()).expect("wav");
    std::fs::write(files.join("talk.mp3"), b"ID3").expect("mp3");
    std::fs::create_dir_all(files.join("folder.wav")).expect("dir");
    let huge = std::fs::File::create(files.join("huge.wav")).expect("huge");
    huge.set_len(4 * 1024 * 1024 * 1024 + 1).expect("sparse 4 GiB + 1");
    let import = |path: String| {
        let service = &service;
        async move { crate::post(service, "/v1/import", &json!({ "path": path })).await }
    };
    let at = |name: &str| files.join(name).display().to_string();
    import("relative/talk.wav".into()).await.expect_error(400, "invalid_request");
    import(at("missing.wav")).await.expect_error(400, "invalid_request");
    import(at("folder.wav")).await.expect_error(400, "invalid_request");
    import(at("notes.txt")).await.expect_error(415, "unsupported_audio_format");
    import(at("huge.wav")).await.expect_error(413, "file_too_large");
    import(at("talk.mp3")).await.expect_error(400, "converter_missing");
    let missing = import(at("talk.wav")).await;
    missing.expect_error(503, "model_unavailable");
    let message = missing.body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("recorder models install"), "says how to get one: {message}");
}

fn wav_header() -> Vec<u8> {
    let mut wav = b"RIFF".to_vec();
    wav.extend(36u32.to_le_bytes());
    wav.extend(b"WAVEfmt ");
    wav.extend(16u32.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(1u16.to_le_bytes());
    wav.extend(16_000u32.to_le_bytes());
    wav.extend(32_000u32.to_le_bytes());
    wav.extend(2u16.to_le_bytes());
    wav.extend(16u16.to_le_bytes());
    wav.extend(b"data");
    wav.extend(0u32.to_le_bytes());
    wav
}

#[tokio::test]
async fn pairing_codes_wrong_used_and_too_many_attempts() {
    let service = start();
    let pair = |code: String| {
        let service = &service;
        async move {
            call(Method::POST, &service.url("/v1/pair"), None, Some(&json!({ "code": code }))).await
        }
    };
    pair("123456".into()).await.expect_error(401, "invalid_pairing_code");
    let shown =
        call(Method::POST, &service.url("/ui/pairing-code"), Some(&service.ui_token), None).await;
    let code = shown.body["code"].as_str().expect("code").to_string();
    let expires_at = shown.body["expires_at"].as_i64().expect("expires_at");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_millis() as i64;
    assert!((expires_at - now - 120_000).abs() < 5_000, "valid for two minutes");
    let wrong = if code == "000000" { "000001" } else { "000000" };
    for _ in 0..5 {
        pair(wrong.into()).await.expect_error(401, "invalid_pairing_code");
    }
    pair(wrong.into()).await.expect_error(429, "too_many_attempts");
    pair(code.clone()).await.expect_error(401, "invalid_pairing_code");

    let shown =
        call(Method::POST, &service.url("/ui/pairing-code"), Some(&service.ui_token), None).await;
    let code = shown.body["code"].as_str().expect("code").to_string();
    assert_eq!(pair(code.clone()).await.status, 200);
    pair(code).await.expect_error(401, "invalid_pairing_code");
    pair("not json at all".into()).await.expect_error(401, "invalid_pairing_code");
}
