//! Building the tray icon and its menu, whose items run [`crate::actions::menu`].

use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::AppHandle;

use super::{ids, image, Tray};
use crate::view::View;

impl Tray {
    pub fn build(app: &AppHandle) -> tauri::Result<Tray> {
        let item = |id: &str, text: &str, enabled: bool| {
            MenuItem::with_id(app, id, text, enabled, None::<&str>)
        };
        let open = item(ids::OPEN, "Open", true)?;
        let start_stop = item(ids::START_STOP, "Start recording", true)?;
        let pause = item(ids::PAUSE, "Pause recording", false)?;
        let mute = item(ids::MUTE, "Mute microphone", false)?;
        let marker = item(ids::MARKER, "Add marker", false)?;
        let quit = item(ids::QUIT, "Quit", true)?;
        let menu = Menu::with_items(
            app,
            &[
                &open,
                &PredefinedMenuItem::separator(app)?,
                &start_stop,
                &pause,
                &mute,
                &marker,
                &PredefinedMenuItem::separator(app)?,
                &quit,
            ],
        )?;
        let view = View::default();
        let icon = TrayIconBuilder::with_id("recorder")
            .icon(image(view.look())?)
            .tooltip(view.tooltip())
            .menu(&menu)
            .show_menu_on_left_click(true)
            .on_menu_event(|app, event| crate::actions::menu(app, event.id().as_ref()))
            .build(app)?;
        Ok(Tray { icon, start_stop, pause, mute, marker })
    }
}
