//! Writing an export as a new file, never over an existing one.

use std::fs::{File, OpenOptions};
use std::io::{self, ErrorKind, Write};
use std::path::{Component, Path, PathBuf};

/// How many names are tried: `name`, then `name (2)` … `name (1000)`.
const MAX_ATTEMPTS: u32 = 1000;

/// Creates `name` in `folder` with `content` and returns its path.
///
/// The file is created exclusively (`O_EXCL`), so an existing file or symlink, even
/// a dangling one, is never followed or replaced; when `name` is taken,
/// `name (2).md`, `name (3).md` … are tried, up to 1000 names. The content is
/// written in full and synced before the path is returned. The file gets the
/// ordinary mode for documents (0o644 less the umask on Unix): an export is meant
/// to be shared.
pub fn write_new(folder: &Path, name: &str, content: &[u8]) -> io::Result<PathBuf> {
    if !is_plain_name(name) {
        return Err(io::Error::new(
            ErrorKind::InvalidInput,
            format!("{name:?} is not a plain file name"),
        ));
    }
    for attempt in 1..=MAX_ATTEMPTS {
        let path = folder.join(numbered(name, attempt));
        let file = match create_new(&path) {
            Ok(file) => file,
            Err(err) if err.kind() == ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        };
        if let Err(err) = fill(file, content) {
            let _ = std::fs::remove_file(&path);
            return Err(err);
        }
        sync_folder(folder);
        return Ok(path);
    }
    Err(io::Error::new(
        ErrorKind::AlreadyExists,
        format!("{name} and {} numbered variants already exist", MAX_ATTEMPTS - 1),
    ))
}

fn create_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o644);
    }
    options.open(path)
}

fn fill(mut file: File, content: &[u8]) -> io::Result<()> {
    file.write_all(content)?;
    file.sync_all()
}

/// Makes the new directory entry durable too (best effort; Unix only).
fn sync_folder(folder: &Path) {
    #[cfg(unix)]
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = folder;
}

/// One normal path component: no separators, not `.` or `..`, not empty.
fn is_plain_name(name: &str) -> bool {
    let mut components = Path::new(name).components();
    matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(part)), None) if part == name
    )
}

/// `name` for the first attempt, then `stem (n).ext`.
fn numbered(name: &str, attempt: u32) -> String {
    if attempt == 1 {
        return name.to_owned();
    }
    match name.rfind('.') {
        Some(dot) if dot > 0 => format!("{} ({attempt}){}", &name[..dot], &name[dot..]),
        _ => format!("{name} ({attempt})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names() {
        assert_eq!(numbered("a b.md", 1), "a b.md");
        assert_eq!(numbered("a b.md", 2), "a b (2).md");
        assert_eq!(numbered("v1.2 notes.md", 1000), "v1.2 notes (1000).md");
        assert_eq!(numbered("README", 3), "README (3)");
        assert_eq!(numbered(".profile", 2), ".profile (2)");
    }

    #[test]
    fn plain_names() {
        assert!(is_plain_name("2026-11-22 Weekly sync.md"));
        for name in ["", ".", "..", "a/b", "/abs", "a/", "./a"] {
            assert!(!is_plain_name(name), "{name:?}");
        }
    }
}
