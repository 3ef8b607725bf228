//! Tauri's build step: reads tauri.conf.json, embeds the splash page and the
//! icons (and, on Windows, the icon and manifest resources).

fn main() {
    tauri_build::build();
}
