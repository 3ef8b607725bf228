//! The client side of `recorder-llm`: starts the worker for one model, waits for
//! it to load, sends requests and reads their progress and answers, pauses it
//! while a recording needs the CPU, and ends it (dropping a [`Worker`] kills the
//! process, so a canceled run stops at once and gives its memory back).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::protocol::{Finished, ModelInfo, Reply, Request};

/// The worker program's file name.
pub const PROGRAM: &str = if cfg!(windows) { "recorder-llm.exe" } else { "recorder-llm" };
/// The longest a model may take to load (a 4B model from a slow disk).
const LOAD_TIMEOUT: Duration = Duration::from_secs(300);
/// The last bytes of the worker's stderr kept for an error message.
const STDERR_TAIL: usize = 2048;

/// Why the notes model could not answer. Messages name no transcript text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    #[error("the notes model's worker ({0}) could not be started: {1}")]
    Start(String, String),
    #[error("{0}")]
    Load(String),
    /// The worker refused this request (too long, bad schema); it is still running.
    #[error("{0}")]
    Request(String),
    #[error("the notes model's worker stopped: {0}")]
    Stopped(String),
}

/// How to start a worker.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: PathBuf,
    pub model: PathBuf,
    pub threads: u32,
    /// Tokens of context; None: the worker's default (8192, or less if the model has less).
    pub context: Option<u32>,
}

/// `recorder-llm` next to this program (or, for test binaries in `deps/`, next
/// to their folder), else the one on PATH.
pub fn find_program() -> PathBuf {
    let beside = std::env::current_exe().ok().and_then(|exe| {
        let folder = exe.parent()?.to_path_buf();
        let mut folders = vec![folder.clone()];
        if folder.file_name().is_some_and(|name| name == "deps") {
            folders.extend(folder.parent().map(Path::to_path_buf));
        }
        folders.into_iter().map(|folder| folder.join(PROGRAM)).find(|path| path.is_file())
    });
    beside.unwrap_or_else(|| PathBuf::from(PROGRAM))
}

/// A running worker with its model loaded.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    info: ModelInfo,
}

impl Worker {
    /// Starts the worker and waits until its model is loaded.
    pub async fn start(launch: &Launch) -> Result<Worker, LlmError> {
        let mut command = Command::new(&launch.program);
        command
            .arg("--model")
            .arg(&launch.model)
            .args(["--threads", &launch.threads.max(1).to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // OpenMP threads sleep at barriers instead of spinning: a recording's
            // live transcription or a busy machine keeps its CPU.
            .env("OMP_WAIT_POLICY", "PASSIVE")
            .kill_on_drop(true);
        if let Some(context) = launch.context {
            command.args(["--context", &context.to_string()]);
        }
        let program = launch.program.display().to_string();
        let mut child =
            command.spawn().map_err(|e| LlmError::Start(program.clone(), e.to_string()))?;
        let missing = || LlmError::Start(program.clone(), "its pipes were not opened".into());
        let stdin = child.stdin.take().ok_or_else(missing)?;
        let stdout = child.stdout.take().ok_or_else(missing)?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(pipe) = child.stderr.take() {
            tokio::spawn(keep_tail(pipe, stderr.clone()));
        }
        let mut lines = BufReader::new(stdout).lines();
        let first = tokio::time::timeout(LOAD_TIMEOUT, lines.next_line()).await;
        let info = match first {
            Err(_) => {
                return Err(LlmError::Load("the notes model took over 5 minutes to load".into()))
            }
            Ok(Ok(Some(line))) => match serde_json::from_str::<Reply>(&line) {
                Ok(Reply::Ready(info)) => info,
                Ok(Reply::Error(message)) => return Err(LlmError::Load(message)),
                _ => return Err(LlmError::Load(format!("the worker said {line:?} at start"))),
            },
            Ok(_) => return Err(LlmError::Load(ended(&mut child, &stderr).await)),
        };
        Ok(Worker { child, stdin, lines, stderr, info })
    }

    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// One completion; `progress` hears (prompt tokens, read, written).
    pub async fn complete(
        &mut self,
        request: &Request,
        mut progress: impl FnMut(u32, u32, u32),
    ) -> Result<Finished, LlmError> {
        let line = serde_json::to_string(request).map_err(|e| LlmError::Request(e.to_string()))?;
        let sent = async {
            self.stdin.write_all(line.as_bytes()).await?;
            self.stdin.write_all(b"\n").await?;
            self.stdin.flush().await
        };
        if sent.await.is_err() {
            return Err(LlmError::Stopped(ended(&mut self.child, &self.stderr).await));
        }
        loop {
            let Ok(Some(line)) = self.lines.next_line().await else {
                return Err(LlmError::Stopped(ended(&mut self.child, &self.stderr).await));
            };
            match serde_json::from_str::<Reply>(&line) {
                Ok(Reply::Progress { prompt_tokens, read, generated }) => {
                    progress(prompt_tokens, read, generated)
                }
                Ok(Reply::Done(finished)) => return Ok(finished),
                Ok(Reply::Error(message)) => return Err(LlmError::Request(message)),
                Ok(Reply::Ready(_)) | Err(_) => {
                    tracing::debug!(%line, "recorder-llm: a line that is no reply");
                }
            }
        }
    }

    /// What pauses, resumes and measures the worker while it is busy.
    pub fn handle(&self) -> WorkerHandle {
        WorkerHandle { pid: self.child.id() }
    }

    /// Ends the worker now.
    pub async fn stop(mut self) {
        self.handle().resume();
        let _ = self.child.kill().await;
    }
}

/// Pauses, resumes and measures a worker from outside its requests.
#[derive(Debug, Clone, Copy)]
pub struct WorkerHandle {
    pid: Option<u32>,
}

impl WorkerHandle {
    /// The worker's process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The most memory the worker has held (VmHWM), where the OS tells it.
    pub fn peak_memory_bytes(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid?)).ok()?;
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }

    /// Stops the worker using the CPU until [`WorkerHandle::resume`] (Unix;
    /// elsewhere the run waits between requests instead).
    pub fn pause(&self) -> bool {
        self.signal(true)
    }

    pub fn resume(&self) -> bool {
        self.signal(false)
    }

    #[cfg(unix)]
    fn signal(&self, stop: bool) -> bool {
        use nix::sys::signal::{kill, Signal};
        let Some(pid) = self.pid.and_then(|pid| i32::try_from(pid).ok()) else {
            return false;
        };
        let signal = if stop { Signal::SIGSTOP } else { Signal::SIGCONT };
        kill(nix::unistd::Pid::from_raw(pid), signal).is_ok()
    }

    #[cfg(not(unix))]
    fn signal(&self, _stop: bool) -> bool {
        false
    }
}

/// Why the worker ended: its exit status and the end of what it wrote to stderr.
async fn ended(child: &mut Child, stderr: &Mutex<Vec<u8>>) -> String {
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    let status = match status {
        Ok(Ok(status)) => status.to_string(),
        _ => "it did not answer".to_string(),
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    let tail = stderr.lock().map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string());
    match tail {
        Ok(tail) if !tail.is_empty() => format!("{status}: {tail}"),
        _ => status,
    }
}

async fn keep_tail(mut pipe: tokio::process::ChildStderr, tail: Arc<Mutex<Vec<u8>>>) {
    let mut buffer = [0u8; 1024];
    while let Ok(read) = pipe.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        if let Ok(mut tail) = tail.lock() {
            tail.extend_from_slice(&buffer[..read]);
            let excess = tail.len().saturating_sub(STDERR_TAIL);
            tail.drain(..excess);
        }
    }
}
