//! Live recording end to end with `--mic-file`/`--sys-file`: the whole chain
//! (journal, voice activity, live whisper.cpp transcription, echo filter, job
//! hand-over, notes) runs as with devices; only the two streams come from
//! files. Sound-server capture is in `capture.rs`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use recorder_test_support::speech;
use recorder_test_support::{http, Options, TestService};
use reqwest::Method;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::events::{open, Frame};
use crate::import::wait_ready;
use crate::{call, get, make_pro, post, BIN};

pub const MIC_LINE: &str = "I will send the quarterly budget report to the finance team by Friday.";
pub const SYS_LINE: &str = "The marketing launch moves to the second week of March.";

/// Two sides of a call: the person speaks at 1 s, the other side at 9 s.
pub fn call_files(folder: &Path) -> (PathBuf, PathBuf) {
    let (mic, sys) = (folder.join("mic.wav"), folder.join("sys.wav"));
    speech::speak_padded(MIC_LINE, &mic, 1.0, 12.0);
    speech::speak_padded(SYS_LINE, &sys, 9.0, 6.0);
    (mic, sys)
}

pub fn recording_options(mic: &Path, sys: &Path, speed: f64) -> Options {
    Options {
        settings: Some(json!({"general": {"allow_remote_start": true, "user_name": "Ada"}})),
        env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
        args: vec![
            "--mic-file".into(),
            mic.display().to_string(),
            "--sys-file".into(),
            sys.display().to_string(),
            "--audio-speed".into(),
            speed.to_string(),
        ],
        ..Options::default()
    }
}

pub async fn person(service: &TestService, path: &str, body: Option<Value>) -> crate::Answer {
    call(Method::POST, &service.url(path), Some(&service.ui_token), body.as_ref()).await
}

/// Events until `last` arrives (or the time is up), as (type, data).
pub async fn events_until(
    stream: &mut UnboundedReceiver<Frame>,
    last: impl Fn(&str, &Value) -> bool,
    within: Duration,
) -> Vec<(String, Value)> {
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = tokio::time::timeout(left, stream.recv())
            .await
            .unwrap_or_else(|_| panic!("timed out; events so far: {seen:#?}"))
            .expect("stream open");
        let (Some(kind), Some(data)) = (frame.event, frame.data) else { continue };
        let data = data["data"].clone();
        let done = last(&kind, &data);
        seen.push((kind, data));
        if done {
            return seen;
        }
    }
}

fn position(events: &[(String, Value)], wanted: impl Fn(&str, &Value) -> bool) -> usize {
    events
        .iter()
        .position(|(kind, data)| wanted(kind, data))
        .unwrap_or_else(|| panic!("missing event in {events:#?}"))
}

fn count(events: &[(String, Value)], kind: &str) -> usize {
    events.iter().filter(|(k, _)| k == kind).count()
}

#[tokio::test]
async fn a_call_is_transcribed_live_on_both_channels_and_ends_ready() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let service = TestService::start(BIN, recording_options(&mic, &sys, 2.0));
    let mut stream = open(&service, None).await;
    let started = person(
        &service,
        "/ui/recording/start",
        Some(json!({"title": "Planning", "source_app": "zoom"})),
    )
    .await;
    assert_eq!(started.status, 201, "{}", started.text);
    assert_eq!(started.body["status"], "recording");
    assert_eq!(started.body["title"], "Planning");
    let id = started.body["id"].as_str().expect("id").to_owned();
    let health = get(&service, "/v1/health").await;
    assert_eq!(
        health.body["recording"],
        json!({"active": true, "meeting_id": id, "paused": false, "muted": false})
    );

    // Both lines arrive while the call goes on (the files last 11 s at 2×).
    let mut live =
        events_until(&mut stream, |kind, _| kind == "segment.new", Duration::from_secs(60)).await;
    live.extend(
        events_until(
            &mut stream,
            |kind, data| kind == "segment.new" && data["channel"] == "sys",
            Duration::from_secs(60),
        )
        .await,
    );
    let lines: Vec<&Value> =
        live.iter().filter(|(k, _)| k == "segment.new").map(|(_, d)| d).collect();
    let mine = lines.iter().find(|d| d["channel"] == "mic").expect("a mic line live");
    assert_eq!(mine["speaker"], "Ada");
    assert_eq!(mine["meeting_id"], id.as_str());
    assert!(mine["text"].as_str().unwrap_or("").to_lowercase().contains("budget"), "{mine}");
    let theirs = lines.iter().find(|d| d["channel"] == "sys").expect("a sys line live");
    assert_eq!(theirs["speaker"], "Them");
    assert!(theirs["text"].as_str().unwrap_or("").to_lowercase().contains("march"), "{theirs}");
    let their_start = theirs["start_ms"].as_i64().expect("start");
    assert!((8_500..=10_000).contains(&their_start), "on the call's clock: {theirs}");
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], true, "still live");

    let stopped = person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    assert_eq!(stopped.body, json!({"meeting_id": id, "status": "transcribing"}));
    assert_eq!(get(&service, "/v1/health").await.body["recording"], json!({"active": false}));
    let rest =
        events_until(&mut stream, |kind, _| kind == "meeting.ready", Duration::from_secs(120))
            .await;
    let all: Vec<(String, Value)> = live.into_iter().chain(rest).collect();
    let stopped_at =
        position(&all, |k, d| k == "recording.stopped" && d["status"] == "transcribing");
    let summarising = position(&all, |k, d| k == "meeting.updated" && d["status"] == "summarising");
    let ready = position(&all, |k, d| k == "meeting.updated" && d["status"] == "ready");
    assert!(stopped_at < summarising && summarising < ready && ready < all.len() - 1, "{all:#?}");
    for kind in ["recording.stopped", "meeting.ready"] {
        assert_eq!(count(&all, kind), 1, "{kind} once: {all:#?}");
    }

    let meeting = wait_ready(&service, &id).await;
    assert_eq!(meeting["source_app"], "zoom");
    assert!(meeting["processing_error"].is_null(), "{meeting}");
    assert!(meeting["notes"].as_array().expect("notes").iter().any(|n| n["kind"] == "summary"));
    let duration = meeting["duration_ms"].as_i64().expect("duration");
    assert!(duration >= 8_000, "the recording's length: {duration}");
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    let segments = transcript["segments"].as_array().expect("segments");
    let text_of = |channel: &str| {
        segments
            .iter()
            .filter(|s| s["channel"] == channel)
            .map(|s| s["text"].as_str().unwrap_or("").to_lowercase())
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(text_of("mic").contains("budget") && text_of("mic").contains("friday"), "{transcript}");
    assert!(
        text_of("sys").contains("marketing") && text_of("sys").contains("march"),
        "{transcript}"
    );
    assert!(
        segments.iter().any(|s| s["speaker"] == "Ada")
            && segments.iter().any(|s| s["speaker"] == "Them")
    );
    // The audio stays, one valid WAV per channel.
    for channel in ["mic", "sys"] {
        let path = service.data_dir().join("meetings").join(&id).join(format!("{channel}.wav"));
        let reader = hound::WavReader::open(&path).expect("a valid WAV");
        assert_eq!(reader.spec().sample_rate, 16_000);
        assert!(reader.duration() as i64 / 16 >= 8_000, "{channel}: {}", reader.duration());
    }
}

#[tokio::test]
async fn the_other_side_heard_by_the_microphone_is_not_transcribed_twice() {
    let folder = tempfile::tempdir().expect("temp");
    let (_, sys) = call_files(folder.path());
    // No headphones: the microphone hears exactly what the speakers play.
    let service = TestService::start(BIN, recording_options(&sys, &sys, 2.0));
    let started = person(&service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    tokio::time::sleep(Duration::from_secs(8)).await;
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    wait_ready(&service, &id).await;
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    let segments = transcript["segments"].as_array().expect("segments");
    let theirs: Vec<&Value> = segments.iter().filter(|s| s["channel"] == "sys").collect();
    assert!(
        theirs.iter().any(|s| s["text"].as_str().unwrap_or("").to_lowercase().contains("march")),
        "{transcript}"
    );
    let echoes: Vec<&Value> = segments.iter().filter(|s| s["channel"] == "mic").collect();
    assert!(echoes.is_empty(), "the echo was dropped: {transcript}");
}

#[tokio::test]
async fn pause_keeps_paused_time_out_and_markers_on_the_recorded_clock() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let service = TestService::start(BIN, recording_options(&mic, &sys, 1.0));
    let mut stream = open(&service, None).await;
    person(&service, "/ui/recording/pause", Some(json!({"paused": true})))
        .await
        .expect_error(409, "not_recording");
    let started = person(&service, "/ui/recording/start", None).await;
    let id = started.body["id"].as_str().expect("id").to_owned();
    assert_eq!(started.body["title"], "recorder meeting", "never an empty title");

    let marker = |label: &'static str| {
        let service = &service;
        async move {
            let answer = post(service, "/v1/recording/marker", &json!({ "label": label })).await;
            assert_eq!(answer.status, 201, "{}", answer.text);
            answer.body
        }
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before = marker("before").await;
    let paused = person(&service, "/ui/recording/pause", Some(json!({"paused": true}))).await;
    assert_eq!(paused.body, json!({"meeting_id": id, "paused": true}));
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["paused"], true);
    // Pausing again changes nothing and says nothing.
    assert_eq!(
        person(&service, "/ui/recording/pause", Some(json!({"paused": true}))).await.status,
        200
    );
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let during = marker("during").await;
    person(&service, "/ui/recording/pause", Some(json!({"paused": false}))).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let empty =
        call(Method::POST, &service.url("/v1/recording/marker"), Some(&service.api_token), None)
            .await;
    assert_eq!(empty.status, 201, "{}", empty.text);
    assert_eq!(empty.body["label"], "Marker", "the default label");
    let empty = empty.body;

    let at = |marker: &Value| marker["at_ms"].as_i64().expect("at_ms");
    assert!((1_000..=2_500).contains(&at(&before)), "{before}");
    assert!(at(&during) - at(&before) <= 400, "no time passes while paused: {before} {during}");
    assert!(at(&empty) - at(&during) >= 1_100, "time runs again after resuming: {during} {empty}");

    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    let events =
        events_until(&mut stream, |kind, _| kind == "recording.stopped", Duration::from_secs(30))
            .await;
    let pauses: Vec<&Value> =
        events.iter().filter(|(k, _)| k == "recording.paused").map(|(_, d)| d).collect();
    assert_eq!(pauses.len(), 2, "{events:#?}");
    assert_eq!(
        (pauses[0]["paused"].clone(), pauses[1]["paused"].clone()),
        (json!(true), json!(false))
    );
    let added: Vec<&Value> =
        events.iter().filter(|(k, _)| k == "marker.added").map(|(_, d)| d).collect();
    assert_eq!(added.len(), 3);
    assert_eq!(added[0]["label"], "before");
    assert_eq!(added[0]["meeting_id"], id.as_str());

    let meeting = wait_ready(&service, &id).await;
    let markers = meeting["markers"].as_array().expect("markers");
    assert_eq!(markers.len(), 3, "{meeting}");
    assert_eq!(markers[0], before);
    // Recorded length leaves the 2 s pause out.
    let recorded = ["mic", "sys"]
        .iter()
        .map(|channel| {
            let audio =
                service.data_dir().join("meetings").join(&id).join(format!("{channel}.wav"));
            hound::WavReader::open(&audio).expect("wav").duration() as i64 / 16
        })
        .max()
        .expect("two channels");
    let duration = meeting["duration_ms"].as_i64().expect("duration");
    assert_eq!(duration, recorded);
    assert!(duration < at(&empty) + 2_000, "{duration} vs {}", at(&empty));
}

#[tokio::test]
async fn a_recording_killed_mid_call_is_recovered_up_to_two_seconds_before() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let mut service = TestService::start(BIN, recording_options(&mic, &sys, 1.0));
    let started = person(&service, "/ui/recording/start", Some(json!({"title": "Crash"}))).await;
    let id = started.body["id"].as_str().expect("id").to_owned();
    let since = Instant::now();
    // Both lines have been said (the other side ends at 12.3 s).
    tokio::time::sleep(Duration::from_secs(14)).await;
    let lived_ms = since.elapsed().as_millis() as i64;
    service.restart(); // SIGKILL, then start again on the same data folder

    let mut replay = open(&service, Some("0")).await;
    let events =
        events_until(&mut replay, |kind, _| kind == "recording.stopped", Duration::from_secs(30))
            .await;
    let (_, error) = events.iter().find(|(k, _)| k == "error").expect("an error event");
    assert_eq!(error["meeting_id"], id.as_str());
    assert!(error["message"].as_str().unwrap_or("").contains("cut off"), "{error}");
    let meeting = wait_ready(&service, &id).await;
    assert!(meeting["processing_error"].as_str().unwrap_or("").contains("cut off"), "{meeting}");
    let duration = meeting["duration_ms"].as_i64().expect("duration");
    assert!(duration >= lived_ms - 2_000, "kept {duration} ms of {lived_ms} ms");
    for channel in ["mic", "sys"] {
        let path = service.data_dir().join("meetings").join(&id).join(format!("{channel}.wav"));
        let samples = hound::WavReader::open(&path).expect("repaired WAV").duration() as i64;
        assert!(samples / 16 >= lived_ms - 2_000, "{channel}: {} ms", samples / 16);
    }
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt"))
        .await
        .text
        .to_lowercase();
    assert!(transcript.contains("budget"), "{transcript}");
    assert!(transcript.contains("march"), "{transcript}");
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], false);
}

#[tokio::test]
async fn recording_refusals_follow_the_contract() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let service = TestService::start(BIN, recording_options(&mic, &sys, 1.0));
    post(&service, "/v1/recording/stop", &json!({})).await.expect_error(409, "not_recording");
    post(&service, "/v1/recording/marker", &json!({})).await.expect_error(409, "not_recording");
    person(&service, "/ui/recording/stop", None).await.expect_error(409, "not_recording");
    // Start through /v1 is Pro; the person's own button is not.
    post(&service, "/v1/recording/start", &json!({"source_app": "zoom"}))
        .await
        .expect_error(402, "pro_required");
    make_pro(&service).await;
    let started =
        post(&service, "/v1/recording/start", &json!({"source_app": "zoom", "title": "Sync"}))
            .await;
    assert_eq!(started.status, 201, "{}", started.text);
    assert_eq!(started.body["source_app"], "zoom");
    let id = started.body["id"].as_str().expect("id").to_owned();
    post(&service, "/v1/recording/start", &json!({"source_app": "zoom"}))
        .await
        .expect_error(409, "already_recording");
    person(&service, "/ui/recording/start", None).await.expect_error(409, "already_recording");
    post(
        &service,
        "/v1/recording/prompt",
        &json!({"source_app": "meet", "url": "https://meet.example/a"}),
    )
    .await
    .expect_error(409, "already_recording");
    // A meeting being recorded cannot be deleted or regenerated (a seeded busy
    // meeting would not do: start-up recovery finishes those).
    crate::delete(&service, &format!("/v1/meetings/{id}")).await.expect_error(409, "meeting_busy");
    post(&service, &format!("/v1/meetings/{id}/notes"), &json!({"kind": "summary"}))
        .await
        .expect_error(409, "meeting_busy");
    let listed = get(&service, "/v1/meetings").await;
    assert_eq!(listed.body["meetings"][0]["status"], "recording");
    let stopped = post(&service, "/v1/recording/stop", &json!({})).await;
    assert_eq!(stopped.body, json!({"meeting_id": id, "status": "transcribing"}));
    post(&service, "/v1/recording/stop", &json!({})).await.expect_error(409, "not_recording");
    wait_ready(&service, &id).await;
}

#[tokio::test]
async fn agents_need_pro_to_stop_and_mark() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let service = TestService::start(BIN, recording_options(&mic, &sys, 1.0));
    let started = person(&service, "/ui/recording/start", None).await;
    let id = started.body["id"].as_str().expect("id").to_owned();
    let agent = |path: &'static str| {
        let service = &service;
        async move {
            let response = http()
                .post(service.url(path))
                .bearer_auth(&service.api_token)
                .header("x-recorder-client", "gateway")
                .json(&json!({}))
                .send()
                .await
                .expect("answer");
            response.status().as_u16()
        }
    };
    assert_eq!(agent("/v1/recording/marker").await, 402);
    assert_eq!(agent("/v1/recording/stop").await, 402);
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], true);
    // The same calls from a script (not an agent) need no plan.
    assert_eq!(post(&service, "/v1/recording/marker", &json!({})).await.status, 201);
    assert_eq!(post(&service, "/v1/recording/stop", &json!({})).await.status, 200);
    wait_ready(&service, &id).await;
}

#[tokio::test]
async fn accepted_prompts_record_and_always_skips_the_question_next_time() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let service = TestService::start(BIN, recording_options(&mic, &sys, 4.0));
    let mut stream = open(&service, None).await;
    let body = json!({"source_app": "meet", "title": "Design review", "url": "https://meet.example/d", "attendees": [{"name": "Grace"}]});
    let prompt = post(&service, "/v1/recording/prompt", &body).await;
    let prompt_id = prompt.body["prompt_id"].as_str().expect("id").to_owned();
    let answered = person(
        &service,
        &format!("/ui/prompts/{prompt_id}/answer"),
        Some(json!({"answer": "always"})),
    )
    .await;
    assert_eq!(answered.status, 200, "{}", answered.text);
    assert_eq!(answered.body["accepted"], true);
    assert_eq!(answered.body["answer"], "always");
    let id = answered.body["meeting_id"].as_str().expect("meeting").to_owned();
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
    assert_eq!(meeting["title"], "Design review");
    assert_eq!(meeting["source_app"], "meet");
    assert_eq!(meeting["attendees"], json!([{"name": "Grace"}]));
    let events =
        events_until(&mut stream, |kind, _| kind == "prompt.answered", Duration::from_secs(10))
            .await;
    assert!(events.iter().any(|(k, _)| k == "recording.started"), "{events:#?}");
    let answered_event = events.iter().find(|(k, _)| k == "prompt.answered").expect("answered");
    assert_eq!(
        answered_event.1,
        json!({"prompt_id": prompt_id, "accepted": true, "answer": "always", "meeting_id": id})
    );
    let settings =
        call(Method::GET, &service.url("/ui/settings"), Some(&service.ui_token), None).await;
    assert_eq!(settings.body["recording"]["auto_record_apps"], json!(["meet"]));
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    wait_ready(&service, &id).await;

    // Next time Meet asks, recording starts at once.
    let auto =
        post(&service, "/v1/recording/prompt", &json!({"source_app": "Meet", "title": "Retro"}))
            .await;
    assert_eq!(auto.status, 200, "{}", auto.text);
    let auto_id = auto.body["prompt_id"].as_str().expect("id").to_owned();
    let events =
        events_until(&mut stream, |kind, _| kind == "prompt.answered", Duration::from_secs(10))
            .await;
    let (_, data) = events.last().expect("answered");
    assert_eq!(
        (data["prompt_id"].as_str(), data["answer"].as_str(), data["accepted"].as_bool()),
        (Some(auto_id.as_str()), Some("auto"), Some(true))
    );
    assert!(events.iter().all(|(k, _)| k != "prompt.shown"), "no question asked: {events:#?}");
    let health = get(&service, "/v1/health").await.body;
    assert_eq!(health["recording"]["meeting_id"], data["meeting_id"]);
    let retro =
        get(&service, &format!("/v1/meetings/{}", data["meeting_id"].as_str().unwrap_or("")))
            .await
            .body;
    assert_eq!(retro["title"], "Retro");
    person(&service, "/ui/recording/stop", None).await;
}

#[tokio::test]
async fn managed_auto_record_list_means_every_prompt_asks() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = call_files(folder.path());
    let mut options = recording_options(&mic, &sys, 1.0);
    options.settings = Some(json!({"recording": {"auto_record_apps": ["zoom"]}}));
    options.policy = Some(json!({"DisableAutoRecordApps": true}));
    let service = TestService::start(BIN, options);
    let mut stream = open(&service, None).await;
    let prompt = post(&service, "/v1/recording/prompt", &json!({"source_app": "zoom"})).await;
    assert_eq!(prompt.status, 200);
    let events =
        events_until(&mut stream, |kind, _| kind == "prompt.shown", Duration::from_secs(10)).await;
    assert_eq!(events.last().expect("shown").1["source_app"], "zoom");
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], false);
    // 'Always' still records, but the managed list stays empty.
    let prompt_id = prompt.body["prompt_id"].as_str().expect("id");
    let answered = person(
        &service,
        &format!("/ui/prompts/{prompt_id}/answer"),
        Some(json!({"answer": "always"})),
    )
    .await;
    assert_eq!(answered.body["accepted"], true, "{}", answered.text);
    let effective = get(&service, "/v1/settings").await.body;
    assert_eq!(effective["recording"]["auto_record_apps"]["value"], json!([]), "{effective}");
    person(&service, "/ui/recording/stop", None).await;
}

#[tokio::test]
async fn levels_follow_both_channels_and_a_silent_other_side_is_reported() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::speak_padded(MIC_LINE, &mic, 1.0, 36.0);
    speech::silence(&sys, 45);
    let service = TestService::start(BIN, recording_options(&mic, &sys, 4.0));
    let mut stream = open(&service, None).await;
    let started = person(&service, "/ui/recording/start", Some(json!({"title": "Levels"}))).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    let seen =
        events_until(&mut stream, |kind, _| kind == "recording.channel", Duration::from_secs(90))
            .await;
    let levels: Vec<&Value> =
        seen.iter().filter(|(kind, _)| kind == "recording.levels").map(|(_, d)| d).collect();
    // 30 s of audio at 4× is 7.5 s: about thirty reports at four a second.
    assert!(levels.len() >= 10, "levels while recording: {}", levels.len());
    for level in &levels {
        assert_eq!(level["meeting_id"], id.as_str());
        for channel in ["mic", "sys"] {
            let db = level[channel].as_f64().expect("a number");
            assert!((-100.0..=0.0).contains(&db), "{level}");
        }
        assert_eq!(level["sys"], -100.0, "the other side is digital silence: {level}");
    }
    assert!(levels.iter().any(|l| l["mic"].as_f64().unwrap_or(-100.0) > -40.0), "speech heard");
    let (_, warning) = seen.last().expect("the channel event");
    assert_eq!(warning["meeting_id"], id.as_str());
    assert_eq!(warning["channel"], "sys");
    assert_eq!(warning["state"], "silent");
    let message = warning["message"].as_str().unwrap_or_default();
    assert!(message.contains("other side") && message.contains("30 s"), "{warning}");
    assert_eq!(count(&seen, "recording.channel"), 1, "the microphone had sound: {seen:?}");
    let stopped = person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
}

/// A service recording `mic` and `sys` at real-time pace, the event stream
/// opened before the start, and the meeting's id.
async fn record_call(mic: &Path, sys: &Path) -> (TestService, UnboundedReceiver<Frame>, String) {
    let service = TestService::start(BIN, recording_options(mic, sys, 1.0));
    let stream = open(&service, None).await;
    let started = person(&service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    (service, stream, id)
}

/// The other side talks for about nine seconds; the person says a few words
/// in the middle of it. Their line must come out as soon as they stop, not
/// after the other side's long line (which once held it back).
#[tokio::test]
async fn a_microphone_line_is_not_held_while_the_other_side_talks() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::speak_padded("Sorry, can you hear me?", &mic, 3.0, 12.0);
    speech::speak_padded(
        "Our plan for the spring is to move the whole support team to the new office near the \
         river, starting with the people who handle the phone queue, and then everyone else.",
        &sys,
        1.0,
        6.0,
    );
    let (service, mut stream, _) = record_call(&mic, &sys).await;
    let events = events_until(
        &mut stream,
        |kind, data| kind == "segment.new" && data["channel"] == "sys",
        Duration::from_secs(60),
    )
    .await;
    let mine = position(&events, |kind, data| kind == "segment.new" && data["channel"] == "mic");
    let theirs = position(&events, |kind, data| kind == "segment.new" && data["channel"] == "sys");
    assert!(mine < theirs, "the person's line came first: {events:#?}");
    let text = events[mine].1["text"].as_str().unwrap_or("").to_lowercase();
    assert!(text.contains("hear"), "{text}");
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
}

/// While the other side speaks a long sentence, its words arrive as
/// `segment.partial` before the line's `segment.new`; no partial of a line
/// comes after the line itself.
#[tokio::test]
async fn words_being_spoken_arrive_as_partial_lines_before_the_line() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::silence(&mic, 14);
    speech::speak_padded(
        "The new office has six meeting rooms and a large kitchen next to the stairs.",
        &sys,
        1.0,
        6.0,
    );
    let (service, mut stream, id) = record_call(&mic, &sys).await;
    let events = events_until(
        &mut stream,
        |kind, data| kind == "segment.new" && data["end_ms"].as_i64().unwrap_or(0) > 4_000,
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    let partials: Vec<&Value> =
        events.iter().filter(|(k, _)| k == "segment.partial").map(|(_, d)| d).collect();
    assert!(!partials.is_empty(), "no partial lines: {events:#?}");
    let first = partials[0];
    assert_eq!(
        (first["meeting_id"].as_str(), first["channel"].as_str()),
        (Some(id.as_str()), Some("sys"))
    );
    assert_eq!(first["speaker"], "Them");
    let words = first["text"].as_str().unwrap_or("").to_lowercase();
    assert!(["office", "meeting", "rooms", "new"].iter().any(|w| words.contains(w)), "{first}");
    assert!(first["start_ms"].as_i64() <= first["end_ms"].as_i64(), "{first}");
    // Partials come before the line they belong to, never after it.
    let finals: Vec<(usize, i64)> = events
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| k == "segment.new")
        .map(|(i, (_, d))| (i, d["end_ms"].as_i64().unwrap_or(0)))
        .collect();
    for (at, (kind, data)) in events.iter().enumerate() {
        if kind != "segment.partial" {
            continue;
        }
        let start = data["start_ms"].as_i64().unwrap_or(0);
        let stale = finals.iter().any(|(i, end)| *i < at && start < *end);
        assert!(!stale, "a partial after its line: {data} in {events:#?}");
    }
}

/// Ten sentences of the other side, each with a word to find, about 75 s.
const LONG_CALL: [(&str, &str); 10] = [
    ("budget", "First we looked at the budget for the next quarter and agreed it needs another review."),
    ("garden", "Then Maria talked about the garden behind the office and how to keep it green all summer."),
    ("coffee", "The coffee machine on the second floor is broken again and someone has to call the company."),
    ("window", "Please keep the window in the meeting room closed when the heating is running in the morning."),
    ("river", "The team walk along the river is planned for the last Friday of the month if it does not rain."),
    ("printer", "The new printer arrives next week, so the old one can go back to the shop on Monday."),
    ("holiday", "Everyone should enter their holiday plans in the calendar before the end of this month."),
    ("train", "Peter will take the early train to the customer and bring the signed contract back with him."),
    ("kitchen", "The kitchen will be cleaned on Thursday, so please take your food out of the fridge by then."),
    ("football", "Finally, the football match against the sales team starts at six in the park near the station."),
];

/// Live transcription far behind the call (the ten sentences three times,
/// about 225 s of speech, played at 100×)
/// holds at most a minute of waiting audio in memory; the rest waits in the
/// journal and is read back from the disk when its turn comes. The whole call
/// is still transcribed live, nothing is handed to the job queue as a failure.
#[tokio::test]
async fn a_live_transcript_far_behind_reads_the_waiting_audio_back_from_the_disk() {
    let folder = tempfile::tempdir().expect("temp");
    let parts: Vec<PathBuf> = LONG_CALL
        .iter()
        .enumerate()
        .map(|(at, (_, sentence))| {
            let part = folder.path().join(format!("part{at}.wav"));
            speech::speak_padded(sentence, &part, 0.5, 1.0);
            part
        })
        .collect();
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    let thrice: Vec<&Path> = (0..3).flat_map(|_| parts.iter().map(PathBuf::as_path)).collect();
    speech::concatenate(&thrice, &sys);
    speech::silence(&mic, 240);
    let call_ms = hound::WavReader::open(&sys).expect("wav").duration() as i64 / 16;
    assert!(call_ms > 200_000, "minutes of speech: {call_ms} ms");
    let mut options = recording_options(&mic, &sys, 100.0);
    // At 100 times real time the call's end is followed by minutes of silence
    // within seconds: the silence stop would end the recording mid-test.
    options.settings = Some(json!({
        "general": {"allow_remote_start": true, "user_name": "Ada"},
        "recording": {"stop_after_silence_min": 0}
    }));
    let service = TestService::start(BIN, options);
    let mut stream = open(&service, None).await;
    let started = person(&service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();

    // Lines from the last quarter of the call arrive live, before the stop.
    let live = events_until(
        &mut stream,
        |kind, data| {
            kind == "segment.new" && data["start_ms"].as_i64().unwrap_or(0) > call_ms * 3 / 4
        },
        Duration::from_secs(300),
    )
    .await;
    assert_eq!(count(&live, "error"), 0, "live transcription went on: {live:#?}");
    let log = std::fs::read_to_string(service.data_dir().join("logs/recorder.log")).expect("log");
    assert!(
        log.contains("live transcription is behind: the audio waiting is read back from the disk"),
        "the backlog went to the disk: {}",
        log.lines().filter(|l| l.contains("live")).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
    let meeting = wait_ready(&service, &id).await;
    assert!(meeting["processing_error"].is_null(), "{meeting}");
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript")).await.body;
    let theirs: Vec<(i64, String)> = transcript["segments"]
        .as_array()
        .expect("segments")
        .iter()
        .filter(|s| s["channel"] == "sys")
        .map(|s| {
            let text = s["text"].as_str().unwrap_or("").to_lowercase();
            (s["start_ms"].as_i64().unwrap_or(0), text)
        })
        .collect();
    let said_after = |from_ms: i64| {
        theirs
            .iter()
            .filter(|(start, _)| *start > from_ms)
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let said = said_after(-1);
    let heard: Vec<&str> =
        LONG_CALL.iter().map(|(word, _)| *word).filter(|word| said.contains(word)).collect();
    assert!(heard.len() >= 8, "the call's words, read back right: {heard:?} in {said}");
    let last_minute = said_after(call_ms - 60_000);
    let late = LONG_CALL[5..].iter().filter(|(word, _)| last_minute.contains(word)).count();
    assert!(late >= 4, "the last minute (read from the disk) is real speech: {last_minute:?}");
}
