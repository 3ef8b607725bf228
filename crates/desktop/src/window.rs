//! The app's window: the service's own UI (CONTRACT §9), signed in with a
//! one-time login link (the person's channel), in a private web view, so no
//! session outlives the process and nothing of it is written to disk. It may
//! go nowhere but the service: other addresses are refused. The window exists
//! only while it is open: closing it (or starting `--hidden`) leaves the tray
//! and the service without a web view and its processes; opening makes a new
//! one, signed in afresh.

use tauri::webview::PageLoadEvent;
use tauri::{AppHandle, Manager, WebviewUrl, WebviewWindow, WebviewWindowBuilder};
use url::Url;

use crate::shell::Shell;

pub const MAIN: &str = "main";

/// Creates the window on `page`.
async fn create(app: &AppHandle, page: &str) -> anyhow::Result<()> {
    let shell = app.state::<Shell>();
    let url = login_url(&shell, page).await?;
    let origin = shell.client.base().origin();
    WebviewWindowBuilder::new(app, MAIN, WebviewUrl::External(url))
        .title("Recorder")
        .inner_size(1180.0, 780.0)
        .min_inner_size(640.0, 480.0)
        .incognito(true)
        .on_navigation(move |target| {
            let allowed = target.origin() == origin;
            if !allowed {
                tracing::warn!(url = %target, "desktop: the window may only show the app");
            }
            allowed
        })
        .on_page_load(|window, payload| {
            if payload.event() == PageLoadEvent::Finished {
                tracing::info!(
                    path = payload.url().path(),
                    window = window.label(),
                    "desktop: page shown"
                );
            }
        })
        .build()?;
    Ok(())
}

/// Shows the window (opening it on the library when it is closed) and
/// brings it to the front.
pub async fn show(app: &AppHandle) -> anyhow::Result<()> {
    match main_window(app) {
        Some(window) => {
            window.show()?;
            window.unminimize()?;
            window.set_focus()?;
        }
        None => create(app, "/").await?,
    }
    Ok(())
}

/// Opens `page` of the app in the window and shows it (a fresh login link,
/// so it works whatever became of the window's session).
pub async fn open_page(app: &AppHandle, page: &str) -> anyhow::Result<()> {
    let Some(window) = main_window(app) else {
        return create(app, page).await;
    };
    let shell = app.state::<Shell>();
    window.navigate(login_url(&shell, page).await?)?;
    show(app).await
}

/// Whether the person sees the window now (shown and in front).
pub fn in_view(app: &AppHandle) -> bool {
    main_window(app).is_some_and(|window| {
        window.is_visible().unwrap_or(false)
            && !window.is_minimized().unwrap_or(false)
            && window.is_focused().unwrap_or(false)
    })
}

fn main_window(app: &AppHandle) -> Option<WebviewWindow> {
    app.get_webview_window(MAIN)
}

async fn login_url(shell: &Shell, page: &str) -> anyhow::Result<Url> {
    let link = shell.client.window_login_link(page).await?;
    Ok(Url::parse(&link.url)?)
}
