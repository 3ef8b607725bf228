//! Managed policy: reading, validation, effects on settings, and refresh.

use std::time::{Duration, Instant};

use recorder_test_support::{Options, TestService};
use serde_json::{json, Value};

use crate::{get, set_settings, BIN};

fn value_of(report: &Value, key: &str) -> Value {
    report["keys"]
        .as_array()
        .and_then(|keys| keys.iter().find(|entry| entry["key"] == key))
        .map(|entry| entry["value"].clone())
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn all_keys_in_display_order_with_invalid_values_reported() {
    let policy = json!({
        "OrganizationName": "Acme",
        "ForceLocalModel": true,
        "MaxRetentionDays": 36501,
        "DisableAudioExport": "yes",
        "AllowedExportFolder": "/srv/../etc",
        "DisableAutoExport": null,
        "Unknown": 1
    });
    let service = TestService::start(BIN, Options { policy: Some(policy), ..Options::default() });
    let report = get(&service, "/v1/policy").await;
    assert_eq!(report.status, 200);
    let body = report.body;
    assert_eq!(body["managed_by"], "Acme");
    let keys: Vec<&str> =
        body["keys"].as_array().expect("keys").iter().filter_map(|k| k["key"].as_str()).collect();
    assert_eq!(
        keys,
        [
            "OrganizationName",
            "ForceLocalModel",
            "DisableCloudAIKeys",
            "MaxRetentionDays",
            "DisableAudioExport",
            "DisableAgentRecording",
            "DisableAutoRecordApps",
            "DisableAutoExport",
            "AllowedExportFolder"
        ]
    );
    let orders: Vec<i64> =
        body["keys"].as_array().expect("keys").iter().filter_map(|k| k["order"].as_i64()).collect();
    assert_eq!(orders, [5, 10, 15, 20, 25, 30, 35, 40, 45]);
    assert_eq!(value_of(&body, "ForceLocalModel"), json!(true));
    assert_eq!(value_of(&body, "MaxRetentionDays"), Value::Null);
    assert_eq!(value_of(&body, "DisableAudioExport"), Value::Null);
    assert_eq!(value_of(&body, "AllowedExportFolder"), Value::Null);
    let invalid: Vec<&str> = body["invalid"]
        .as_array()
        .expect("invalid")
        .iter()
        .filter_map(|i| i["key"].as_str())
        .collect();
    assert_eq!(
        invalid,
        ["AllowedExportFolder", "DisableAudioExport", "MaxRetentionDays", "Unknown"]
    );
}

#[tokio::test]
async fn managed_settings_are_marked_and_refused() {
    let policy = json!({"DisableAgentRecording": true, "DisableAutoRecordApps": true, "MaxRetentionDays": 30});
    let options = Options {
        policy: Some(policy),
        settings: Some(
            json!({"recording": {"auto_record_apps": ["zoom"]}, "retention": {"keep_audio_days": 7}}),
        ),
        ..Options::default()
    };
    let service = TestService::start(BIN, options);
    let settings = get(&service, "/v1/settings").await.body;
    let managed =
        |value: Value| json!({"value": value, "managed": true, "managed_by": "your organisation"});
    assert_eq!(settings["general"]["allow_remote_start"], managed(json!(false)));
    assert_eq!(settings["recording"]["auto_record_apps"], managed(json!([])));
    assert_eq!(settings["retention"]["keep_audio_days"], json!(7), "shorter choices are kept");
    assert_eq!(
        settings["retention"]["delete_meetings_after_days"],
        managed(json!(30)),
        "Forever becomes the cap"
    );

    let refused = set_settings(&service, json!({"general": {"allow_remote_start": true}})).await;
    refused.expect_error(403, "policy_denied");
    let message = refused.body["error"]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("DisableAgentRecording")
            && message.contains("Managed by your organisation"),
        "{message}"
    );
    set_settings(&service, json!({"retention": {"keep_audio_days": 90}}))
        .await
        .expect_error(403, "policy_denied");
    assert_eq!(
        set_settings(&service, json!({"retention": {"keep_audio_days": 3}})).await.status,
        200
    );
    assert_eq!(set_settings(&service, json!({"general": {"user_name": "Ada"}})).await.status, 200);
}

#[tokio::test]
async fn asking_for_another_managed_value_is_refused_even_when_the_file_holds_it() {
    // settings.json said true before the policy came; asking for true again
    // must not look like an allowed change.
    let options = Options {
        policy: Some(json!({"DisableAutoExport": true})),
        settings: Some(json!({"export": {"auto_export_markdown": true}})),
        ..Options::default()
    };
    let service = TestService::start(BIN, options);
    let same = json!({"export": {"auto_export_markdown": true}});
    let refused = set_settings(&service, same).await;
    refused.expect_error(403, "policy_denied");
    assert!(refused.text.contains("DisableAutoExport"), "{}", refused.text);
    let forced = json!({"export": {"auto_export_markdown": false}});
    assert_eq!(set_settings(&service, forced).await.status, 200);
}

#[tokio::test]
async fn an_out_of_range_setting_does_not_stop_the_service() {
    let text = r#"{"retention": {"delete_meetings_after_days": 50000}}"#;
    let mut service = TestService::start_with(BIN, Options::default(), |data| {
        std::fs::write(data.join("settings.json"), text).expect("settings");
    });
    let settings = get(&service, "/v1/settings").await.body;
    assert_eq!(settings["retention"]["delete_meetings_after_days"], Value::Null, "the default");
    assert_eq!(settings["invalid"][0]["key"], "retention.delete_meetings_after_days");
    assert!(settings["invalid"][0]["reason"].as_str().unwrap_or("").contains("36500"));
    let file = service.data_dir().join("settings.json");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text, "left as the person wrote it");
    // Recording works: the service runs with the default.
    assert_eq!(get(&service, "/v1/meetings").await.status, 200);
    // Unparseable JSON still refuses to start.
    service.stop();
    std::fs::write(&file, "{oops").expect("write");
    let refused = std::process::Command::new(BIN)
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(service.data_dir())
        .env_remove("RECORDER_DATA_DIR")
        .output()
        .expect("run");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not valid JSON"));
}

#[tokio::test]
async fn policy_refresh_picks_up_a_changed_file() {
    let options = Options {
        policy: Some(json!({"OrganizationName": "Before"})),
        policy_refresh_secs: Some(1),
        ..Options::default()
    };
    let service = TestService::start(BIN, options);
    assert_eq!(get(&service, "/v1/policy").await.body["managed_by"], "Before");
    service.write_policy(&json!({"OrganizationName": "After", "DisableAgentRecording": true}));
    let started = Instant::now();
    loop {
        let report = get(&service, "/v1/policy").await.body;
        if report["managed_by"] == "After" {
            assert_eq!(value_of(&report, "DisableAgentRecording"), json!(true));
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(15), "policy was not refreshed: {report}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    std::fs::write(service.policy_path(), "{ half written").expect("write");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        get(&service, "/v1/policy").await.body["managed_by"],
        "After",
        "a broken file keeps the last policy"
    );
    std::fs::remove_file(service.policy_path()).expect("remove");
    let started = Instant::now();
    while get(&service, "/v1/policy").await.body["managed_by"] != "your organisation" {
        assert!(started.elapsed() < Duration::from_secs(15), "a removed file clears the policy");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
