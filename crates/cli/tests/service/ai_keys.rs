//! ForceLocalModel, DisableCloudAIKeys and OrganizationName, each Not
//! Configured, true, false and invalid, set through the policy file and checked
//! through the API: choosing providers, saving keys, the loopback judgment.

use std::net::ToSocketAddrs;

use recorder_test_support::{Options, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{apply_policy, get, person_call, refreshing, set_settings, BIN};

fn start() -> TestService {
    TestService::start(BIN, refreshing(Options::default()))
}

async fn save_key(service: &TestService, provider: &str) -> crate::Answer {
    let body = json!({"key": "sk-test-key-123"});
    person_call(service, Method::PUT, &format!("/ui/ai/keys/{provider}"), Some(&body)).await
}

async fn choose(service: &TestService, ai: Value) -> crate::Answer {
    set_settings(service, json!({ "ai": ai })).await
}

fn refused_by(answer: &crate::Answer, key: &str, managed_by: &str) {
    answer.expect_error(403, "policy_denied");
    let message = answer.body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(key) && message.contains(managed_by), "{message}");
}

/// Every choice is open: cloud kinds, keys, a local server anywhere.
async fn everything_allowed(service: &TestService) {
    assert_eq!(save_key(service, "anthropic").await.status, 204);
    assert_eq!(save_key(service, "openai_compatible").await.status, 204);
    assert_eq!(choose(service, json!({"provider": "anthropic"})).await.status, 200);
    assert_eq!(choose(service, json!({"provider": "openai_compatible"})).await.status, 200);
    let remote =
        choose(service, json!({"provider": "local", "local_url": "http://10.0.0.5:11434"})).await;
    assert_eq!(remote.status, 200, "{}", remote.text);
    assert_eq!(choose(service, json!({"provider": "builtin"})).await.status, 200);
}

#[tokio::test]
async fn force_local_model_refuses_cloud_and_remote_servers_judged_by_real_addresses() {
    let service = start();
    everything_allowed(&service).await; // Not Configured

    apply_policy(&service, &json!({"ForceLocalModel": true, "OrganizationName": "Acme"})).await;
    refused_by(&save_key(&service, "anthropic").await, "ForceLocalModel", "Managed by Acme");
    refused_by(
        &save_key(&service, "openai_compatible").await,
        "ForceLocalModel",
        "Managed by Acme",
    );
    assert_eq!(
        save_key(&service, "local").await.status,
        204,
        "a local server's key is not a cloud key"
    );
    let cleared = person_call(&service, Method::DELETE, "/ui/ai/keys/anthropic", None).await;
    assert_eq!(cleared.status, 204, "clearing a key is always allowed");
    refused_by(
        &choose(&service, json!({"provider": "anthropic"})).await,
        "ForceLocalModel",
        "Acme",
    );
    refused_by(
        &choose(&service, json!({"provider": "openai_compatible"})).await,
        "ForceLocalModel",
        "Acme",
    );
    for remote in [
        "http://10.0.0.5:11434",
        "http://[::ffff:10.0.0.1]:11434",
        "http://does-not-exist.invalid:11434",
    ] {
        let answer = choose(&service, json!({"provider": "local", "local_url": remote})).await;
        refused_by(&answer, "ForceLocalModel", "Acme");
    }
    for local in [
        "http://127.0.0.1:11434",
        "http://0x7f000001:11434",
        "http://[::ffff:127.0.0.1]:11434",
        "http://[::1]:8080/v1",
        "http://localhost:11434",
    ] {
        let answer = choose(&service, json!({"provider": "local", "local_url": local})).await;
        assert_eq!(answer.status, 200, "{local}: {}", answer.text);
    }
    // A name is judged by what it really resolves to on this machine.
    let name = "http://127.0.0.1.nip.io:11434";
    let resolved: Vec<_> =
        ("127.0.0.1.nip.io", 11434).to_socket_addrs().map(|a| a.collect()).unwrap_or_default();
    let loopback = !resolved.is_empty()
        && resolved.iter().all(|a: &std::net::SocketAddr| a.ip().is_loopback());
    let answer = choose(&service, json!({"provider": "local", "local_url": name})).await;
    assert_eq!(answer.status == 200, loopback, "{name} resolves to {resolved:?}: {}", answer.text);

    // A local server chosen before the key: shown as managed, forced built-in.
    apply_policy(&service, &json!({})).await;
    assert_eq!(
        choose(&service, json!({"provider": "local", "local_url": "http://10.0.0.5:11434"}))
            .await
            .status,
        200
    );
    apply_policy(&service, &json!({"ForceLocalModel": true})).await;
    let settings = get(&service, "/v1/settings").await.body;
    assert_eq!(
        settings["ai"]["provider"],
        json!({"value": "builtin", "managed": true, "managed_by": "your organisation"})
    );

    apply_policy(&service, &json!({"ForceLocalModel": false})).await;
    everything_allowed(&service).await;
    apply_policy(&service, &json!({"ForceLocalModel": "yes"})).await;
    everything_allowed(&service).await; // invalid: Not Configured
}

#[tokio::test]
async fn disable_cloud_ai_keys_refuses_cloud_kinds_but_not_a_local_server_anywhere() {
    let service = start();
    apply_policy(&service, &json!({"DisableCloudAIKeys": true})).await;
    refused_by(&save_key(&service, "anthropic").await, "DisableCloudAIKeys", "your organisation");
    refused_by(
        &save_key(&service, "openai_compatible").await,
        "DisableCloudAIKeys",
        "your organisation",
    );
    refused_by(
        &choose(&service, json!({"provider": "anthropic"})).await,
        "DisableCloudAIKeys",
        "your organisation",
    );
    let remote =
        choose(&service, json!({"provider": "local", "local_url": "http://10.0.0.5:11434"})).await;
    assert_eq!(remote.status, 200, "{}", remote.text);
    apply_policy(&service, &json!({"DisableCloudAIKeys": false})).await;
    everything_allowed(&service).await;
    apply_policy(&service, &json!({"DisableCloudAIKeys": 1})).await;
    everything_allowed(&service).await;
}

#[tokio::test]
async fn organization_name_is_shown_with_every_managed_setting() {
    let service = start();
    apply_policy(&service, &json!({"DisableAutoExport": true, "OrganizationName": "Acme Corp"}))
        .await;
    let settings = get(&service, "/v1/settings").await.body;
    assert_eq!(settings["export"]["auto_export_markdown"]["managed_by"], "Acme Corp");
    assert_eq!(get(&service, "/v1/policy").await.body["managed_by"], "Acme Corp");
    apply_policy(&service, &json!({"DisableAutoExport": true, "OrganizationName": "x".repeat(81)}))
        .await;
    let settings = get(&service, "/v1/settings").await.body;
    assert_eq!(settings["export"]["auto_export_markdown"]["managed_by"], "your organisation");
    apply_policy(&service, &json!({"DisableAutoExport": true})).await;
    let refused = set_settings(&service, json!({"export": {"auto_export_markdown": true}})).await;
    refused_by(&refused, "DisableAutoExport", "Managed by your organisation");
}

#[tokio::test]
async fn keys_are_saved_through_the_cli_without_echo_and_listed_without_the_key() {
    let service = start();
    let mut child = service
        .cli()
        .args(["ai", "set-key", "anthropic"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("cli");
    use std::io::Write;
    child.stdin.take().expect("stdin").write_all(b"sk-from-stdin-42\n").expect("write");
    let output = child.wait_with_output().expect("cli ends");
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stdout).contains("sk-from-stdin-42"));
    let listed = person_call(&service, Method::GET, "/ui/ai/keys", None).await;
    assert!(!listed.text.contains("sk-from"));
    let anthropic = listed.body["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .find(|k| k["provider"] == "anthropic")
        .cloned();
    assert_eq!(
        anthropic,
        Some(json!({"provider": "anthropic", "stored": true, "location": "file"}))
    );
    let keys_file = std::fs::read_to_string(service.data_dir().join("ai_keys.json")).expect("file");
    assert!(keys_file.contains("sk-from-stdin-42"));
    let output = service.cli().args(["ai", "clear-key", "anthropic"]).output().expect("cli");
    assert!(output.status.success());
    let again = person_call(&service, Method::DELETE, "/ui/ai/keys/anthropic", None).await;
    again.expect_error(404, "not_found");
    person_call(&service, Method::PUT, "/ui/ai/keys/builtin", Some(&json!({"key": "x"})))
        .await
        .expect_error(404, "not_found");
    let bad =
        person_call(&service, Method::PUT, "/ui/ai/keys/anthropic", Some(&json!({"key": "a\nb"})))
            .await;
    bad.expect_error(400, "invalid_request");
    // The API token cannot save keys.
    let with_api = crate::call(
        Method::PUT,
        &service.url("/ui/ai/keys/anthropic"),
        Some(&service.api_token),
        Some(&json!({"key": "k"})),
    )
    .await;
    with_api.expect_error(401, "unauthorized");
}
