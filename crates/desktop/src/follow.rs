//! Follows the service's events (`/ui/events`): the tray shows the recording,
//! prompts become notifications while the window is out of sight, and a
//! settings change re-applies start at login. Reconnects when the stream ends.

use std::time::Duration;

use recorder_api_types::{Event, Health, PendingPrompts, Prompt, RecordingEnding};
use recorder_client::ClientResult;
use tauri::{AppHandle, Manager};

use crate::notify::{Action, Reply};
use crate::shell::Shell;

/// Runs until the app quits.
pub async fn run(app: AppHandle) {
    loop {
        if let Err(error) = follow(&app).await {
            tracing::debug!(%error, "desktop: the event stream ended");
        }
        let shell = app.state::<Shell>();
        if shell.quitting() {
            return;
        }
        shell.set_view(|view| view.stopped());
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

/// One connection: subscribe first, then read the state, so nothing that
/// happens in between is missed.
async fn follow(app: &AppHandle) -> ClientResult<()> {
    let shell = app.state::<Shell>();
    let mut events = shell.client.person_events().await?;
    let health: Health = shell.client.get("/ui/health", &[]).await?;
    shell.set_view(|view| *view = crate::view::View::from_health(&health.recording));
    crate::autostart::apply(app).await;
    let pending: PendingPrompts = shell.client.get("/ui/prompts", &[]).await?;
    for prompt in pending.prompts {
        shown(app, &prompt).await;
    }
    while let Some(event) = events.next().await? {
        let Ok(event) = serde_json::from_value::<Event>(envelope(event)) else { continue };
        handle(app, event).await;
    }
    Ok(())
}

fn envelope(event: recorder_client::Event) -> serde_json::Value {
    serde_json::json!({ "type": event.kind, "data": event.data })
}

async fn handle(app: &AppHandle, event: Event) {
    let shell = app.state::<Shell>();
    match event {
        Event::RecordingStarted(_) => shell.set_view(|view| view.started()),
        Event::RecordingStopped(stopped) => {
            shell.set_view(|view| view.stopped());
            shell.notifier.withdraw(crate::notify::ENDING).await;
            if let Some(text) = crate::notify::stopped_text(stopped.reason) {
                shell.notifier.message("Recording stopped", text).await;
            }
        }
        Event::RecordingPaused(paused) => shell.set_view(|view| view.paused = paused.paused),
        Event::RecordingMuted(muted) => shell.set_view(|view| view.muted = muted.muted),
        Event::RecordingEnding(ending) => countdown(app, &ending).await,
        Event::RecordingChannel(channel) => {
            shell.set_view(|view| view.channel(channel.channel.as_str(), channel.state))
        }
        Event::PromptShown(prompt) => shown(app, &prompt).await,
        Event::PromptAnswered(answer) => shell.notifier.withdraw(&answer.prompt_id).await,
        Event::SettingsChanged(_) => crate::autostart::apply(app).await,
        _ => {}
    }
}

/// A prompt reaches the person: the window's card when they look at the
/// window, else (also) a notification.
async fn shown(app: &AppHandle, prompt: &Prompt) {
    if crate::window::in_view(app) {
        return;
    }
    let shell = app.state::<Shell>();
    shell.notifier.prompt(prompt, now_ms()).await;
}

/// The countdown to stopping by itself: a notification with Keep recording
/// while the window is out of sight; taken away when called off.
async fn countdown(app: &AppHandle, ending: &RecordingEnding) {
    let shell = app.state::<Shell>();
    let Some(stops_at) = ending.stops_at else {
        shell.notifier.withdraw(crate::notify::ENDING).await;
        return;
    };
    if crate::window::in_view(app) {
        return;
    }
    let left_ms = (stops_at - now_ms()).max(0);
    let (summary, body) = crate::notify::ending_text(ending, (left_ms + 999) / 1000);
    shell.notifier.ending(&summary, &body, left_ms).await;
}

/// Answers a prompt as the notification's button said (the person's channel).
pub async fn reply(app: &AppHandle, reply: Reply) {
    let answer = match reply.action {
        Action::Keep => return keep(app).await,
        Action::Record => "record",
        Action::Decline => "decline",
        Action::Open => {
            if let Err(error) = crate::window::show(app).await {
                tracing::warn!(%error, "desktop: opening the window");
            }
            return;
        }
    };
    let shell = app.state::<Shell>();
    let path = format!("/ui/prompts/{}/answer", reply.prompt_id);
    let body = serde_json::json!({ "answer": answer });
    match shell.client.post::<_, serde_json::Value>(&path, &body).await {
        Ok(_) => tracing::info!(prompt_id = reply.prompt_id, answer, "desktop: prompt answered"),
        Err(error) => {
            tracing::warn!(%error, "desktop: answering the prompt failed");
            shell.notifier.message("Recorder could not answer", &error.to_string()).await;
        }
    }
}

/// Keep recording, from the countdown's notification.
async fn keep(app: &AppHandle) {
    let shell = app.state::<Shell>();
    let kept = shell
        .client
        .post::<_, serde_json::Value>("/ui/recording/keep", &serde_json::json!({}))
        .await;
    match kept {
        Ok(_) => tracing::info!("desktop: the recording goes on (kept)"),
        Err(error) => {
            tracing::warn!(%error, "desktop: keeping the recording failed");
            shell.notifier.message("Recorder could not keep recording", &error.to_string()).await;
        }
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
