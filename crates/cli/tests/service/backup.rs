//! `recorder backup` while a real service records, and `recorder restore`
//! into a new folder that a new service then uses: the recording in progress
//! at the time of the backup comes back like one cut off by a crash.

use std::process::Command;
use std::time::Duration;

use recorder_test_support::{seed, SeedMeeting, TestService};
use serde_json::{json, Value};

use crate::import::wait_ready;
use crate::recording::{call_files, person, recording_options};
use crate::{get, BIN};

#[tokio::test]
async fn a_backup_made_during_a_recording_restores_into_a_working_service() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let options = recording_options(&mic, &sys, 1.0);
    let mut earlier = String::new();
    let service = TestService::start_with(BIN, options.clone(), |data| {
        earlier = seed(data, &[SeedMeeting::ready("Budget", 1_700_000_000_000, &["We agreed."])])
            .remove(0);
    });
    let started = person(&service, "/ui/recording/start", Some(json!({"title": "Call"}))).await;
    let id = started.body["id"].as_str().expect("id").to_owned();
    tokio::time::sleep(Duration::from_secs(3)).await;

    let file = folder.path().join("backup.tar");
    let made = service.cli().args(["backup", "--json", "--to"]).arg(&file).output().expect("run");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let report: Value = serde_json::from_slice(&made.stdout).expect("json");
    assert_eq!(report["meetings"], 2, "{report}");
    assert!(report["audio_bytes"].as_u64().unwrap_or(0) > 0, "{report}");
    // The recording went on: still active, and it ends normally.
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], true);
    let stopped = person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    wait_ready(&service, &id).await;

    // settings.json comes from the backup.
    let restored_options = recorder_test_support::Options { settings: None, ..options };
    let restored = TestService::start_with(BIN, restored_options, |data| {
        let output = Command::new(BIN)
            .args(["restore", "--data-dir"])
            .arg(data)
            .arg(&file)
            .env_remove("RECORDER_DATA_DIR")
            .output()
            .expect("run");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(said.contains("Restored 2 meetings"), "{said}");
    });
    let budget = get(&restored, &format!("/v1/meetings/{earlier}")).await;
    assert_eq!(budget.body["title"], "Budget");
    let call = wait_ready(&restored, &id).await;
    assert!(call["processing_error"].as_str().unwrap_or("").contains("cut off"), "{call}");
    assert!(call["duration_ms"].as_i64().unwrap_or(0) >= 2_000, "{call}");

    // A folder in use is never overwritten.
    let again = Command::new(BIN)
        .args(["restore", "--data-dir"])
        .arg(restored.data_dir())
        .arg(&file)
        .env_remove("RECORDER_DATA_DIR")
        .output()
        .expect("run");
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("is not empty"));
}
