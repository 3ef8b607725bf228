//! The trust boundary on this machine (SECURITY.md): only the app's own pages
//! act with the session, a session can be signed out, the service proves who it
//! is without a token, a paired extension sees no transcript text, and managed
//! policy keeps applying when its file breaks.

use std::time::Duration;

use recorder_api_types::identity::{key_id, proof, token_digest};
use recorder_test_support::impostor::Impostor;
use recorder_test_support::{http, seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{call, call_with, get, start, Answer, BIN};

/// Signs in as a browser does: a login link, then its cookie (`name=value`).
async fn sign_in(service: &TestService, user_agent: &str) -> String {
    let link =
        call(Method::POST, &service.url("/ui/login-links"), Some(&service.ui_token), None).await;
    let url = link.body["url"].as_str().expect("url").to_string();
    let login = http().get(&url).header("user-agent", user_agent).send().await.expect("login");
    assert_eq!(login.status(), 303);
    let cookie = login.headers()["set-cookie"].to_str().expect("cookie").to_string();
    cookie.split(';').next().expect("pair").to_string()
}

async fn with_cookie(
    service: &TestService,
    method: Method,
    path: &str,
    cookie: &str,
    from: &[(&str, &str)],
) -> Answer {
    let mut headers = vec![("cookie", cookie)];
    headers.extend_from_slice(from);
    call_with(method, &service.url(path), None, Some(&json!({})), &headers).await
}

const CHROMIUM: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

#[tokio::test]
async fn only_the_apps_own_pages_act_with_the_session() {
    let service = start();
    let cookie = sign_in(&service, CHROMIUM).await;
    let own = format!("http://127.0.0.1:{}", service.port);
    let routes = [
        (Method::GET, "/ui/settings"),
        (Method::POST, "/ui/pairing-code"),
        (Method::POST, "/ui/recording/start"),
        (Method::GET, "/ui/events"),
        (Method::GET, "/ui/meetings"),
        (Method::POST, "/ui/models/install"),
        (Method::POST, "/ui/login-links"),
    ];
    // A page on another port of this machine: the browser adds the cookie
    // (cookies ignore ports) but also says where the request comes from.
    let other_pages: [&[(&str, &str)]; 5] = [
        &[("origin", "http://127.0.0.1:8888")],
        &[("origin", "http://localhost:8888"), ("sec-fetch-site", "same-site")],
        &[("origin", "null")],
        &[("sec-fetch-site", "same-site")],
        &[("sec-fetch-site", "cross-site")],
    ];
    for (method, path) in &routes {
        for from in other_pages {
            with_cookie(&service, method.clone(), path, &cookie, from)
                .await
                .expect_error(403, "forbidden_origin");
        }
        // Neither header: not a browser page of this app.
        with_cookie(&service, method.clone(), path, &cookie, &[])
            .await
            .expect_error(403, "forbidden_origin");
    }
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], false);
    let pairings = service.url("/ui/pairings");
    assert_eq!(call(Method::GET, &pairings, Some(&service.ui_token), None).await.status, 200);

    // The app's own pages: its origin, or same-origin / typed-in navigation.
    for from in [
        &[("origin", own.as_str())][..],
        &[("sec-fetch-site", "same-origin")][..],
        &[("sec-fetch-site", "none")][..],
    ] {
        let settings = with_cookie(&service, Method::GET, "/ui/settings", &cookie, from).await;
        assert_eq!(settings.status, 200, "{from:?}: {}", settings.text);
    }
    // The CLI's bearer `ui_token` needs no Origin.
    let settings = service.url("/ui/settings");
    assert_eq!(call(Method::GET, &settings, Some(&service.ui_token), None).await.status, 200);
}

#[tokio::test]
async fn signing_out_ends_the_session_and_sessions_are_listed() {
    let service = start();
    let same = [("sec-fetch-site", "same-origin")];
    let browser = sign_in(&service, CHROMIUM).await;
    let other =
        sign_in(&service, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")
            .await;
    let list = with_cookie(&service, Method::GET, "/ui/sessions", &browser, &same).await;
    assert_eq!(list.status, 200, "{}", list.text);
    let sessions = list.body["sessions"].as_array().expect("sessions").clone();
    assert_eq!(sessions.len(), 2, "{}", list.text);
    let current: Vec<&Value> = sessions.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["browser"], "Chrome");
    assert_eq!(current[0]["source"], "browser");
    let firefox = sessions.iter().find(|s| s["browser"] == "Firefox").expect("firefox");
    assert!(firefox["expires_at"].as_i64() > firefox["last_used_at"].as_i64());

    // The other session's open event stream ends when it is signed out.
    let stream = http()
        .get(service.url("/ui/events"))
        .header("cookie", &other)
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .expect("events");
    assert_eq!(stream.status(), 200);

    // Ending the other session from this one.
    let path = format!("/ui/sessions/{}", firefox["id"].as_str().expect("id"));
    let ended = with_cookie(&service, Method::DELETE, &path, &browser, &same).await;
    assert_eq!(ended.status, 204, "{}", ended.text);
    with_cookie(&service, Method::GET, "/ui/settings", &other, &same)
        .await
        .expect_error(401, "unauthorized");
    let body = tokio::time::timeout(Duration::from_secs(10), stream.text())
        .await
        .expect("the signed-out session's stream ends")
        .expect("body");
    assert!(body.contains("retry"), "{body}");
    with_cookie(&service, Method::DELETE, &path, &browser, &same)
        .await
        .expect_error(404, "not_found");

    // Signing out this one: the cookie is cleared and refused from then on.
    let out = with_cookie(&service, Method::POST, "/ui/logout", &browser, &same).await;
    assert_eq!(out.status, 204, "{}", out.text);
    let cleared = out.headers["set-cookie"].to_str().expect("cookie");
    assert!(
        cleared.starts_with("recorder_session=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    with_cookie(&service, Method::GET, "/ui/settings", &browser, &same)
        .await
        .expect_error(401, "unauthorized");
    // A replay of the old cookie by another program, Origin and all: refused.
    let own = format!("http://127.0.0.1:{}", service.port);
    with_cookie(&service, Method::POST, "/ui/pairing-code", &browser, &[("origin", &own)])
        .await
        .expect_error(401, "unauthorized");
    // ui_token has no session to end.
    call(Method::POST, &service.url("/ui/logout"), Some(&service.ui_token), None)
        .await
        .expect_error(400, "invalid_request");
}

#[tokio::test]
async fn the_service_proves_it_holds_each_token_without_sending_any() {
    let service = start();
    let paired = crate::pair_extension(&service).await;
    let nonce = "bm9uY2Utb2YtdGhlLXRlc3QtMTIzNDU2Nzg5MA";
    for token in [&service.api_token, &service.ui_token, &paired] {
        let digest = token_digest(token);
        let url = service
            .url(&format!("/.well-known/recorder-identity?nonce={nonce}&key={}", key_id(&digest)));
        let answer = call(Method::GET, &url, None, None).await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        assert_eq!(answer.body["service"], "recorder");
        assert_eq!(answer.body["proof"], proof(&digest, service.port, nonce).as_str());
        assert!(!answer.text.contains(token.as_str()));
    }
    let unknown = key_id(&token_digest("not a token of this service"));
    let url = service.url(&format!("/.well-known/recorder-identity?nonce={nonce}&key={unknown}"));
    call(Method::GET, &url, None, None).await.expect_error(401, "unauthorized");
    for query in ["nonce=short&key=00", "key=00000000000000000000000000000000", ""] {
        let url = service.url(&format!("/.well-known/recorder-identity?{query}"));
        call(Method::GET, &url, None, None).await.expect_error(400, "invalid_request");
    }
}

#[tokio::test]
async fn the_cli_sends_no_token_to_another_program_on_the_port() {
    let mut service = start();
    let port = service.port;
    service.stop();
    // Something else takes the port while the service is down and logs what it gets.
    let impostor = Impostor::listen(port);
    for args in [&["status"][..], &["meetings", "list"], &["pair"], &["open", "--print"]] {
        let output = service.cli().args(args).output().expect("cli runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "something else is listening on port {port}; it is not this Recorder"
            )),
            "{args:?}: {stderr}"
        );
    }
    impostor.assert_got_no_token(&[&service.api_token, &service.ui_token]);
}

#[tokio::test]
async fn a_paired_extension_sees_recording_state_and_prompts_but_no_meeting_content() {
    let now = 1_750_000_000_000;
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        ids = seed(data, &[SeedMeeting::ready("Salaries", now, &["Confidential numbers."])]);
    });
    let token = crate::pair_extension(&service).await;
    let rename = json!({"title": "Salaries, renamed"});
    let path = service.url(&format!("/v1/meetings/{}", ids[0]));
    assert_eq!(
        call(Method::PATCH, &path, Some(&service.api_token), Some(&rename)).await.status,
        200
    );
    let prompt = json!({"source_app": "zoom", "title": "Standup", "url": "https://zoom.us/wc/1"});
    let prompt_url = service.url("/v1/recording/prompt");
    assert_eq!(call(Method::POST, &prompt_url, Some(&token), Some(&prompt)).await.status, 200);

    let kinds = |mut frames: tokio::sync::mpsc::UnboundedReceiver<crate::events::Frame>| async move {
        let mut kinds = Vec::new();
        while let Ok(Some(frame)) =
            tokio::time::timeout(Duration::from_millis(800), frames.recv()).await
        {
            kinds.extend(frame.event);
        }
        kinds
    };
    let everyone = kinds(crate::events::open(&service, Some("0")).await).await;
    assert!(everyone.contains(&"meeting.updated".to_string()), "{everyone:?}");
    let extension =
        kinds(crate::events::open_at(&service, "/v1/events", &token, Some("0")).await).await;
    assert_eq!(extension, ["pair.completed", "prompt.shown"], "the extension's stream");
}

#[tokio::test]
async fn a_policy_that_breaks_keeps_the_last_good_one_and_says_so() {
    // Written by hand (not through `Options`, which a restart writes again).
    let mut service = start();
    service.write_policy(&json!({"DisableAudioExport": true}));
    service.restart();
    let key = |report: &Value| {
        report["keys"]
            .as_array()
            .and_then(|keys| keys.iter().find(|k| k["key"] == "DisableAudioExport").cloned())
            .map(|k| k["value"].clone())
    };
    let report = get(&service, "/v1/policy").await.body;
    assert_eq!(key(&report), Some(json!(true)));
    assert!(report.get("error").is_none(), "{report}");
    assert!(service.data_dir().join("policy-last-good.json").exists());

    // The administrator's file breaks, and the service starts again.
    std::fs::write(service.policy_path(), "{ \"DisableAudioExport\": tru").expect("break it");
    service.restart();
    let report = get(&service, "/v1/policy").await.body;
    assert_eq!(key(&report), Some(json!(true)), "never 'nothing configured': {report}");
    assert!(report["error"].as_str().is_some_and(|e| e.contains("malformed")), "{report}");

    // Fixed: the error goes, the new policy applies.
    service.write_policy(&json!({"DisableAudioExport": false}));
    service.restart();
    let report = get(&service, "/v1/policy").await.body;
    assert_eq!(key(&report), Some(json!(false)));
    assert!(report.get("error").is_none(), "{report}");
}
