//! Property tests of what a person or an administrator writes by hand:
//! policy files of any JSON (and any bytes), and settings merges of any
//! shape. Nothing panics; every key ends up either in force with a valid
//! value or listed as invalid; a refused change leaves the settings as they
//! were; the effective settings are always built.

use std::io::Write;

use proptest::prelude::*;
use recorder_domain::{PolicyKey, PolicyValues};
use recorder_settings::{
    effective_settings, effective_typed, JsonFilePolicy, PolicySource, SettingsDocument,
};
use serde_json::{json, Value};

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        prop_oneof![Just(-1i64), Just(0), Just(1), Just(36_500), Just(36_501), Just(65_536)]
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        prop_oneof![Just("/tmp/x"), Just("~/Notes"), Just("../up"), Just("http://127.0.0.1:1")]
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(key_name(), inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Names that hit the known sections and keys as well as unknown ones.
fn key_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "general",
            "recording",
            "retention",
            "export",
            "ai",
            "transcription",
            "api_port",
            "allow_remote_start",
            "user_name",
            "auto_record_apps",
            "language",
            "keep_audio_days",
            "delete_meetings_after_days",
            "auto_export_markdown",
            "folder",
            "provider",
            "local_url",
            "model",
            "cloud_base_url",
            "threads",
            "decoding",
            "device",
            "start_at_login",
            "show_first_run_guide",
            "final_pass_model",
            "vocabulary",
        ])
        .prop_map(str::to_string),
        "[a-z_]{1,8}",
    ]
}

/// A policy file: the nine keys (and unknown ones) with any values.
fn any_policy() -> impl Strategy<Value = Value> {
    let names: Vec<String> = PolicyKey::ALL.iter().map(|k| k.name().to_string()).collect();
    let name = prop_oneof![prop::sample::select(names), "[A-Za-z]{1,10}"];
    prop::collection::btree_map(name, any_json(), 0..10)
        .prop_map(|map| Value::Object(map.into_iter().collect()))
}

fn load_policy(bytes: &[u8]) -> Result<PolicyValues, String> {
    let mut file = tempfile::NamedTempFile::new().expect("temp");
    file.write_all(bytes).expect("write");
    let source = JsonFilePolicy { path: file.path().to_path_buf() };
    let raw = source.load().map_err(|error| error.to_string())?;
    Ok(PolicyValues::from_raw(raw.iter().map(|(k, v)| (k.as_str(), v.clone()))))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_policy_file_gives_values_in_force_or_listed_invalid(policy in any_policy()) {
        let values = load_policy(policy.to_string().as_bytes()).expect("a JSON object loads");
        let Value::Object(entries) = &policy else { unreachable!("an object") };
        for (name, value) in entries {
            let in_force = PolicyKey::from_name(name).and_then(|key| values.get(key));
            let listed = values.invalid.iter().any(|(invalid, _)| invalid == name);
            let not_configured = value.is_null() && PolicyKey::from_name(name).is_some();
            prop_assert!(
                usize::from(in_force.is_some()) + usize::from(listed) + usize::from(not_configured) == 1,
                "{name} = {value}: exactly one of in force, invalid, not configured"
            );
        }
        // Whatever the policy, the settings it governs can be shown and used.
        let defaults = SettingsDocument::from_value(recorder_settings::defaults()).expect("defaults");
        let _ = effective_settings(&defaults, &values);
        let _ = effective_typed(&defaults, &values);
    }

    #[test]
    fn any_bytes_as_a_policy_file_load_or_are_refused(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = load_policy(&bytes);
    }

    #[test]
    fn any_patch_is_applied_whole_or_refused_whole(patch in any_json()) {
        let base = SettingsDocument::from_value(recorder_settings::defaults()).expect("defaults");
        let before = base.value().clone();
        match base.patched(&patch) {
            Ok(patched) => {
                prop_assert!(patched.invalid().is_empty(), "a patch never brings an invalid value");
                let typed = patched.typed();
                prop_assert!(typed.general.api_port > 0);
                prop_assert!(!typed.general.user_name.trim().is_empty());
            }
            Err(error) => prop_assert!(error.to_string().starts_with("settings"), "{error}"),
        }
        prop_assert_eq!(base.value(), &before, "the document it was made from is unchanged");
    }

    #[test]
    fn any_document_starts_with_defaults_for_what_is_wrong(document in any_json()) {
        let mut whole = recorder_settings::defaults();
        if let Value::Object(extra) = &document {
            for (key, value) in extra {
                whole[key] = value.clone();
            }
        }
        let loaded = SettingsDocument::lenient(whole.clone()).expect("a JSON object always loads");
        prop_assert_eq!(loaded.value(), &whole, "the person's text is kept as it is");
        let effective = effective_settings(&loaded, &PolicyValues::default());
        prop_assert_eq!(effective.get("invalid").is_some(), !loaded.invalid().is_empty());
        let _ = json!(loaded.typed().retention.keep_audio_days);
    }
}

/// One way to damage a file a person or an administrator wrote.
#[derive(Debug, Clone)]
enum Mutation {
    /// Overwrite a byte.
    Set(usize, u8),
    /// Cut the file here.
    Cut(usize),
    /// Insert text here (JSON punctuation, a huge number, a stray quote).
    Insert(usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let text = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        "\"",
        ",",
        ":",
        "null",
        "-",
        "1e999",
        "99999999999999999999",
        "\\u0000",
        "\\ud800",
        "\u{feff}",
        "\u{0}",
        "é",
    ]);
    prop_oneof![
        3 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set(at, byte)),
        1 => any::<usize>().prop_map(Mutation::Cut),
        3 => (any::<usize>(), text).prop_map(|(at, text)| Mutation::Insert(at, text)),
    ]
}

fn mutated(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for mutation in mutations {
        match mutation {
            Mutation::Set(at, byte) if !bytes.is_empty() => {
                let at = at % bytes.len();
                bytes[at] = *byte;
            }
            Mutation::Set(..) => {}
            Mutation::Cut(at) => bytes.truncate(at % (bytes.len() + 1)),
            Mutation::Insert(at, text) => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, text.bytes());
            }
        }
    }
    bytes
}

/// `settings.json` holding `bytes`: loaded (typed, with invalid keys listed) or
/// refused with a `SettingsError`; the API port read for clients is a port.
fn load_settings(bytes: &[u8]) -> Result<(), TestCaseError> {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("settings.json");
    std::fs::write(&path, bytes).expect("write");
    prop_assert!(recorder_settings::configured_api_port(&path) > 0);
    match SettingsDocument::load_or_create(&path) {
        Ok(loaded) => {
            let typed = loaded.typed();
            prop_assert!(typed.general.api_port > 0);
            prop_assert!(!typed.general.user_name.trim().is_empty());
            let _ = effective_settings(&loaded, &PolicyValues::default());
        }
        Err(error) => {
            let shown = error.to_string();
            prop_assert!(!shown.is_empty());
        }
    }
    Ok(())
}

fn any_policy_text() -> impl Strategy<Value = Vec<u8>> {
    any_policy().prop_map(|policy| serde_json::to_vec_pretty(&policy).expect("json"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_bytes_as_settings_json_load_or_are_refused(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        load_settings(&bytes)?;
    }

    #[test]
    fn a_damaged_settings_json_loads_or_is_refused(
        document in any_json(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let mut whole = recorder_settings::defaults();
        if let Value::Object(extra) = &document {
            for (key, value) in extra {
                whole[key] = value.clone();
            }
        }
        let text = serde_json::to_vec_pretty(&whole).expect("json");
        load_settings(&mutated(text, &mutations))?;
    }

    #[test]
    fn a_damaged_policy_file_loads_or_is_refused(
        text in any_policy_text(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        // Loaded: the values were checked against their keys (load_policy);
        // refused: in the source's error shape.
        if let Err(error) = load_policy(&mutated(text, &mutations)) {
            prop_assert!(error.starts_with("policy ") && error.contains("is malformed"), "{error}");
        }
    }
}

/// JSON nested far deeper than serde_json reads (128 levels) is a syntax error,
/// not a stack overflow, in either file.
#[test]
fn deeply_nested_files_are_refused_not_recursed_into() {
    for nested in
        ["[".repeat(200_000), format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000))]
    {
        let error = load_policy(nested.as_bytes()).expect_err("too deep");
        assert!(error.contains("is malformed"), "{error}");
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("settings.json");
        std::fs::write(&path, &nested).expect("write");
        let error = SettingsDocument::load_or_create(&path).expect_err("too deep");
        assert!(error.to_string().contains("is not valid JSON"), "{error}");
        assert_eq!(recorder_settings::configured_api_port(&path), 47321);
    }
}

/// A file larger than the most either reader holds is refused once that much
/// is read (a sparse file here: nothing is written to disk), and so is a device
/// that never ends. Before, each was read whole, without bound.
#[test]
fn oversized_files_are_refused_without_being_read_whole() {
    let folder = tempfile::tempdir().expect("temp");
    let policy = folder.path().join("policies.json");
    let file = std::fs::File::create(&policy).expect("create");
    file.set_len(recorder_settings::MAX_POLICY_BYTES + 1).expect("sparse");
    let error = load_policy_at(&policy).expect_err("too large");
    assert!(error.contains("larger than 1 MiB"), "{error}");
    let settings = folder.path().join("settings.json");
    let file = std::fs::File::create(&settings).expect("create");
    file.set_len(recorder_settings::MAX_SETTINGS_BYTES + 1).expect("sparse");
    let error = SettingsDocument::load_or_create(&settings).expect_err("too large");
    assert!(error.to_string().contains("larger than 16 MiB"), "{error}");
    assert_eq!(recorder_settings::configured_api_port(&settings), 47321);
    if cfg!(unix) {
        let error = load_policy_at(std::path::Path::new("/dev/zero")).expect_err("endless");
        assert!(error.contains("larger than"), "{error}");
    }
}

fn load_policy_at(path: &std::path::Path) -> Result<(), String> {
    JsonFilePolicy { path: path.to_path_buf() }.load().map(|_| ()).map_err(|e| e.to_string())
}
