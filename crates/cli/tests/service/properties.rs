//! Property tests against a real service: generated PATCH bodies for a
//! meeting and for the settings, and generated `Last-Event-ID` headers. Every
//! answer is a success or the contract's error shape, never a 5xx; a refused
//! change leaves nothing behind (the meeting and settings.json read back as
//! before); an accepted one reads back as answered.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{call, get, BIN};

/// Values that hit every rule of a field: lengths at the limits, blanks,
/// wrong types, nesting.
fn field_value() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        Just(String::new()),
        Just("  ".to_string()),
        Just("a".repeat(64)),
        Just("a".repeat(65)),
        Just("b".repeat(500)),
        Just("b".repeat(501)),
        ".{1,20}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text.prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 60, 55, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..55).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec!["name", "x"]).prop_map(str::to_string),
                inner,
                0..3
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn meeting_patch() -> impl Strategy<Value = Value> {
    let key = prop::sample::select(vec!["title", "tags", "starred", "attendees", "status", "id"]);
    prop_oneof![
        8 => prop::collection::btree_map(key.prop_map(str::to_string), field_value(), 0..4)
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        1 => field_value(),
    ]
}

fn settings_patch() -> impl Strategy<Value = Value> {
    let section =
        prop::sample::select(vec!["general", "retention", "export", "ai", "transcription", "x"]);
    let key = prop::sample::select(vec![
        "user_name",
        "api_port",
        "allow_remote_start",
        "keep_audio_days",
        "delete_meetings_after_days",
        "folder",
        "auto_export_markdown",
        "provider",
        "local_url",
        "threads",
        "decoding",
        "device",
        "y",
    ]);
    let value = prop_oneof![
        field_value(),
        prop_oneof![Just(0i64), Just(1), Just(36_500), Just(36_501), Just(65_535), Just(70_000)]
            .prop_map(Value::from),
        prop::sample::select(vec!["/tmp/x", "relative", "http://127.0.0.1:1", "beam", "local"])
            .prop_map(Value::from),
    ];
    prop::collection::btree_map(
        section.prop_map(str::to_string),
        prop::collection::btree_map(key.prop_map(str::to_string), value, 0..3)
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        0..3,
    )
    .prop_map(|map| Value::Object(map.into_iter().collect()))
}

/// Runs `cases` generated inputs through `check`, each on the runtime.
fn run<S: Strategy>(
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let mut runner =
        TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    if let Err(error) = runner.run(&strategy, check) {
        panic!("{error}");
    }
}

fn contract_error(answer: &crate::Answer) -> Result<(), TestCaseError> {
    let code = answer.body["error"]["code"].as_str().unwrap_or_default();
    prop_assert!(!code.is_empty(), "the contract's error shape: {}", answer.text);
    prop_assert!(answer.body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
    Ok(())
}

#[test]
fn generated_meeting_patches_are_applied_whole_or_not_at_all() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut id = String::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        id = seed(data, &[SeedMeeting::ready("Budget", 1_700_000_000_000, &["We agreed."])])
            .remove(0);
    });
    let path = format!("/v1/meetings/{id}");
    run(120, meeting_patch(), |patch| {
        runtime.block_on(async {
            let before = get(&service, &path).await.body;
            let url = service.url(&path);
            let answer = call(Method::PATCH, &url, Some(&service.api_token), Some(&patch)).await;
            let after = get(&service, &path).await.body;
            match answer.status {
                200 => prop_assert_eq!(&after, &answer.body, "read back as answered"),
                400 => {
                    contract_error(&answer)?;
                    prop_assert_eq!(&after, &before, "a refused patch changes nothing: {}", patch);
                }
                other => prop_assert!(false, "{other} for {patch}: {}", answer.text),
            }
            Ok(())
        })
    });
}

#[test]
fn generated_settings_patches_are_saved_whole_or_not_at_all() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let service = TestService::start(BIN, Options::default());
    let file = service.data_dir().join("settings.json");
    run(120, settings_patch(), |patch| {
        runtime.block_on(async {
            let url = service.url("/ui/settings");
            let before = call(Method::GET, &url, Some(&service.ui_token), None).await.body;
            let answer = call(Method::PATCH, &url, Some(&service.ui_token), Some(&patch)).await;
            let after = call(Method::GET, &url, Some(&service.ui_token), None).await.body;
            let on_disk: Value =
                serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("whole JSON");
            prop_assert_eq!(&on_disk, &after, "the file is what the service says");
            match answer.status {
                200 => prop_assert_eq!(&after, &answer.body),
                400 | 403 => {
                    contract_error(&answer)?;
                    prop_assert_eq!(&after, &before, "a refused patch changes nothing: {}", patch);
                }
                other => prop_assert!(false, "{other} for {patch}: {}", answer.text),
            }
            Ok(())
        })
    });
}

#[test]
fn any_last_event_id_opens_the_stream_with_only_newer_events() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut id = String::new();
    let service = TestService::start_with(BIN, Options::default(), |data| {
        id = seed(data, &[SeedMeeting::ready("Budget", 1_700_000_000_000, &["We agreed."])])
            .remove(0);
    });
    // A few events to replay (ids 1..=4).
    runtime.block_on(async {
        for n in 0..4 {
            let url = service.url(&format!("/v1/meetings/{id}"));
            let body = json!({"title": format!("Budget {n}")});
            assert_eq!(
                call(Method::PATCH, &url, Some(&service.api_token), Some(&body)).await.status,
                200
            );
        }
    });
    let header = prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        (0u64..6).prop_map(|n| n.to_string()),
        "[!-~][ -~]{0,22}[!-~]",
        Just("-1".to_string()),
        Just("18446744073709551616".to_string()),
    ];
    run(60, header, |value| {
        runtime.block_on(async {
            // `open` checks the answer: 200 and text/event-stream, whatever the header.
            let mut frames = crate::events::open(&service, Some(&value)).await;
            let last: Option<u64> = value.trim().parse().ok();
            let mut ids = Vec::new();
            while let Ok(Some(frame)) =
                tokio::time::timeout(std::time::Duration::from_millis(150), frames.recv()).await
            {
                ids.extend(frame.id.map(|id| id.parse::<u64>().expect("numeric ids")));
            }
            prop_assert!(
                ids.iter().all(|id| last.is_some_and(|last| *id > last)),
                "{ids:?} after {value:?}"
            );
            if last.is_some_and(|last| last < 4) {
                prop_assert!(!ids.is_empty(), "newer kept events are replayed after {}", value);
            }
            Ok(())
        })
    });
}
