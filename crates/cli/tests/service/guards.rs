//! Tokens, token files, the Host check, web origins, scopes and the person's channel.

use reqwest::Method;
use serde_json::json;

use crate::{call, call_with, get, raw, start};

#[cfg(unix)]
#[test]
fn token_files_are_private_and_stable() {
    use std::os::unix::fs::PermissionsExt;
    let mut service = start();
    let data = service.data_dir();
    let mode = |path: std::path::PathBuf| {
        std::fs::metadata(path).expect("meta").permissions().mode() & 0o777
    };
    assert_eq!(mode(data.clone()), 0o700);
    assert_eq!(mode(data.join("api_token")), 0o600);
    assert_eq!(mode(data.join("ui_token")), 0o600);
    assert_eq!(service.api_token.len(), 43, "32 bytes in base64url without padding");
    assert_ne!(service.api_token, service.ui_token);
    let settings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(data.join("settings.json")).expect("settings"))
            .expect("json");
    assert_eq!(settings["general"]["api_port"], 47321);
    let token = service.api_token.clone();
    service.restart();
    assert_eq!(service.api_token, token, "a restart keeps the token");
}

#[cfg(unix)]
#[test]
fn an_existing_data_folder_is_made_private() {
    use std::os::unix::fs::PermissionsExt;
    let service =
        recorder_test_support::TestService::start_with(crate::BIN, Default::default(), |data| {
            std::fs::set_permissions(data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        });
    let mode = std::fs::metadata(service.data_dir()).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}

#[tokio::test]
async fn requests_without_a_valid_token_get_401_with_www_authenticate() {
    let service = start();
    for token in [None, Some("wrong"), Some(service.ui_token.as_str())] {
        let answer = call(Method::GET, &service.url("/v1/meetings"), token, None).await;
        answer.expect_error(401, "unauthorized");
        assert_eq!(
            answer.headers.get("www-authenticate").map(|v| v.to_str().unwrap_or("")),
            Some("Bearer")
        );
    }
    let basic = call_with(
        Method::GET,
        &service.url("/v1/health"),
        None,
        None,
        &[("authorization", "Basic abc")],
    )
    .await;
    basic.expect_error(401, "unauthorized");
    assert_eq!(get(&service, "/v1/health").await.status, 200);
}

#[tokio::test]
async fn api_token_is_refused_on_the_persons_channel() {
    let service = start();
    let answer =
        call(Method::POST, &service.url("/ui/pairing-code"), Some(&service.api_token), None).await;
    answer.expect_error(401, "unauthorized");
    let answer = call(Method::GET, &service.url("/ui/settings"), None, None).await;
    answer.expect_error(401, "unauthorized");
    let answer =
        call(Method::GET, &service.url("/ui/settings"), Some(&service.ui_token), None).await;
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn spoofed_host_headers_are_refused() {
    let service = start();
    let refused = ["evil.com", "127.0.0.1.evil.com", "localhost.evil.com", "127.0.0.2", "[::2]:80"];
    let allowed = ["localhost", "127.0.0.1:1", "[::1]:47321", "LOCALHOST"];
    let cases =
        refused.iter().map(|host| (host, false)).chain(allowed.iter().map(|host| (host, true)));
    for (host, ok) in cases {
        let answer = call_with(
            Method::GET,
            &service.url("/v1/health"),
            Some(&service.api_token),
            None,
            &[("host", host)],
        )
        .await;
        if ok {
            assert_eq!(answer.status, 200, "{host}: {}", answer.text);
        } else {
            answer.expect_error(403, "forbidden_host");
        }
    }
}

#[tokio::test]
async fn a_request_without_host_is_refused_even_with_a_token() {
    let service = start();
    let answer = raw(
        &service,
        &format!("GET /v1/health HTTP/1.0\r\nAuthorization: Bearer {}\r\n\r\n", service.api_token),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.0 403") || answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert!(answer.contains("forbidden_host"), "{answer}");
    let absolute = raw(
        &service,
        &format!(
            "GET http://evil.com/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nConnection: close\r\n\r\n",
            service.api_token
        ),
    )
    .await;
    assert!(absolute.contains("forbidden_host"), "absolute-form target: {absolute}");
}

#[tokio::test]
async fn web_origins_are_refused_and_never_allowed_by_cors() {
    let service = start();
    let from_page = call_with(
        Method::GET,
        &service.url("/v1/health"),
        Some(&service.api_token),
        None,
        &[("origin", "https://evil.example")],
    )
    .await;
    from_page.expect_error(403, "forbidden_host");
    let from_extension = call_with(
        Method::GET,
        &service.url("/v1/health"),
        Some(&service.api_token),
        None,
        &[("origin", "chrome-extension://abcdefghijklmnop")],
    )
    .await;
    assert_eq!(from_extension.status, 200);
    assert!(from_extension.headers.get("access-control-allow-origin").is_none());
    let preflight = call_with(
        Method::OPTIONS,
        &service.url("/v1/health"),
        None,
        None,
        &[("origin", "http://127.0.0.1:3000"), ("access-control-request-method", "GET")],
    )
    .await;
    assert!(preflight.headers.get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn paired_tokens_have_extension_scope_and_die_when_revoked() {
    let service = start();
    let token = crate::pair_extension(&service).await;

    assert_eq!(call(Method::GET, &service.url("/v1/health"), Some(&token), None).await.status, 200);
    for (method, path) in [
        (Method::GET, "/v1/meetings"),
        (Method::GET, "/v1/search?q=x"),
        (Method::GET, "/v1/ledger"),
        (Method::POST, "/v1/recording/start"),
        (Method::GET, "/v1/settings"),
    ] {
        call(method, &service.url(path), Some(&token), None)
            .await
            .expect_error(403, "insufficient_scope");
    }
    let prompt = call(
        Method::POST,
        &service.url("/v1/recording/prompt"),
        Some(&token),
        Some(
            &json!({ "source_app": "meet", "title": "Standup", "url": "https://meet.example/abc" }),
        ),
    )
    .await;
    assert_eq!(prompt.status, 200, "{}", prompt.text);
    call(Method::GET, &service.url("/ui/settings"), Some(&token), None)
        .await
        .expect_error(401, "unauthorized");

    // The first use is recorded in the background; give it a moment.
    let pairings_url = service.url("/ui/pairings");
    let mut list = call(Method::GET, &pairings_url, Some(&service.ui_token), None).await;
    for _ in 0..50 {
        if list.body["pairings"][0]["last_used_at"].as_i64().is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        list = call(Method::GET, &pairings_url, Some(&service.ui_token), None).await;
    }
    let last_used = list.body["pairings"][0]["last_used_at"].as_i64();
    assert!(last_used.is_some(), "use is recorded: {}", list.text);
    let id = list.body["pairings"][0]["id"].as_str().expect("pairing id").to_string();
    let revoked = call(
        Method::DELETE,
        &service.url(&format!("/ui/pairings/{id}")),
        Some(&service.ui_token),
        None,
    )
    .await;
    assert_eq!(revoked.status, 204);
    call(Method::GET, &service.url("/v1/health"), Some(&token), None)
        .await
        .expect_error(401, "unauthorized");
    call(
        Method::DELETE,
        &service.url(&format!("/ui/pairings/{id}")),
        Some(&service.ui_token),
        None,
    )
    .await
    .expect_error(404, "not_found");
}

#[tokio::test]
async fn paired_tokens_survive_a_restart_but_not_a_revocation_before_it() {
    let mut service = start();
    let token = crate::pair_extension(&service).await;
    service.restart();
    assert_eq!(call(Method::GET, &service.url("/v1/health"), Some(&token), None).await.status, 200);
    let needle = token.as_bytes();
    for file in ["recorder.db", "recorder.db-wal"] {
        let bytes = std::fs::read(service.data_dir().join(file)).unwrap_or_default();
        assert!(
            !bytes.windows(needle.len()).any(|window| window == needle),
            "only the hash is stored ({file})"
        );
    }
}
