//! The tray icon (a StatusNotifierItem on Linux, the menu bar on macOS, the
//! notification area on Windows): its look and tooltip follow the recording,
//! its menu holds the recording buttons. Building it (and sending its menu
//! to `actions`) is `build.rs`.

mod build;

use tauri::image::Image;
use tauri::menu::MenuItem;
use tauri::tray::TrayIcon;
use tauri::Wry;

use crate::view::{Look, View};

/// Menu item ids (what [`crate::actions::menu`] receives).
pub mod ids {
    pub const OPEN: &str = "open";
    pub const START_STOP: &str = "start-stop";
    pub const PAUSE: &str = "pause";
    pub const MUTE: &str = "mute";
    pub const MARKER: &str = "marker";
    pub const QUIT: &str = "quit";
}

/// The tray icon and the menu items that change with the recording.
pub struct Tray {
    icon: TrayIcon,
    start_stop: MenuItem<Wry>,
    pause: MenuItem<Wry>,
    mute: MenuItem<Wry>,
    marker: MenuItem<Wry>,
}

impl Tray {
    /// Shows `view`: icon, tooltip, and the menu's words and enabled items.
    pub fn show(&self, view: &View) -> tauri::Result<()> {
        self.icon.set_icon(Some(image(view.look())?))?;
        self.icon.set_tooltip(Some(view.tooltip()))?;
        let start_stop = if view.recording { "Stop recording" } else { "Start recording" };
        self.start_stop.set_text(start_stop)?;
        let pause = if view.paused { "Resume recording" } else { "Pause recording" };
        self.pause.set_text(pause)?;
        self.pause.set_enabled(view.recording)?;
        let mute = if view.muted { "Unmute microphone" } else { "Mute microphone" };
        self.mute.set_text(mute)?;
        self.mute.set_enabled(view.recording)?;
        self.marker.set_enabled(view.recording)?;
        Ok(())
    }
}

/// The icon of each look (PNGs made from `icons/svg/` by scripts/desktop-icons.sh).
pub fn image(look: Look) -> tauri::Result<Image<'static>> {
    let bytes: &'static [u8] = match look {
        Look::Idle => include_bytes!("../../icons/tray-idle.png"),
        Look::Recording => include_bytes!("../../icons/tray-recording.png"),
        Look::Paused => include_bytes!("../../icons/tray-paused.png"),
        Look::Warning => include_bytes!("../../icons/tray-warning.png"),
    };
    Image::from_bytes(bytes)
}
