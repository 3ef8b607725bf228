//! Notes-provider API keys, kept in the OS credential store (Secret Service on
//! Linux, Keychain on macOS, Credential Manager on Windows) through `keyring`,
//! or where there is no usable store in `<data_dir>/ai_keys.json`, a file
//! readable by its owner only.
//!
//! Keyring entries are service `app.recorder.desktop`, user
//! `<provider>@<first 12 hex digits of sha256(canonical data folder)>`, so two
//! data folders (tests, profiles) never share keys.
//!
//! Where a key lives: a set that reaches the OS store removes the provider's
//! copy from the file, so a file copy only exists if it was written while the
//! store could not be used, which is always later than any copy in the store.
//! Reads therefore look at the file first, then at the store.

mod error;
mod file;
mod os;
mod secret;
mod validate;

use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use sha2::{Digest as _, Sha256};

pub use error::CredentialError;
pub use file::FILE_NAME;
pub use os::SERVICE as KEYRING_SERVICE;
pub use secret::Secret;

use file::FileStore;
use os::{Gate, OsError};

/// Which stores a [`CredentialStore`] may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The OS credential store; the file where there is none (or it is
    /// locked, refuses, or does not answer within 5 s).
    Auto,
    /// The file only (tests, and `RECORDER_CREDENTIAL_STORE=file`).
    File,
}

/// Where a key is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Keyring,
    File,
}

impl Location {
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Keyring => "keyring",
            Location::File => "file",
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Logged once per process: the OS store was unusable and the file was used.
static WARNED_FALLBACK: AtomicBool = AtomicBool::new(false);

/// API keys of one data folder. Cheap to create; holds no keys itself. Calls
/// block (an OS-store call up to 5 s): from async code use `spawn_blocking`.
#[derive(Debug, Clone)]
pub struct CredentialStore {
    file: FileStore,
    /// `None` for [`Backend::File`].
    os: Option<Gate>,
    /// First 12 hex digits of sha256 of the canonical data folder.
    folder_id: String,
}

impl CredentialStore {
    pub fn new(data_dir: &Path, backend: Backend) -> Self {
        let os = match backend {
            Backend::Auto => Some(Gate::system()),
            Backend::File => None,
        };
        Self::with_gate(data_dir, os)
    }

    fn with_gate(data_dir: &Path, os: Option<Gate>) -> Self {
        Self { file: FileStore::new(data_dir), os, folder_id: folder_id(data_dir) }
    }

    /// Stores `key` (surrounding whitespace trimmed) for `provider`, replacing
    /// any earlier key, and says where it went.
    pub fn set(&self, provider: &str, key: &str) -> Result<Location, CredentialError> {
        validate::provider(provider)?;
        let key = validate::key(key)?;
        if let Some(os) = &self.os {
            // A corrupt file fails here, before the OS store is touched.
            self.file.get(provider)?;
            match os.set(&self.keyring_user(provider), &key) {
                Ok(()) => {
                    // A key lives in one place.
                    self.file.remove(provider)?;
                    return Ok(Location::Keyring);
                }
                Err(OsError::Unavailable(reason)) => fall_back(&reason),
                Err(OsError::Failed(reason)) => return Err(CredentialError::Keyring { reason }),
            }
        }
        self.file.set(provider, &key)?;
        Ok(Location::File)
    }

    pub fn get(&self, provider: &str) -> Result<Option<String>, CredentialError> {
        Ok(self.find(provider)?.map(|(key, _)| key.into_inner()))
    }

    /// Removes the provider's key from both places; true if there was one.
    pub fn delete(&self, provider: &str) -> Result<bool, CredentialError> {
        validate::provider(provider)?;
        let from_file = self.file.remove(provider)?;
        let from_os = match &self.os {
            None => false,
            Some(os) => match os.delete(&self.keyring_user(provider)) {
                Ok(removed) => removed,
                Err(OsError::Unavailable(reason)) => {
                    fall_back(&reason);
                    false
                }
                Err(OsError::Failed(reason)) => return Err(CredentialError::Keyring { reason }),
            },
        };
        Ok(from_file || from_os)
    }

    /// Where the provider's key is, without handing it out. `None` also when
    /// the answer is unknown (invalid name, corrupt file): `get` says why.
    pub fn location(&self, provider: &str) -> Option<Location> {
        match self.find(provider) {
            Ok(found) => found.map(|(_, location)| location),
            Err(error) => {
                tracing::debug!(provider, %error, "could not tell where the API key is");
                None
            }
        }
    }

    fn find(&self, provider: &str) -> Result<Option<(Secret, Location)>, CredentialError> {
        validate::provider(provider)?;
        if let Some(key) = self.file.get(provider)? {
            return Ok(Some((key, Location::File)));
        }
        let Some(os) = &self.os else { return Ok(None) };
        match os.get(&self.keyring_user(provider)) {
            Ok(found) => Ok(found.map(|key| (key, Location::Keyring))),
            Err(OsError::Unavailable(reason)) => {
                fall_back(&reason);
                Ok(None)
            }
            Err(OsError::Failed(reason)) => Err(CredentialError::Keyring { reason }),
        }
    }

    /// The keyring user name of `provider` for this data folder.
    fn keyring_user(&self, provider: &str) -> String {
        format!("{provider}@{}", self.folder_id)
    }
}

fn fall_back(reason: &str) {
    if !WARNED_FALLBACK.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            reason,
            "the OS credential store cannot be used; API keys go to a file in the data folder \
             readable by its owner only"
        );
    } else {
        tracing::debug!(reason, "the OS credential store cannot be used; using the file");
    }
}

/// First 12 hex digits of sha256 of the canonical data folder. The folder may
/// not exist yet: then its nearest existing ancestor is canonicalised and the
/// rest appended, which gives the same answer once it is created.
fn folder_id(data_dir: &Path) -> String {
    let canonical = canonical_folder(data_dir);
    let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    hex::encode(digest)[..12].to_string()
}

fn canonical_folder(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut missing = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(canonical) = std::fs::canonicalize(existing) {
            return missing.into_iter().rev().fold(
                canonical,
                |path, part: Component<'_>| match part {
                    Component::ParentDir => path.parent().map(Path::to_path_buf).unwrap_or(path),
                    Component::CurDir => path,
                    other => path.join(other),
                },
            );
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                missing.push(last);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests;
