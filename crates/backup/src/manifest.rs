//! `manifest.json`, the last entry of a backup: what the archive holds, each
//! file with its size and SHA-256, so a restore can prove nothing is missing,
//! extra or changed.

use serde::{Deserialize, Serialize};

pub const FORMAT: &str = "recorder-backup";
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    /// The `recorder` version that made it.
    pub app_version: String,
    /// Unix ms.
    pub created_at: i64,
    /// The database's schema version (`PRAGMA user_version`).
    pub schema_version: i64,
    pub meetings: usize,
    pub files: Vec<FileEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Relative to the data folder, `/`-separated.
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
    /// The file was still being written (a recording in progress): the
    /// archive has its first `bytes`, which a restore repairs like audio cut
    /// off by a crash.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub growing: bool,
}

impl Manifest {
    pub fn audio_bytes(&self) -> u64 {
        self.files.iter().filter(|f| f.path.starts_with("meetings/")).map(|f| f.bytes).sum()
    }
}
