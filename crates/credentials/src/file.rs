//! The fallback: `<data_dir>/ai_keys.json`, a JSON object provider → key,
//! readable by the user only, always replaced whole and atomically.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::{CredentialError, Secret};

pub const FILE_NAME: &str = "ai_keys.json";

/// Read-modify-write of the file is serialised within the process (one lock
/// for every data folder: the writes are tiny and rare).
static WRITE_LOCK: Mutex<()> = Mutex::new(());

static WARNED_LOOSE_MODE: AtomicBool = AtomicBool::new(false);

type Keys = BTreeMap<String, Secret>;

#[derive(Debug, Clone)]
pub struct FileStore {
    path: PathBuf,
}

impl FileStore {
    pub fn new(data_dir: &Path) -> Self {
        Self { path: data_dir.join(FILE_NAME) }
    }

    pub fn get(&self, provider: &str) -> Result<Option<Secret>, CredentialError> {
        Ok(self.load()?.remove(provider))
    }

    pub fn set(&self, provider: &str, key: &Secret) -> Result<(), CredentialError> {
        let _guard = WRITE_LOCK.lock().unwrap_or_else(PoisonError::into_inner);
        let mut keys = self.load()?;
        if keys.get(provider) == Some(key) && !self.mode_is_loose() {
            return Ok(());
        }
        keys.insert(provider.to_string(), key.clone());
        self.save(&keys)
    }

    /// True if the provider had a key here. Removing the last key removes the file.
    pub fn remove(&self, provider: &str) -> Result<bool, CredentialError> {
        let _guard = WRITE_LOCK.lock().unwrap_or_else(PoisonError::into_inner);
        let mut keys = self.load()?;
        if keys.remove(provider).is_none() {
            return Ok(false);
        }
        self.save(&keys)?;
        Ok(true)
    }

    /// The whole file; a missing file (or data folder) is an empty one. Never
    /// repairs anything: a file that does not parse is an error.
    fn load(&self) -> Result<Keys, CredentialError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Keys::new()),
            Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
                return Err(self.corrupt("text that is not UTF-8", 0, 0));
            }
            Err(source) => return Err(self.io("read", source)),
        };
        if self.mode_is_loose() && !WARNED_LOOSE_MODE.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                path = %self.path.display(),
                "the credential file can be read by other users; it is rewritten readable by \
                 its owner only at the next change"
            );
        }
        serde_json::from_str(&text).map_err(|error| {
            let problem = match error.classify() {
                serde_json::error::Category::Syntax => "invalid JSON",
                serde_json::error::Category::Eof => "unexpected end of file",
                serde_json::error::Category::Data => "a value of the wrong type",
                serde_json::error::Category::Io => "a read error",
            };
            self.corrupt(problem, error.line(), error.column())
        })
    }

    fn save(&self, keys: &Keys) -> Result<(), CredentialError> {
        if keys.is_empty() {
            return match std::fs::remove_file(&self.path) {
                Ok(()) => {
                    self.sync_folder();
                    Ok(())
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(source) => Err(self.io("remove", source)),
            };
        }
        let mut text = serde_json::to_vec_pretty(keys)
            .map_err(|error| self.io("serialise", std::io::Error::other(error)))?;
        text.push(b'\n');
        self.write_atomically(&text)
    }

    /// A temporary file in the same folder, created readable by the user only
    /// (mode 0600 given to open(2), so never wider, not even for an instant),
    /// written, fsynced, then renamed over the old file.
    fn write_atomically(&self, contents: &[u8]) -> Result<(), CredentialError> {
        let folder = self.folder();
        std::fs::create_dir_all(folder)
            .map_err(|source| self.io("create the folder of", source))?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".ai_keys.").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            builder.permissions(std::fs::Permissions::from_mode(0o600));
        }
        let mut temporary = builder
            .tempfile_in(folder)
            .map_err(|source| self.io("create a temporary file for", source))?;
        temporary.write_all(contents).map_err(|source| self.io("write", source))?;
        temporary.as_file().sync_all().map_err(|source| self.io("sync", source))?;
        temporary.persist(&self.path).map_err(|error| self.io("replace", error.error))?;
        self.sync_folder();
        Ok(())
    }

    /// Makes the rename durable. Best effort: some file systems refuse to
    /// fsync a directory, and the data is safe in the file either way.
    fn sync_folder(&self) {
        #[cfg(unix)]
        if let Ok(folder) = std::fs::File::open(self.folder()) {
            let _ = folder.sync_all();
        }
    }

    fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    #[cfg(unix)]
    fn mode_is_loose(&self) -> bool {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(&self.path).is_ok_and(|meta| meta.permissions().mode() & 0o077 != 0)
    }

    #[cfg(not(unix))]
    fn mode_is_loose(&self) -> bool {
        // Windows: the file inherits the ACL of the per-user data folder.
        false
    }

    fn corrupt(&self, problem: &'static str, line: usize, column: usize) -> CredentialError {
        CredentialError::CorruptFile { path: self.path.clone(), problem, line, column }
    }

    fn io(&self, action: &'static str, source: std::io::Error) -> CredentialError {
        CredentialError::Io { action, path: self.path.clone(), source }
    }
}
