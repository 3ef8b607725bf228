//! Capture from a real sound server: a private, headless PipeWire (with
//! pipewire-pulse) started by `scripts/sound-server.sh`, a null sink
//! `speakers` as the default output and a virtual microphone. espeak-ng clips
//! are played into them with `paplay` while the service records through its
//! PipeWire (cpal) or PulseAudio (libpulse) backend.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use recorder_test_support::speech;
use recorder_test_support::{Options, TestService};
use serde_json::{json, Value};

use crate::events::{open, Frame};
use crate::import::wait_ready;
use crate::recording::{events_until, MIC_LINE, SYS_LINE};
use crate::{get, make_pro, post, BIN};
use tokio::sync::mpsc::UnboundedReceiver;

const HEADPHONES_LINE: &str = "Headphones are plugged in now and the review is on Tuesday.";

/// A private sound server, stopped on drop.
pub struct SoundServer {
    folder: tempfile::TempDir,
    pub env: Vec<(String, String)>,
}

impl SoundServer {
    pub fn start() -> SoundServer {
        let folder = tempfile::tempdir().expect("temp");
        let output = Command::new(script())
            .arg("start")
            .arg(folder.path().join("run"))
            .output()
            .expect("run sound-server.sh");
        assert!(
            output.status.success(),
            "the sound server did not start: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let env = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| line.strip_prefix("export "))
            .filter_map(|pair| pair.split_once('='))
            .map(|(name, value)| (name.to_owned(), value.trim_matches('\'').to_owned()))
            .collect();
        SoundServer { folder, env }
    }

    pub fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.envs(self.env.iter().map(|(n, v)| (n, v)));
        command
    }

    fn pactl(&self, args: &[&str]) {
        let status =
            self.command("pactl").args(args).stdout(Stdio::null()).status().expect("pactl");
        assert!(status.success(), "pactl {args:?}");
    }

    /// Plays a WAV into a sink, in the background.
    fn play(&self, sink: &str, path: &Path) -> std::process::Child {
        self.command("paplay")
            .args(["-d", sink, "--latency-msec=20"])
            .arg(path)
            .stderr(Stdio::null())
            .spawn()
            .expect("paplay")
    }

    fn stop(&self) {
        let _ = Command::new(script()).arg("stop").arg(self.folder.path().join("run")).output();
    }
}

impl Drop for SoundServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/sound-server.sh")
}

fn service_on(server: &SoundServer, backend: &str) -> TestService {
    let mut env = server.env.clone();
    env.push(("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string()));
    TestService::start(
        BIN,
        Options {
            settings: Some(json!({"general": {"allow_remote_start": true}})),
            env,
            args: vec!["--audio-backend".into(), backend.into()],
            ..Options::default()
        },
    )
}

/// A service on the server's devices, recording through `/v1/recording/start`.
async fn start_recording(
    server: &SoundServer,
    backend: &str,
) -> (TestService, UnboundedReceiver<Frame>, String) {
    let service = service_on(server, backend);
    make_pro(&service).await;
    let stream = open(&service, None).await;
    let started = post(&service, "/v1/recording/start", &json!({"source_app": "meet"})).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    (service, stream, id)
}

fn text_of(lines: &[&Value], channel: &str) -> String {
    lines
        .iter()
        .filter(|d| d["channel"] == channel)
        .map(|d| d["text"].as_str().unwrap_or("").to_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Records a call from the sound server: both lines arrive live, the
/// other side moves to new headphones mid-call, and the meeting ends ready.
async fn records_a_call(backend: &str) {
    let server = SoundServer::start();
    let clips = tempfile::tempdir().expect("temp");
    let clip = |name: &str, text: &str| {
        let path = clips.path().join(name);
        speech::speak_padded(text, &path, 0.2, 0.5);
        path
    };
    let (mine, theirs, later) =
        (clip("mic.wav", MIC_LINE), clip("sys.wav", SYS_LINE), clip("late.wav", HEADPHONES_LINE));
    let (service, mut stream, id) = start_recording(&server, backend).await;

    let mut person = server.play("mic_feed", &mine);
    assert!(person.wait().expect("paplay").success());
    let mut other = server.play("speakers", &theirs);
    assert!(other.wait().expect("paplay").success());
    let live = events_until(
        &mut stream,
        |kind, data| kind == "segment.new" && data["channel"] == "sys",
        Duration::from_secs(60),
    )
    .await;
    // Headphones: a new default output while the call goes on.
    server.pactl(&["load-module", "module-null-sink", "sink_name=headphones"]);
    server.pactl(&["set-default-sink", "headphones"]);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut after = server.play("headphones", &later);
    assert!(after.wait().expect("paplay").success());
    let moved = events_until(
        &mut stream,
        |kind, data| {
            kind == "segment.new"
                && data["text"].as_str().unwrap_or("").to_lowercase().contains("plugged in")
        },
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], true, "live");

    let lines: Vec<&Value> =
        live.iter().chain(&moved).filter(|(k, _)| k == "segment.new").map(|(_, d)| d).collect();
    assert!(text_of(&lines, "mic").contains("budget"), "{lines:#?}");
    assert!(text_of(&lines, "sys").contains("march"), "{lines:#?}");
    assert!(text_of(&lines, "sys").contains("plugged in"), "followed the new default: {lines:#?}");

    let stopped = post(&service, "/v1/recording/stop", &json!({})).await;
    assert_eq!(stopped.body["status"], "transcribing", "{}", stopped.text);
    let meeting = wait_ready(&service, &id).await;
    assert!(meeting["processing_error"].is_null(), "{meeting}");
    let transcript = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await;
    let text = transcript.text.to_lowercase();
    assert!(text.contains("me: ") && text.contains("them: "), "both speakers: {text}");
}

/// Pulls the sound server away mid-call: the recording ends cleanly with
/// what was captured, an `error` event and a `processing_error`.
async fn survives_the_sound_server_going_away(backend: &str) {
    let server = SoundServer::start();
    let clips = tempfile::tempdir().expect("temp");
    let theirs = clips.path().join("sys.wav");
    speech::speak_padded(SYS_LINE, &theirs, 0.2, 0.5);
    let (service, mut stream, id) = start_recording(&server, backend).await;
    let mut other = server.play("speakers", &theirs);
    assert!(other.wait().expect("paplay").success());
    tokio::time::sleep(Duration::from_secs(1)).await;
    server.stop();
    let events =
        events_until(&mut stream, |kind, _| kind == "recording.stopped", Duration::from_secs(30))
            .await;
    let (_, error) = events.iter().find(|(k, _)| k == "error").expect("an error event");
    assert_eq!(error["meeting_id"], id.as_str());
    let meeting = wait_ready(&service, &id).await;
    let reason = meeting["processing_error"].as_str().unwrap_or("");
    assert!(reason.contains("stopped early"), "{meeting}");
    let text = get(&service, &format!("/v1/meetings/{id}/transcript?format=txt")).await.text;
    assert!(text.to_lowercase().contains("march"), "what was captured is kept: {text}");
    assert_eq!(get(&service, "/v1/health").await.body["recording"]["active"], false);
}

#[tokio::test]
async fn pipewire_backend_records_a_call() {
    records_a_call("pipewire").await;
}

#[tokio::test]
async fn pulseaudio_backend_records_a_call() {
    records_a_call("pulseaudio").await;
}

#[tokio::test]
async fn pulseaudio_backend_survives_the_sound_server_going_away() {
    survives_the_sound_server_going_away("pulseaudio").await;
}

#[tokio::test]
async fn pipewire_backend_survives_the_sound_server_going_away() {
    survives_the_sound_server_going_away("pipewire").await;
}
