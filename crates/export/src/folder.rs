//! The export folder: `~` expansion and the AllowedExportFolder policy check.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Why a requested export folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// Not provably inside AllowedExportFolder: the service answers 403
    /// `policy_denied`.
    #[error("folder {folder} is outside the allowed export folder {allowed}")]
    Outside { folder: String, allowed: String },
    /// Bad input: the service answers 400 `invalid_request`. The message names
    /// `folder`.
    #[error("{0}")]
    Invalid(String),
}

/// Checks `requested` and returns its canonical path (symlinks and `..` resolved).
///
/// `requested` must be absolute, `~` or `~/…` (`~` is `home`); `~user/…` and
/// relative paths are not expanded. With `allowed` (the AllowedExportFolder policy,
/// expanded the same way) the policy check comes first: the requested folder's real
/// path must be the allowed folder's real path or inside it, and anything that
/// cannot be shown to be so (relative, `~user`, missing, a symlink or `..` leading
/// out) is [`FolderError::Outside`]. Then the folder must be an existing directory.
pub fn resolve_folder(
    requested: &str,
    home: &Path,
    allowed: Option<&str>,
) -> Result<PathBuf, FolderError> {
    let expanded = expand(requested, home);
    let real = match allowed {
        Some(allowed) => {
            let outside = || FolderError::Outside {
                folder: requested.to_owned(),
                allowed: allowed.to_owned(),
            };
            let allowed_real = expand(allowed, home)
                .and_then(|path| std::fs::canonicalize(path).ok())
                .ok_or_else(outside)?;
            let real =
                expanded.and_then(|path| std::fs::canonicalize(path).ok()).ok_or_else(outside)?;
            if !real.starts_with(&allowed_real) {
                return Err(outside());
            }
            real
        }
        None => {
            let expanded = expanded.ok_or_else(|| {
                FolderError::Invalid("folder must be an absolute path or start with ~/".to_owned())
            })?;
            std::fs::canonicalize(expanded).map_err(|err| match err.kind() {
                ErrorKind::NotFound => {
                    FolderError::Invalid(format!("folder {requested} does not exist"))
                }
                _ => FolderError::Invalid(format!("folder {requested} cannot be used: {err}")),
            })?
        }
    };
    if !real.is_dir() {
        return Err(FolderError::Invalid(format!("folder {requested} is not a directory")));
    }
    Ok(real)
}

/// `~` and `~/…` against `home`, absolute paths as they are; `None` for anything else
/// (relative paths, `~user/…`), and for a `home` that is not absolute.
fn expand(path: &str, home: &Path) -> Option<PathBuf> {
    let expanded = if path == "~" {
        home.to_path_buf()
    } else if let Some(rest) = path.strip_prefix("~/") {
        // `~//etc` must stay under home: joining an absolute part would replace it.
        home.join(rest.trim_start_matches('/'))
    } else if path.starts_with('~') {
        return None;
    } else {
        PathBuf::from(path)
    };
    expanded.is_absolute().then_some(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion() {
        let home = Path::new("/home/ann");
        assert_eq!(expand("~", home), Some(PathBuf::from("/home/ann")));
        assert_eq!(expand("~/", home), Some(PathBuf::from("/home/ann/")));
        assert_eq!(expand("~/Documents/x", home), Some(PathBuf::from("/home/ann/Documents/x")));
        assert_eq!(expand("~//etc", home), Some(PathBuf::from("/home/ann/etc")));
        assert_eq!(expand("/srv/exports", home), Some(PathBuf::from("/srv/exports")));
        assert_eq!(expand("~bob/x", home), None);
        assert_eq!(expand("~bob", home), None);
        assert_eq!(expand("exports", home), None);
        assert_eq!(expand("./exports", home), None);
        assert_eq!(expand("", home), None);
        assert_eq!(expand("~/x", Path::new("relative-home")), None);
    }
}
