//! A meeting's audio on the person's channel: playback with HTTP Range, and the
//! file-manager reveal under DisableAudioExport (Not Configured, true, false,
//! invalid), set through the policy file.

use std::path::Path;
use std::time::{Duration, Instant};

use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{apply_policy, call_with, person_call, refreshing, BIN};

/// A service whose file manager is a script that writes what it was asked to open.
fn start_with_audio(opened: &Path) -> (TestService, String, Vec<u8>) {
    let script = opened.with_extension("sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n", opened.display()),
    )
    .expect("opener script");
    make_executable(&script);
    let options = refreshing(Options {
        env: vec![("RECORDER_OPENER".into(), script.display().to_string())],
        ..Options::default()
    });
    let audio: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
    let mut id = String::new();
    let service = TestService::start_with(BIN, options, |data| {
        id = seed(data, &[SeedMeeting::ready("Audio", 1_700_000_000_000, &["Hello there."])])
            .remove(0);
        let folder = data.join("meetings").join(&id);
        std::fs::create_dir_all(&folder).expect("folder");
        std::fs::write(folder.join("mic.wav"), &audio).expect("audio");
    });
    (service, id, audio)
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

async fn fetch(service: &TestService, path: &str, range: Option<&str>) -> reqwest::Response {
    let mut request =
        recorder_test_support::http().get(service.url(path)).bearer_auth(&service.ui_token);
    if let Some(range) = range {
        request = request.header("range", range);
    }
    request.send().await.expect("audio request")
}

#[tokio::test]
async fn playback_answers_ranges_as_the_contract_says() {
    let folder = tempfile::tempdir().expect("temp");
    let (service, id, audio) = start_with_audio(&folder.path().join("opened"));
    let path = format!("/ui/meetings/{id}/audio/mic");
    let whole = fetch(&service, &path, None).await;
    assert_eq!(whole.status(), 200);
    assert_eq!(whole.headers()["content-type"], "audio/wav");
    assert_eq!(whole.headers()["accept-ranges"], "bytes");
    assert_eq!(whole.bytes().await.expect("body").to_vec(), audio);

    let part = fetch(&service, &path, Some("bytes=100-199")).await;
    assert_eq!(part.status(), 206);
    assert_eq!(part.headers()["content-range"], format!("bytes 100-199/{}", audio.len()));
    assert_eq!(part.bytes().await.expect("body").to_vec(), audio[100..200]);
    let tail = fetch(&service, &path, Some("bytes=-10")).await;
    assert_eq!(tail.status(), 206);
    assert_eq!(tail.bytes().await.expect("body").to_vec(), audio[audio.len() - 10..]);
    let beyond = fetch(&service, &path, Some(&format!("bytes={}-", audio.len()))).await;
    assert_eq!(beyond.status(), 416);
    assert_eq!(beyond.headers()["content-range"], format!("bytes */{}", audio.len()));

    let missing_channel =
        person_call(&service, Method::GET, &format!("/ui/meetings/{id}/audio/sys"), None).await;
    missing_channel.expect_error(404, "not_found");
    let bad_channel =
        person_call(&service, Method::GET, &format!("/ui/meetings/{id}/audio/both"), None).await;
    bad_channel.expect_error(404, "not_found");
    // The API token is not the person's.
    let with_api =
        call_with(Method::GET, &service.url(&path), Some(&service.api_token), None, &[]).await;
    with_api.expect_error(401, "unauthorized");
}

async fn actions(service: &TestService, id: &str) -> Value {
    let info = person_call(service, Method::GET, &format!("/ui/meetings/{id}/audio"), None).await;
    assert_eq!(info.status, 200, "{}", info.text);
    info.body["actions"].clone()
}

async fn reveal(service: &TestService, id: &str) -> crate::Answer {
    person_call(service, Method::POST, &format!("/ui/meetings/{id}/audio/reveal"), None).await
}

async fn wait_opened(opened: &Path, times: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let lines: Vec<String> = std::fs::read_to_string(opened)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect();
        if lines.len() >= times {
            return lines;
        }
        assert!(Instant::now() < deadline, "the file manager was not opened");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn disable_audio_export_removes_and_refuses_the_reveal_but_not_playback() {
    let folder = tempfile::tempdir().expect("temp");
    let opened = folder.path().join("opened");
    let (service, id, _) = start_with_audio(&opened);
    let meeting_folder = service.data_dir().join("meetings").join(&id);

    // Not Configured: reveal is offered and opens the meeting's folder.
    assert_eq!(actions(&service, &id).await, json!(["play", "reveal"]));
    assert_eq!(reveal(&service, &id).await.status, 204);
    assert_eq!(wait_opened(&opened, 1).await, [meeting_folder.display().to_string()]);

    apply_policy(&service, &json!({"DisableAudioExport": true, "OrganizationName": "Acme"})).await;
    assert_eq!(actions(&service, &id).await, json!(["play"]));
    let refused = reveal(&service, &id).await;
    refused.expect_error(403, "policy_denied");
    let message = refused.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("DisableAudioExport") && message.contains("Managed by Acme"),
        "{message}"
    );
    // Policy comes before the state check: an unknown meeting is refused the same way.
    reveal(&service, "0190a000-0000-7000-8000-000000000000")
        .await
        .expect_error(403, "policy_denied");
    let playback = fetch(&service, &format!("/ui/meetings/{id}/audio/mic"), None).await;
    assert_eq!(playback.status(), 200, "playback still works");

    apply_policy(&service, &json!({"DisableAudioExport": false})).await;
    assert_eq!(actions(&service, &id).await, json!(["play", "reveal"]));
    assert_eq!(reveal(&service, &id).await.status, 204);
    wait_opened(&opened, 2).await;

    apply_policy(&service, &json!({"DisableAudioExport": "yes"})).await;
    assert_eq!(
        actions(&service, &id).await,
        json!(["play", "reveal"]),
        "invalid is Not Configured"
    );
    assert_eq!(reveal(&service, &id).await.status, 204);
    wait_opened(&opened, 3).await;
    reveal(&service, "0190a000-0000-7000-8000-000000000000").await.expect_error(404, "not_found");
}
