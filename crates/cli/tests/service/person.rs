//! The person's channel: login links and cookies, prompts, settings, licences.

use recorder_test_support::{dev_license, http, seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{call, call_with, get, set_settings, start, BIN};

#[tokio::test]
async fn login_links_give_a_strict_http_only_session_once() {
    let service = start();
    let link =
        call(Method::POST, &service.url("/ui/login-links"), Some(&service.ui_token), None).await;
    assert_eq!(link.status, 200);
    let url = link.body["url"].as_str().expect("url").to_string();
    assert!(url.starts_with(&format!("http://127.0.0.1:{}/ui/login?code=", service.port)), "{url}");
    let first = http().get(&url).send().await.expect("login");
    assert_eq!(first.status(), 303);
    assert_eq!(first.headers()["location"], "/");
    let cookie = first.headers()["set-cookie"].to_str().expect("cookie").to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let session = cookie.split(';').next().expect("pair").to_string();
    let settings = call_with(
        Method::GET,
        &service.url("/ui/settings"),
        None,
        None,
        &[("cookie", &session), ("sec-fetch-site", "same-origin")],
    )
    .await;
    assert_eq!(settings.status, 200, "{}", settings.text);
    let again = http().get(&url).send().await.expect("second use");
    assert_eq!(again.status(), 401, "single use");
    let in_a_browser =
        http().get(&url).header("accept", "text/html").send().await.expect("browser");
    assert_eq!(in_a_browser.status(), 401);
    assert!(in_a_browser.headers()["content-security-policy"].to_str().is_ok());
    assert_eq!(in_a_browser.headers()["www-authenticate"], "Bearer", "as every 401");
    let page = in_a_browser.text().await.expect("page");
    assert!(page.contains("recorder open") && page.contains("<h1>"), "{page}");
    call_with(Method::GET, &service.url("/v1/health"), None, None, &[("cookie", &session)])
        .await
        .expect_error(401, "unauthorized");
    let forged = call_with(
        Method::GET,
        &service.url("/ui/settings"),
        None,
        None,
        &[("cookie", "recorder_session=forged"), ("sec-fetch-site", "same-origin")],
    )
    .await;
    forged.expect_error(401, "unauthorized");
}

#[tokio::test]
async fn prompts_are_shown_deduplicated_and_answered_by_the_person() {
    let service = start();
    let body = json!({"source_app": "meet", "title": "Design review", "url": "https://meet.example/xyz", "attendees": [{"name": "Ada"}]});
    let first = crate::post(&service, "/v1/recording/prompt", &body).await;
    assert_eq!(first.status, 200, "{}", first.text);
    let prompt_id = first.body["prompt_id"].as_str().expect("id").to_string();
    let second = crate::post(&service, "/v1/recording/prompt", &body).await;
    assert_eq!(second.body["prompt_id"], prompt_id.as_str(), "same URL while pending: same prompt");
    let other = crate::post(
        &service,
        "/v1/recording/prompt",
        &json!({"source_app": "meet", "url": "https://meet.example/other"}),
    )
    .await;
    assert_ne!(other.body["prompt_id"], prompt_id.as_str());
    crate::post(&service, "/v1/recording/prompt", &json!({"source_app": ""}))
        .await
        .expect_error(400, "invalid_request");

    let answer_url = service.url(&format!("/ui/prompts/{prompt_id}/answer"));
    call(Method::POST, &answer_url, Some(&service.api_token), Some(&json!({"answer": "decline"})))
        .await
        .expect_error(401, "unauthorized");
    call(Method::POST, &answer_url, Some(&service.ui_token), Some(&json!({"answer": "maybe"})))
        .await
        .expect_error(400, "invalid_request");
    call(Method::POST, &answer_url, Some(&service.ui_token), Some(&json!({"answer": "record"})))
        .await
        .expect_error(503, "model_unavailable");
    let declined = call(
        Method::POST,
        &answer_url,
        Some(&service.ui_token),
        Some(&json!({"answer": "decline"})),
    )
    .await;
    assert_eq!(declined.status, 200, "the prompt was still pending: {}", declined.text);
    assert_eq!(
        declined.body,
        json!({"prompt_id": prompt_id, "accepted": false, "answer": "decline"})
    );
    call(Method::POST, &answer_url, Some(&service.ui_token), Some(&json!({"answer": "decline"})))
        .await
        .expect_error(404, "not_found");
    call(
        Method::POST,
        &service.url("/ui/prompts/nope/answer"),
        Some(&service.ui_token),
        Some(&json!({"answer": "decline"})),
    )
    .await
    .expect_error(404, "not_found");
}

#[tokio::test]
async fn settings_merge_keep_unknown_keys_and_validate() {
    let service = start();
    let path = service.data_dir().join("settings.json");
    let mut document: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    document["plugins"] = json!({"kept": true});
    std::fs::write(&path, document.to_string()).expect("write");
    let mut service = service;
    service.restart();

    let changed = set_settings(
        &service,
        json!({"general": {"user_name": "Ada"}, "recording": {"language": "de"}}),
    )
    .await;
    assert_eq!(changed.status, 200, "{}", changed.text);
    assert_eq!(changed.body["general"]["user_name"], "Ada");
    assert_eq!(changed.body["general"]["api_port"], 47321, "merged, not replaced");
    let on_disk: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    assert_eq!(on_disk["plugins"]["kept"], true);
    assert_eq!(on_disk["recording"]["language"], "de");
    let effective = get(&service, "/v1/settings").await;
    assert_eq!(effective.body["general"]["user_name"], "Ada");

    for bad in [
        json!({"general": {"api_port": "x"}}),
        json!({"general": {"api_port": 0}}),
        json!({"retention": {"keep_audio_days": 0}}),
        json!({"ai": {"provider": "skynet"}}),
        json!({"transcription": {"decoding": "fast"}}),
        json!([1]),
    ] {
        set_settings(&service, bad.clone()).await.expect_error(400, "invalid_request");
    }
    call(Method::PATCH, &service.url("/v1/settings"), Some(&service.api_token), Some(&json!({})))
        .await
        .expect_error(405, "method_not_allowed");
}

#[tokio::test]
async fn licences_are_verified_installed_and_kept() {
    let mut service = start();
    let install = |license: Value| {
        let service = &service;
        async move {
            call(
                Method::POST,
                &service.url("/ui/license"),
                Some(&service.ui_token),
                Some(&json!({ "license": license })),
            )
            .await
        }
    };
    let mut forged = dev_license(None);
    forged["payload"] = json!("eyJsaWNlbnNlZSI6IkV2ZSIsInBsYW4iOiJwcm8iLCJpc3N1ZWRfYXQiOjF9");
    install(forged).await.expect_error(400, "invalid_request");
    install(dev_license(Some(1_000))).await.expect_error(400, "invalid_request");
    install(json!({"payload": "!!", "signature": "??"})).await.expect_error(400, "invalid_request");
    let answer = crate::post(&service, "/v1/recording/start", &json!({"source_app": "zoom"})).await;
    answer.expect_error(402, "pro_required");

    let installed = install(dev_license(None)).await;
    assert_eq!(installed.status, 200, "{}", installed.text);
    assert_eq!(installed.body, json!({"plan": "pro"}));
    service.restart();
    let answer = crate::post(&service, "/v1/recording/start", &json!({"source_app": "zoom"})).await;
    answer.expect_error(403, "remote_start_disabled");
}

#[tokio::test]
async fn the_home_page_shows_nothing_private() {
    let service = TestService::start_with(BIN, Options::default(), |dir| {
        seed(dir, &[SeedMeeting::ready("Secret merger talks", 1_700_000_000_000, &["Hush."])]);
    });
    let page = call(Method::GET, &service.url("/"), None, None).await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains("recorder open"), "said without script too: {}", page.text);
    for secret in [service.api_token.as_str(), service.ui_token.as_str(), "Secret merger", "Hush"] {
        assert!(!page.text.contains(secret), "{secret} in {}", page.text);
    }
}

#[tokio::test]
async fn a_new_data_folder_has_an_empty_privacy_ledger() {
    let service = start();
    let ledger = get(&service, "/v1/ledger").await;
    assert_eq!(ledger.status, 200);
    assert_eq!(ledger.body, json!({"entries": []}));
}
