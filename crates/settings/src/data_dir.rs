//! The data folder and the files in it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::Environment;

/// Name of the data folder inside the platform's application-data folder.
pub const APP_FOLDER: &str = "app.recorder.desktop";

#[derive(Debug, thiserror::Error)]
pub enum DataDirError {
    #[error("no data folder: set --data-dir or RECORDER_DATA_DIR (no home folder is known)")]
    NoHome,
    #[error("cannot prepare data folder {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

/// The data folder: `api_token`, `ui_token`, `settings.json`, `recorder.db`,
/// `meetings/<id>/`, `models/`, `logs/`, `license.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    /// `--data-dir`, else `RECORDER_DATA_DIR`, else the platform folder.
    pub fn resolve(flag: Option<PathBuf>, environment: &Environment) -> Result<Self, DataDirError> {
        if let Some(root) = flag.or_else(|| environment.data_dir.clone()) {
            return Ok(DataDir { root });
        }
        platform_folder(environment).map(|root| DataDir { root: root.join(APP_FOLDER) })
    }

    pub fn at(root: impl Into<PathBuf>) -> Self {
        DataDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn api_token(&self) -> PathBuf {
        self.root.join("api_token")
    }
    pub fn ui_token(&self) -> PathBuf {
        self.root.join("ui_token")
    }
    pub fn settings(&self) -> PathBuf {
        self.root.join("settings.json")
    }
    pub fn database(&self) -> PathBuf {
        self.root.join("recorder.db")
    }
    pub fn meetings(&self) -> PathBuf {
        self.root.join("meetings")
    }
    pub fn meeting(&self, id: &str) -> PathBuf {
        self.meetings().join(id)
    }
    /// The audio file of one channel of a meeting: `meetings/<id>/<channel>.wav`.
    pub fn audio_file(&self, meeting_id: &str, channel: recorder_domain::Channel) -> PathBuf {
        self.meeting(meeting_id).join(format!("{}.wav", channel.as_str()))
    }
    /// Database copies made before migrations (and default backups).
    pub fn backups(&self) -> PathBuf {
        self.root.join("backups")
    }
    pub fn models(&self) -> PathBuf {
        self.root.join("models")
    }
    /// The person's note templates: `<id>.md` Markdown prompt files.
    pub fn templates(&self) -> PathBuf {
        self.root.join("templates")
    }
    pub fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }
    /// Held by the running service (an OS file lock); holds its port.
    pub fn service_lock(&self) -> PathBuf {
        self.root.join("service.lock")
    }
    pub fn license(&self) -> PathBuf {
        self.root.join("license.json")
    }

    /// Creates the folder and its subfolders; sets the folder to mode 0700.
    pub fn prepare(&self) -> Result<(), DataDirError> {
        let folders =
            [self.root.clone(), self.meetings(), self.models(), self.logs(), self.templates()];
        for folder in folders {
            fs::create_dir_all(&folder).map_err(|source| self.io_error(&folder, source))?;
        }
        restrict(&self.root, 0o700).map_err(|source| self.io_error(&self.root, source))
    }

    /// Reads a token file, trimmed. `None` when it does not exist.
    pub fn read_token(&self, path: &Path) -> Result<Option<String>, DataDirError> {
        match fs::read_to_string(path) {
            Ok(text) => Ok(Some(text.trim().to_string()).filter(|token| !token.is_empty())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(self.io_error(path, source)),
        }
    }

    /// Writes a file readable by the user only (0600), atomically: a crash leaves
    /// either the old file or the new one.
    pub fn write_private(&self, path: &Path, contents: &[u8]) -> Result<(), DataDirError> {
        write_atomic(path, contents, Some(0o600)).map_err(|source| self.io_error(path, source))
    }

    fn io_error(&self, path: &Path, source: std::io::Error) -> DataDirError {
        DataDirError::Io { path: path.to_path_buf(), source }
    }
}

/// Copies `source` to `destination` through a temporary file in the destination's
/// folder, fsyncs, then renames, so the file is never seen half-written.
pub fn copy_atomically(source: &Path, destination: &Path) -> std::io::Result<()> {
    let folder = destination.parent().unwrap_or(Path::new("."));
    let name = destination.file_name().and_then(|name| name.to_str()).unwrap_or("file");
    let temporary = folder.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = fs::copy(source, &temporary)
        .and_then(|_| fs::File::open(&temporary)?.sync_all())
        .and_then(|()| fs::rename(&temporary, destination));
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// Reads a whole file of at most `limit` bytes; a longer one (or a device that
/// never ends, such as `/dev/zero`) is an `InvalidData` error once `limit` bytes
/// are read, so a hand-written file cannot make a reader hold without bound.
pub(crate) fn read_limited(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    fs::File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it is larger than {} MiB, the most that is read", limit >> 20),
        ));
    }
    Ok(bytes)
}

/// Writes through a temporary file in the same folder, fsyncs, then renames.
pub(crate) fn write_atomic(path: &Path, contents: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temporary = folder.join(format!(".{name}.tmp-{}", std::process::id()));
    {
        let mut file = fs::File::create(&temporary)?;
        if let Some(mode) = mode {
            restrict(&temporary, mode)?;
        }
        file.write_all(contents)?;
        file.sync_all()?;
    }
    fs::rename(&temporary, path)
}

#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> std::io::Result<()> {
    // Windows: the per-user %APPDATA% folder is already private to the user.
    Ok(())
}

fn platform_folder(environment: &Environment) -> Result<PathBuf, DataDirError> {
    if cfg!(target_os = "macos") {
        let home = environment.home.clone().ok_or(DataDirError::NoHome)?;
        return Ok(home.join("Library").join("Application Support"));
    }
    if cfg!(windows) {
        return environment.appdata.clone().ok_or(DataDirError::NoHome);
    }
    if let Some(xdg) = environment.xdg_data_home.clone().filter(|p| p.is_absolute()) {
        return Ok(xdg);
    }
    let home = environment.home.clone().ok_or(DataDirError::NoHome)?;
    Ok(home.join(".local").join("share"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_beats_environment_beats_platform() {
        let environment = Environment {
            data_dir: Some("/from/env".into()),
            home: Some("/home/ada".into()),
            ..Environment::default()
        };
        let flag = DataDir::resolve(Some("/from/flag".into()), &environment).expect("flag");
        assert_eq!(flag.root(), Path::new("/from/flag"));
        let env = DataDir::resolve(None, &environment).expect("env");
        assert_eq!(env.root(), Path::new("/from/env"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_uses_xdg_data_home_then_local_share() {
        let home_only = Environment { home: Some("/home/ada".into()), ..Environment::default() };
        assert_eq!(
            DataDir::resolve(None, &home_only).expect("home").root(),
            Path::new("/home/ada/.local/share/app.recorder.desktop")
        );
        let xdg = Environment { xdg_data_home: Some("/xdg".into()), ..home_only };
        assert_eq!(
            DataDir::resolve(None, &xdg).expect("xdg").root(),
            Path::new("/xdg/app.recorder.desktop")
        );
    }

    #[cfg(unix)]
    #[test]
    fn prepare_sets_0700_and_private_files_are_0600() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().expect("temp");
        let root = temp.path().join("data");
        fs::create_dir_all(&root).expect("mkdir");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).expect("chmod");
        let dir = DataDir::at(&root);
        dir.prepare().expect("prepare");
        let mode = fs::metadata(&root).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        dir.write_private(&dir.api_token(), b"secret").expect("write");
        let mode = fs::metadata(dir.api_token()).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(dir.read_token(&dir.api_token()).expect("read").as_deref(), Some("secret"));
    }
}
