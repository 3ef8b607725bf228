//! Quitting after a recording is stopped properly: the in-process service
//! finishes first, an attached one goes on.

use std::sync::atomic::Ordering;

use recorder_api_types::StopReply;
use tauri::{AppHandle, Manager};

use super::Shell;

/// Quit: a recording is stopped properly (files closed, queued for
/// transcription), the in-process service finishes, then the app ends. An
/// attached service (`recorder serve`) goes on.
pub async fn quit(app: &AppHandle) {
    let shell = app.state::<Shell>();
    if shell.quitting.swap(true, Ordering::SeqCst) {
        return;
    }
    if let Some(owned) = shell.owned.lock().await.take() {
        if shell.view().recording {
            match shell
                .client
                .post::<_, StopReply>("/ui/recording/stop", &serde_json::json!({}))
                .await
            {
                Ok(stopped) => tracing::info!(
                    meeting_id = %stopped.meeting_id,
                    "desktop: recording stopped to quit"
                ),
                Err(error) => tracing::warn!(%error, "desktop: stopping the recording to quit"),
            }
        }
        owned.shutdown.cancel();
        match owned.task.await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                tracing::error!(error = %format!("{error:#}"), "desktop: the service ended with an error")
            }
            Err(error) => tracing::error!(%error, "desktop: the service task failed"),
        }
    }
    tracing::info!("desktop: quit");
    app.exit(0);
}
