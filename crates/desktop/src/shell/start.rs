//! The Tauri app's start-up: plugins (single instance, deep links, autostart),
//! then the service, tray, window and event follower; a second launch or a
//! `recorder://` link opens its page in this window, and closing the window
//! leaves the app running.

use recorder_client::stop::StopSignals;
use tauri::{App, AppHandle, Manager, RunEvent, Window, WindowEvent};
use tauri_plugin_autostart::MacosLauncher;
use tauri_plugin_deep_link::DeepLinkExt;

use super::quit::quit;
use super::Shell;
use crate::backend;
use crate::notify::Notifier;
use crate::tray::Tray;
use crate::{follow, window, Options};

/// Runs the app until Quit. The plugins come first (so a second launch hands
/// over and ends before touching the service), then the service, then the
/// tray and the window once the event loop runs.
pub fn run(options: Options) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    tauri::async_runtime::set(runtime.handle().clone());
    let page = recorder_client::links::page_of(options.link.as_deref()).unwrap_or_else(|message| {
        tracing::warn!(%message, "desktop: opening the library instead");
        "/".to_string()
    });
    let visible = !options.hidden;
    // Listening before the service starts: a SIGTERM that comes while it
    // starts waits for the event loop and quits cleanly, not by the default
    // action, which would kill the service half-started.
    let signals = {
        let _inside = runtime.enter();
        StopSignals::listen()
    };
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, argv, _cwd| second_launch(app, argv)))
        .plugin(tauri_plugin_deep_link::init())
        .plugin(tauri_plugin_autostart::init(MacosLauncher::LaunchAgent, Some(vec!["--hidden"])))
        .setup(move |app| setup(app, &page, visible, signals).map_err(Into::into))
        .on_window_event(window_event)
        .build(tauri::generate_context!())?;
    let backend = runtime.block_on(backend::start(&options))?;
    let (notifier, mut replies) = runtime.block_on(Notifier::connect());
    app.manage(Shell::new(backend, notifier));
    let replying = app.handle().clone();
    runtime.spawn(async move {
        while let Some(reply) = replies.recv().await {
            follow::reply(&replying, reply).await;
        }
    });
    app.run(|_app, event| {
        // Closing the window is not leaving: only Quit ends the app.
        if let RunEvent::ExitRequested { api, code: None, .. } = event {
            api.prevent_exit();
        }
    });
    Ok(())
}

fn setup(app: &mut App, page: &str, visible: bool, signals: StopSignals) -> anyhow::Result<()> {
    let handle = app.handle().clone();
    let shell = app.state::<Shell>();
    let _ = shell.tray.set(Tray::build(&handle)?);
    if visible {
        tauri::async_runtime::block_on(window::open_page(&handle, page))?;
    }
    tauri::async_runtime::spawn(follow::run(handle.clone()));
    let linking = handle.clone();
    app.deep_link().on_open_url(move |event| {
        for url in event.urls() {
            open_link(&linking, url.as_str());
        }
    });
    tauri::async_runtime::spawn(quit_on_signal(handle, signals));
    Ok(())
}

/// A second `recorder-desktop` (the menu entry again, or a `recorder://`
/// link) hands its arguments here and ends; its link opens in this window.
fn second_launch(app: &AppHandle, argv: Vec<String>) {
    use clap::Parser;
    let link = Options::try_parse_from(&argv).ok().and_then(|options| options.link);
    tracing::info!(link = link.as_deref(), "desktop: launched again");
    match link {
        Some(link) => open_link(app, &link),
        None => {
            let app = app.clone();
            tauri::async_runtime::spawn(async move {
                if let Err(error) = window::show(&app).await {
                    tracing::warn!(%error, "desktop: opening the window");
                }
            });
        }
    }
}

fn open_link(app: &AppHandle, link: &str) {
    let page = match recorder_client::links::page_of(Some(link)) {
        Ok(page) => page,
        Err(message) => {
            tracing::warn!(%message, "desktop: a link it cannot open");
            return;
        }
    };
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        if let Err(error) = window::open_page(&app, &page).await {
            tracing::warn!(%error, page, "desktop: opening a page");
        }
    });
}

/// Closing the window closes only the window: the tray, the service and a
/// recording go on (see `run`, which keeps the app when no window is left).
fn window_event(window: &Window, event: &WindowEvent) {
    if let WindowEvent::Destroyed = event {
        tracing::info!(window = window.label(), "desktop: window closed");
    }
}

/// SIGTERM or SIGINT (logging out, `kill`) quit like the tray's Quit.
async fn quit_on_signal(app: AppHandle, signals: StopSignals) {
    let signal = signals.next().await;
    tracing::info!("desktop: {signal}: quitting");
    quit(&app).await;
}
