//! File names, the export folder policy and writing without overwriting.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Local};
use recorder_export::{file_name, resolve_folder, write_new, FolderError};

const STARTED_AT: i64 = 1_795_860_000_000;

fn date() -> String {
    DateTime::from_timestamp_millis(STARTED_AT)
        .expect("in range")
        .with_timezone(&Local)
        .format("%Y-%m-%d")
        .to_string()
}

/// The part of a file name after the date and before `.md`.
fn title_part(name: &str) -> &str {
    let prefix = format!("{} ", date());
    name.strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(".md"))
        .unwrap_or_else(|| panic!("{name:?} is not `<date> <title>.md`"))
}

mod file_names {
    use super::*;

    #[test]
    fn date_then_title() {
        let name = file_name("Weekly sync", STARTED_AT);
        assert_eq!(name, format!("{} Weekly sync.md", date()));
        assert_eq!(date().len(), 10);
    }

    #[test]
    fn every_reserved_character_is_replaced() {
        for c in ['/', '\\', ':', '*', '?', '"', '<', '>', '|'] {
            let name = file_name(&format!("a{c}b"), STARTED_AT);
            assert!(!name.contains(c), "{c:?} kept in {name:?}");
            let title = title_part(&name);
            assert!(title.starts_with('a') && title.ends_with('b'), "{name:?}");
        }
        assert_eq!(title_part(&file_name("Q3: plan", STARTED_AT)), "Q3 - plan");
        assert_eq!(title_part(&file_name("Q3/Q4", STARTED_AT)), "Q3-Q4");
        assert_eq!(title_part(&file_name("Why? <now>", STARTED_AT)), "Why now");
    }

    #[test]
    fn control_characters_and_whitespace_collapse() {
        let name = file_name("a\tb\nc\u{7}d\u{0}e\u{7f}f\u{9b}g   h", STARTED_AT);
        assert_eq!(title_part(&name), "a b c d e f g h");
        assert!(!name.chars().any(char::is_control));
        // A right-to-left override could disguise the extension.
        assert_eq!(title_part(&file_name("evil\u{202e}dm.exe", STARTED_AT)), "evil dm.exe");
    }

    #[test]
    fn windows_device_names_are_avoided() {
        for title in ["CON", "con", "NUL.txt", "Com1", "lpt9", "aux .tar"] {
            let name = file_name(title, STARTED_AT);
            let title_part = title_part(&name);
            let base = title_part.split('.').next().unwrap_or_default().trim().to_uppercase();
            assert!(
                !matches!(
                    base.as_str(),
                    "CON" | "PRN" | "AUX" | "NUL" | "COM1" | "LPT9" | "COM9" | "LPT1"
                ),
                "{name:?}"
            );
            assert_eq!(title_part.trim_start_matches('_').to_lowercase(), title.to_lowercase());
        }
    }

    #[test]
    fn dots_empty_and_blank_titles() {
        assert_eq!(title_part(&file_name("", STARTED_AT)), "Meeting");
        assert_eq!(title_part(&file_name("   \n ", STARTED_AT)), "Meeting");
        assert_eq!(title_part(&file_name("..", STARTED_AT)), "Meeting");
        assert_eq!(title_part(&file_name("../../etc/passwd", STARTED_AT)), "-..-etc-passwd");
        assert_eq!(title_part(&file_name(".hidden", STARTED_AT)), "hidden");
        assert_eq!(title_part(&file_name("Ends with dots... ", STARTED_AT)), "Ends with dots");
        assert_eq!(title_part(&file_name("???", STARTED_AT)), "Meeting");
    }

    #[test]
    fn long_unicode_titles_are_cut_on_a_char_boundary() {
        for unit in ["é", "€", "😀", "a"] {
            let title = unit.repeat(300);
            let name = file_name(&title, STARTED_AT);
            let stem = name.strip_suffix(".md").expect(".md");
            assert!(stem.len() <= 120, "{} bytes: {name}", stem.len());
            assert!(stem.len() > 120 - unit.len(), "cut no more than needed: {}", stem.len());
            let title_part = title_part(&name);
            assert!(title.starts_with(title_part));
            assert_eq!(title_part.len() % unit.len(), 0, "whole characters only");
        }
        // A cut that leaves a trailing space drops it.
        let title = format!("{} tail", "x".repeat(108));
        let name = file_name(&title, STARTED_AT);
        assert_eq!(title_part(&name), "x".repeat(108));
    }
}

mod folders {
    use super::*;

    struct Fixture {
        _dir: tempfile::TempDir,
        /// Canonical root of the temp dir (macOS temp dirs sit behind a symlink).
        root: PathBuf,
    }

    impl Fixture {
        fn new() -> Self {
            let dir = tempfile::tempdir().expect("tempdir");
            let root = std::fs::canonicalize(dir.path()).expect("canonical");
            std::fs::create_dir_all(root.join("exports/team")).expect("mkdir");
            std::fs::create_dir_all(root.join("outside")).expect("mkdir");
            std::fs::create_dir_all(root.join("exports-evil")).expect("mkdir");
            Fixture { _dir: dir, root }
        }

        fn path(&self, rel: &str) -> String {
            self.root.join(rel).to_str().expect("utf-8").to_owned()
        }
    }

    fn assert_outside(result: Result<PathBuf, FolderError>) {
        match result {
            Err(FolderError::Outside { .. }) => {}
            other => panic!("expected Outside, got {other:?}"),
        }
    }

    fn invalid_message(result: Result<PathBuf, FolderError>) -> String {
        match result {
            Err(FolderError::Invalid(message)) => {
                assert!(message.contains("folder"), "{message}");
                message
            }
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn inside_the_allowed_folder() {
        let f = Fixture::new();
        let allowed = f.path("exports");
        assert_eq!(
            resolve_folder(&f.path("exports/team"), &f.root, Some(&allowed)).expect("inside"),
            f.root.join("exports/team")
        );
        assert_eq!(
            resolve_folder(&allowed, &f.root, Some(&allowed)).expect("itself"),
            f.root.join("exports")
        );
        // `..` that stays inside is fine once resolved.
        assert_eq!(
            resolve_folder(&f.path("exports/team/../team"), &f.root, Some(&allowed))
                .expect("inside"),
            f.root.join("exports/team")
        );
    }

    #[test]
    fn dot_dot_escaping_the_allowed_folder_is_outside() {
        let f = Fixture::new();
        let allowed = f.path("exports");
        assert_outside(resolve_folder(&f.path("exports/../outside"), &f.root, Some(&allowed)));
        // Without the policy the same folder is fine.
        assert_eq!(
            resolve_folder(&f.path("exports/../outside"), &f.root, None).expect("exists"),
            f.root.join("outside")
        );
    }

    #[test]
    fn a_prefix_sibling_is_outside() {
        let f = Fixture::new();
        assert_outside(resolve_folder(&f.path("exports-evil"), &f.root, Some(&f.path("exports"))));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_inside_pointing_outside_is_outside() {
        let f = Fixture::new();
        std::os::unix::fs::symlink(f.root.join("outside"), f.root.join("exports/link"))
            .expect("symlink");
        assert_outside(resolve_folder(&f.path("exports/link"), &f.root, Some(&f.path("exports"))));
    }

    #[cfg(unix)]
    #[test]
    fn an_allowed_folder_that_is_a_symlink_still_works() {
        let f = Fixture::new();
        std::os::unix::fs::symlink(f.root.join("exports"), f.root.join("exports-link"))
            .expect("symlink");
        let allowed = f.path("exports-link");
        assert_eq!(
            resolve_folder(&f.path("exports/team"), &f.root, Some(&allowed)).expect("real path"),
            f.root.join("exports/team")
        );
        assert_eq!(
            resolve_folder(&f.path("exports-link/team"), &f.root, Some(&allowed))
                .expect("through the link"),
            f.root.join("exports/team")
        );
        assert_outside(resolve_folder(&f.path("outside"), &f.root, Some(&allowed)));
    }

    #[test]
    fn tilde_user_and_relative_paths() {
        let f = Fixture::new();
        let allowed = f.path("exports");
        assert_outside(resolve_folder("~root/x", &f.root, Some(&allowed)));
        assert_outside(resolve_folder("exports", &f.root, Some(&allowed)));
        let message = invalid_message(resolve_folder("~root/x", &f.root, None));
        assert_eq!(message, "folder must be an absolute path or start with ~/");
        invalid_message(resolve_folder("exports/team", &f.root, None));
        invalid_message(resolve_folder("", &f.root, None));
    }

    #[test]
    fn tilde_expands_to_home() {
        let f = Fixture::new();
        assert_eq!(
            resolve_folder("~/exports/team", &f.root, Some("~/exports")).expect("inside"),
            f.root.join("exports/team")
        );
        assert_eq!(resolve_folder("~", &f.root, None).expect("home"), f.root);
        assert_eq!(
            resolve_folder("~/outside", &f.root, None).expect("home"),
            f.root.join("outside")
        );
        assert_outside(resolve_folder("~/outside", &f.root, Some("~/exports")));
        // `~//x` stays under home rather than jumping to `/x`.
        let outside = f.path("outside");
        let message =
            invalid_message(resolve_folder(&format!("~/{outside}"), &f.root.join("exports"), None));
        assert!(message.contains("does not exist"), "{message}");
    }

    #[test]
    fn missing_folders() {
        let f = Fixture::new();
        let missing = f.path("exports/missing");
        let message = invalid_message(resolve_folder(&missing, &f.root, None));
        assert_eq!(message, format!("folder {missing} does not exist"));
        assert_outside(resolve_folder(&missing, &f.root, Some(&f.path("exports"))));
        // A missing allowed folder allows nothing.
        assert_outside(resolve_folder(&f.path("exports"), &f.root, Some(&f.path("nope"))));
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let f = Fixture::new();
        std::fs::write(f.root.join("exports/file.md"), "x").expect("write");
        let message = invalid_message(resolve_folder(
            &f.path("exports/file.md"),
            &f.root,
            Some(&f.path("exports")),
        ));
        assert!(message.contains("not a directory"), "{message}");
        invalid_message(resolve_folder(&f.path("exports/file.md"), &f.root, None));
    }

    #[test]
    fn outside_error_names_both_folders() {
        let f = Fixture::new();
        let err = resolve_folder(&f.path("outside"), &f.root, Some("~/exports")).expect_err("out");
        let text = err.to_string();
        assert!(text.contains(&f.path("outside")) && text.contains("~/exports"), "{text}");
    }
}

mod writing {
    use super::*;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).expect("read")
    }

    #[test]
    fn writes_a_new_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_new(dir.path(), "2026-11-22 Sync.md", b"# Sync\n").expect("write");
        assert_eq!(path, dir.path().join("2026-11-22 Sync.md"));
        assert_eq!(read(&path), "# Sync\n");
    }

    #[test]
    fn never_overwrites_an_existing_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.md"), "old").expect("write");
        let second = write_new(dir.path(), "a.md", b"new").expect("write");
        assert_eq!(second, dir.path().join("a (2).md"));
        let third = write_new(dir.path(), "a.md", b"newer").expect("write");
        assert_eq!(third, dir.path().join("a (3).md"));
        assert_eq!(read(&dir.path().join("a.md")), "old");
        assert_eq!(read(&second), "new");
        assert_eq!(read(&third), "newer");
    }

    #[cfg(unix)]
    #[test]
    fn never_follows_a_dangling_symlink() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("target.md");
        std::os::unix::fs::symlink(&target, dir.path().join("a.md")).expect("symlink");
        let path = write_new(dir.path(), "a.md", b"new").expect("write");
        assert_eq!(path, dir.path().join("a (2).md"));
        assert!(!target.exists(), "the link's target was created");
        assert!(dir.path().join("a.md").symlink_metadata().expect("link").is_symlink());
    }

    #[cfg(unix)]
    #[test]
    fn never_writes_through_a_symlink_to_a_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("target.txt");
        std::fs::write(&target, "keep").expect("write");
        std::os::unix::fs::symlink(&target, dir.path().join("a.md")).expect("symlink");
        let path = write_new(dir.path(), "a.md", b"new").expect("write");
        assert_eq!(path, dir.path().join("a (2).md"));
        assert_eq!(read(&target), "keep");
    }

    #[test]
    fn gives_up_after_a_thousand_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.md"), "").expect("write");
        for n in 2..=1000 {
            std::fs::write(dir.path().join(format!("a ({n}).md")), "").expect("write");
        }
        let err = write_new(dir.path(), "a.md", b"x").expect_err("all taken");
        assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
        assert!(!dir.path().join("a (1001).md").exists());
        // One free slot is found.
        std::fs::remove_file(dir.path().join("a (777).md")).expect("remove");
        assert_eq!(
            write_new(dir.path(), "a.md", b"x").expect("free"),
            dir.path().join("a (777).md")
        );
    }

    #[test]
    fn rejects_names_that_are_not_plain() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        for name in ["", ".", "..", "../x.md", "sub/x.md", "/tmp/x.md"] {
            let err = write_new(&dir.path().join("sub"), name, b"x").expect_err(name);
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{name:?}");
        }
        assert!(!dir.path().join("x.md").exists());
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err = write_new(&dir.path().join("missing"), "a.md", b"x").expect_err("missing");
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }

    #[cfg(unix)]
    #[test]
    fn uses_the_ordinary_document_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_new(dir.path(), "a.md", b"x").expect("write");
        let mode = std::fs::metadata(&path).expect("metadata").permissions().mode() & 0o777;
        assert_eq!(mode & !0o644, 0, "mode {mode:o} beyond 0o644");
        assert_ne!(mode & 0o600, 0, "owner can read and write: {mode:o}");
    }
}
