//! The `recorder` command line against a running service.

use std::process::Output;

use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use serde_json::Value;

use crate::BIN;

fn run(service: &TestService, args: &[&str]) -> Output {
    service.cli().args(args).output().expect("run recorder")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn seeded() -> (TestService, String) {
    let mut ids = Vec::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        let mut meeting = SeedMeeting::ready(
            "Quarterly planning",
            1_700_000_000_000,
            &["We need the budget.", "I will send it Friday."],
        );
        meeting.notes = vec![("summary".into(), "Budget is due Friday.".into())];
        meeting.action_items = vec![("Send the budget".into(), "Them".into())];
        ids = seed(data, &[meeting]);
    });
    (service, ids.remove(0))
}

#[test]
fn status_meetings_transcript_and_search() {
    let (service, id) = seeded();
    let status = run(&service, &["status"]);
    assert!(status.status.success());
    assert!(
        stdout(&status).contains("is running") && stdout(&status).contains("not recording"),
        "{}",
        stdout(&status)
    );
    let json: Value =
        serde_json::from_slice(&run(&service, &["status", "--json"]).stdout).expect("json");
    assert_eq!(json["ok"], true);

    let list = stdout(&run(&service, &["meetings", "list"]));
    assert!(
        list.contains("Quarterly planning") && list.contains(&id) && list.contains("ready"),
        "{list}"
    );
    let list_json: Value =
        serde_json::from_slice(&run(&service, &["meetings", "list", "--json"]).stdout)
            .expect("json");
    assert_eq!(list_json["total"], 1);
    let show = stdout(&run(&service, &["meetings", "show", &id]));
    assert!(
        show.contains("Budget is due Friday.") && show.contains("- [ ] Send the budget (Them)"),
        "{show}"
    );

    let transcript = stdout(&run(&service, &["transcript", &id]));
    assert_eq!(
        transcript,
        "[00:00:00] Me: We need the budget.\n[00:00:05] Them: I will send it Friday.\n"
    );
    let vtt = stdout(&run(&service, &["transcript", &id, "--format", "vtt"]));
    assert!(vtt.starts_with("WEBVTT"), "{vtt}");
    let search = stdout(&run(&service, &["search", "budget"]));
    assert!(search.contains("Quarterly planning") && search.contains("[budget]"), "{search}");

    let missing = run(&service, &["meetings", "show", "0192f000-0000-7000-8000-000000000000"]);
    assert_eq!(missing.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not_found"));
    let bad = run(&service, &["transcript", &id, "--format", "doc"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(run(&service, &["meetings", "delete", &id]).status.success());
    assert_eq!(run(&service, &["meetings", "show", &id]).status.code(), Some(4));
}

#[test]
fn pairing_settings_policy_and_licence() {
    let service = crate::start();
    let pair = stdout(&run(&service, &["pair"]));
    assert!(
        pair.starts_with("Pairing code: ") && pair.lines().next().is_some_and(|l| l.len() == 20),
        "{pair}"
    );
    assert!(stdout(&run(&service, &["pairings", "list"])).contains("No paired extensions"));

    let set = run(&service, &["settings", "set", "general.user_name", "Ada"]);
    assert!(set.status.success(), "{}", String::from_utf8_lossy(&set.stderr));
    assert_eq!(stdout(&set), "general.user_name = Ada\n");
    assert_eq!(stdout(&run(&service, &["settings", "get", "general.user_name"])), "Ada\n");
    assert!(run(&service, &["settings", "set", "general.allow_remote_start", "true"])
        .status
        .success());
    assert_eq!(
        stdout(&run(&service, &["settings", "get", "general.allow_remote_start"])),
        "true\n"
    );
    let invalid = run(&service, &["settings", "set", "general.api_port", "\"x\""]);
    assert_eq!(invalid.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&invalid.stderr).contains("invalid_request"));

    let policy = stdout(&run(&service, &["policy"]));
    assert!(
        policy.contains("DisableAgentRecording") && policy.contains("Not Configured"),
        "{policy}"
    );

    let licence = service.folder.path().join("licence.json");
    std::fs::write(&licence, recorder_test_support::dev_license(None).to_string())
        .expect("licence");
    let installed = run(&service, &["license", "install", licence.to_str().expect("path")]);
    assert!(installed.status.success(), "{}", String::from_utf8_lossy(&installed.stderr));
    assert_eq!(stdout(&installed), "licence installed: plan pro\n");

    let link = stdout(&run(&service, &["open", "--print"]));
    assert!(
        link.starts_with(&format!("http://127.0.0.1:{}/ui/login?code=", service.port)),
        "{link}"
    );
}

#[test]
fn a_missing_service_or_token_exits_3_with_one_line() {
    let folder = tempfile::tempdir().expect("temp");
    let no_token = std::process::Command::new(BIN)
        .args(["--data-dir", folder.path().to_str().expect("path"), "status"])
        .output()
        .expect("run");
    assert_eq!(no_token.status.code(), Some(3));
    let message = String::from_utf8_lossy(&no_token.stderr);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("recorder serve"), "{message}");

    let mut service = crate::start();
    service.stop();
    let down = run(&service, &["status"]);
    assert_eq!(down.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&down.stderr).contains("not running"));
}

#[test]
fn a_taken_port_says_address_in_use() {
    let service = crate::start();
    let second = std::process::Command::new(BIN)
        .args(["serve", "--port", &service.port.to_string(), "--data-dir"])
        .arg(service.folder.path().join("second"))
        .output()
        .expect("run");
    assert!(!second.status.success());
    let message = String::from_utf8_lossy(&second.stderr);
    let last = message.lines().last().unwrap_or_default();
    assert!(last.starts_with("recorder: address in use"), "{message}");
    let log = std::fs::read_to_string(service.folder.path().join("second/logs/recorder.log"))
        .expect("log");
    assert!(log.contains("address in use"), "{log}");
}

#[test]
fn a_second_service_on_the_same_folder_is_told_where_the_first_is() {
    let mut service = crate::start();
    let second = std::process::Command::new(BIN)
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(service.data_dir())
        .env_remove("RECORDER_DATA_DIR")
        .output()
        .expect("run");
    assert!(!second.status.success());
    let message = String::from_utf8_lossy(&second.stderr);
    let last = message.lines().last().unwrap_or_default();
    assert!(last.contains("is in use by another Recorder service"), "{message}");
    assert!(last.contains(&format!("127.0.0.1:{}", service.port)), "{message}");
    // The lock goes with the process, however it ends (here SIGKILL).
    service.restart();
}

/// `recorder://pair` (what the extension's "Open pairing settings" opens) gives
/// a login link that lands on Settings → Extension, asking for a fresh code.
#[tokio::test]
async fn recorder_pair_links_open_the_extension_settings() {
    let service = crate::start();
    let link = stdout(&run(&service, &["open", "recorder://pair", "--print"]));
    let landed = recorder_test_support::http().get(link.trim()).send().await.expect("login");
    assert_eq!(landed.status(), 303);
    assert_eq!(landed.headers()["location"], "/settings/extension?pair");
    let unknown = run(&service, &["open", "recorder://format-disk", "--print"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("recorder://"));
    let elsewhere = crate::call(
        reqwest::Method::POST,
        &service.url("/ui/login-links"),
        Some(&service.ui_token),
        Some(&serde_json::json!({"page": "//evil.example/"})),
    )
    .await;
    elsewhere.expect_error(400, "invalid_request");
}

#[test]
fn desktop_integration_registers_the_recorder_scheme() {
    let data_home = tempfile::tempdir().expect("temp");
    let integration = |action: &str| {
        std::process::Command::new(BIN)
            .args(["desktop-integration", action])
            .env("XDG_DATA_HOME", data_home.path())
            .env("XDG_CONFIG_HOME", data_home.path().join("config"))
            .output()
            .expect("run")
    };
    let installed = integration("install");
    assert!(installed.status.success(), "{}", String::from_utf8_lossy(&installed.stderr));
    let entry_path = data_home.path().join("applications/recorder-url-handler.desktop");
    let entry = std::fs::read_to_string(&entry_path).expect("entry written");
    assert!(entry.contains("MimeType=x-scheme-handler/recorder;"), "{entry}");
    // The desktop app beside `recorder` takes the links; else `recorder open`.
    let desktop = std::path::Path::new(BIN).with_file_name("recorder-desktop");
    let desktop = std::fs::canonicalize(&desktop).unwrap_or(desktop);
    match desktop.is_file() {
        true => assert!(entry.contains(&format!("Exec={} %u", desktop.display())), "{entry}"),
        false => assert!(entry.contains(" open %u"), "{entry}"),
    }
    // Where xdg-utils is installed (it comes with Chromium on Debian), the
    // desktop now names our entry as the handler of recorder:// links.
    let query = std::process::Command::new("xdg-mime")
        .args(["query", "default", "x-scheme-handler/recorder"])
        .env("XDG_DATA_HOME", data_home.path())
        .env("XDG_CONFIG_HOME", data_home.path().join("config"))
        .output();
    if let Ok(query) = query {
        assert_eq!(String::from_utf8_lossy(&query.stdout).trim(), "recorder-url-handler.desktop");
    }
    let removed = integration("uninstall");
    assert!(removed.status.success());
    assert!(!entry_path.exists(), "uninstall removes the entry");
}
