//! The public API on real files, and `Backend::Auto` against whatever OS
//! credential store this machine really has (or has not).

use std::path::Path;

use recorder_credentials::{Backend, CredentialError, CredentialStore, Location, FILE_NAME};

fn file_store() -> (tempfile::TempDir, CredentialStore) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = CredentialStore::new(dir.path(), Backend::File);
    (dir, store)
}

fn read_file(dir: &Path) -> serde_json::Map<String, serde_json::Value> {
    let text = std::fs::read_to_string(dir.join(FILE_NAME)).expect("read key file");
    serde_json::from_str(&text).expect("key file is a JSON object")
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("list")
        .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name != FILE_NAME)
        .collect()
}

#[test]
fn set_get_delete_round_trip() {
    let (dir, store) = file_store();
    assert_eq!(store.get("openai").expect("get"), None);
    assert_eq!(store.location("openai"), None);
    assert!(!store.delete("openai").expect("delete nothing"));

    assert_eq!(store.set("openai", "  sk-first\n").expect("set"), Location::File);
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-first"));
    assert_eq!(store.location("openai"), Some(Location::File));
    assert_eq!(Location::File.as_str(), "file");
    assert_eq!(Location::Keyring.as_str(), "keyring");

    assert_eq!(store.set("openai", "sk-second").expect("replace"), Location::File);
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-second"));

    // Another store on the same folder sees it.
    let again = CredentialStore::new(dir.path(), Backend::File);
    assert_eq!(again.get("openai").expect("get").as_deref(), Some("sk-second"));

    assert!(store.delete("openai").expect("delete"));
    assert!(!store.delete("openai").expect("delete again"));
    assert_eq!(store.get("openai").expect("get"), None);
    assert_eq!(store.location("openai"), None);
    assert!(!dir.path().join(FILE_NAME).exists(), "deleting the last key removes the file");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn a_missing_data_folder_is_created_on_the_first_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("not").join("yet");
    let store = CredentialStore::new(&data, Backend::File);
    assert_eq!(store.get("openai").expect("get"), None);
    assert!(!store.delete("openai").expect("delete"));
    store.set("openai", "sk-one").expect("set");
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-one"));
}

#[cfg(unix)]
#[test]
fn the_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let (dir, store) = file_store();
    let path = dir.path().join(FILE_NAME);
    let mode = || std::fs::metadata(&path).expect("metadata").permissions().mode() & 0o777;

    store.set("openai", "sk-one").expect("set");
    assert_eq!(mode(), 0o600);
    store.set("anthropic", "sk-two").expect("set");
    assert_eq!(mode(), 0o600);

    // A file someone loosened is replaced by a private one at the next change.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    store.set("openai", "sk-one").expect("same key again");
    assert_eq!(mode(), 0o600);
}

#[test]
fn a_rewrite_keeps_the_other_providers() {
    let (dir, store) = file_store();
    for (provider, key) in [("openai", "sk-a"), ("anthropic", "sk-b"), ("open_router", "sk-c")] {
        store.set(provider, key).expect("set");
    }
    store.set("anthropic", "sk-b2").expect("replace");
    assert!(store.delete("openai").expect("delete"));

    let keys = read_file(dir.path());
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert_eq!(keys["anthropic"], "sk-b2");
    assert_eq!(keys["open_router"], "sk-c");
    assert_eq!(store.get("open_router").expect("get").as_deref(), Some("sk-c"));
    assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "no temporary files left");
}

#[test]
fn a_corrupt_file_is_an_error_and_is_left_untouched() {
    let cases: [&[u8]; 5] = [
        b"{\"openai\": \"sk-partial-secret",
        b"[\"sk-partial-secret\"]",
        b"{\"openai\": 5, \"x\": \"sk-partial-secret\"}",
        b"",
        b"\xff\xfe sk-partial-secret",
    ];
    for contents in cases {
        let (dir, store) = file_store();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, contents).expect("write corrupt file");

        let errors = [
            store.get("openai").expect_err("get"),
            store.set("openai", "sk-new").expect_err("set"),
            store.set("anthropic", "sk-new").expect_err("set other"),
            store.delete("openai").expect_err("delete"),
        ];
        for error in errors {
            assert!(matches!(error, CredentialError::CorruptFile { .. }), "{error:?}");
            let shown = format!("{error} {error:?}");
            assert!(!shown.contains("sk-partial-secret"), "file contents in the error: {shown}");
            assert!(shown.contains(FILE_NAME), "{shown}");
        }
        assert_eq!(store.location("openai"), None);
        assert_eq!(std::fs::read(&path).expect("read"), contents, "file was changed");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn validation_errors_name_the_rule_and_never_the_key() {
    let (dir, store) = file_store();
    let key = "sk-do-not-show-me";
    let long = format!("{key}{}", "x".repeat(4096));
    let cases = [
        ("OpenAI", key.to_string(), "lowercase"),
        ("open-ai", key.to_string(), "lowercase"),
        ("", key.to_string(), "empty"),
        (&*"a".repeat(41), key.to_string(), "40"),
        ("openai", format!("{key}\nsecond line"), "line break"),
        ("openai", format!("{key}\u{7}"), "control"),
        ("openai", long, "4096"),
        ("openai", "   ".to_string(), "empty"),
    ];
    for (provider, key_given, rule) in &cases {
        let error = store.set(provider, key_given).expect_err("invalid");
        let shown = format!("{error} {error:?}");
        assert!(
            matches!(
                error,
                CredentialError::InvalidProvider { .. } | CredentialError::InvalidKey { .. }
            ),
            "{shown}"
        );
        assert!(shown.contains(rule), "{provider:?}: {shown}");
        assert!(!shown.contains(key), "key in the error: {shown}");
    }
    assert!(matches!(store.get("Bad"), Err(CredentialError::InvalidProvider { .. })));
    assert!(matches!(store.delete("Bad"), Err(CredentialError::InvalidProvider { .. })));
    assert_eq!(store.location("Bad"), None);
    assert!(!dir.path().join(FILE_NAME).exists(), "nothing was written");
}

#[test]
fn two_data_folders_do_not_share_keys() {
    let (one_dir, one) = file_store();
    let (_two_dir, two) = file_store();
    one.set("openai", "sk-one").expect("set");
    assert_eq!(two.get("openai").expect("get"), None);
    assert_eq!(two.location("openai"), None);
    two.set("openai", "sk-two").expect("set");
    assert_eq!(one.get("openai").expect("get").as_deref(), Some("sk-one"));
    assert!(two.delete("openai").expect("delete"));
    assert_eq!(one.get("openai").expect("get").as_deref(), Some("sk-one"));
    assert_eq!(read_file(one_dir.path())["openai"], "sk-one");
}

/// `Backend::Auto` with the machine's real OS store: first find out, with a
/// probe entry written and deleted straight through `keyring`, whether there is
/// a usable store; then check the keyring round trip if there is, and the
/// fallback to the file if there is not. Entries are named after a fresh temp
/// folder, so they cannot collide with real data, and are deleted afterwards.
#[cfg(any(target_os = "linux", target_os = "macos", windows))]
mod auto {
    use super::*;
    use recorder_credentials::KEYRING_SERVICE;
    use sha2::{Digest as _, Sha256};
    use std::time::Duration;

    /// The user name the spec gives: `<provider>@<12 hex of sha256(canonical dir)>`.
    fn expected_user(provider: &str, dir: &Path) -> String {
        let canonical = std::fs::canonicalize(dir).expect("canonical");
        let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
        format!("{provider}@{}", &hex::encode(digest)[..12])
    }

    /// Runs a keyring call with the same 5 s limit the store uses.
    fn limited<T: Send + 'static>(
        op: impl FnOnce() -> keyring::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = send.send(op().map_err(|error| error.to_string()));
        });
        receive.recv_timeout(Duration::from_secs(5)).unwrap_or_else(|_| Err("timed out".into()))
    }

    /// Ok if a probe entry can be written, read back and deleted.
    fn probe(user: String) -> Result<(), String> {
        limited(move || {
            let entry = keyring::Entry::new(KEYRING_SERVICE, &user)?;
            entry.set_password("probe")?;
            let read = entry.get_password();
            entry.delete_credential()?;
            read.map(|_| ())
        })
    }

    /// Deletes the test's entry even if an assertion fails.
    struct Cleanup(String);

    impl Drop for Cleanup {
        fn drop(&mut self) {
            let user = self.0.clone();
            let _ =
                limited(move || keyring::Entry::new(KEYRING_SERVICE, &user)?.delete_credential());
        }
    }

    #[test]
    fn auto_uses_the_os_store_when_there_is_one_and_the_file_otherwise() {
        let dir = tempfile::tempdir().expect("temp dir");
        let other = tempfile::tempdir().expect("temp dir");
        let user = expected_user("openai", dir.path());
        assert_ne!(user, expected_user("openai", other.path()));
        let _cleanup = Cleanup(user.clone());

        let store = CredentialStore::new(dir.path(), Backend::Auto);
        let key = "sk-recorder-credentials-test";
        match probe(format!("probe{}", user)) {
            Ok(()) => {
                eprintln!("an OS credential store is usable: checking the keyring round trip");
                assert_eq!(store.set("openai", key).expect("set"), Location::Keyring);
                assert_eq!(store.location("openai"), Some(Location::Keyring));
                assert_eq!(store.get("openai").expect("get").as_deref(), Some(key));
                assert!(!dir.path().join(FILE_NAME).exists(), "the key went to the file too");
                let direct = limited({
                    let user = user.clone();
                    move || keyring::Entry::new(KEYRING_SERVICE, &user)?.get_password()
                });
                assert_eq!(direct.as_deref(), Ok(key), "entry is not named as specified");

                // Another data folder does not see it.
                let elsewhere = CredentialStore::new(other.path(), Backend::Auto);
                assert_eq!(elsewhere.get("openai").expect("get"), None);

                assert!(store.delete("openai").expect("delete"));
                assert_eq!(store.get("openai").expect("get"), None);
                assert_eq!(store.location("openai"), None);
            }
            Err(reason) => {
                eprintln!("no usable OS credential store ({reason}): checking the file fallback");
                assert_eq!(store.set("openai", key).expect("set"), Location::File);
                assert_eq!(store.location("openai"), Some(Location::File));
                assert_eq!(store.get("openai").expect("get").as_deref(), Some(key));
                assert_eq!(read_file(dir.path())["openai"], key);
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt as _;
                    let meta = std::fs::metadata(dir.path().join(FILE_NAME)).expect("metadata");
                    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
                }
                assert!(store.delete("openai").expect("delete"));
                assert_eq!(store.get("openai").expect("get"), None);
                assert!(!dir.path().join(FILE_NAME).exists());
            }
        }
    }
}
