//! `recorder-desktop` started for real in a [`Session`], its log read as it
//! runs, and the service it runs reached over HTTP like any client.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::session::Session;

pub const BINARY: &str = env!("CARGO_BIN_EXE_recorder-desktop");

pub struct App {
    child: Child,
    /// The open end of the app's stdin (a pipe nobody writes), if it has one.
    _stdin: Option<std::process::ChildStdin>,
    log: Arc<Mutex<String>>,
    pub data: PathBuf,
    pub port: u16,
}

impl App {
    /// Starts the app on `data` with `args`, and waits for its service.
    pub fn start(session: &Session, data: &Path, args: &[&str]) -> App {
        Self::start_with_stdin(session, data, args, false)
    }

    /// Like [`App::start`]; with `stdin_open`, stdin is a pipe left open
    /// (else /dev/null, at its end).
    pub fn start_with_stdin(
        session: &Session,
        data: &Path,
        args: &[&str],
        stdin_open: bool,
    ) -> App {
        let mut command = command(session, data, args);
        command.stdin(if stdin_open { Stdio::piped() } else { Stdio::null() });
        let mut child = command.spawn().expect("start recorder-desktop");
        let stdin = child.stdin.take();
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().expect("stderr");
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[app] {line}");
                sink.lock().expect("log").push_str(&(line + "\n"));
            }
        });
        let mut app = App { child, _stdin: stdin, log, data: data.to_path_buf(), port: 0 };
        let line = app.wait_log("desktop: service", Duration::from_secs(60));
        app.port = port_in(&line).unwrap_or_else(|| panic!("no port in {line:?}"));
        app
    }

    /// The first log line containing `needle` (waits for it; panics after `timeout`).
    pub fn wait_log(&self, needle: &str, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(line) = self.log().lines().find(|l| l.contains(needle)) {
                return line.to_string();
            }
            assert!(Instant::now() < deadline, "no log line with {needle:?} in {timeout:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn log(&self) -> String {
        self.log.lock().expect("log").clone()
    }

    pub fn token(&self, name: &str) -> String {
        std::fs::read_to_string(self.data.join(name)).expect("token").trim().to_string()
    }

    /// GET on the app's service: `/ui/*` with `ui_token`, `/v1/*` with `api_token`.
    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.call(reqwest::Method::GET, path, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let token =
            if path.starts_with("/ui/") { self.token("ui_token") } else { self.token("api_token") };
        let url = format!("http://127.0.0.1:{}{path}", self.port);
        let mut request = reqwest::Client::new().request(method, url).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("the service answers");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Polls `check` on the service until it holds.
    pub async fn until(&self, what: &str, mut check: impl AsyncFnMut(&App) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !check(self).await {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Sends the app a signal (`TERM`, `INT`).
    pub fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success(), "SIG{name} could not be sent");
    }

    /// Waits for the process to end by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "recorder-desktop did not end in {timeout:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The command line of the app in `session` (also used for second launches).
pub fn command(session: &Session, data: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(BINARY);
    command
        .args(["--data-dir"])
        .arg(data)
        .args(args)
        .envs(session.env())
        .env("RECORDER_MODEL_PATH", recorder_test_support::speech::test_model())
        .env("RECORDER_LOG", "info")
        .env_remove("RECORDER_DATA_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

fn port_in(line: &str) -> Option<u16> {
    let rest = &line[line.find("port=")? + 5..];
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}
