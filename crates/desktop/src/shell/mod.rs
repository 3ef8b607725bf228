//! The app's shared state (Tauri's managed state): the service's client, the
//! notifier, the view the tray shows, the tray itself, the in-process service
//! and whether the app is quitting. Start-up is in `start.rs`, quitting in
//! `quit.rs`.

pub mod quit;
pub mod start;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use recorder_client::Client;

use crate::backend::{Backend, OwnedService};
use crate::notify::Notifier;
use crate::tray::Tray;
use crate::view::View;

/// What every part of the app shares (Tauri's managed state).
pub struct Shell {
    pub client: Client,
    pub notifier: Notifier,
    view: Mutex<View>,
    tray: OnceLock<Tray>,
    owned: tokio::sync::Mutex<Option<OwnedService>>,
    quitting: AtomicBool,
}

impl Shell {
    fn new(backend: Backend, notifier: Notifier) -> Shell {
        Shell {
            client: backend.client,
            notifier,
            view: Mutex::default(),
            tray: OnceLock::new(),
            owned: tokio::sync::Mutex::new(backend.owned),
            quitting: AtomicBool::new(false),
        }
    }

    pub fn view(&self) -> View {
        self.view.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Changes the view and shows it in the tray.
    pub fn set_view(&self, change: impl FnOnce(&mut View)) {
        let mut view = self.view.lock().unwrap_or_else(|p| p.into_inner());
        change(&mut view);
        if let Some(tray) = self.tray.get() {
            if let Err(error) = tray.show(&view) {
                tracing::warn!(%error, "desktop: updating the tray");
            }
        }
    }

    pub fn quitting(&self) -> bool {
        self.quitting.load(Ordering::SeqCst)
    }
}
