//! The owner's voice reading (Settings → Speakers, `POST
//! /ui/voices/owner/reading`): a real voice (Debian's Asterisk prompts,
//! `scripts/real-voices.sh`) on the file-backed microphone is learned as the
//! owner's; a silent microphone is too little speech and saves nothing; a
//! recording refuses it, and ends one that listens.

use std::path::Path;
use std::time::Duration;

use recorder_test_support::speech;
use recorder_test_support::TestService;
use reqwest::Method;
use serde_json::Value;

use crate::recording::{events_until, person, recording_options};
use crate::{person_call, BIN};

/// The reading listens this long (the file plays four times faster: 24 s).
const READING_SECS: &str = "6";

fn reading_service(mic: &Path, folder: &Path, speaker_model: bool) -> TestService {
    let sys = folder.join("sys.wav");
    speech::silence(&sys, 40);
    let mut options = recording_options(mic, &sys, 4.0);
    options.env.push(("RECORDER_READING_SECS".into(), READING_SECS.into()));
    if speaker_model {
        let model = speech::speaker_model().display().to_string();
        options.env.push(("RECORDER_SPEAKER_MODEL_PATH".into(), model));
    }
    TestService::start(BIN, options)
}

/// Starts a reading and returns its `voice.reading` events, the last with `done`.
async fn read(service: &TestService) -> Vec<Value> {
    let mut stream = crate::events::open(service, None).await;
    let started = person(service, "/ui/voices/owner/reading", None).await;
    assert_eq!(started.status, 202, "{}", started.text);
    assert_eq!(started.body["seconds"], 6, "{}", started.text);
    let seen = events_until(
        &mut stream,
        |kind, data| kind == "voice.reading" && data["done"] == true,
        Duration::from_secs(60),
    )
    .await;
    seen.into_iter().filter(|(kind, _)| kind == "voice.reading").map(|(_, data)| data).collect()
}

async fn owner(service: &TestService) -> Value {
    let voices = person_call(service, Method::GET, "/ui/voices", None).await;
    assert_eq!(voices.status, 200, "{}", voices.text);
    voices.body["owner"].clone()
}

#[tokio::test]
async fn reading_aloud_teaches_the_app_the_owners_voice() {
    let folder = tempfile::tempdir().expect("temp");
    let mic = folder.path().join("mic.wav");
    let clips: Vec<_> = speech::real_voice("allison").into_iter().take(10).collect();
    speech::real_conversation(&[(0, clips)], 0.4, &mic);
    let service = reading_service(&mic, folder.path(), true);
    assert_eq!(owner(&service).await, Value::Null);

    let events = read(&service).await;
    let (done, levels) = events.split_last().expect("events");
    assert!(levels.len() >= 10, "about four a second: {events:#?}");
    assert!(levels.iter().all(|e| e["done"] == false && e["outcome"].is_null()), "{events:#?}");
    let loud = levels.iter().filter(|e| e["level_dbfs"].as_f64() > Some(-40.0)).count();
    assert!(loud >= 5, "the voice moves the meter: {events:#?}");
    let left: Vec<u64> = levels.iter().filter_map(|e| e["seconds_left"].as_u64()).collect();
    assert!(left.first() >= Some(&5) && left.windows(2).all(|w| w[0] >= w[1]), "{left:?}");
    assert_eq!(done["outcome"], "enrolled", "{done}");
    assert!(done["speech_seconds"].as_f64() >= Some(8.0), "{done}");
    assert!(done.get("error").is_none(), "{done}");

    let learned = owner(&service).await;
    assert_eq!(learned["enrolled"], true, "{learned}");
    assert_eq!(learned["meetings"], 0, "{learned}");
    assert!(learned.get("voice").is_none(), "never the voice print: {learned}");
    let kept: Vec<_> = walk(&service.data_dir()).into_iter().filter(|p| is_audio(p)).collect();
    assert!(kept.is_empty(), "the reading is not written to disk: {kept:?}");
}

#[tokio::test]
async fn a_silent_microphone_is_too_little_speech_and_nothing_is_saved() {
    let folder = tempfile::tempdir().expect("temp");
    let mic = folder.path().join("mic.wav");
    speech::silence(&mic, 40);
    let service = reading_service(&mic, folder.path(), true);
    let events = read(&service).await;
    let done = events.last().expect("done");
    assert_eq!(done["outcome"], "too_little_speech", "{done}");
    assert!(events.iter().all(|e| e["level_dbfs"] == -100.0), "{events:#?}");
    assert_eq!(owner(&service).await, Value::Null);

    // While recording, a reading is refused; one that listens ends when a
    // recording starts, saving nothing.
    let mut stream = crate::events::open(&service, None).await;
    let reading = person(&service, "/ui/voices/owner/reading", None).await;
    assert_eq!(reading.status, 202, "{}", reading.text);
    let started = person(&service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let seen = events_until(
        &mut stream,
        |kind, data| kind == "voice.reading" && data["done"] == true,
        Duration::from_secs(30),
    )
    .await;
    let (_, ended) = seen.last().expect("done");
    assert_eq!(ended["outcome"], "failed", "{ended}");
    assert_eq!(ended["error"], "a recording started", "{ended}");
    person(&service, "/ui/voices/owner/reading", None).await.expect_error(409, "already_recording");
    let stopped = person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    assert_eq!(owner(&service).await, Value::Null);
}

#[tokio::test]
async fn without_the_speaker_model_a_reading_is_refused() {
    let folder = tempfile::tempdir().expect("temp");
    let mic = folder.path().join("mic.wav");
    speech::silence(&mic, 10);
    let service = reading_service(&mic, folder.path(), false);
    person(&service, "/ui/voices/owner/reading", None).await.expect_error(503, "model_unavailable");
}

fn walk(folder: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    entries
        .flatten()
        .flat_map(|entry| {
            let path = entry.path();
            if path.is_dir() {
                walk(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

fn is_audio(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "wav" || e == "ogg" || e == "flac")
}
