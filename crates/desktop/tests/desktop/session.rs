//! A desktop session of its own for each test: Xvfb (a display), a D-Bus
//! session bus, and on that bus two services the test reads back: a
//! notification daemon (org.freedesktop.Notifications, which records every
//! notification and can press its buttons) and a StatusNotifierWatcher (where
//! tray icons register, as a panel's would). HOME and the XDG folders point
//! into a temporary folder.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

use zbus::object_server::SignalEmitter;
use zbus::zvariant::OwnedValue;

/// One notification as the daemon received it.
#[derive(Debug, Clone)]
pub struct Notified {
    pub id: u32,
    pub summary: String,
    pub body: String,
    pub actions: Vec<String>,
    pub timeout: i32,
}

#[derive(Default)]
pub struct NotifyLog {
    pub shown: Vec<Notified>,
    pub closed: Vec<u32>,
}

pub struct Notifications {
    log: Arc<Mutex<NotifyLog>>,
    inhibited: bool,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Notifications {
    fn get_capabilities(&self) -> Vec<String> {
        vec!["actions".into(), "body".into(), "body-markup".into()]
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        ("test-daemon".into(), "recorder tests".into(), "1".into(), "1.2".into())
    }

    #[allow(clippy::too_many_arguments)]
    fn notify(
        &mut self,
        _app_name: String,
        _replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        actions: Vec<String>,
        _hints: HashMap<String, OwnedValue>,
        timeout: i32,
    ) -> u32 {
        let mut log = self.log.lock().expect("log");
        let id = log.shown.len() as u32 + 1;
        log.shown.push(Notified { id, summary, body, actions, timeout });
        id
    }

    fn close_notification(&mut self, id: u32) {
        self.log.lock().expect("log").closed.push(id);
    }

    #[zbus(property)]
    fn inhibited(&self) -> bool {
        self.inhibited
    }

    #[zbus(signal)]
    async fn action_invoked(
        emitter: &SignalEmitter<'_>,
        id: u32,
        action_key: &str,
    ) -> zbus::Result<()>;
}

/// Tray icons that registered: (bus name of the app, object path).
pub type Items = Arc<Mutex<Vec<(String, String)>>>;

pub struct Watcher {
    items: Items,
}

#[zbus::interface(name = "org.kde.StatusNotifierWatcher")]
impl Watcher {
    fn register_status_notifier_item(
        &mut self,
        service: &str,
        #[zbus(header)] header: zbus::message::Header<'_>,
    ) {
        let sender = header.sender().map(|s| s.to_string()).unwrap_or_default();
        let path = if service.starts_with('/') {
            service.to_string()
        } else {
            "/StatusNotifierItem".to_string()
        };
        let name = if service.starts_with('/') { sender } else { service.to_string() };
        self.items.lock().expect("items").push((name, path));
    }

    fn register_status_notifier_host(&mut self, _service: &str) {}

    #[zbus(property)]
    fn registered_status_notifier_items(&self) -> Vec<String> {
        self.items.lock().expect("items").iter().map(|(n, p)| format!("{n}{p}")).collect()
    }

    #[zbus(property)]
    fn is_status_notifier_host_registered(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn protocol_version(&self) -> i32 {
        0
    }
}

pub struct Session {
    xvfb: Child,
    dbus: Child,
    pub display: String,
    pub bus: String,
    pub home: tempfile::TempDir,
    pub connection: zbus::Connection,
    pub notifications: Arc<Mutex<NotifyLog>>,
    pub items: Items,
}

impl Session {
    pub async fn start() -> Session {
        let (xvfb, display) = spawn_reading(Command::new("Xvfb").args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x800x24",
            "-nolisten",
            "tcp",
        ]));
        let (dbus, bus) = spawn_reading(Command::new("dbus-daemon").args([
            "--session",
            "--nofork",
            "--print-address=1",
        ]));
        let notifications = Arc::new(Mutex::new(NotifyLog::default()));
        let items: Items = Arc::default();
        let connection = zbus::connection::Builder::address(bus.as_str())
            .expect("bus address")
            .name("org.freedesktop.Notifications")
            .expect("name")
            .name("org.kde.StatusNotifierWatcher")
            .expect("name")
            .serve_at(
                "/org/freedesktop/Notifications",
                Notifications { log: notifications.clone(), inhibited: false },
            )
            .expect("serve")
            .serve_at("/StatusNotifierWatcher", Watcher { items: items.clone() })
            .expect("serve")
            .build()
            .await
            .expect("the test's bus connection");
        let home = tempfile::tempdir().expect("home");
        let runtime = home.path().join("run");
        std::fs::create_dir_all(&runtime).expect("runtime folder");
        std::fs::set_permissions(&runtime, std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .expect("runtime folder mode");
        Session {
            xvfb,
            dbus,
            display: format!(":{display}"),
            bus,
            home,
            connection,
            notifications,
            items,
        }
    }

    /// The environment of a program in this session.
    pub fn env(&self) -> Vec<(String, String)> {
        let home = self.home.path();
        let path = |p: &str| home.join(p).to_string_lossy().to_string();
        vec![
            ("DISPLAY".into(), self.display.clone()),
            ("DBUS_SESSION_BUS_ADDRESS".into(), self.bus.clone()),
            ("HOME".into(), home.to_string_lossy().to_string()),
            ("XDG_DATA_HOME".into(), path(".local/share")),
            ("XDG_CONFIG_HOME".into(), path(".config")),
            ("XDG_CACHE_HOME".into(), path(".cache")),
            ("XDG_RUNTIME_DIR".into(), path("run")),
        ]
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Presses a button of notification `id` (as a person would).
    pub async fn press(&self, id: u32, action: &str) {
        let emitter = SignalEmitter::new(&self.connection, "/org/freedesktop/Notifications")
            .expect("emitter");
        Notifications::action_invoked(&emitter, id, action).await.expect("ActionInvoked");
    }

    /// Turns the desktop's do-not-disturb on or off (`Inhibited`).
    pub async fn do_not_disturb(&self, on: bool) {
        let server = self.connection.object_server();
        let iface = server
            .interface::<_, Notifications>("/org/freedesktop/Notifications")
            .await
            .expect("interface");
        iface.get_mut().await.inhibited = on;
    }

    /// A screenshot of the app's window (ffmpeg's x11grab, without the pointer):
    /// with no window manager it sits at the display's top left, at the size
    /// it opens with (1180 × 780, `src/window.rs`).
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/desktop-screenshots");
        std::fs::create_dir_all(&folder).expect("screenshot folder");
        let path = folder.join(format!("{name}.png"));
        let status = Command::new("ffmpeg")
            .args(["-loglevel", "error", "-y", "-f", "x11grab", "-draw_mouse", "0"])
            .args(["-video_size", "1180x780", "-i"])
            .arg(&self.display)
            .args(["-frames:v", "1"])
            .arg(&path)
            .status()
            .expect("ffmpeg");
        assert!(status.success(), "screenshot failed");
        path
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        for child in [&mut self.xvfb, &mut self.dbus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts `command` and returns it with the first line it prints.
fn spawn_reading(command: &mut Command) -> (Child, String) {
    let mut child =
        command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap_or_else(|e| {
            panic!("cannot start {command:?}: {e} (scripts/setup.sh installs it)")
        });
    let stdout: ChildStdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("first line");
    (child, line.trim().to_string())
}
