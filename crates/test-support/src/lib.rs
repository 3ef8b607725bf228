//! Test support: a real `recorder serve` on an ephemeral port with a temporary
//! data folder, seeded meetings, and licences signed with the development key.

pub mod impostor;
pub mod speech;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signer, SigningKey};
use recorder_domain::{ActionItemId, Channel, MeetingId, MeetingStatus, NoteId};
use recorder_store::{ActionItemRecord, MeetingRecord, NewSegment, NoteRecord, Store};
use serde_json::{json, Value};

/// How to start a service.
#[derive(Default, Clone)]
pub struct Options {
    /// Contents of a policy file to pass through `RECORDER_POLICY_PATH`.
    pub policy: Option<Value>,
    /// `RECORDER_POLICY_REFRESH_SECS`
    pub policy_refresh_secs: Option<u64>,
    /// settings.json to write before the first start.
    pub settings: Option<Value>,
    /// Replaces `PATH` for the service (e.g. an empty folder: no ffmpeg).
    pub search_path: Option<PathBuf>,
    /// More environment variables for the service (e.g. `RECORDER_MODEL_BASE_URL`).
    pub env: Vec<(String, String)>,
    /// More arguments for `recorder serve` (e.g. `--mic-file A.wav`).
    pub args: Vec<String>,
    /// Start it with stdin at end of file (/dev/null, as systemd does);
    /// otherwise stdin is a pipe kept open while the service runs, as a
    /// terminal or a parent that never writes leaves it.
    pub stdin_closed: bool,
}

/// A running service and its data folder; killed and removed on drop.
pub struct TestService {
    pub folder: tempfile::TempDir,
    pub port: u16,
    pub api_token: String,
    pub ui_token: String,
    binary: PathBuf,
    options: Options,
    child: Option<Child>,
    /// The open end of the service's stdin (unless `stdin_closed`).
    stdin: Option<std::process::ChildStdin>,
}

impl TestService {
    /// Starts `binary serve` in a new temporary data folder.
    pub fn start(binary: &str, options: Options) -> TestService {
        Self::start_with(binary, options, |_| {})
    }

    /// Like [`TestService::start`], but lets `prepare` seed the data folder first.
    pub fn start_with(binary: &str, options: Options, prepare: impl FnOnce(&Path)) -> TestService {
        let folder = tempfile::tempdir().expect("temp data folder");
        let data = folder.path().join("data");
        std::fs::create_dir_all(&data).expect("data folder");
        if let Some(settings) = &options.settings {
            std::fs::write(data.join("settings.json"), settings.to_string()).expect("settings");
        }
        prepare(&data);
        let mut service = TestService {
            folder,
            port: 0,
            api_token: String::new(),
            ui_token: String::new(),
            binary: PathBuf::from(binary),
            options,
            child: None,
            stdin: None,
        };
        service.launch();
        service
    }

    pub fn data_dir(&self) -> PathBuf {
        self.folder.path().join("data")
    }

    pub fn policy_path(&self) -> PathBuf {
        self.folder.path().join("policies.json")
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base())
    }

    /// Writes the policy file the service reads.
    pub fn write_policy(&self, policy: &Value) {
        let temporary = self.folder.path().join("policies.json.tmp");
        std::fs::write(&temporary, policy.to_string()).expect("policy");
        std::fs::rename(temporary, self.policy_path()).expect("policy rename");
    }

    /// A command line for the `recorder` binary pointed at this service.
    pub fn cli(&self) -> Command {
        let mut command = Command::new(&self.binary);
        command
            .arg("--data-dir")
            .arg(self.data_dir())
            .arg("--port")
            .arg(self.port.to_string())
            .env_remove("RECORDER_DATA_DIR");
        command
    }

    /// The service's process id (to read its memory use from /proc).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("service is running").id()
    }

    /// Takes the child process (for tests that signal or wait for it themselves).
    pub fn take_child(&mut self) -> Child {
        self.child.take().expect("service is running")
    }

    /// Asks the service to stop (SIGTERM) and waits for it to exit; panics
    /// when it is still running after `limit`. Returns the exit status and how
    /// long the exit took.
    pub fn terminate(&mut self, limit: Duration) -> (std::process::ExitStatus, Duration) {
        self.signal("TERM", limit)
    }

    /// Like [`TestService::terminate`] with another signal (`INT`, `TERM`).
    pub fn signal(&mut self, name: &str, limit: Duration) -> (std::process::ExitStatus, Duration) {
        let mut child = self.take_child();
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success(), "SIG{name} could not be sent");
        let started = std::time::Instant::now();
        loop {
            if let Some(exit) = child.try_wait().expect("wait") {
                return (exit, started.elapsed());
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the service was still running {:?} after SIG{name}", limit);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops the service (SIGKILL) and starts it again on the same data folder.
    pub fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn launch(&mut self) {
        if let Some(policy) = &self.options.policy {
            self.write_policy(policy);
        }
        let mut command = Command::new(&self.binary);
        command
            .args(["serve", "--port", "0", "--data-dir"])
            .arg(self.data_dir())
            .env("RECORDER_POLICY_PATH", self.policy_path())
            .env("RECORDER_LOG", "info")
            // Tests never touch the person's real keyring.
            .env("RECORDER_CREDENTIAL_STORE", "file")
            // Silero VAD from scripts/vad-model.sh (a test may name another path).
            .env("RECORDER_VAD_PATH", speech::vad_model_path())
            .env_remove("RECORDER_DATA_DIR")
            .stdin(if self.options.stdin_closed { Stdio::null() } else { Stdio::piped() })
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(seconds) = self.options.policy_refresh_secs {
            command.env("RECORDER_POLICY_REFRESH_SECS", seconds.to_string());
        }
        if let Some(path) = &self.options.search_path {
            command.env("PATH", path);
        }
        command.envs(self.options.env.iter().map(|(name, value)| (name, value)));
        command.args(&self.options.args);
        let mut child = command.spawn().expect("spawn recorder serve");
        self.stdin = child.stdin.take();
        self.port = read_port(&mut child);
        self.child = Some(child);
        self.api_token = read(&self.data_dir().join("api_token"));
        self.ui_token = read(&self.data_dir().join("ui_token"));
    }
}

impl Drop for TestService {
    fn drop(&mut self) {
        self.stop();
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("token file").trim().to_string()
}

/// Reads `recorder listening on http://127.0.0.1:PORT` from the child's stdout.
fn read_port(child: &mut Child) -> u16 {
    let stdout = child.stdout.take().expect("stdout");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        if let Some(Ok(line)) = lines.next() {
            let _ = sender.send(line);
        }
        // Keep draining so the service never blocks on a full pipe.
        for _ in lines {}
    });
    let line = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("the service printed its address within 30 s");
    line.rsplit(':')
        .next()
        .and_then(|port| port.trim().parse().ok())
        .expect("port in the first line")
}

/// A meeting to seed into the database before the service starts.
pub struct SeedMeeting {
    pub title: String,
    pub started_at: i64,
    pub status: MeetingStatus,
    pub lines: Vec<String>,
    pub notes: Vec<(String, String)>,
    pub action_items: Vec<(String, String)>,
    pub starred: bool,
}

impl SeedMeeting {
    pub fn ready(title: &str, started_at: i64, lines: &[&str]) -> Self {
        SeedMeeting {
            title: title.to_string(),
            started_at,
            status: MeetingStatus::Ready,
            lines: lines.iter().map(|line| line.to_string()).collect(),
            notes: Vec::new(),
            action_items: Vec::new(),
            starred: false,
        }
    }
}

/// Writes meetings straight into `recorder.db` (the service is not running yet);
/// returns their ids in order. Segments alternate mic/sys, 5 s apart.
pub fn seed(data_dir: &Path, meetings: &[SeedMeeting]) -> Vec<String> {
    let store = Store::open(&data_dir.join("recorder.db")).expect("open store");
    meetings.iter().map(|meeting| seed_one(&store, meeting)).collect()
}

/// Queues an import of `audio` whose job has already started `runs` times
/// without saving progress (as if each run had taken the service down).
pub fn seed_crashing_import(data_dir: &Path, audio: &Path, runs: usize) -> String {
    let store = Store::open(&data_dir.join("recorder.db")).expect("open store");
    let meeting = MeetingRecord::new_import("crashing".into(), 1_000);
    let id = meeting.id.clone();
    let kind = recorder_store::JobKind::Transcribe {
        source_path: audio.display().to_string(),
        channel: Channel::Sys,
    };
    store.insert_meeting_with_job(&meeting, &kind, 1_000).expect("queue");
    let job = store.next_job().expect("read").expect("job");
    for _ in 0..runs {
        store.begin_attempt(&job).expect("attempt");
    }
    id.to_string()
}

fn seed_one(store: &Store, meeting: &SeedMeeting) -> String {
    let id = MeetingId::generate();
    let duration = meeting.lines.len() as i64 * 5000;
    let new = MeetingRecord {
        id: id.clone(),
        title: meeting.title.clone(),
        source_app: "zoom".into(),
        started_at: meeting.started_at,
        ended_at: Some(meeting.started_at + duration),
        duration_ms: duration,
        status: meeting.status,
        language: Some("en".into()),
        attendees: vec!["Ada Lovelace".into()],
        tags: vec!["seeded".into()],
        vocabulary: Vec::new(),
        starred: meeting.starred,
        processing_error: None,
    };
    store.insert_meeting(&new, meeting.started_at).expect("insert meeting");
    let segments: Vec<NewSegment> = meeting
        .lines
        .iter()
        .enumerate()
        .map(|(index, text)| NewSegment {
            channel: if index % 2 == 0 { Channel::Mic } else { Channel::Sys },
            start_ms: index as i64 * 5000,
            end_ms: index as i64 * 5000 + 4000,
            text: text.clone(),
            speaker: None,
        })
        .collect();
    store.insert_segments(&id, &segments).expect("segments");
    for (kind, content) in &meeting.notes {
        let note = NoteRecord {
            id: NoteId::generate(),
            kind: kind.clone(),
            template_id: None,
            content_md: content.clone(),
            written_by: Some("builtin".into()),
            fallback: None,
            line_moments: Vec::new(),
        };
        store.put_note(&id, &note, meeting.started_at).expect("note");
    }
    let items: Vec<ActionItemRecord> = meeting
        .action_items
        .iter()
        .map(|(text, owner)| ActionItemRecord {
            id: ActionItemId::generate(),
            text: text.clone(),
            owner: owner.clone(),
            done: false,
            due: None,
        })
        .collect();
    store.replace_action_items(&id, &items).expect("items");
    id.to_string()
}

/// A licence signed with the development key (accepted by debug builds only).
pub fn dev_license(expires_at: Option<i64>) -> Value {
    let seed_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/dev-license.seed");
    let seed = std::fs::read_to_string(seed_path).expect("dev seed");
    let seed: [u8; 32] = hex::decode(seed.trim()).expect("hex").try_into().expect("32 bytes");
    let mut payload =
        json!({ "licensee": "Test Person", "plan": "pro", "issued_at": 1_700_000_000_000i64 });
    if let Some(expires_at) = expires_at {
        payload["expires_at"] = json!(expires_at);
    }
    let bytes = serde_json::to_vec(&payload).expect("payload");
    let signature = SigningKey::from_bytes(&seed).sign(&bytes);
    json!({ "payload": URL_SAFE_NO_PAD.encode(&bytes), "signature": URL_SAFE_NO_PAD.encode(signature.to_bytes()) })
}

/// An HTTP client for tests (no proxy, no redirects).
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("http client")
}
