//! The notes model inside, end to end: a real service runs `recorder-llm` with the
//! SmolLM2-135M test model (from PyPI) for an import and for a recording; the
//! notes parse, progress names the engine, the ledger stays empty. A run waits
//! while a recording needs the CPU, is canceled or stopped by a shutdown (and
//! resumed at the next start) with its worker gone; files that are not whole
//! GGUF models are refused; a broken model falls back to the built-in engine
//! and the meeting says so.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use recorder_test_support::speech::{self, Layout};
use recorder_test_support::{seed, Options, SeedMeeting, TestService};
use serde_json::{json, Value};

use crate::events::open;
use crate::import::wait_ready;
use crate::recording::{call_files, events_until, person, recording_options};
use crate::{get, make_pro, post, BIN};

const SCRIPT: &str = "Good morning everyone, this is the budget planning meeting. \
    I will send the budget report to the finance team by Friday. \
    We decided to go with the blue design for the website.";

/// The test model under a name of this test's own, so its worker can be found
/// among the machine's processes.
fn model_link(folder: &Path) -> PathBuf {
    let link = folder.join(format!("notes-model-{}.gguf", std::process::id()));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(speech::notes_model(), &link).expect("a link to the test model");
    link
}

fn embedded(options: Options, model: &Path) -> Options {
    let mut options = options;
    options.env.push(("RECORDER_NOTES_MODEL_PATH".into(), model.display().to_string()));
    let mut settings = options.settings.take().unwrap_or_else(|| json!({}));
    settings["ai"] = json!({"provider": "embedded"});
    options.settings = Some(settings);
    options
}

/// Workers running `model` now.
fn workers(model: &Path) -> usize {
    let wanted = model.display().to_string();
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains("recorder-llm") && cmdline.contains(&wanted))
        .count()
}

async fn no_workers_left(model: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while workers(model) > 0 {
        assert!(Instant::now() < deadline, "recorder-llm for {} still runs", model.display());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn stages(events: &[(String, Value)]) -> Vec<String> {
    let progress = events.iter().filter(|(kind, _)| kind == "notes.progress");
    progress
        .map(|(_, data)| format!("{}:{}", data["stage"].as_str().unwrap_or(""), data["provider"]))
        .collect()
}

/// Every note written by the model inside, and action items that parsed.
fn assert_written_inside(meeting: &Value) {
    let notes = meeting["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 4, "{meeting}");
    for note in notes {
        assert_eq!(note["written_by"], "embedded", "{note}");
        assert!(note["fallback"].is_null(), "{note}");
        assert!(!note["content_md"].as_str().unwrap_or("").trim().is_empty(), "{note}");
    }
    for item in meeting["action_items"].as_array().expect("action items parse") {
        assert!(item["text"].as_str().is_some_and(|t| !t.is_empty()), "{item}");
        assert!(item["owner"].as_str().is_some_and(|o| !o.is_empty()), "{item}");
    }
    assert!(meeting["processing_error"].is_null(), "{meeting}");
}

#[tokio::test]
async fn an_imports_notes_are_written_inside_and_nothing_leaves_the_machine() {
    let _cpu = crate::busy_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    let model = model_link(folder.path());
    let options = Options {
        settings: Some(json!({"general": {"allow_remote_start": true}})),
        env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
        ..Options::default()
    };
    let service = TestService::start(BIN, embedded(options, &model));
    let path = folder.path().join("plan.wav");
    speech::speak(SCRIPT, &path, Layout::Wav22k24);
    let mut stream = open(&service, None).await;
    let answer = post(&service, "/v1/import", &json!({ "path": path })).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    let id = answer.body["id"].as_str().expect("id").to_owned();
    let events =
        events_until(&mut stream, |kind, _| kind == "meeting.ready", Duration::from_secs(300))
            .await;
    let seen = stages(&events);
    assert!(seen.contains(&"generating:\"embedded\"".to_string()), "{seen:?}");
    assert_eq!(seen.last().map(String::as_str), Some("done:\"embedded\""), "{seen:?}");
    let percent =
        events.iter().any(|(kind, data)| kind == "notes.progress" && data["percent"].is_u64());
    assert!(percent, "progress carries a percentage: {seen:?}");
    assert_written_inside(&wait_ready(&service, &id).await);
    let ledger = get(&service, "/v1/ledger").await.body;
    assert_eq!(ledger["entries"], json!([]), "nothing was sent anywhere: {ledger}");
    no_workers_left(&model).await;
}

#[tokio::test]
async fn a_recordings_notes_are_written_inside() {
    let _cpu = crate::busy_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    let model = model_link(folder.path());
    let (mic, sys) = call_files(folder.path());
    let service = TestService::start(BIN, embedded(recording_options(&mic, &sys, 2.0), &model));
    let mut stream = open(&service, None).await;
    let started = person(&service, "/ui/recording/start", Some(json!({"title": "Plan"}))).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    events_until(
        &mut stream,
        |kind, data| kind == "segment.new" && data["channel"] == "sys",
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    let events =
        events_until(&mut stream, |kind, _| kind == "meeting.ready", Duration::from_secs(180))
            .await;
    assert_eq!(stages(&events).last().map(String::as_str), Some("done:\"embedded\""));
    assert_written_inside(&wait_ready(&service, &id).await);
    assert_eq!(get(&service, "/v1/ledger").await.body["entries"], json!([]));
}

/// A service with the model inside and a meeting long enough to stop its notes
/// in the middle (some 1 800 tokens of transcript: four batches of prompt).
async fn long_meeting(folder: &Path, model: &Path) -> (TestService, String) {
    let lines: Vec<String> = (0..60)
        .map(|at| format!("Line {at}: we reviewed the budget, the hiring plan and the offsite."))
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let mut id = String::new();
    let options = embedded(Options::default(), model);
    let service = TestService::start_with(BIN, options, |data| {
        id = seed(data, &[SeedMeeting::ready("Long", 1_700_000_000_000, &lines)]).remove(0);
    });
    make_pro(&service).await;
    let _ = folder;
    (service, id)
}

/// Asks for a summary and waits until the model is writing it.
async fn regenerate_until_writing(service: &TestService, id: &str) {
    let mut stream = open(service, None).await;
    let answer =
        post(service, &format!("/v1/meetings/{id}/notes"), &json!({"kind": "summary"})).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    events_until(
        &mut stream,
        |kind, data| kind == "notes.progress" && data["percent"].is_u64(),
        Duration::from_secs(120),
    )
    .await;
}

#[tokio::test]
async fn a_canceled_run_ends_its_worker_and_keeps_the_notes() {
    let _cpu = crate::busy_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    let model = model_link(folder.path());
    let (service, id) = long_meeting(folder.path(), &model).await;
    let before = get(&service, &format!("/v1/meetings/{id}")).await.body["notes"].clone();
    regenerate_until_writing(&service, &id).await;
    assert_eq!(workers(&model), 1, "one worker writes");
    let canceled = crate::delete(&service, &format!("/v1/meetings/{id}/notes")).await;
    assert_eq!(canceled.status, 200, "{}", canceled.text);
    no_workers_left(&model).await;
    let meeting = wait_ready(&service, &id).await;
    assert_eq!(meeting["notes"], before, "the earlier notes stay");
}

#[tokio::test]
async fn a_shutdown_mid_run_ends_the_worker_and_the_notes_resume_at_the_next_start() {
    let _cpu = crate::busy_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    let model = model_link(folder.path());
    let (mut service, id) = long_meeting(folder.path(), &model).await;
    regenerate_until_writing(&service, &id).await;
    let (status, _) = service.terminate(Duration::from_secs(30));
    assert!(status.success(), "a clean shutdown: {status:?}");
    no_workers_left(&model).await;
    service.restart();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
        let summary = meeting["notes"].as_array().and_then(|notes| {
            notes.iter().find(|note| note["kind"] == "summary" && note["written_by"] == "embedded")
        });
        if meeting["status"] == "ready" && summary.is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "not rewritten: {meeting}\n{}", logs(&service));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// The service's log files, for a failure's message.
fn logs(service: &TestService) -> String {
    let folder = service.data_dir().join("logs");
    let files = std::fs::read_dir(folder).into_iter().flatten().flatten();
    files.filter_map(|file| std::fs::read_to_string(file.path()).ok()).collect()
}

#[tokio::test]
async fn a_run_waits_while_a_recording_needs_the_cpu() {
    let _cpu = crate::busy_cpu().await;
    let folder = tempfile::tempdir().expect("temp");
    let model = model_link(folder.path());
    let (mic, sys) = call_files(folder.path());
    let mut id = String::new();
    let options = embedded(recording_options(&mic, &sys, 1.0), &model);
    let service = TestService::start_with(BIN, options, |data| {
        let lines = ["We decided to keep the blue design.", "I will send the report by Friday."];
        id = seed(data, &[SeedMeeting::ready("Earlier", 1_700_000_000_000, &lines)]).remove(0);
    });
    make_pro(&service).await;
    let mut stream = open(&service, None).await;
    assert_eq!(person(&service, "/ui/recording/start", None).await.status, 201);
    let path = format!("/v1/meetings/{id}/notes");
    assert_eq!(post(&service, &path, &json!({"kind": "summary"})).await.status, 202);
    events_until(
        &mut stream,
        |kind, data| kind == "notes.progress" && data["stage"] == "waiting",
        Duration::from_secs(30),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(workers(&model), 0, "no model is loaded while the recording runs");
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    let events = events_until(
        &mut stream,
        |kind, data| {
            kind == "notes.progress" && data["stage"] == "done" && data["meeting_id"] == id.as_str()
        },
        Duration::from_secs(180),
    )
    .await;
    let done = events.last().map(|(_, data)| data["provider"].clone());
    assert_eq!(done, Some(json!("embedded")));
}

#[tokio::test]
async fn add_notes_refuses_what_is_not_a_whole_gguf_model_and_installs_one_that_is() {
    let service = crate::start();
    let folder = service.folder.path();
    let text = folder.join("notes.gguf");
    std::fs::write(&text, "these are my notes, not a model").expect("a text file");
    let bytes = std::fs::read(speech::notes_model()).expect("the test model");
    let truncated = folder.join("truncated.gguf");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("half a model");
    for (path, problem) in [(&text, "is not a GGUF model file"), (&truncated, "is truncated")] {
        let run = service.cli().args(["models", "add-notes"]).arg(path).output().expect("run");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && stderr.contains(problem), "{problem}: {stderr}");
    }
    let list = crate::person_call(&service, reqwest::Method::GET, "/ui/notes-models", None).await;
    assert_eq!(list.body["active"], Value::Null, "nothing was installed: {}", list.text);

    let run = service
        .cli()
        .args(["models", "add-notes", "--name", "smol"])
        .arg(speech::notes_model())
        .output()
        .expect("run");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let list = crate::person_call(&service, reqwest::Method::GET, "/ui/notes-models", None).await;
    assert_eq!(list.body["active"]["name"], "smol", "{}", list.text);
    assert_eq!(list.body["worker_found"], true);
    let settings = crate::person_call(&service, reqwest::Method::GET, "/ui/settings", None).await;
    assert_eq!(settings.body["ai"]["provider"], "embedded", "the model inside writes from now on");
    let removed = service.cli().args(["models", "remove-notes", "smol"]).output().expect("run");
    assert!(removed.status.success(), "{}", String::from_utf8_lossy(&removed.stderr));
    assert!(!service.data_dir().join("models/notes/smol.gguf").exists());
}

#[tokio::test]
async fn a_broken_model_falls_back_to_the_built_in_engine_and_the_meeting_says_so() {
    let folder = tempfile::tempdir().expect("temp");
    let bytes = std::fs::read(speech::notes_model()).expect("the test model");
    let broken = folder.path().join("broken.gguf");
    std::fs::write(&broken, &bytes[..bytes.len() - 4096]).expect("a cut model");
    let mut id = String::new();
    let service = TestService::start_with(BIN, embedded(Options::default(), &broken), |data| {
        let lines = ["We decided to keep the blue design."];
        id = seed(data, &[SeedMeeting::ready("Design", 1_700_000_000_000, &lines)]).remove(0);
    });
    make_pro(&service).await;
    let events = crate::providers::regenerate(&service, &id, json!({"kind": "decisions"})).await;
    assert_eq!(stages(&events).last().map(String::as_str), Some("done:\"builtin\""));
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
    let note = meeting["notes"]
        .as_array()
        .and_then(|notes| notes.iter().find(|note| note["kind"] == "decisions").cloned());
    let note = note.expect("a decisions note");
    assert_eq!(note["written_by"], "builtin", "{note}");
    let why = note["fallback"].as_str().unwrap_or_default();
    assert!(why.contains("truncated"), "the meeting says why: {why}");
}
