//! `logs/recorder.log`, bounded: past [`MAX_BYTES`] the file becomes
//! `recorder.log.1` (the older ones move up to `.2`, `.3`; the oldest is
//! dropped) and a new file starts, so a service left running for months, or one
//! that logs in a loop, cannot fill the disk. Files are private (0600).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The size at which the log starts a new file.
pub const MAX_BYTES: u64 = 5 * 1024 * 1024;
/// How many older files are kept beside the current one.
pub const KEPT: usize = 3;

/// An append-only log file that rotates by size.
pub struct RotatingFile {
    path: PathBuf,
    file: File,
    written: u64,
    max_bytes: u64,
}

impl RotatingFile {
    pub fn open(path: &Path, max_bytes: u64) -> io::Result<RotatingFile> {
        let file = open_append(path)?;
        let written = file.metadata()?.len();
        Ok(RotatingFile { path: path.to_path_buf(), file, written, max_bytes })
    }

    fn rotate(&mut self) -> io::Result<()> {
        self.file.flush()?;
        let numbered = |n: usize| {
            let mut name = self.path.as_os_str().to_os_string();
            name.push(format!(".{n}"));
            PathBuf::from(name)
        };
        // recorder.log.2 → .3, .1 → .2, recorder.log → .1 (the oldest is replaced).
        for n in (1..KEPT).rev() {
            if numbered(n).exists() {
                std::fs::rename(numbered(n), numbered(n + 1))?;
            }
        }
        std::fs::rename(&self.path, numbered(1))?;
        self.file = open_append(&self.path)?;
        self.written = 0;
        Ok(())
    }
}

impl Write for RotatingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.written > 0 && self.written + buf.len() as u64 > self.max_bytes {
            // A failed rotation keeps writing to the current file rather than
            // losing the line.
            let _ = self.rotate();
        }
        let written = self.file.write(buf)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

fn open_append(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_rotates_by_size_and_keeps_three_older_files() {
        let folder = tempfile::tempdir().expect("tempdir");
        let path = folder.path().join("recorder.log");
        let mut log = RotatingFile::open(&path, 100).expect("open");
        for line in 0..40 {
            writeln!(log, "line {line:02} {}", "x".repeat(40)).expect("write");
        }
        log.flush().expect("flush");
        let names: Vec<String> = {
            let mut names: Vec<String> = std::fs::read_dir(folder.path())
                .expect("list")
                .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(names, ["recorder.log", "recorder.log.1", "recorder.log.2", "recorder.log.3"]);
        for name in &names {
            let size = std::fs::metadata(folder.path().join(name)).expect("meta").len();
            assert!(size <= 100, "{name}: {size} bytes");
        }
        let newest = std::fs::read_to_string(&path).expect("read");
        assert!(newest.contains("line 39"), "{newest}");
        let older = std::fs::read_to_string(folder.path().join("recorder.log.1")).expect("read");
        assert!(older.contains("line 37"), "{older}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn an_existing_log_counts_toward_the_limit() {
        let folder = tempfile::tempdir().expect("tempdir");
        let path = folder.path().join("recorder.log");
        std::fs::write(&path, "x".repeat(90)).expect("write");
        let mut log = RotatingFile::open(&path, 100).expect("open");
        writeln!(log, "{}", "y".repeat(20)).expect("write");
        assert_eq!(
            std::fs::read_to_string(folder.path().join("recorder.log.1")).expect("old").len(),
            90
        );
    }
}
