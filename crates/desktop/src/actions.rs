//! What the tray's menu does. Each action is the person's own button, sent
//! over the person's channel like the app's (no plan or remote-start gate).

use recorder_api_types::{MuteReply, MuteRequest, PauseReply, PauseRequest, StopReply};
use recorder_client::ClientResult;
use serde_json::{json, Value};
use tauri::{AppHandle, Manager};

use crate::shell::Shell;
use crate::tray::ids;

/// Runs the menu item `id`; a failure is told in a notification.
pub fn menu(app: &AppHandle, id: &str) {
    let app = app.clone();
    let id = id.to_string();
    tauri::async_runtime::spawn(async move {
        let outcome = match id.as_str() {
            ids::OPEN => crate::window::show(&app).await.map_err(|e| e.to_string()),
            ids::START_STOP => start_or_stop(&app).await.map_err(|e| e.to_string()),
            ids::PAUSE => pause_or_resume(&app).await.map_err(|e| e.to_string()),
            ids::MUTE => mute_or_unmute(&app).await.map_err(|e| e.to_string()),
            ids::MARKER => add_marker(&app).await.map_err(|e| e.to_string()),
            ids::QUIT => {
                crate::shell::quit::quit(&app).await;
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(message) = outcome {
            tracing::warn!(action = id, %message, "desktop: a tray action failed");
            let shell = app.state::<Shell>();
            shell.notifier.message("Recorder", &message).await;
        }
    });
}

async fn start_or_stop(app: &AppHandle) -> ClientResult<()> {
    let shell = app.state::<Shell>();
    if shell.view().recording {
        let _: StopReply = shell.client.post("/ui/recording/stop", &json!({})).await?;
    } else {
        let _: Value = shell.client.post("/ui/recording/start", &json!({})).await?;
    }
    Ok(())
}

async fn pause_or_resume(app: &AppHandle) -> ClientResult<()> {
    let shell = app.state::<Shell>();
    let request = PauseRequest { paused: !shell.view().paused };
    let _: PauseReply = shell.client.post("/ui/recording/pause", &request).await?;
    Ok(())
}

async fn mute_or_unmute(app: &AppHandle) -> ClientResult<()> {
    let shell = app.state::<Shell>();
    let request = MuteRequest { muted: !shell.view().muted };
    let _: MuteReply = shell.client.post("/ui/recording/mute", &request).await?;
    Ok(())
}

async fn add_marker(app: &AppHandle) -> ClientResult<()> {
    let shell = app.state::<Shell>();
    let _: Value = shell.client.post("/ui/recording/marker", &json!({})).await?;
    Ok(())
}
