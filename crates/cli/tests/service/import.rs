//! Import end to end: real speech (espeak-ng and a human recording) through
//! the real whisper.cpp engine with the tiny.en test model, to a ready meeting
//! with transcript, notes and action items; failures, restarts and silence.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use recorder_test_support::speech::{self, Layout};
use recorder_test_support::{Options, TestService};
use serde_json::{json, Value};

use crate::events::open;
use crate::{get, make_pro, person_call, post, BIN};

const SCRIPT: &str = "Good morning everyone, this is the budget planning meeting. \
    I will send the budget report to the finance team by Friday. \
    Can you review the design document before tomorrow? \
    We decided to go with the blue design for the website.";

/// A service with the test model and remote start allowed.
pub fn start_with_model() -> TestService {
    TestService::start(BIN, model_options())
}

fn model_options() -> Options {
    Options {
        settings: Some(json!({"general": {"allow_remote_start": true}})),
        env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
        ..Options::default()
    }
}

async fn import(service: &TestService, path: &Path) -> String {
    let answer = post(service, "/v1/import", &json!({ "path": path })).await;
    assert_eq!(answer.status, 202, "{}", answer.text);
    assert_eq!(answer.body["status"], "transcribing");
    assert_eq!(answer.body["source_app"], "import");
    answer.body["id"].as_str().expect("id").to_owned()
}

/// Polls until the meeting is ready (imports run one at a time, so a queue of
/// several can take a while on a busy machine).
pub async fn wait_ready(service: &TestService, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let meeting = get(service, &format!("/v1/meetings/{id}")).await;
        assert_eq!(meeting.status, 200, "{}", meeting.text);
        if meeting.body["status"] == "ready" {
            return meeting.body;
        }
        assert!(Instant::now() < deadline, "not ready in time: {}", meeting.text);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn transcript_text(service: &TestService, id: &str) -> String {
    let answer = get(service, &format!("/v1/meetings/{id}/transcript?format=txt")).await;
    assert_eq!(answer.status, 200);
    answer.text.to_lowercase()
}

fn temp_file(service: &TestService, name: &str) -> PathBuf {
    service.folder.path().join(name)
}

#[tokio::test]
async fn speech_in_every_layout_becomes_a_ready_meeting_with_notes_and_action_items() {
    let service = start_with_model();
    let layouts = [
        ("meeting.wav", Layout::Wav44kStereo16),
        ("float.wav", Layout::Wav48kFloat),
        ("meeting.mp3", Layout::Mp3),
        ("meeting.ogg", Layout::Ogg),
    ];
    let mut ids = Vec::new();
    let mut before = std::collections::HashMap::new();
    for (name, layout) in layouts {
        let path = temp_file(&service, name);
        speech::speak(SCRIPT, &path, layout);
        before.insert(name, std::fs::read(&path).expect("the file"));
        ids.push((name, import(&service, &path).await));
    }
    for (name, id) in ids {
        let meeting = wait_ready(&service, &id).await;
        assert_eq!(meeting["processing_error"], Value::Null, "{name}: {meeting}");
        assert_eq!(meeting["title"], name.rsplit_once('.').expect("stem").0);
        assert_eq!(meeting["language"], "en");
        let duration = meeting["duration_ms"].as_i64().unwrap_or(0);
        assert!((10_000..25_000).contains(&duration), "{name}: duration {duration}");
        // Every format plays in the app: a 16 kHz mono copy as long as the meeting.
        let copy = service.data_dir().join("meetings").join(&id).join("sys.wav");
        let reader = hound::WavReader::open(&copy).expect("a playback copy");
        assert_eq!((reader.spec().sample_rate, reader.spec().channels), (16_000, 1), "{name}");
        let copy_ms = i64::from(reader.duration()) / 16;
        assert!((copy_ms - duration).abs() <= 100, "{name}: copy {copy_ms} ms, meeting {duration}");
        let original = std::fs::read(temp_file(&service, name)).expect("the original");
        assert_eq!(original, before[name], "{name}: the imported file is untouched");
        let text = transcript_text(&service, &id).await;
        for word in ["budget", "report", "finance", "friday", "design document", "blue design"] {
            assert!(text.contains(word), "{name}: {word:?} missing from {text}");
        }
        let kinds: Vec<&str> = meeting["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .filter_map(|n| n["kind"].as_str())
            .collect();
        assert_eq!(kinds.len(), 4, "{name}: {kinds:?}");
        for kind in ["summary", "key_points", "decisions", "action_items"] {
            assert!(kinds.contains(&kind), "{name}: no {kind} note");
        }
        let decisions = note(&meeting, "decisions").to_lowercase();
        assert!(decisions.contains("blue design"), "{name}: {decisions}");
        let items = meeting["action_items"].as_array().expect("items");
        let budget =
            items.iter().find(|i| i["text"].as_str().unwrap_or("").contains("budget report"));
        let budget = budget.unwrap_or_else(|| panic!("{name}: no budget item in {items:?}"));
        assert_eq!(
            budget["owner"], "Them",
            "imported speech is channel sys, whose speaker is Them"
        );
        assert_eq!(budget["done"], false);
        let review =
            items.iter().find(|i| i["text"].as_str().unwrap_or("").contains("design document"));
        let review = review.unwrap_or_else(|| panic!("{name}: no review item in {items:?}"));
        // The person is not one of an imported file's speakers (none is named
        // as them): a request nobody answers is the other party's (issue 49).
        assert_eq!(review["owner"], "Them", "a request in an import is never the person's");
    }
}

fn note(meeting: &Value, kind: &str) -> String {
    meeting["notes"]
        .as_array()
        .and_then(|notes| notes.iter().find(|n| n["kind"] == kind))
        .and_then(|n| n["content_md"].as_str())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn human_speech_is_transcribed_with_timed_cues_in_every_format() {
    let service = start_with_model();
    let id = import(&service, &speech::jfk_wav()).await;
    let meeting = wait_ready(&service, &id).await;
    assert_eq!(meeting["title"], "jfk");
    let text = transcript_text(&service, &id).await;
    assert!(text.contains("ask not what your country can do for you"), "{text}");
    let json = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    let segments = json["segments"].as_array().expect("segments");
    assert!(!segments.is_empty());
    let mut last_end = 0;
    for segment in segments {
        let (start, end) =
            (segment["start_ms"].as_i64().unwrap_or(-1), segment["end_ms"].as_i64().unwrap_or(-1));
        assert!(start >= last_end - 1 && end >= start && end <= 11_100, "{segment}");
        assert_eq!(segment["speaker"], "Them");
        assert_eq!(segment["channel"], "sys");
        last_end = end;
    }
    let srt = get(&service, &format!("/v1/meetings/{id}/transcript?format=srt")).await;
    assert_eq!(srt.headers["content-type"], "application/x-subrip; charset=utf-8");
    let vtt = get(&service, &format!("/v1/meetings/{id}/transcript?format=vtt")).await;
    assert!(vtt.text.starts_with("WEBVTT\n\n"));
    for (index, segment) in segments.iter().enumerate() {
        let start = segment["start_ms"].as_i64().unwrap_or(0);
        let end = segment["end_ms"].as_i64().unwrap_or(0);
        let srt_cue = format!("{}\n{} --> {}\n", index + 1, clock(start, ','), clock(end, ','));
        assert!(srt.text.contains(&srt_cue), "{srt_cue:?} in {}", srt.text);
        let vtt_cue = format!("{} --> {}\n<v Them>", clock(start, '.'), clock(end, '.'));
        assert!(vtt.text.contains(&vtt_cue), "{vtt_cue:?} in {}", vtt.text);
    }
    let md = get(&service, &format!("/v1/meetings/{id}/transcript?format=md")).await;
    assert!(md.text.starts_with("**Them** [00:00] "), "{}", md.text);
    let txt = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await;
    assert!(txt.text.starts_with("[00:00:00] Them: "), "{}", txt.text);
}

#[tokio::test]
async fn beam_search_chosen_in_settings_transcribes_an_import() {
    let mut options = model_options();
    options.settings = Some(json!({
        "general": {"allow_remote_start": true},
        "transcription": {"decoding": "beam"}
    }));
    let service = TestService::start(BIN, options);
    let settings = get(&service, "/v1/settings").await;
    assert_eq!(settings.body["transcription"]["decoding"], "beam", "{}", settings.text);
    let id = import(&service, &speech::jfk_wav()).await;
    wait_ready(&service, &id).await;
    let text = transcript_text(&service, &id).await;
    // tiny.en's beam hears "asked not" where greedy hears "ask not".
    for words in ["not what your country can do for you", "ask what you can do for your country"] {
        assert!(text.contains(words), "{words:?} in {text}");
    }
}

fn clock(ms: i64, separator: char) -> String {
    let (h, m, s, f) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("{h:02}:{m:02}:{s:02}{separator}{f:03}")
}

#[tokio::test]
async fn import_emits_the_pipeline_events_in_order() {
    let service = start_with_model();
    let mut events = open(&service, None).await;
    let id = import(&service, &speech::jfk_wav()).await;
    let mut seen: Vec<(String, Value)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !seen.iter().any(|(kind, _)| kind == "meeting.ready") {
        let left = deadline.saturating_duration_since(Instant::now());
        let frame =
            tokio::time::timeout(left, events.recv()).await.expect("in time").expect("open");
        if let (Some(kind), Some(data)) = (frame.event, frame.data) {
            seen.push((kind, data["data"].clone()));
        }
    }
    let kinds: Vec<&str> = seen.iter().map(|(k, _)| k.as_str()).collect();
    let position = |kind: &str| {
        kinds.iter().position(|k| *k == kind).unwrap_or_else(|| panic!("{kind} in {kinds:?}"))
    };
    assert!(position("models.loading") < position("models.loaded"));
    assert!(position("models.loaded") < position("segment.new"));
    let summarising =
        seen.iter().position(|(k, d)| k == "meeting.updated" && d["status"] == "summarising");
    let summarising = summarising.expect("meeting.updated summarising");
    assert!(position("segment.new") < summarising);
    let stages: Vec<&str> = seen
        .iter()
        .filter(|(k, _)| k == "notes.progress")
        .map(|(_, d)| d["stage"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(stages, ["started", "generating", "saving", "done"]);
    assert!(seen
        .iter()
        .filter(|(k, _)| k == "notes.progress")
        .all(|(_, d)| d["provider"] == "builtin"));
    let ready = position("meeting.ready");
    assert_eq!(
        kinds[ready - 1],
        "meeting.updated",
        "meeting.updated comes right before meeting.ready"
    );
    let segment = &seen[position("segment.new")].1;
    assert_eq!(segment["meeting_id"], id.as_str());
    assert_eq!(segment["speaker"], "Them");
    assert!(segment["text"].as_str().unwrap_or("").to_lowercase().contains("country"));
}

#[tokio::test]
async fn broken_files_end_ready_with_a_processing_error() {
    let service = start_with_model();
    let good = temp_file(&service, "good.wav");
    speech::speak("We will ship the release on Monday.", &good, Layout::Wav22k24);
    let bytes = std::fs::read(&good).expect("wav");
    let truncated = temp_file(&service, "truncated.wav");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
    let garbage = temp_file(&service, "garbage.wav");
    std::fs::write(&garbage, b"RIFF\x10\x00\x00\x00WAVEjunkjunkjunk").expect("write");
    let fake_mp3 = temp_file(&service, "fake.mp3");
    std::fs::write(&fake_mp3, vec![0x5a; 4096]).expect("write");
    for (path, expected) in
        [(&truncated, "truncated"), (&garbage, "not valid"), (&fake_mp3, "ffmpeg")]
    {
        let id = import(&service, path).await;
        let meeting = wait_ready(&service, &id).await;
        let error = meeting["processing_error"].as_str().unwrap_or_else(|| panic!("{meeting}"));
        assert!(error.contains(expected), "{path:?}: {error}");
        assert!(!note(&meeting, "summary").is_empty(), "a ready meeting always has a summary");
    }
    assert!(truncated.exists() && garbage.exists() && fake_mp3.exists(), "the user's files stay");
    let good_id = import(&service, &good).await;
    let meeting = wait_ready(&service, &good_id).await;
    assert_eq!(meeting["processing_error"], Value::Null, "the service still works: {meeting}");
    assert!(transcript_text(&service, &good_id).await.contains("monday"));
}

/// A service with the test model whose file jobs use `threads` threads (one
/// whisper state a thread: two workers at two).
fn start_with_threads(threads: u32) -> TestService {
    let mut options = model_options();
    options.settings = Some(json!({
        "general": {"allow_remote_start": true},
        "transcription": {"threads": threads}
    }));
    TestService::start(BIN, options)
}

/// JFK's 11 s `count` times over.
fn jfks(service: &TestService, count: usize) -> PathBuf {
    let long = temp_file(service, "long.wav");
    let jfk = speech::jfk_wav();
    let copies: Vec<&Path> = std::iter::repeat_n(jfk.as_path(), count).collect();
    let status = std::process::Command::new("sox").args(&copies).arg(&long).status().expect("sox");
    assert!(status.success());
    long
}

async fn segments_of(service: &TestService, id: &str) -> Vec<(i64, i64, String)> {
    let transcript = get(service, &format!("/v1/meetings/{id}/transcript")).await.body;
    let segments = transcript["segments"].as_array().expect("segments").clone();
    segments
        .iter()
        .map(|s| {
            let time = |key: &str| s[key].as_i64().expect("a time");
            (time("start_ms"), time("end_ms"), s["text"].as_str().expect("text").to_owned())
        })
        .collect()
}

#[tokio::test]
async fn two_workers_write_the_transcript_one_worker_writes() {
    let mut transcripts = Vec::new();
    for threads in [1, 2] {
        let service = start_with_threads(threads);
        let plan = transcription_device(&service).await;
        // Mesa's drivers are installed here: the helper loaded them to look.
        assert!(!maps_a_vulkan_driver(service.pid()), "the GPU search ran in a helper");
        assert_eq!(plan["file_workers"], threads, "one state a thread: {plan}");
        assert_eq!(plan["threads_per_worker"], 1, "{plan}");
        let id = import(&service, &jfks(&service, 8)).await;
        wait_ready(&service, &id).await;
        transcripts.push(segments_of(&service, &id).await);
    }
    assert!(transcripts[0].len() >= 8, "a segment or more a copy: {:?}", transcripts[0]);
    assert_eq!(transcripts[1], transcripts[0], "the same segments, times and text, in order");
}

#[tokio::test]
async fn a_gpu_asked_for_where_there_is_none_falls_back_to_the_cpu_and_says_why() {
    let mut options = model_options();
    options.settings = Some(json!({
        "general": {"allow_remote_start": true},
        "transcription": {"device": "gpu"}
    }));
    // Mesa's software Vulkan device is not a GPU unless named.
    options.env.push(("GGML_VK_VISIBLE_DEVICES".into(), String::new()));
    let service = TestService::start(BIN, options);
    let id = import(&service, &speech::jfk_wav()).await;
    wait_ready(&service, &id).await;
    assert!(transcript_text(&service, &id).await.contains("ask not what your country"));
    let device = transcription_device(&service).await;
    assert_eq!(device["device"], "gpu", "{device}");
    assert_eq!(device["runs_on"], "cpu", "{device}");
    let reason = device["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("no GPU was found"), "the reason is given: {device}");
    let logs = person_call(&service, reqwest::Method::GET, "/ui/logs", None).await.text;
    assert!(logs.contains("transcribing on the CPU instead of the GPU"), "and logged: {logs}");
}

/// Health's `transcription`, once the service's GPU search (a helper
/// process, started by the first health check) is done.
async fn transcription_device(service: &TestService) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let health = get(service, "/v1/health").await.body;
        if health.get("transcription").is_some() {
            return health["transcription"].clone();
        }
        assert!(Instant::now() < deadline, "no GPU search result in 30 s: {health}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether the process has a Vulkan driver mapped (Mesa's are
/// `libvulkan_lvp.so`, `libvulkan_intel.so`, …; the loader itself,
/// `libvulkan.so.1`, is linked and small).
fn maps_a_vulkan_driver(pid: u32) -> bool {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).expect("the service's maps");
    maps.contains("libvulkan_")
}

#[tokio::test]
async fn a_vulkan_loader_without_a_driver_is_the_cpu_and_the_service_lives() {
    // libvulkan1 without a driver (a server, a VM, a package installed
    // without its recommends): the loader fails and ggml throws. The helper
    // says so, health answers, and the model loads on the CPU in-process.
    let mut options = model_options();
    for name in ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"] {
        options.env.push((name.into(), "/nonexistent/icd.json".into()));
    }
    let service = TestService::start(BIN, options);
    let device = transcription_device(&service).await;
    assert_eq!(device["runs_on"], "cpu", "{device}");
    assert!(device["reason"].as_str().is_some_and(|r| !r.is_empty()), "and why: {device}");
    let id = import(&service, &speech::jfk_wav()).await;
    wait_ready(&service, &id).await;
    assert!(transcript_text(&service, &id).await.contains("ask not what your country"));
    assert_eq!(get(&service, "/v1/health").await.status, 200, "the service lives");
}

#[tokio::test]
async fn a_job_interrupted_by_a_crash_resumes_without_duplicates() {
    // Two workers, so chunks are in flight on both when the service dies.
    // 24 copies (264 s): long enough to be killed half way through.
    let mut service = start_with_threads(2);
    let long = jfks(&service, 24);
    let mut events = open(&service, None).await;
    let id = import(&service, &long).await;
    // Wait for the first saved segment, then kill the service outright.
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(120), events.recv())
            .await
            .expect("event")
            .expect("open");
        if frame.event.as_deref() == Some("segment.new") {
            break;
        }
    }
    let mut child = service.take_child();
    child.kill().expect("kill");
    child.wait().expect("reaped");
    service.restart();
    // The job resumes as the service starts, before anyone can listen to its
    // events (two workers finish the rest in seconds): its log says from where.
    let meeting = wait_ready(&service, &id).await;
    let logs = person_call(&service, reqwest::Method::GET, "/ui/logs?lines=5000", None).await.text;
    let starts: Vec<i64> = logs
        .lines()
        .filter(|line| line.contains("transcribing a file"))
        .filter_map(|line| line.split("from_ms=").nth(1)?.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(starts.len(), 2, "the job started, then resumed after the crash: {starts:?}");
    let first_after_restart = starts[1];
    assert!(
        first_after_restart >= 5_000,
        "resumed from its saved point, not from 0: {first_after_restart}\n{logs}"
    );
    assert_eq!(meeting["processing_error"], Value::Null, "{meeting}");
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    let segments = transcript["segments"].as_array().expect("segments").clone();
    let mut last_start = -1;
    for segment in &segments {
        let start = segment["start_ms"].as_i64().unwrap_or(-1);
        assert!(start > last_start, "segments are in order without repeats: {segments:?}");
        last_start = start;
    }
    assert!(
        segments.iter().any(|s| s["start_ms"].as_i64() < Some(first_after_restart)),
        "the first run's segments were kept"
    );
    let last_end = segments.last().and_then(|s| s["end_ms"].as_i64()).unwrap_or(0);
    assert!(last_end > 250_000, "the end of the 264 s file is transcribed: {last_end}");
    for copy in 0..24 {
        let (from, to) = (copy * 11_000, (copy + 1) * 11_000);
        assert!(
            segments.iter().any(|s| (from..to).contains(&s["start_ms"].as_i64().unwrap_or(-1))),
            "copy {copy} ({from}–{to} ms) was transcribed: {segments:?}"
        );
    }
    let text = transcript_text(&service, &id).await;
    assert!(text.matches("fellow americans").count() >= 18, "{text}");
}

#[tokio::test]
async fn two_hours_of_silence_give_no_text_in_bounded_memory() {
    let service = start_with_model();
    let silent = temp_file(&service, "silence.wav");
    speech::silence(&silent, 2 * 60 * 60);
    let size = std::fs::metadata(&silent).expect("size").len();
    assert!(size > 200_000_000, "a 230 MB file: {size}");
    let id = import(&service, &silent).await;
    let meeting = wait_ready(&service, &id).await;
    assert_eq!(meeting["processing_error"], Value::Null);
    assert_eq!(meeting["duration_ms"], 7_200_000);
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    assert_eq!(transcript["segments"], json!([]), "silence has no words");
    assert!(note(&meeting, "summary").contains("No speech"), "{meeting}");
    let peak_mib = peak_rss_mib(&service);
    assert!(peak_mib < 400.0, "peak memory {peak_mib} MiB: the file must be streamed, not loaded");
}

pub fn peak_rss_mib(service: &TestService) -> f64 {
    let pid = service.pid();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kib / 1024.0
}

#[tokio::test]
async fn notes_can_be_regenerated_and_keep_done_items() {
    let service = start_with_model();
    let path = temp_file(&service, "plan.wav");
    speech::speak(SCRIPT, &path, Layout::Wav22k24);
    let id = import(&service, &path).await;
    let meeting = wait_ready(&service, &id).await;
    let item = meeting["action_items"][0].clone();
    let item_id = item["id"].as_str().expect("an item");
    let url = format!("/v1/meetings/{id}/action_items/{item_id}");
    let done = crate::call(
        reqwest::Method::PATCH,
        &service.url(&url),
        Some(&service.api_token),
        Some(&json!({"done": true})),
    )
    .await;
    assert_eq!(done.status, 200, "{}", done.text);
    post(&service, &format!("/v1/meetings/{id}/notes"), &json!({"kind": "action_items"}))
        .await
        .expect_error(402, "pro_required");
    make_pro(&service).await;
    let mut events = open(&service, None).await;
    let accepted =
        post(&service, &format!("/v1/meetings/{id}/notes"), &json!({"kind": "action_items"})).await;
    assert_eq!(accepted.status, 202, "{}", accepted.text);
    let mut stages = Vec::new();
    while !stages.contains(&"done".to_string()) {
        let frame = tokio::time::timeout(Duration::from_secs(30), events.recv())
            .await
            .expect("event")
            .expect("open");
        if frame.event.as_deref() == Some("notes.progress") {
            stages.push(
                frame
                    .data
                    .map(|d| d["data"]["stage"].as_str().unwrap_or("").to_owned())
                    .unwrap_or_default(),
            );
        }
    }
    assert_eq!(stages, ["started", "generating", "saving", "done"]);
    let after = wait_ready(&service, &id).await;
    let kept =
        after["action_items"].as_array().expect("items").iter().find(|i| i["id"] == item["id"]);
    assert_eq!(kept.map(|i| i["done"].clone()), Some(json!(true)), "{after}");
}

#[tokio::test]
async fn cli_import_waits_until_ready_and_names_the_meeting() {
    // The person's own import: no 'Allow remote start' needed.
    let service = TestService::start(
        BIN,
        Options {
            env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
            ..Options::default()
        },
    );
    let folder = service.folder.path().to_path_buf();
    let output = tokio::task::spawn_blocking(move || {
        let jfk = speech::jfk_wav();
        std::fs::copy(&jfk, folder.join("speech.wav")).expect("copy");
        service
            .cli()
            .current_dir(&folder)
            .args(["import", "speech.wav", "--title", "Kennedy", "--wait", "--json"])
            .output()
            .expect("recorder import")
    })
    .await
    .expect("cli");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let meeting: Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(meeting["status"], "ready");
    assert_eq!(meeting["title"], "Kennedy");
    assert!(meeting["notes"].as_array().is_some_and(|n| !n.is_empty()), "{meeting}");
}

#[tokio::test]
async fn a_faster_whisper_model_converted_by_the_cli_transcribes() {
    let settings = json!({"general": {"allow_remote_start": true}});
    let service =
        TestService::start(BIN, Options { settings: Some(settings), ..Options::default() });
    post(&service, "/v1/import", &json!({ "path": speech::jfk_wav() }))
        .await
        .expect_error(503, "model_unavailable");
    let ct2 = speech::test_models_dir().join("ct2-tiny.en");
    let cli = |args: Vec<String>| {
        let output = service.cli().args(&args).output().expect("recorder models");
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    };
    cli(vec![
        "models".into(),
        "import-ct2".into(),
        ct2.display().to_string(),
        "--name".into(),
        "tiny-ct2".into(),
    ]);
    cli(vec!["models".into(), "use".into(), "tiny-ct2".into()]);
    assert!(service.data_dir().join("models/ggml-tiny-ct2.bin").is_file());
    let id = import(&service, &speech::jfk_wav()).await;
    let meeting = wait_ready(&service, &id).await;
    assert_eq!(meeting["processing_error"], Value::Null, "{meeting}");
    assert!(transcript_text(&service, &id).await.contains("what you can do for your country"));
}

#[tokio::test]
async fn music_gives_no_text_and_links_to_files_are_followed() {
    let service = start_with_model();
    let music = temp_file(&service, "music.wav");
    let status = std::process::Command::new("sox")
        .args(["-n", "-r", "44100", "-c", "2", "-b", "16"])
        .arg(&music)
        .args(["synth", "3", "pluck", "C4", "pluck", "E4", "pluck", "G4", ":"])
        .args(["synth", "3", "pluck", "D4", "pluck", "F4", "pluck", "A4", "repeat", "3"])
        .status()
        .expect("sox");
    assert!(status.success());
    let link = temp_file(&service, "linked-music.wav");
    std::os::unix::fs::symlink(&music, &link).expect("symlink");
    let id = import(&service, &link).await;
    let meeting = wait_ready(&service, &id).await;
    assert_eq!(meeting["title"], "linked-music");
    assert_eq!(meeting["processing_error"], Value::Null);
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    assert_eq!(transcript["segments"], json!([]), "music has no words: {transcript}");
    let folder_link = temp_file(&service, "folder.wav");
    std::os::unix::fs::symlink(service.folder.path(), &folder_link).expect("symlink");
    post(&service, "/v1/import", &json!({ "path": folder_link }))
        .await
        .expect_error(400, "invalid_request");
}

#[tokio::test]
async fn a_job_that_keeps_taking_the_service_down_is_given_up() {
    let mut id = String::new();
    let service = TestService::start_with(BIN, model_options(), |data| {
        id = recorder_test_support::seed_crashing_import(data, &speech::jfk_wav(), 3);
    });
    let meeting = wait_ready(&service, &id).await;
    let error = meeting["processing_error"].as_str().unwrap_or_default();
    assert!(error.contains("given up") && error.contains("3 times"), "{meeting}");
    assert!(!note(&meeting, "summary").is_empty());
}
