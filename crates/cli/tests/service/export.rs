//! Markdown export: the file, where it may go (AllowedExportFolder: Not
//! Configured, a folder, invalid; path escapes), never overwriting, the CLI,
//! and automatic export under DisableAutoExport.

use std::path::{Path, PathBuf};

use recorder_test_support::{seed, speech, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::import::wait_ready;
use crate::{apply_policy, get, person_call, post, refreshing, set_settings, BIN};

struct Setup {
    service: TestService,
    id: String,
    home: PathBuf,
}

fn start(options: Options) -> Setup {
    let home = tempfile::tempdir().expect("home").keep();
    let mut options = refreshing(options);
    options.env.push(("HOME".into(), home.display().to_string()));
    let mut id = String::new();
    let service = TestService::start_with(BIN, options, |data| {
        let mut meeting = SeedMeeting::ready(
            "Budget: Q3 / \"final\"",
            1_700_000_000_000,
            &["I will send the report by Friday.", "Thanks, that works."],
        );
        meeting.notes = vec![("summary".into(), "We agreed on the budget.".into())];
        meeting.action_items = vec![("Send the report by Friday".into(), "Me".into())];
        id = seed(data, &[meeting]).remove(0);
    });
    Setup { service, id, home }
}

async fn export(setup: &Setup, folder: Option<&Path>) -> crate::Answer {
    let body = match folder {
        Some(folder) => json!({ "folder": folder }),
        None => json!({}),
    };
    let path = format!("/ui/meetings/{}/export", setup.id);
    person_call(&setup.service, Method::POST, &path, Some(&body)).await
}

fn written(answer: &crate::Answer) -> PathBuf {
    assert_eq!(answer.status, 201, "{}", answer.text);
    PathBuf::from(answer.body["path"].as_str().expect("path"))
}

#[tokio::test]
async fn export_writes_markdown_and_never_overwrites() {
    let setup = start(Options::default());
    let folder = setup.home.join("out");
    std::fs::create_dir(&folder).expect("folder");
    let first = written(&export(&setup, Some(&folder)).await);
    assert_eq!(first.parent(), Some(folder.canonicalize().expect("real").as_path()));
    let name = first.file_name().and_then(|n| n.to_str()).expect("name");
    assert!(name.contains("Budget") && name.ends_with(".md"), "{name}");
    assert!(!name.contains(['/', '\\', ':', '"', '*', '?', '<', '>', '|']), "{name}");
    let text = std::fs::read_to_string(&first).expect("file");
    assert!(text.starts_with("---\ntitle: \"Budget: Q3 / \\\"final\\\"\"\n"), "{text}");
    for expected in [
        "source_app: \"zoom\"",
        "attendees: [\"Ada Lovelace\"]",
        "## Summary",
        "We agreed on the budget.",
        "- [ ] Send the report by Friday",
        "## Transcript",
        "I will send the report by Friday.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let second = written(&export(&setup, Some(&folder)).await);
    assert_ne!(first, second);
    assert_eq!(std::fs::read_to_string(&first).expect("first stays"), text);

    // Without a folder: 400 until export.folder is set; `~` is the home folder.
    export(&setup, None).await.expect_error(400, "invalid_request");
    std::fs::create_dir(setup.home.join("Exports")).expect("exports");
    assert_eq!(
        set_settings(&setup.service, json!({"export": {"folder": "~/Exports"}})).await.status,
        200
    );
    let configured = written(&export(&setup, None).await);
    assert!(configured.starts_with(setup.home.join("Exports").canonicalize().expect("real")));
    export(&setup, Some(Path::new("relative/out"))).await.expect_error(400, "invalid_request");
    export(&setup, Some(&setup.home.join("missing"))).await.expect_error(400, "invalid_request");
    let path = "/ui/meetings/0190a000-0000-7000-8000-000000000000/export";
    person_call(&setup.service, Method::POST, path, Some(&json!({"folder": folder})))
        .await
        .expect_error(404, "not_found");

    // The CLI prints the new file's path.
    let output =
        setup.service.cli().args(["export", &setup.id, "--to"]).arg(&folder).output().expect("cli");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8_lossy(&output.stdout).trim().to_string();
    assert!(Path::new(&printed).is_file() && printed.contains("(3)"), "{printed}");
}

#[tokio::test]
async fn allowed_export_folder_bounds_every_export_on_the_real_path() {
    let setup = start(Options::default());
    let allowed = setup.home.join("allowed");
    let outside = setup.home.join("outside");
    std::fs::create_dir_all(allowed.join("team")).expect("allowed");
    std::fs::create_dir_all(&outside).expect("outside");
    std::os::unix::fs::symlink(&outside, allowed.join("escape")).expect("symlink");
    std::fs::create_dir_all(setup.home.join("allowed-evil")).expect("sibling");

    apply_policy(
        &setup.service,
        &json!({"AllowedExportFolder": "~/allowed", "OrganizationName": "Acme"}),
    )
    .await;
    assert!(written(&export(&setup, Some(&allowed)).await)
        .starts_with(allowed.canonicalize().expect("real")));
    assert!(written(&export(&setup, Some(&allowed.join("team"))).await).is_file());
    for escape in [
        outside.clone(),
        allowed.join("escape"),
        allowed.join("../outside"),
        setup.home.join("allowed-evil"),
        PathBuf::from("~root/allowed"),
    ] {
        let refused = export(&setup, Some(&escape)).await;
        refused.expect_error(403, "policy_denied");
        let message = refused.body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("AllowedExportFolder") && message.contains("Managed by Acme"),
            "{message}"
        );
    }
    assert_eq!(std::fs::read_dir(&outside).expect("outside").count(), 0, "nothing written outside");
    // Without a folder the export goes to the allowed folder.
    assert!(written(&export(&setup, None).await).starts_with(allowed.canonicalize().expect("real")));

    // A relative or `..` value is Not Configured (listed as invalid).
    apply_policy(&setup.service, &json!({"AllowedExportFolder": "exports/../x"})).await;
    let policy = get(&setup.service, "/v1/policy").await.body;
    assert!(policy["invalid"].to_string().contains("AllowedExportFolder"), "{policy}");
    assert!(written(&export(&setup, Some(&outside)).await).is_file());
}

#[tokio::test]
async fn automatic_export_follows_the_setting_and_disable_auto_export() {
    let exports = tempfile::tempdir().expect("exports");
    let settings = json!({
        "general": {"allow_remote_start": true},
        "export": {"auto_export_markdown": true, "folder": exports.path()}
    });
    let options = Options {
        settings: Some(settings),
        policy: Some(json!({"DisableAutoExport": true})),
        env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
        ..Options::default()
    };
    let setup = start(options);
    let service = &setup.service;
    let effective = get(service, "/v1/settings").await.body;
    assert_eq!(
        effective["export"]["auto_export_markdown"],
        json!({"value": false, "managed": true, "managed_by": "your organisation"})
    );
    let first = import_ready(service).await;
    assert_eq!(std::fs::read_dir(exports.path()).expect("dir").count(), 0, "forced off: {first}");
    // Manual export still works under the key.
    let body = json!({"folder": exports.path()});
    let manual =
        person_call(service, Method::POST, &format!("/ui/meetings/{first}/export"), Some(&body))
            .await;
    assert_eq!(manual.status, 201, "{}", manual.text);
    std::fs::remove_file(manual.body["path"].as_str().expect("path")).expect("remove");

    // Setting it to the forced value is allowed; turning it back on is not.
    let off = json!({"export": {"auto_export_markdown": false}});
    let on = json!({"export": {"auto_export_markdown": true}});
    assert_eq!(set_settings(service, off).await.status, 200);
    set_settings(service, on.clone()).await.expect_error(403, "policy_denied");

    apply_policy(service, &json!({"DisableAutoExport": false})).await;
    assert_eq!(
        get(service, "/v1/settings").await.body["export"]["auto_export_markdown"],
        json!(false)
    );
    assert_eq!(set_settings(service, on).await.status, 200);
    let second = import_ready(service).await;
    let files: Vec<PathBuf> =
        std::fs::read_dir(exports.path()).expect("dir").map(|e| e.expect("entry").path()).collect();
    assert_eq!(files.len(), 1, "one automatic export: {files:?}");
    let text = std::fs::read_to_string(&files[0]).expect("export");
    assert!(
        text.contains("## Transcript") && text.to_lowercase().contains("country"),
        "{second}: {text}"
    );

    // An invalid value is Not Configured: the person's choice stands, unmanaged.
    apply_policy(service, &json!({"DisableAutoExport": "yes"})).await;
    assert_eq!(
        get(service, "/v1/settings").await.body["export"]["auto_export_markdown"],
        json!(true)
    );
    let policy = get(service, "/v1/policy").await.body;
    assert!(policy["invalid"].to_string().contains("DisableAutoExport"), "{policy}");
}

async fn import_ready(service: &TestService) -> String {
    let answer = post(service, "/v1/import", &json!({ "path": speech::jfk_wav() })).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    let id = answer.body["id"].as_str().expect("id").to_owned();
    let meeting: Value = wait_ready(service, &id).await;
    assert_eq!(meeting["status"], "ready");
    id
}
