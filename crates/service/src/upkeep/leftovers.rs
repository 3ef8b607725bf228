//! What a crash can leave in the data folder, cleared after start-up (off
//! the request path, while this service holds the folder's lock):
//!
//! - temporary files of atomic writes (`.<name>.tmp-<pid>` of tokens,
//!   settings, the licence, models) whose process is gone: the real file is
//!   always whole (old or new), the temporary is litter, and for a token a
//!   stray copy of a secret;
//! - meeting folders with no meeting: a recording killed between making its
//!   files and its row (no audio yet), an upload cut off or renamed just
//!   before its row (never acknowledged), a delete cut off between its rows
//!   and its folder (the person asked for it to go).
//!
//! Only what was last written before the service started is touched: a
//! recording or upload that begins meanwhile is never mistaken for one.

use std::path::Path;
use std::time::SystemTime;

use crate::state::{AppState, Core};

/// Removes both kinds of leftovers (see the module's documentation).
pub fn remove(state: &AppState, started: SystemTime) {
    for folder in [state.core.data_dir.root().to_path_buf(), state.core.data_dir.models()] {
        remove_stray_temporaries(&folder, std::process::id());
    }
    remove_orphan_meeting_folders(&state.core, started);
}

/// `.<name>.tmp-<pid>` files of other processes in `folder`.
fn remove_stray_temporaries(folder: &Path, own_pid: u32) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_stray_temporary(&name, own_pid) || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        match std::fs::remove_file(entry.path()) {
            Ok(()) => tracing::info!(file = %name, "removed a temporary file a crash left"),
            Err(error) => {
                tracing::warn!(%error, file = %name, "could not remove a stray temporary file")
            }
        }
    }
}

fn is_stray_temporary(name: &str, own_pid: u32) -> bool {
    let Some((stem, pid)) = name.rsplit_once(".tmp-") else { return false };
    name.starts_with('.') && stem.len() > 1 && pid.parse::<u32>().is_ok_and(|pid| pid != own_pid)
}

fn remove_orphan_meeting_folders(core: &Core, started: SystemTime) {
    let Ok(folders) = std::fs::read_dir(core.data_dir.meetings()) else { return };
    // Every id in one query, not one per folder (a library has thousands).
    let known: std::collections::HashSet<String> =
        match recorder_store::meeting_ids_in(core.store.path()) {
            Ok(ids) => ids.into_iter().collect(),
            Err(error) => {
                tracing::warn!(%error, "could not list meetings; folders without one are kept");
                return;
            }
        };
    for folder in folders.flatten().map(|entry| entry.path()) {
        let Some(id) = folder.file_name().and_then(|name| name.to_str()).map(str::to_owned) else {
            continue;
        };
        if !folder.is_dir() || !untouched_since(&folder, started) {
            continue;
        }
        if known.contains(&id) {
            continue; // a meeting's own folder
        }
        match std::fs::remove_dir_all(&folder) {
            Ok(()) => {
                tracing::info!(folder = %folder.display(), "removed a meeting folder without a meeting")
            }
            Err(error) => {
                tracing::warn!(%error, "could not remove a meeting folder without a meeting")
            }
        }
    }
}

/// Whether the folder and everything in it was last changed before `started`.
fn untouched_since(folder: &Path, started: SystemTime) -> bool {
    let before = |modified: std::io::Result<SystemTime>| modified.is_ok_and(|time| time < started);
    if !before(std::fs::metadata(folder).and_then(|m| m.modified())) {
        return false;
    }
    let Ok(entries) = std::fs::read_dir(folder) else { return false };
    entries.flatten().all(|entry| before(entry.metadata().and_then(|m| m.modified())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_temporaries_of_other_processes_count() {
        assert!(is_stray_temporary(".api_token.tmp-4242", 1));
        assert!(is_stray_temporary(".settings.json.tmp-7", 1));
        assert!(!is_stray_temporary(".api_token.tmp-4242", 4242), "ours, being written");
        assert!(!is_stray_temporary("api_token", 1));
        assert!(!is_stray_temporary(".x.tmp-abc", 1));
        assert!(!is_stray_temporary("notes.tmp-12", 1), "not one of ours");
    }

    #[test]
    fn only_folders_untouched_since_the_start_count() {
        let folder = tempfile::tempdir().expect("temp");
        std::fs::write(folder.path().join("mic.wav"), b"RIFF").expect("write");
        let later = SystemTime::now() + std::time::Duration::from_secs(60);
        let earlier = SystemTime::now() - std::time::Duration::from_secs(60);
        assert!(untouched_since(folder.path(), later));
        assert!(!untouched_since(folder.path(), earlier), "written since the start");
    }
}
