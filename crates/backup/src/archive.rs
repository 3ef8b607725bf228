//! Writing a backup.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use recorder_settings::DataDir;
use sha2::{Digest, Sha256};

use crate::manifest::{FileEntry, Manifest, FORMAT, VERSION};
use crate::BackupError;

/// What a backup holds.
#[derive(Debug, Clone)]
pub struct BackupSummary {
    pub path: PathBuf,
    pub manifest: Manifest,
    /// Size of the archive.
    pub archive_bytes: u64,
}

/// Backs `data_dir` up into the tar file `to` (written as `to.part`, renamed
/// when whole). Reads only: the service may be running, even recording.
pub fn backup(data_dir: &DataDir, to: &Path) -> Result<BackupSummary, BackupError> {
    if !data_dir.database().is_file() {
        return Err(BackupError::NothingToBackUp(data_dir.root().to_path_buf()));
    }
    let parent = to.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(BackupError::io(parent))?;
    let staging = tempfile::Builder::new()
        .prefix(".recorder-backup-")
        .tempdir_in(parent)
        .map_err(BackupError::io(parent))?;
    let database = staging.path().join("recorder.db");
    let schema_version = recorder_store::snapshot(&data_dir.database(), &database)?;
    let meetings = recorder_store::meeting_ids_in(&database)?;
    let part = part_path(to);
    let result = write_archive(data_dir, &database, &meetings, schema_version, &part);
    let manifest = match result {
        Ok(manifest) => manifest,
        Err(error) => {
            let _ = std::fs::remove_file(&part);
            return Err(error);
        }
    };
    std::fs::rename(&part, to).map_err(BackupError::io(to))?;
    let archive_bytes = std::fs::metadata(to).map_err(BackupError::io(to))?.len();
    Ok(BackupSummary { path: to.to_path_buf(), manifest, archive_bytes })
}

/// Where `recorder backup` writes without `--to`: the data folder's
/// `backups/recorder-backup-<stamp>.tar`.
pub fn default_path(data_dir: &DataDir, stamp: &str) -> PathBuf {
    data_dir.backups().join(format!("recorder-backup-{stamp}.tar"))
}

fn part_path(to: &Path) -> PathBuf {
    let mut name = to.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    to.with_file_name(name)
}

/// The archive holds every meeting: it is created readable by the person only
/// (0600), wherever `--to` puts it, and never widened later.
fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    // An existing `.part` keeps its old mode through open(): set it.
    #[cfg(unix)]
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    Ok(file)
}

fn write_archive(
    data_dir: &DataDir,
    database: &Path,
    meetings: &[String],
    schema_version: i64,
    part: &Path,
) -> Result<Manifest, BackupError> {
    let file = create_private(part).map_err(BackupError::io(part))?;
    let mut writer = Writer { tar: tar::Builder::new(BufWriter::new(file)), files: Vec::new() };
    writer.add("recorder.db", database)?;
    for name in ["settings.json", "license.json"] {
        writer.add_if_present(name, &data_dir.root().join(name))?;
    }
    for path in sorted_files(&data_dir.templates())? {
        writer.add(&format!("templates/{}", file_name(&path)), &path)?;
    }
    for id in meetings {
        for path in sorted_files(&data_dir.meeting(id))? {
            writer.add_if_present(&format!("meetings/{id}/{}", file_name(&path)), &path)?;
        }
    }
    let manifest = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        app_version: env!("CARGO_PKG_VERSION").into(),
        created_at: now_ms(),
        schema_version,
        meetings: meetings.len(),
        files: std::mem::take(&mut writer.files),
    };
    writer.add_bytes("manifest.json", &serde_json::to_vec_pretty(&manifest).unwrap_or_default())?;
    let inner = writer.tar.into_inner().map_err(BackupError::io(part))?;
    let file = inner.into_inner().map_err(|error| BackupError::io(part)(error.into_error()))?;
    file.sync_all().map_err(BackupError::io(part))?;
    Ok(manifest)
}

/// Appends files to a tar stream, noting each one in the manifest's list.
struct Writer<W: Write> {
    tar: tar::Builder<W>,
    files: Vec<FileEntry>,
}

impl<W: Write> Writer<W> {
    /// Adds a file that may vanish meanwhile (audio deleted by retention).
    fn add_if_present(&mut self, name: &str, path: &Path) -> Result<(), BackupError> {
        match self.add(name, path) {
            Err(BackupError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Ok(())
            }
            other => other,
        }
    }

    /// Adds the file's first `len` bytes (its length now; audio being
    /// recorded grows meanwhile, and is then marked `growing`).
    fn add(&mut self, name: &str, path: &Path) -> Result<(), BackupError> {
        let file = File::open(path).map_err(BackupError::io(path))?;
        let len = file.metadata().map_err(BackupError::io(path))?.len();
        let mut reader = Exactly { inner: file, left: len, hasher: Sha256::new(), short: false };
        let mut header = tar::Header::new_gnu();
        header.set_size(len);
        header.set_mode(0o600);
        header.set_mtime(now_ms().max(0) as u64 / 1000);
        self.tar.append_data(&mut header, name, &mut reader).map_err(BackupError::io(path))?;
        let growing = reader.short || std::fs::metadata(path).is_ok_and(|m| m.len() != len);
        let sha256 = hex::encode(reader.hasher.finalize());
        self.files.push(FileEntry { path: name.into(), bytes: len, sha256, growing });
        Ok(())
    }

    fn add_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<(), BackupError> {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o600);
        header.set_mtime(now_ms().max(0) as u64 / 1000);
        self.tar.append_data(&mut header, name, bytes).map_err(BackupError::io(name))
    }
}

/// Reads exactly `left` bytes, hashing them; should the file end early (cut
/// shorter meanwhile), the rest is zeros and `short` says so.
struct Exactly {
    inner: File,
    left: u64,
    hasher: Sha256,
    short: bool,
}

impl Read for Exactly {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let want = buffer.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        let mut got = self.inner.read(&mut buffer[..want])?;
        if got == 0 {
            self.short = true;
            buffer[..want].fill(0);
            got = want;
        }
        self.left -= got as u64;
        self.hasher.update(&buffer[..got]);
        Ok(got)
    }
}

/// The regular files of `folder` (none when it does not exist), by name,
/// without unfinished `.part` files.
fn sorted_files(folder: &Path) -> Result<Vec<PathBuf>, BackupError> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(BackupError::io(folder)(error)),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_none_or(|ext| ext != "part"))
        .collect();
    files.sort();
    Ok(files)
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tar sink that changes the file being backed up whenever the archive
    /// is written: after its length was taken and before its copy ends, as a
    /// recording that grows or a file cut meanwhile would.
    struct ChangesTheSource {
        source: PathBuf,
        change: fn(&Path) -> std::io::Result<()>,
    }

    impl Write for ChangesTheSource {
        fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
            (self.change)(&self.source)?;
            Ok(buffer.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn grow(path: &Path) -> std::io::Result<()> {
        std::fs::OpenOptions::new().append(true).open(path)?.write_all(&[1u8; 320])
    }

    fn cut_to_100_bytes(path: &Path) -> std::io::Result<()> {
        std::fs::OpenOptions::new().write(true).open(path)?.set_len(100)
    }

    fn writer_into(sink: impl Write) -> Writer<impl Write> {
        Writer { tar: tar::Builder::new(sink), files: Vec::new() }
    }

    #[test]
    fn a_file_that_grows_while_it_is_copied_is_marked_and_cut_at_its_first_length() {
        let temp = tempfile::tempdir().expect("temp");
        let mic = temp.path().join("mic.wav");
        std::fs::write(&mic, [7u8; 6400]).expect("audio");
        let mut writer = writer_into(ChangesTheSource { source: mic.clone(), change: grow });
        writer.add("meetings/m/mic.wav", &mic).expect("add");
        let entry = &writer.files[0];
        assert!(entry.growing, "a file still being written is marked");
        assert_eq!(entry.bytes, 6400, "the copy stops at the length it had when opened");
        assert_eq!(entry.sha256, hex::encode(Sha256::digest([7u8; 6400])));
        assert!(std::fs::metadata(&mic).expect("mic").len() > 6400, "the file did grow");
    }

    #[test]
    fn a_file_that_stays_still_is_not_marked() {
        let temp = tempfile::tempdir().expect("temp");
        let still = temp.path().join("sys.wav");
        std::fs::write(&still, [3u8; 6400]).expect("audio");
        let mut writer = writer_into(std::io::sink());
        writer.add("meetings/m/sys.wav", &still).expect("add");
        assert!(!writer.files[0].growing);
        assert_eq!(writer.files[0].bytes, 6400);
    }

    #[test]
    fn a_file_cut_shorter_while_it_is_copied_is_padded_with_zeros_and_marked() {
        let temp = tempfile::tempdir().expect("temp");
        let mic = temp.path().join("mic.wav");
        std::fs::write(&mic, [5u8; 6400]).expect("audio");
        let sink = ChangesTheSource { source: mic.clone(), change: cut_to_100_bytes };
        let mut writer = writer_into(sink);
        writer.add("meetings/m/mic.wav", &mic).expect("add");
        let entry = &writer.files[0];
        assert!(entry.growing, "a file changed while it was copied is marked");
        assert_eq!(entry.bytes, 6400, "the entry keeps the length its header gave");
        let padded: Vec<u8> = [[5u8; 100].as_slice(), [0u8; 6300].as_slice()].concat();
        assert_eq!(entry.sha256, hex::encode(Sha256::digest(&padded)));
    }
}
