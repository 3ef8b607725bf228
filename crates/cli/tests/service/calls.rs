//! Calls that start and end themselves: a desktop meeting app taking the
//! microphone of a private PipeWire (`pw-record` named as the app) asks the
//! person, its call ending stops the recording after the grace period; a
//! browser call the extension reports ended does the same unless the person
//! keeps recording; silence stops any recording; the microphone can be muted
//! in the recording. The recordings themselves come from files.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use recorder_test_support::{speech, TestService};
use reqwest::Method;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::capture::SoundServer;
use crate::events::{open, Frame};
use crate::import::wait_ready;
use crate::recording::{call_files, events_until, person, recording_options, MIC_LINE, SYS_LINE};
use crate::{call, get, pair_extension, set_settings, BIN};

/// A program holding the microphone until dropped.
struct Holder(Child);

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `pw-record` on the default microphone, telling the sound server it is
/// `binary` (as Zoom's or Slack's own stream does); None: as itself.
fn hold_microphone(server: &SoundServer, binary: Option<&str>, folder: &Path) -> Holder {
    let mut command = server.command("pw-record");
    if let Some(binary) = binary {
        command.args(["-P", &format!("{{ application.process.binary = \"{binary}\" }}")]);
    }
    let file = folder.join(format!("{}-{}.wav", binary.unwrap_or("pw-record"), rand_suffix()));
    let child =
        command.arg(file).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("pw-record");
    Holder(child)
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

/// A service recording from files, with these `recording` settings.
fn service(folder: &Path, speed: f64, recording: Value, env: &[(String, String)]) -> TestService {
    let (mic, sys) = call_files(folder);
    service_on(&mic, &sys, speed, recording, env)
}

fn service_on(
    mic: &Path,
    sys: &Path,
    speed: f64,
    recording: Value,
    env: &[(String, String)],
) -> TestService {
    let mut options = recording_options(mic, sys, speed);
    options.settings = Some(json!({"general": {"user_name": "Ada"}, "recording": recording}));
    options.env.extend(env.iter().cloned());
    TestService::start(BIN, options)
}

async fn until(
    stream: &mut UnboundedReceiver<Frame>,
    kind: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Vec<(String, Value)> {
    events_until(stream, |k, data| k == kind && wanted(data), Duration::from_secs(30)).await
}

async fn answer(service: &TestService, prompt_id: &str, answer: &str) -> String {
    let path = format!("/ui/prompts/{prompt_id}/answer");
    let answered = person(service, &path, Some(json!({ "answer": answer }))).await;
    assert_eq!(answered.status, 200, "{}", answered.text);
    answered.body["meeting_id"].as_str().expect("meeting").to_owned()
}

#[tokio::test]
async fn a_meeting_app_on_the_microphone_asks_and_its_call_ending_stops_the_recording() {
    let server = SoundServer::start();
    let folder = tempfile::tempdir().expect("temp");
    let recording = json!({"stop_after_call_ends_s": 2});
    let service = service(folder.path(), 1.0, recording, &server.env);
    let mut stream = open(&service, None).await;

    // Programs that are not meeting apps never ask; Zoom does, once.
    let _arecord = hold_microphone(&server, Some("arecord"), folder.path());
    let _plain = hold_microphone(&server, None, folder.path());
    tokio::time::sleep(Duration::from_millis(500)).await;
    let zoom = hold_microphone(&server, Some("zoom"), folder.path());
    let seen = until(&mut stream, "prompt.shown", |_| true).await;
    let shown = &seen.last().expect("shown").1;
    assert_eq!(shown["source_app"], "zoom", "the first card is Zoom's: {seen:#?}");
    assert_eq!((shown["title"].as_str(), shown["url"].as_null()), (Some("Zoom call"), Some(())));
    let prompt_id = shown["prompt_id"].as_str().expect("id");
    let id = answer(&service, prompt_id, "record").await;
    let meeting = get(&service, &format!("/v1/meetings/{id}")).await.body;
    assert_eq!(
        (meeting["source_app"].as_str(), meeting["title"].as_str()),
        (Some("zoom"), Some("Zoom call"))
    );

    // A short drop of the stream inside the grace period does not stop it.
    drop(zoom);
    let ending = until(&mut stream, "recording.ending", |d| d["stops_at"].is_i64()).await;
    let (_, countdown) = ending.last().expect("ending");
    assert_eq!(
        (countdown["reason"].as_str(), countdown["source_app"].as_str()),
        (Some("call_ended"), Some("zoom"))
    );
    let zoom = hold_microphone(&server, Some("zoom"), folder.path());
    until(&mut stream, "recording.ending", |d| d["stops_at"].is_null()).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], true);

    // Zoom leaving the call stops the recording once the grace period is over.
    drop(zoom);
    until(&mut stream, "recording.ending", |d| d["stops_at"].is_i64()).await;
    let counting = Instant::now();
    let stopped = until(&mut stream, "recording.stopped", |_| true).await;
    assert!(counting.elapsed() >= Duration::from_millis(1500), "waited for the grace period");
    let (_, stop) = stopped.last().expect("stopped");
    assert_eq!(
        (stop["meeting_id"].as_str(), stop["reason"].as_str()),
        (Some(id.as_str()), Some("call_ended"))
    );
    assert!(
        stopped.iter().all(|(kind, _)| kind != "prompt.shown"),
        "one card per call: {stopped:#?}"
    );
    wait_ready(&service, &id).await;

    // 'Record without asking for' Slack: its call records at once.
    let changed =
        set_settings(&service, json!({"recording": {"auto_record_apps": ["slack"]}})).await;
    assert_eq!(changed.status, 200, "{}", changed.text);
    let _slack = hold_microphone(&server, Some("slack"), folder.path());
    let auto = until(&mut stream, "prompt.answered", |_| true).await;
    let (_, answered) = auto.last().expect("answered");
    assert_eq!(
        (answered["answer"].as_str(), answered["accepted"].as_bool()),
        (Some("auto"), Some(true))
    );
    let started = auto.iter().find(|(kind, _)| kind == "recording.started").expect("started");
    assert_eq!(started.1["source_app"], "slack");
    assert!(auto.iter().all(|(kind, _)| kind != "prompt.shown"), "no card: {auto:#?}");
    let stopped = person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    let events = until(&mut stream, "recording.stopped", |_| true).await;
    assert_eq!(events.last().expect("stopped").1["reason"], "person");

    // A card nobody answered goes once its call ends.
    let discord = hold_microphone(&server, Some("Discord"), folder.path());
    let shown = until(&mut stream, "prompt.shown", |d| d["source_app"] == "discord").await;
    let prompt_id = shown.last().expect("shown").1["prompt_id"].clone();
    drop(discord);
    let gone = until(&mut stream, "prompt.answered", |d| d["prompt_id"] == prompt_id).await;
    assert_eq!(gone.last().expect("answered").1["answer"], "expired");
    let pending =
        call(Method::GET, &service.url("/ui/prompts"), Some(&service.ui_token), None).await;
    assert_eq!(pending.body["prompts"], json!([]), "{}", pending.text);
}

#[tokio::test]
async fn a_browser_call_reported_ended_stops_unless_kept_and_the_microphone_mutes() {
    let folder = tempfile::tempdir().expect("temp");
    // The person speaks 4 s in (muted by then), the other side 9 s in.
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::speak_padded(MIC_LINE, &mic, 4.0, 10.0);
    speech::speak_padded(SYS_LINE, &sys, 9.0, 6.0);
    let service = service_on(&mic, &sys, 1.0, json!({"stop_after_call_ends_s": 2}), &[]);
    let token = pair_extension(&service).await;
    let extension = |path: &str, body: Value| {
        let url = service.url(path);
        let token = token.clone();
        async move { call(Method::POST, &url, Some(&token), Some(&body)).await }
    };
    let mut stream = open(&service, None).await;
    let page = "https://meet.google.com/abc-defg-hij";
    let prompt = extension(
        "/v1/recording/prompt",
        json!({"source_app": "google_meet", "title": "Standup", "url": page}),
    )
    .await;
    let id = answer(&service, prompt.body["prompt_id"].as_str().expect("id"), "record").await;

    // Muted before the person speaks: their line is never recorded.
    let muted = extension("/v1/recording/mute", json!({"muted": true})).await;
    assert_eq!((muted.status, muted.body["muted"].as_bool()), (200, Some(true)), "{}", muted.text);
    until(&mut stream, "recording.muted", |d| d["muted"] == true).await;
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["muted"], true);

    // Reports of other calls change nothing.
    for other in [
        json!({"source_app": "google_meet", "url": "https://meet.google.com/xyz-abcd-efg"}),
        json!({"source_app": "zoom", "url": page}),
    ] {
        let ended = extension("/v1/recording/ended", other).await;
        assert_eq!(
            (ended.status, ended.body["stopping"].as_bool()),
            (200, Some(false)),
            "{}",
            ended.text
        );
    }
    // This call's end begins the countdown; Keep recording calls it off.
    let ended =
        extension("/v1/recording/ended", json!({"source_app": "google_meet", "url": page})).await;
    assert_eq!(
        (ended.body["stopping"].as_bool(), ended.body["meeting_id"].as_str()),
        (Some(true), Some(id.as_str())),
        "{}",
        ended.text
    );
    let stops_at = ended.body["stops_at"].as_i64().expect("stops_at");
    let health = get(&service, "/v1/health").await.body;
    assert_eq!(
        health["recording"]["ending"],
        json!({"reason": "call_ended", "stops_at": stops_at, "source_app": "google_meet"})
    );
    until(&mut stream, "recording.ending", |d| d["stops_at"] == stops_at).await;
    // Joining the same call again calls the countdown off (the prompt is 409).
    let rejoined = extension(
        "/v1/recording/prompt",
        json!({"source_app": "google_meet", "title": "Standup", "url": page}),
    )
    .await;
    assert_eq!(rejoined.status, 409, "{}", rejoined.text);
    until(&mut stream, "recording.ending", |d| d["stops_at"].is_null()).await;
    let ended =
        extension("/v1/recording/ended", json!({"source_app": "google_meet", "url": page})).await;
    assert_eq!(ended.body["stopping"], true, "{}", ended.text);
    until(&mut stream, "recording.ending", |d| d["stops_at"].is_i64()).await;
    cli(&service, "keep", &format!("meeting {id}: recording until you stop it"));
    until(&mut stream, "recording.ending", |d| d["stops_at"].is_null()).await;
    let again =
        extension("/v1/recording/ended", json!({"source_app": "google_meet", "url": page})).await;
    assert_eq!(again.body["stopping"], false, "a kept recording no longer follows its call");

    // The other side is recorded while muted (its line is at 9 s).
    until(&mut stream, "segment.new", |d| d["channel"] == "sys").await;
    cli(&service, "unmute", "microphone on");
    until(&mut stream, "recording.muted", |d| d["muted"] == false).await;
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], true);
    let stopped = person(&service, "/ui/recording/stop", None).await;
    assert_eq!(stopped.status, 200, "{}", stopped.text);
    let events = until(&mut stream, "recording.stopped", |_| true).await;
    assert_eq!(events.last().expect("stopped").1["reason"], "person");

    let meeting = wait_ready(&service, &id).await;
    let markers: Vec<(&str, i64)> = meeting["markers"]
        .as_array()
        .expect("markers")
        .iter()
        .map(|m| (m["label"].as_str().unwrap_or(""), m["at_ms"].as_i64().unwrap_or(-1)))
        .collect();
    assert_eq!(
        markers.iter().map(|m| m.0).collect::<Vec<_>>(),
        ["Microphone muted", "Microphone on"]
    );
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await.text;
    assert!(transcript.to_lowercase().contains("march"), "the other side: {transcript}");
    assert!(
        !transcript.to_lowercase().contains("budget"),
        "nothing of the muted side: {transcript}"
    );
    let mic = read_samples(&service.data_dir().join(format!("meetings/{id}/mic.wav")));
    // Markers are whole ms: the muted stretch starts within the first one.
    let (from, to) = (((markers[0].1 + 1) * 16) as usize, (markers[1].1 * 16) as usize);
    assert!(
        to > from + 16_000 && mic.len() >= to,
        "muted for seconds: {from}..{to} of {}",
        mic.len()
    );
    let loud: Vec<(usize, i16)> = mic[from..to]
        .iter()
        .enumerate()
        .filter(|(_, s)| **s != 0)
        .map(|(i, s)| (i, *s))
        .take(5)
        .collect();
    assert!(
        loud.is_empty(),
        "silence while muted: {loud:?} in {from}..{to} of {}; {markers:?}",
        mic.len()
    );
    let sys = read_samples(&service.data_dir().join(format!("meetings/{id}/sys.wav")));
    assert!(sys[from..to].iter().any(|s| s.unsigned_abs() > 1000), "the other side goes on");
}

/// `recorder record COMMAND` against the service; its output says `said`.
fn cli(service: &TestService, command: &str, said: &str) {
    let output = service.cli().args(["record", command]).output().expect("recorder record");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && text.contains(said), "record {command}: {text}");
}

fn read_samples(path: &Path) -> Vec<i16> {
    let mut reader = hound::WavReader::open(path).expect("wav");
    reader.samples::<i16>().map(|s| s.expect("sample")).collect()
}

#[tokio::test]
async fn a_recording_with_nothing_heard_stops_by_itself_and_agents_cannot_keep_it() {
    let folder = tempfile::tempdir().expect("temp");
    // Both files end after about 15 s; 20 times real time.
    let service = service(folder.path(), 20.0, json!({"stop_after_silence_min": 1}), &[]);
    let mut stream = open(&service, None).await;
    let started = person(&service, "/ui/recording/start", None).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    let ended = call(
        Method::POST,
        &service.url("/v1/recording/ended"),
        Some(&service.api_token),
        Some(&json!({"source_app": "recorder"})),
    )
    .await;
    assert_eq!(ended.body["stopping"], false, "a recording the person started has no call");
    let keep =
        call(Method::POST, &service.url("/ui/recording/keep"), Some(&service.api_token), None)
            .await;
    assert_eq!(keep.status, 401, "keeping is the person's: {}", keep.text);

    let ending = until(&mut stream, "recording.ending", |d| d["stops_at"].is_i64()).await;
    assert_eq!(ending.last().expect("ending").1["reason"], "silence");
    let stopped = until(&mut stream, "recording.stopped", |_| true).await;
    assert_eq!(stopped.last().expect("stopped").1["reason"], "silence");
    let meeting = wait_ready(&service, &id).await;
    let duration = meeting["duration_ms"].as_i64().unwrap_or(0);
    // At 20 times real time the files' two players run unevenly, so the
    // recording may run on past the stop by what was already captured.
    assert!(duration >= 90_000, "not before a minute of silence and the warning: {meeting}");
}
