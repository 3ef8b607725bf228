//! org.freedesktop.Notifications over the session bus (zbus): a prompt's
//! notification carries the actions `record` ("Record") and `decline` ("Not
//! now"); `ActionInvoked` comes back as a [`Reply`]. Do-not-disturb is read
//! where a desktop tells it: the `Inhibited` property (KDE Plasma) and GNOME's
//! `show-banners` setting.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use recorder_api_types::Prompt;
use tokio::sync::mpsc;
use zbus::proxy::CacheProperties;
use zbus::zvariant::Value;

use super::{escape_markup, prompt_body, Action, Reply};

#[zbus::proxy(
    interface = "org.freedesktop.Notifications",
    default_service = "org.freedesktop.Notifications",
    default_path = "/org/freedesktop/Notifications"
)]
trait Notifications {
    #[allow(clippy::too_many_arguments)]
    fn notify(
        &self,
        app_name: &str,
        replaces_id: u32,
        app_icon: &str,
        summary: &str,
        body: &str,
        actions: &[&str],
        hints: HashMap<&str, Value<'_>>,
        expire_timeout: i32,
    ) -> zbus::Result<u32>;

    fn close_notification(&self, id: u32) -> zbus::Result<()>;

    fn get_capabilities(&self) -> zbus::Result<Vec<String>>;

    #[zbus(signal)]
    fn action_invoked(&self, id: u32, action_key: String) -> zbus::Result<()>;

    #[zbus(property)]
    fn inhibited(&self) -> zbus::Result<bool>;
}

/// Notification ids shown for prompts, by prompt id.
type Shown = Arc<Mutex<HashMap<String, u32>>>;

pub struct Notifier {
    proxy: Option<NotificationsProxy<'static>>,
    shown: Shown,
    /// The server renders markup in bodies (`body-markup`): text from a call's
    /// page (titles, names) is escaped so it shows as written.
    markup: bool,
}

const APP_NAME: &str = "Recorder";
const APP_ICON: &str = "recorder-desktop";

impl Notifier {
    /// Connects to the session bus; without one, notifications are skipped
    /// (and logged). Replies arrive on the receiver.
    pub async fn connect() -> (Notifier, mpsc::UnboundedReceiver<Reply>) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let shown: Shown = Arc::default();
        let proxy = match proxy().await {
            Ok(proxy) => {
                tokio::spawn(listen(proxy.clone(), shown.clone(), sender));
                Some(proxy)
            }
            Err(error) => {
                tracing::warn!(%error, "desktop: no notification service; record prompts show only in the window");
                None
            }
        };
        let markup = match &proxy {
            // A server that cannot say what it renders is taken to render markup.
            Some(proxy) => proxy
                .get_capabilities()
                .await
                .map_or(true, |capabilities| capabilities.iter().any(|c| c == "body-markup")),
            None => false,
        };
        (Notifier { proxy, shown, markup }, receiver)
    }

    /// Shows the record card as a notification, unless the desktop is in
    /// do-not-disturb. Whether it was shown.
    pub async fn prompt(&self, prompt: &Prompt, now_ms: i64) -> bool {
        let Some(proxy) = &self.proxy else { return false };
        if lock(&self.shown).contains_key(prompt.prompt_id.as_str()) {
            return true;
        }
        if do_not_disturb(proxy).await {
            tracing::info!(
                prompt_id = %prompt.prompt_id,
                "desktop: do not disturb; the prompt shows only in the window"
            );
            return false;
        }
        let timeout = (prompt.expires_at - now_ms).clamp(1_000, i64::from(i32::MAX)) as i32;
        let actions = ["default", "Open Recorder", "record", "Record", "decline", "Not now"];
        let hints = HashMap::from([
            ("urgency", Value::U8(1)),
            ("desktop-entry", Value::from("recorder-desktop")),
            ("category", Value::from("x-recorder.prompt")),
        ]);
        let body = self.body_text(&prompt_body(prompt));
        let summary = "Record this meeting?";
        match proxy.notify(APP_NAME, 0, APP_ICON, summary, &body, &actions, hints, timeout).await {
            Ok(id) => {
                lock(&self.shown).insert(prompt.prompt_id.to_string(), id);
                tracing::info!(prompt_id = %prompt.prompt_id, id, "desktop: prompt notified");
                true
            }
            Err(error) => {
                tracing::warn!(%error, "desktop: the notification could not be shown");
                false
            }
        }
    }

    fn body_text(&self, text: &str) -> String {
        if self.markup {
            escape_markup(text)
        } else {
            text.to_string()
        }
    }

    /// Takes a prompt's notification away (the prompt was answered).
    pub async fn withdraw(&self, prompt_id: &str) {
        let id = lock(&self.shown).remove(prompt_id);
        if let (Some(proxy), Some(id)) = (&self.proxy, id) {
            if let Err(error) = proxy.close_notification(id).await {
                tracing::debug!(%error, id, "desktop: closing a notification");
            }
        }
    }

    /// The countdown to stopping by itself, with Keep recording; replaces
    /// an earlier one.
    pub async fn ending(&self, summary: &str, body: &str, timeout_ms: i64) -> bool {
        let Some(proxy) = &self.proxy else { return false };
        let replaces = lock(&self.shown).get(super::ENDING).copied().unwrap_or(0);
        let timeout = timeout_ms.clamp(1_000, i64::from(i32::MAX)) as i32;
        let actions = ["default", "Open Recorder", "keep", "Keep recording"];
        let hints = HashMap::from([
            ("urgency", Value::U8(1)),
            ("desktop-entry", Value::from("recorder-desktop")),
        ]);
        let body = self.body_text(body);
        match proxy
            .notify(APP_NAME, replaces, APP_ICON, summary, &body, &actions, hints, timeout)
            .await
        {
            Ok(id) => {
                lock(&self.shown).insert(super::ENDING.to_string(), id);
                true
            }
            Err(error) => {
                tracing::warn!(%error, "desktop: the notification could not be shown");
                false
            }
        }
    }

    /// A plain notification (no actions).
    pub async fn message(&self, summary: &str, body: &str) {
        let Some(proxy) = &self.proxy else { return };
        let hints = HashMap::from([("desktop-entry", Value::from("recorder-desktop"))]);
        let body = self.body_text(body);
        if let Err(error) =
            proxy.notify(APP_NAME, 0, APP_ICON, summary, &body, &[], hints, -1).await
        {
            tracing::warn!(%error, "desktop: the notification could not be shown");
        }
    }
}

async fn proxy() -> zbus::Result<NotificationsProxy<'static>> {
    let connection = zbus::Connection::session().await?;
    NotificationsProxy::builder(&connection).cache_properties(CacheProperties::No).build().await
}

/// Turns `ActionInvoked` signals for our notifications into replies.
async fn listen(
    proxy: NotificationsProxy<'static>,
    shown: Shown,
    replies: mpsc::UnboundedSender<Reply>,
) {
    let mut signals = match proxy.receive_action_invoked().await {
        Ok(signals) => signals,
        Err(error) => {
            tracing::warn!(%error, "desktop: cannot follow notification actions");
            return;
        }
    };
    while let Some(signal) = signals.next().await {
        let Ok(args) = signal.args() else { continue };
        let action = match args.action_key.as_str() {
            "record" => Action::Record,
            "decline" => Action::Decline,
            "keep" => Action::Keep,
            "default" => Action::Open,
            _ => continue,
        };
        let prompt_id = {
            let shown = lock(&shown);
            shown.iter().find(|(_, id)| **id == args.id).map(|(prompt, _)| prompt.clone())
        };
        if let Some(prompt_id) = prompt_id {
            if replies.send(Reply { prompt_id, action }).is_err() {
                return;
            }
        }
    }
}

/// Do-not-disturb as the desktop tells it; false where it cannot be read.
async fn do_not_disturb(proxy: &NotificationsProxy<'static>) -> bool {
    if proxy.inhibited().await.unwrap_or(false) {
        return true;
    }
    let gsettings = tokio::process::Command::new("gsettings")
        .args(["get", "org.gnome.desktop.notifications", "show-banners"])
        .output()
        .await;
    matches!(gsettings, Ok(out) if out.status.success() && out.stdout.trim_ascii() == b"false")
}

fn lock(shown: &Shown) -> std::sync::MutexGuard<'_, HashMap<String, u32>> {
    shown.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
