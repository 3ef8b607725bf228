//! Start at login (`general.start_at_login`): the autostart plugin writes or
//! removes the platform's entry (an XDG autostart `.desktop` file on Linux, a
//! LaunchAgent on macOS, the Run key on Windows) that starts the app with
//! `--hidden`. Applied at start and whenever settings change.

use serde_json::Value;
use tauri::{AppHandle, Manager};
use tauri_plugin_autostart::ManagerExt;

use crate::shell::Shell;

pub async fn apply(app: &AppHandle) {
    let shell = app.state::<Shell>();
    let wanted = match shell.client.get::<Value>("/ui/settings", &[]).await {
        Ok(settings) => settings["general"]["start_at_login"].as_bool().unwrap_or(false),
        Err(error) => {
            tracing::debug!(%error, "desktop: reading settings");
            return;
        }
    };
    let launcher = app.autolaunch();
    let result = match (wanted, launcher.is_enabled().unwrap_or(false)) {
        (true, false) => launcher.enable(),
        (false, true) => launcher.disable(),
        _ => return,
    };
    match result {
        Ok(()) => tracing::info!(start_at_login = wanted, "desktop: start at login changed"),
        Err(error) => tracing::warn!(%error, "desktop: cannot change start at login"),
    }
}
