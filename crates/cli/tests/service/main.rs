//! Integration tests: a real `recorder serve` on an ephemeral port with a temporary
//! data folder, driven over real HTTP (and raw TCP where HTTP clients would fix
//! up a bad request for us).

mod again;
mod ai_keys;
mod app;
mod ask;
mod audio;
mod backup;
mod calls;
mod capture;
mod cli;
mod concurrency;
mod corrections;
mod disk_full;
mod embedded_notes;
mod errors;
mod events;
mod export;
mod guards;
mod import;
mod languages;
mod meetings;
mod models;
mod person;
mod policy;
mod properties;
mod providers;
mod recording;
mod retention;
mod search;
mod speakers;
mod stand_in;
mod stop;
mod trust;
mod voice_reading;
mod words;

use recorder_test_support::{http, Options, TestService};
use reqwest::header::HeaderMap;
use reqwest::Method;
use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_recorder");

/// The machine's CPU, as the tests that need it share it: those that run the
/// notes model hold it shared, those that check what a recording shows while
/// it is recorded (which must keep pace with the audio) hold it alone. The
/// other tests run beside either, as a person's other programs would.
static CPU: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// For a test that keeps the CPU busy for long (the notes model).
pub async fn busy_cpu() -> tokio::sync::RwLockReadGuard<'static, ()> {
    CPU.read().await
}

/// For a test whose live checks need the CPU a recording is given.
pub async fn live_cpu() -> tokio::sync::RwLockWriteGuard<'static, ()> {
    CPU.write().await
}

pub fn start() -> TestService {
    TestService::start(BIN, Options::default())
}

/// One answer: status, headers and the body as JSON (or a JSON string of the text).
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
}

impl Answer {
    /// Asserts the contract's error shape with this status and code.
    pub fn expect_error(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "body: {}", self.text);
        assert_eq!(self.body["error"]["code"], code, "body: {}", self.text);
        assert!(
            self.body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
        assert_eq!(self.body.as_object().map(|o| o.len()), Some(1), "only `error`: {}", self.text);
    }
}

pub async fn call(method: Method, url: &str, token: Option<&str>, body: Option<&Value>) -> Answer {
    call_with(method, url, token, body, &[]).await
}

pub async fn call_with(
    method: Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request = http().request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request reaches the service");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text.clone()));
    Answer { status, headers, body, text }
}

pub async fn get(service: &TestService, path: &str) -> Answer {
    call(Method::GET, &service.url(path), Some(&service.api_token), None).await
}

/// `POST` with the API token and a JSON body.
pub async fn post(service: &TestService, path: &str, body: &Value) -> Answer {
    call(Method::POST, &service.url(path), Some(&service.api_token), Some(body)).await
}

/// `DELETE` with the API token.
pub async fn delete(service: &TestService, path: &str) -> Answer {
    call(Method::DELETE, &service.url(path), Some(&service.api_token), None).await
}

/// Installs a development licence through the person's channel (Pro plan).
pub async fn make_pro(service: &TestService) {
    let body = serde_json::json!({ "license": recorder_test_support::dev_license(None) });
    let answer =
        call(Method::POST, &service.url("/ui/license"), Some(&service.ui_token), Some(&body)).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
}

/// Shows a pairing code through the person's channel and exchanges it for an
/// extension token, as the browser extension does.
pub async fn pair_extension(service: &TestService) -> String {
    let shown =
        call(Method::POST, &service.url("/ui/pairing-code"), Some(&service.ui_token), None).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    let code = shown.body["code"].as_str().expect("code").to_string();
    assert!(code.len() == 6 && code.chars().all(|c| c.is_ascii_digit()), "{code}");
    let body = serde_json::json!({ "code": code });
    let paired = call(Method::POST, &service.url("/v1/pair"), None, Some(&body)).await;
    assert_eq!(paired.status, 200, "{}", paired.text);
    paired.body["token"].as_str().expect("token").to_string()
}

/// Changes settings through the person's channel.
pub async fn set_settings(service: &TestService, patch: Value) -> Answer {
    call(Method::PATCH, &service.url("/ui/settings"), Some(&service.ui_token), Some(&patch)).await
}

/// Sends raw bytes and returns the raw answer (for requests clients would fix).
pub async fn raw(service: &TestService, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream =
        tokio::net::TcpStream::connect(("127.0.0.1", service.port)).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    let _ =
        tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut answer))
            .await;
    String::from_utf8_lossy(&answer).to_string()
}

/// A call on the person's channel (`ui_token`).
pub async fn person_call(
    service: &TestService,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> Answer {
    call(method, &service.url(path), Some(&service.ui_token), body).await
}

/// Writes a new policy file and waits until the service has read it: every key
/// of `policy` shows its value in `/v1/policy`, or is listed as invalid.
pub async fn apply_policy(service: &TestService, policy: &Value) {
    service.write_policy(policy);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let report = get(service, "/v1/policy").await.body;
        let read = policy.as_object().expect("policy object").iter().all(|(key, value)| {
            let shown = report["keys"]
                .as_array()
                .and_then(|keys| keys.iter().find(|entry| entry["key"] == *key))
                .map(|entry| entry["value"].clone());
            let invalid = report["invalid"]
                .as_array()
                .is_some_and(|list| list.iter().any(|entry| entry["key"] == *key));
            shown.as_ref() == Some(value) || invalid
        });
        let gone = report["keys"].as_array().is_some_and(|keys| {
            keys.iter().all(|entry| {
                entry["value"].is_null()
                    || policy.get(entry["key"].as_str().unwrap_or("")).is_some()
            })
        });
        if read && gone {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "policy not applied: {report}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// Options whose policy file is re-read every second.
pub fn refreshing(options: Options) -> Options {
    Options {
        policy: Some(options.policy.clone().unwrap_or_else(|| serde_json::json!({}))),
        policy_refresh_secs: Some(1),
        ..options
    }
}
