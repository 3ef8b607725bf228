//! Restoring a backup into an empty data folder.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Component, Path};

use recorder_settings::DataDir;
use sha2::{Digest, Sha256};

use crate::manifest::{Manifest, FORMAT, VERSION};
use crate::BackupError;

/// What was restored.
#[derive(Debug, Clone)]
pub struct RestoreSummary {
    pub manifest: Manifest,
}

/// Restores the backup `from` into `data_dir`, which must be empty or not yet
/// exist. On any failure the folder is left empty again.
pub fn restore(data_dir: &DataDir, from: &Path) -> Result<RestoreSummary, BackupError> {
    ensure_empty(data_dir.root())?;
    data_dir.prepare().map_err(|error| {
        BackupError::Damaged(format!("cannot prepare the data folder: {error}"))
    })?;
    let result = unpack(data_dir.root(), from).and_then(|written| check(data_dir, from, written));
    if result.is_err() {
        empty(data_dir.root());
    }
    result.map(|manifest| RestoreSummary { manifest })
}

fn ensure_empty(root: &Path) -> Result<(), BackupError> {
    match std::fs::read_dir(root) {
        Ok(mut entries) => match entries.next() {
            Some(_) => Err(BackupError::NotEmpty(root.into())),
            None => Ok(()),
        },
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(BackupError::io(root)(error)),
    }
}

/// Removes what a failed restore wrote (the folder was empty before).
fn empty(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else { return };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        if let Err(error) = removed {
            tracing::error!(%error, path = %path.display(), "could not clean up after a failed restore");
        }
    }
}

/// A file as written: its size and SHA-256.
type Written = HashMap<String, (u64, String)>;

/// Writes every entry but the manifest; returns what was written and the
/// manifest's text.
fn unpack(root: &Path, from: &Path) -> Result<(Written, Vec<u8>), BackupError> {
    let file = File::open(from).map_err(BackupError::io(from))?;
    let mut archive = tar::Archive::new(BufReader::new(file));
    let not_a_backup = |why: String| BackupError::NotABackup(from.to_path_buf(), why);
    let mut written = Written::new();
    let mut manifest = None;
    let entries = archive.entries().map_err(|error| not_a_backup(error.to_string()))?;
    for entry in entries {
        let mut entry = entry.map_err(|error| not_a_backup(error.to_string()))?;
        if !entry.header().entry_type().is_file() {
            return Err(not_a_backup("it holds something other than files".into()));
        }
        let name = entry.path().map_err(|e| not_a_backup(e.to_string()))?.into_owned();
        let name = allowed_name(&name).ok_or_else(|| {
            not_a_backup(format!("it holds a file it should not: {}", name.display()))
        })?;
        if name == "manifest.json" {
            let mut text = Vec::new();
            entry.read_to_end(&mut text).map_err(BackupError::io(from))?;
            manifest = Some(text);
            continue;
        }
        if written.contains_key(&name) {
            return Err(not_a_backup(format!("{name} is in it twice")));
        }
        let facts = write_entry(&mut entry, &root.join(&name))?;
        written.insert(name, facts);
    }
    let manifest = manifest.ok_or_else(|| not_a_backup("it has no manifest.json".into()))?;
    Ok((written, manifest))
}

/// Only what a backup holds, relative and without `..`: `recorder.db`,
/// `settings.json`, `license.json`, `manifest.json`, `templates/NAME`,
/// `meetings/ID/NAME`.
fn allowed_name(path: &Path) -> Option<String> {
    let parts: Vec<&str> = path
        .components()
        .map(|component| match component {
            Component::Normal(part) => part.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let fine = match parts.as_slice() {
        [single] => {
            ["recorder.db", "settings.json", "license.json", "manifest.json"].contains(single)
        }
        ["templates", _] => true,
        ["meetings", id, _] => id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
        _ => false,
    };
    fine.then(|| parts.join("/"))
}

fn write_entry(entry: &mut impl Read, target: &Path) -> Result<(u64, String), BackupError> {
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(BackupError::io(parent))?;
    }
    let mut file = File::create(target).map_err(BackupError::io(target))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let read = entry.read(&mut buffer).map_err(BackupError::io(target))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        file.write_all(&buffer[..read]).map_err(BackupError::io(target))?;
        bytes += read as u64;
    }
    file.sync_all().map_err(BackupError::io(target))?;
    Ok((bytes, hex::encode(hasher.finalize())))
}

/// Every file the manifest lists is there, whole; nothing else is; the
/// database is sound and not newer than this build.
fn check(
    data_dir: &DataDir,
    from: &Path,
    (written, text): (Written, Vec<u8>),
) -> Result<Manifest, BackupError> {
    let manifest: Manifest = serde_json::from_slice(&text)
        .map_err(|error| BackupError::NotABackup(from.into(), format!("manifest.json: {error}")))?;
    if manifest.format != FORMAT || manifest.version > VERSION {
        let why = format!("manifest.json says {} version {}", manifest.format, manifest.version);
        return Err(BackupError::NotABackup(from.into(), why));
    }
    for file in &manifest.files {
        match written.get(&file.path) {
            Some((bytes, sha256)) if *bytes == file.bytes && *sha256 == file.sha256 => {}
            Some(_) => return Err(BackupError::Damaged(format!("{} has changed", file.path))),
            None => return Err(BackupError::Damaged(format!("{} is missing", file.path))),
        }
    }
    if let Some(extra) =
        written.keys().find(|name| !manifest.files.iter().any(|f| &f.path == *name))
    {
        return Err(BackupError::Damaged(format!("{extra} is not in the manifest")));
    }
    let database = data_dir.database();
    recorder_store::integrity_check(&database)?;
    let found = recorder_store::schema_version_of(&database)?;
    if found > recorder_store::SCHEMA_VERSION {
        return Err(BackupError::TooNew { found, known: recorder_store::SCHEMA_VERSION });
    }
    Ok(manifest)
}
