//! Languages kept (issue 34): a German espeak-ng meeting transcribed by the
//! multilingual base model (from PyPI, scripts/multilingual-model.sh) in
//! German — detected with `auto`, pinned when a recording starts, and
//! corrected after the fact, which transcribes it again. Nothing is
//! translated: the transcript holds German words, not English ones.

use std::path::Path;
use std::process::Command;

use recorder_test_support::speech;
use recorder_test_support::{Options, TestService};
use serde_json::json;

use crate::import::wait_ready;
use crate::recording::person;
use crate::{call, get, post, BIN};

const GERMAN: &str =
    "Guten Morgen zusammen. Wir besprechen heute den Haushalt für das nächste Jahr. \
    Frau Schmidt schickt den Bericht bis Freitag.";
/// Words of the script a German transcript spells, and their English translations.
const GERMAN_WORDS: [&str; 8] =
    ["Morgen", "heute", "Haushalt", "nächste", "Jahr", "Frau", "Bericht", "Freitag"];
const ENGLISH_WORDS: [&str; 6] = ["morning", "today", "budget", "year", "report", "friday"];

fn german_words(text: &str) -> usize {
    GERMAN_WORDS.iter().filter(|w| text.contains(*w)).count()
}

fn english_words(text: &str) -> usize {
    ENGLISH_WORDS.iter().filter(|w| text.to_lowercase().contains(*w)).count()
}

fn speak_german(path: &Path) {
    let done = Command::new("espeak-ng")
        .args(["-v", "de", "-s", "140", "-w"])
        .arg(path)
        .arg(GERMAN)
        .status()
        .expect("espeak-ng");
    assert!(done.success());
}

fn start(language: &str) -> TestService {
    let model = speech::test_models_dir().join("ggml-base-q8_0.bin");
    assert!(model.is_file(), "run scripts/multilingual-model.sh first");
    TestService::start(
        BIN,
        Options {
            settings: Some(
                json!({"general": {"allow_remote_start": true}, "recording": {"language": language}}),
            ),
            env: vec![("RECORDER_MODEL_PATH".into(), model.display().to_string())],
            ..Options::default()
        },
    )
}

async fn import(service: &TestService, path: &Path) -> (String, String) {
    let answer = post(service, "/v1/import", &json!({"path": path})).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    let id = answer.body["id"].as_str().expect("id").to_owned();
    wait_ready(service, &id).await;
    let text = get(service, &format!("/v1/meetings/{id}/transcript?format=txt")).await.text;
    (id, text)
}

#[tokio::test]
async fn german_is_detected_and_transcribed_in_german() {
    let service = start("auto");
    let path = service.folder.path().join("german.wav");
    speak_german(&path);
    let (id, text) = import(&service, &path).await;
    eprintln!("auto: {text}");
    assert_eq!(get(&service, &format!("/v1/meetings/{id}")).await.body["language"], "de");
    assert!(german_words(&text) >= 5, "German, as spoken: {text}");
    assert_eq!(english_words(&text), 0, "not translated: {text}");
}

#[tokio::test]
async fn a_wrong_language_is_corrected_and_the_meeting_transcribed_again() {
    let service = start("en");
    let path = service.folder.path().join("german.wav");
    speak_german(&path);
    let (id, before) = import(&service, &path).await;
    eprintln!("as English: {before}");
    // PATCH takes only what CONTRACT §4 lists (and `vocabulary`): a language
    // is corrected by transcribing again.
    let url = service.url(&format!("/v1/meetings/{id}"));
    let patched = call(
        reqwest::Method::PATCH,
        &url,
        Some(&service.api_token),
        Some(&json!({"language": "de"})),
    )
    .await;
    patched.expect_error(400, "invalid_request");
    let again = format!("/v1/meetings/{id}/transcribe");
    post(&service, &again, &json!({"language": "xx"})).await.expect_error(400, "invalid_request");
    let fixed = post(&service, &again, &json!({"language": "de"})).await;
    assert_eq!(fixed.status, 202, "{}", fixed.text);
    let busy = get(&service, &format!("/v1/meetings/{id}")).await;
    assert_eq!(busy.body["status"], "transcribing", "the correction transcribes it again");
    let meeting = wait_ready(&service, &id).await;
    let after = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await.text;
    eprintln!("corrected: {after}");
    assert_eq!(meeting["language"], "de");
    assert!(german_words(&after) >= 5, "German after the correction: {after}");
    assert!(german_words(&after) > german_words(&before), "{before} / {after}");
}

#[tokio::test]
async fn a_language_pinned_when_recording_starts_is_kept() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::speak_padded("Hallo.", &mic, 0.5, 12.0);
    let german = folder.path().join("german.wav");
    speak_german(&german);
    let padded = Command::new("sox")
        .arg(&german)
        .args(["-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"])
        .arg(&sys)
        .args(["pad", "1", "3"])
        .status()
        .expect("sox");
    assert!(padded.success());
    let model = speech::test_models_dir().join("ggml-base-q8_0.bin");
    let mut options = crate::recording::recording_options(&mic, &sys, 2.0);
    options.env = vec![("RECORDER_MODEL_PATH".into(), model.display().to_string())];
    let service = TestService::start(BIN, options);
    let started = person(&service, "/ui/recording/start", Some(json!({"language": "de"}))).await;
    assert_eq!(started.status, 201, "{}", started.text);
    assert_eq!(started.body["language"], "de", "pinned");
    let id = started.body["id"].as_str().expect("id").to_owned();
    // The recording page's select pins it again while recording.
    let pin = |language: &str| json!({ "language": language });
    let unknown = person(&service, "/ui/recording/language", Some(pin("xx"))).await;
    unknown.expect_error(400, "invalid_request");
    let pinned = person(&service, "/ui/recording/language", Some(pin("de"))).await;
    assert_eq!(pinned.status, 200, "{}", pinned.text);
    assert_eq!(
        (pinned.body["id"].as_str(), pinned.body["language"].as_str()),
        (Some(&*id), Some("de"))
    );
    tokio::time::sleep(std::time::Duration::from_secs(8)).await;
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    let after = person(&service, "/ui/recording/language", Some(pin("fr"))).await;
    after.expect_error(409, "not_recording");
    let meeting = wait_ready(&service, &id).await;
    let text = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await.text;
    eprintln!("pinned: {text}");
    assert_eq!(meeting["language"], "de");
    // Live lines cut at the speaker's pauses: the first words come out less
    // well than in a file, but in German.
    assert!(german_words(&text) >= 4, "German while recording: {text}");
    assert_eq!(english_words(&text), 0, "not translated: {text}");
}

#[tokio::test]
async fn an_english_only_model_is_not_pinned_to_another_language() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::speak_padded("Hello.", &mic, 0.5, 20.0);
    speech::speak_padded("Hi.", &sys, 0.5, 20.0);
    // tiny.en: German would be written as English words and called German.
    let service = TestService::start(BIN, crate::recording::recording_options(&mic, &sys, 1.0));
    let refused = person(&service, "/ui/recording/start", Some(json!({"language": "de"}))).await;
    refused.expect_error(400, "invalid_request");
    assert!(refused.text.contains("English-only"), "{}", refused.text);
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], false);
    let started = person(&service, "/ui/recording/start", Some(json!({"language": "auto"}))).await;
    assert_eq!(started.status, 201, "{}", started.text);
    assert_eq!(started.body["language"], "en", "auto is English on an English-only model");
    let pin = person(&service, "/ui/recording/language", Some(json!({"language": "fr"}))).await;
    pin.expect_error(400, "invalid_request");
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
}
