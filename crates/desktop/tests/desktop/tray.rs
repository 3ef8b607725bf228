//! The app's tray icon read back over D-Bus as a panel reads it: the
//! StatusNotifierItem's icon, and its menu (com.canonical.dbusmenu), whose
//! items the test clicks.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use zbus::proxy::CacheProperties;
use zbus::zvariant::{OwnedObjectPath, OwnedValue, Value};

use crate::session::Session;

pub struct Tray {
    item: zbus::Proxy<'static>,
    menu: zbus::Proxy<'static>,
}

/// One menu item: its id, label and whether it can be clicked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: i32,
    pub label: String,
    pub enabled: bool,
}

type Layout = (i32, HashMap<String, OwnedValue>, Vec<OwnedValue>);

impl Tray {
    /// The app's tray icon, once it has registered with the watcher.
    pub async fn find(session: &Session) -> Tray {
        let deadline = Instant::now() + Duration::from_secs(30);
        let (name, path) = loop {
            if let Some(item) = session.items.lock().expect("items").first().cloned() {
                break item;
            }
            assert!(Instant::now() < deadline, "no tray icon registered");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let connection = &session.connection;
        let item = proxy(connection, &name, &path, "org.kde.StatusNotifierItem").await;
        let menu_path: OwnedObjectPath = item.get_property("Menu").await.expect("Menu");
        let menu = proxy(connection, &name, menu_path.as_str(), "com.canonical.dbusmenu").await;
        Tray { item, menu }
    }

    /// The menu's items, separators left out.
    pub async fn entries(&self) -> Vec<Entry> {
        let (_revision, layout): (u32, Layout) = self
            .menu
            .call("GetLayout", &(0i32, -1i32, Vec::<String>::new()))
            .await
            .expect("GetLayout");
        layout
            .2
            .into_iter()
            .filter_map(|child| Layout::try_from(Value::from(child)).ok())
            .filter(|(_, props, _)| text(props, "type").as_deref() != Some("separator"))
            .map(|(id, props, _)| Entry {
                id,
                label: text(&props, "label").unwrap_or_default(),
                enabled: props.get("enabled").and_then(|v| bool::try_from(v).ok()).unwrap_or(true),
            })
            .collect()
    }

    /// The labels of the menu, with "(disabled)" after those that are.
    pub async fn labels(&self) -> Vec<String> {
        self.entries()
            .await
            .into_iter()
            .map(|e| if e.enabled { e.label } else { format!("{} (disabled)", e.label) })
            .collect()
    }

    /// Clicks the item labelled `label`, once the menu shows it: the menu
    /// follows the service's events, which can land a moment after the state
    /// a test read over HTTP (at most 10 s).
    pub async fn click(&self, label: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let entry = loop {
            let entries = self.entries().await;
            if let Some(entry) = entries.iter().find(|e| e.label == label) {
                break entry.clone();
            }
            assert!(std::time::Instant::now() < deadline, "no {label:?} in {entries:?}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        let _: () = self
            .menu
            .call("Event", &(entry.id, "clicked", Value::I32(0), 0u32))
            .await
            .expect("Event");
    }

    /// The pixels of the icon shown now.
    pub async fn icon(&self) -> Vec<u8> {
        let name: String = self.item.get_property("IconName").await.expect("IconName");
        let mut path = PathBuf::from(&name);
        if !path.is_absolute() {
            let theme: String = self.item.get_property("IconThemePath").await.expect("theme");
            path = PathBuf::from(theme).join(format!("{name}.png"));
        }
        pixels(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }
}

/// The decoded RGBA of a PNG.
pub fn pixels(png_bytes: &[u8]) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("png");
    let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buffer).expect("frame");
    buffer.truncate(info.buffer_size());
    buffer
}

/// The app's own tray picture for a look (`idle`, `recording`, `paused`, `warning`).
pub fn look(name: &str) -> Vec<u8> {
    let path = format!("{}/icons/tray-{name}.png", env!("CARGO_MANIFEST_DIR"));
    pixels(&std::fs::read(path).expect("icon"))
}

async fn proxy(
    connection: &zbus::Connection,
    name: &str,
    path: &str,
    interface: &str,
) -> zbus::Proxy<'static> {
    zbus::proxy::Builder::new(connection)
        .destination(name.to_string())
        .expect("name")
        .path(path.to_string())
        .expect("path")
        .interface(interface.to_string())
        .expect("interface")
        .cache_properties(CacheProperties::No)
        .build()
        .await
        .expect("proxy")
}

fn text(props: &HashMap<String, OwnedValue>, key: &str) -> Option<String> {
    props.get(key).and_then(|v| String::try_from(v.clone()).ok())
}
