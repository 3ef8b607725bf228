//! macOS and Windows: a notification without actions (on Windows a toast
//! through notify-rust, on macOS `osascript`'s `display notification`); the
//! record card waits in the window. Compiled in CI (scripts/check-targets.sh),
//! not run here.

use recorder_api_types::Prompt;
use tokio::sync::mpsc;

use super::{prompt_body, Reply};

pub struct Notifier;

impl Notifier {
    pub async fn connect() -> (Notifier, mpsc::UnboundedReceiver<Reply>) {
        let (_sender, receiver) = mpsc::unbounded_channel();
        (Notifier, receiver)
    }

    pub async fn prompt(&self, prompt: &Prompt, _now_ms: i64) -> bool {
        let body = prompt_body(prompt);
        show("Record this meeting?".to_string(), format!("{body}\nOpen Recorder to answer.")).await
    }

    pub async fn ending(&self, summary: &str, body: &str, _timeout_ms: i64) -> bool {
        show(summary.to_string(), format!("{body}\nOpen Recorder to keep recording.")).await
    }

    pub async fn withdraw(&self, _prompt_id: &str) {}

    pub async fn message(&self, summary: &str, body: &str) {
        show(summary.to_string(), body.to_string()).await;
    }
}

#[cfg(windows)]
async fn show(summary: String, body: String) -> bool {
    let shown = tokio::task::spawn_blocking(move || {
        notify_rust::Notification::new().summary(&summary).body(&body).show().map(|_| ())
    })
    .await;
    match shown {
        Ok(Ok(())) => true,
        Ok(Err(error)) => {
            tracing::warn!(%error, "desktop: the notification could not be shown");
            false
        }
        Err(_) => false,
    }
}

/// macOS: AppleScript's notification (no C or Objective-C to build).
#[cfg(not(windows))]
async fn show(summary: String, body: String) -> bool {
    let script = format!(
        "display notification {} with title {}",
        applescript_text(&body),
        applescript_text(&summary)
    );
    let status = tokio::process::Command::new("osascript").args(["-e", &script]).status().await;
    match status {
        Ok(status) if status.success() => true,
        other => {
            tracing::warn!(?other, "desktop: the notification could not be shown");
            false
        }
    }
}

/// An AppleScript string literal of `text`.
#[cfg(not(windows))]
fn applescript_text(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
