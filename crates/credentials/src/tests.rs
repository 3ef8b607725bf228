//! The `Auto` logic against a fake OS store (working, missing, failing,
//! hanging), and the keyring user names. The real store is exercised in
//! `tests/store.rs` where one is reachable.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Working,
    Missing,
    Failing,
    Hanging,
}

struct Fake {
    entries: Mutex<HashMap<String, Secret>>,
    mode: Mutex<Mode>,
    released: Condvar,
    calls: AtomicUsize,
}

impl Fake {
    fn new(mode: Mode) -> Arc<Self> {
        Arc::new(Self {
            entries: Mutex::new(HashMap::new()),
            mode: Mutex::new(mode),
            released: Condvar::new(),
            calls: AtomicUsize::new(0),
        })
    }

    fn set_mode(&self, mode: Mode) {
        *self.mode.lock().expect("mode") = mode;
        self.released.notify_all();
    }

    fn entry(&self, user: &str) -> Option<String> {
        self.entries.lock().expect("entries").get(user).map(|key| key.expose().to_string())
    }

    fn put(&self, user: &str, key: &str) {
        self.entries.lock().expect("entries").insert(user.to_string(), Secret::new(key));
    }

    /// Blocks while hanging; then errors as the mode says.
    fn enter(&self) -> Result<(), OsError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let mode = self.mode.lock().expect("mode");
        let mode = self.released.wait_while(mode, |mode| *mode == Mode::Hanging).expect("mode");
        match *mode {
            Mode::Missing => Err(OsError::Unavailable("no D-Bus session (fake)".into())),
            Mode::Failing => Err(OsError::Failed("2 entries match (fake)".into())),
            Mode::Working | Mode::Hanging => Ok(()),
        }
    }
}

impl os::OsStore for Arc<Fake> {
    fn set(&self, user: &str, key: &Secret) -> Result<(), OsError> {
        self.enter()?;
        self.entries.lock().expect("entries").insert(user.to_string(), key.clone());
        Ok(())
    }

    fn get(&self, user: &str) -> Result<Option<Secret>, OsError> {
        self.enter()?;
        Ok(self.entries.lock().expect("entries").get(user).cloned())
    }

    fn delete(&self, user: &str) -> Result<bool, OsError> {
        self.enter()?;
        Ok(self.entries.lock().expect("entries").remove(user).is_some())
    }
}

fn auto_with(fake: &Arc<Fake>, timeout: Duration) -> (tempfile::TempDir, CredentialStore) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = CredentialStore::with_gate(dir.path(), Some(Gate::new(Arc::clone(fake), timeout)));
    (dir, store)
}

fn file_text(dir: &tempfile::TempDir) -> Option<String> {
    std::fs::read_to_string(dir.path().join(FILE_NAME)).ok()
}

#[test]
fn a_working_store_holds_the_key_and_the_file_stays_away() {
    let fake = Fake::new(Mode::Working);
    let (dir, store) = auto_with(&fake, Duration::from_secs(5));

    assert_eq!(store.set("openai", "  sk-one \n").expect("set"), Location::Keyring);
    let user = store.keyring_user("openai");
    assert_eq!(fake.entry(&user).as_deref(), Some("sk-one"));
    assert_eq!(file_text(&dir), None, "nothing written to the file");
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-one"));
    assert_eq!(store.location("openai"), Some(Location::Keyring));
    assert_eq!(store.get("anthropic").expect("get"), None);
    assert_eq!(store.location("anthropic"), None);

    assert!(store.delete("openai").expect("delete"));
    assert_eq!(fake.entry(&user), None);
    assert!(!store.delete("openai").expect("delete again"));
    assert_eq!(store.get("openai").expect("get"), None);
}

#[test]
fn no_store_falls_back_to_the_file_and_a_later_keyring_set_moves_the_key() {
    let fake = Fake::new(Mode::Missing);
    let (dir, store) = auto_with(&fake, Duration::from_secs(5));

    assert_eq!(store.set("openai", "sk-file").expect("set"), Location::File);
    assert_eq!(store.set("anthropic", "sk-other").expect("set"), Location::File);
    assert_eq!(store.location("openai"), Some(Location::File));
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-file"));

    fake.set_mode(Mode::Working);
    assert_eq!(store.set("openai", "sk-keyring").expect("set"), Location::Keyring);
    let text = file_text(&dir).expect("anthropic is still in the file");
    assert!(!text.contains("openai") && !text.contains("sk-file"), "{text}");
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-keyring"));
    assert_eq!(store.location("openai"), Some(Location::Keyring));

    assert_eq!(store.set("anthropic", "sk-other-2").expect("set"), Location::Keyring);
    assert_eq!(file_text(&dir), None, "the last key left the file, and so did the file");
}

#[test]
fn a_file_copy_is_newer_than_a_keyring_copy_and_wins() {
    // A set while the store was unusable went to the file; the store's copy is older.
    let fake = Fake::new(Mode::Working);
    let (_dir, store) = auto_with(&fake, Duration::from_secs(5));
    fake.put(&store.keyring_user("openai"), "sk-old");
    fake.set_mode(Mode::Missing);
    assert_eq!(store.set("openai", "sk-new").expect("set"), Location::File);
    fake.set_mode(Mode::Working);

    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-new"));
    assert_eq!(store.location("openai"), Some(Location::File));
    assert!(store.delete("openai").expect("delete"));
    assert_eq!(fake.entry(&store.keyring_user("openai")), None, "deleted from both places");
    assert_eq!(store.get("openai").expect("get"), None);
}

#[test]
fn store_errors_that_the_file_would_not_fix_are_reported_without_the_key() {
    let fake = Fake::new(Mode::Failing);
    let (dir, store) = auto_with(&fake, Duration::from_secs(5));

    let error = store.set("openai", "sk-secret-value").expect_err("fails");
    assert!(matches!(error, CredentialError::Keyring { .. }), "{error:?}");
    for shown in [error.to_string(), format!("{error:?}")] {
        assert!(!shown.contains("sk-secret-value"), "{shown}");
    }
    assert_eq!(file_text(&dir), None, "no silent fallback on a real error");
    assert!(store.get("openai").is_err());
    assert!(store.delete("openai").is_err());
    assert_eq!(store.location("openai"), None);
}

#[test]
fn a_hanging_store_is_given_up_on_and_tried_again_once_it_is_back() {
    let fake = Fake::new(Mode::Hanging);
    let (dir, store) = auto_with(&fake, Duration::from_millis(200));

    let started = Instant::now();
    assert_eq!(store.set("openai", "sk-one").expect("set"), Location::File);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert!(file_text(&dir).is_some());

    // While that call is stuck the store is not tried again (no pile of blocked threads).
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-one"));
    assert_eq!(store.get("anthropic").expect("get"), None);
    assert_eq!(store.set("anthropic", "sk-two").expect("set"), Location::File);
    assert_eq!(fake.calls.load(Ordering::SeqCst), 1);

    // It comes back (the unlock prompt was answered): the abandoned set lands, late.
    fake.set_mode(Mode::Working);
    let user = store.keyring_user("openai");
    let deadline = Instant::now() + Duration::from_secs(5);
    while fake.entry(&user).is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(fake.entry(&user).as_deref(), Some("sk-one"));
    // The helper thread may still be between its write and clearing the stuck mark.
    let gate = store.os.clone().expect("auto");
    let deadline = Instant::now() + Duration::from_secs(5);
    while gate.stuck() > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(gate.stuck(), 0);

    // Until the next set the file's copy is the one that counts; that set
    // reaches the store again and takes the key out of the file.
    assert_eq!(store.location("openai"), Some(Location::File));
    assert_eq!(store.set("openai", "sk-one-b").expect("set"), Location::Keyring);
    assert_eq!(store.get("openai").expect("get").as_deref(), Some("sk-one-b"));
    assert_eq!(store.location("openai"), Some(Location::Keyring));
    assert_eq!(store.location("anthropic"), Some(Location::File));
}

#[test]
fn a_corrupt_file_stops_a_set_before_the_store_is_touched() {
    let fake = Fake::new(Mode::Working);
    let (dir, store) = auto_with(&fake, Duration::from_secs(5));
    std::fs::write(dir.path().join(FILE_NAME), "{ not json").expect("write");

    let error = store.set("openai", "sk-one").expect_err("corrupt");
    assert!(matches!(error, CredentialError::CorruptFile { .. }), "{error:?}");
    assert_eq!(fake.calls.load(Ordering::SeqCst), 0);
    assert_eq!(file_text(&dir).as_deref(), Some("{ not json"));
}

#[test]
fn keyring_users_differ_between_data_folders_and_not_between_spellings() {
    let one = tempfile::tempdir().expect("temp dir");
    let two = tempfile::tempdir().expect("temp dir");
    let user = |dir: &Path| CredentialStore::new(dir, Backend::File).keyring_user("openai");

    let (a, b) = (user(one.path()), user(two.path()));
    assert_ne!(a, b);
    let (name, id) = a.split_once('@').expect("provider@id");
    assert_eq!(name, "openai");
    assert_eq!(id.len(), 12);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()), "{id}");

    // Same folder, other spellings.
    assert_eq!(user(&one.path().join(".")), a);
    assert_eq!(user(&one.path().join("sub").join("..")), a);
    #[cfg(unix)]
    {
        let link = two.path().join("link");
        std::os::unix::fs::symlink(one.path(), &link).expect("symlink");
        assert_eq!(user(&link), a);
    }

    // A folder that does not exist yet keeps its id once created.
    let later = one.path().join("not").join("yet");
    let before = user(&later);
    std::fs::create_dir_all(&later).expect("create");
    assert_eq!(user(&later), before);
    assert_ne!(before, a);
}
