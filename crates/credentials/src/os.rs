//! The OS credential store, reached only through helper threads with a time
//! limit: a call can block for good (a locked keyring waiting for an unlock
//! prompt nobody will answer), and such a call must not hang the service.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use crate::Secret;

/// Keyring entries are `SERVICE` / `<provider>@<data folder id>`.
pub const SERVICE: &str = "app.recorder.desktop";

pub const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// Why an OS-store call gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OsError {
    /// There is no usable store (none on this platform, no D-Bus session,
    /// locked, timed out, refused): use the file instead.
    Unavailable(String),
    /// The store answered with an error the file would not fix.
    Failed(String),
}

/// One OS credential store; calls block. Implemented by [`Keyring`] and, in
/// tests, by fakes.
pub trait OsStore: Send + Sync + 'static {
    fn set(&self, user: &str, key: &Secret) -> Result<(), OsError>;
    fn get(&self, user: &str) -> Result<Option<Secret>, OsError>;
    /// True if an entry was removed.
    fn delete(&self, user: &str) -> Result<bool, OsError>;
}

/// An [`OsStore`] behind the time limit. Clones share their state, and every
/// [`CredentialStore`](crate::CredentialStore) shares [`Gate::system`].
#[derive(Clone)]
pub struct Gate {
    inner: Arc<GateInner>,
}

struct GateInner {
    store: Box<dyn OsStore>,
    timeout: Duration,
    /// Helper threads still blocked in a call we gave up on. While one is, the
    /// store counts as unavailable: no new call (and no new blocked thread)
    /// until it comes back, so at most one thread is ever stuck.
    stuck: AtomicUsize,
    /// One call at a time (the Windows store does not order concurrent calls).
    serial: Mutex<()>,
}

struct Slot<T> {
    result: Option<Result<T, OsError>>,
    abandoned: bool,
}

impl Gate {
    pub fn new(store: impl OsStore, timeout: Duration) -> Self {
        let inner = GateInner {
            store: Box::new(store),
            timeout,
            stuck: AtomicUsize::new(0),
            serial: Mutex::new(()),
        };
        Self { inner: Arc::new(inner) }
    }

    /// The platform's store, one per process.
    pub fn system() -> Self {
        static SYSTEM: OnceLock<Gate> = OnceLock::new();
        SYSTEM.get_or_init(|| Gate::new(Keyring, CALL_TIMEOUT)).clone()
    }

    pub fn set(&self, user: &str, key: &Secret) -> Result<(), OsError> {
        let (user, key) = (user.to_string(), key.clone());
        self.call(move |store| store.set(&user, &key))
    }

    pub fn get(&self, user: &str) -> Result<Option<Secret>, OsError> {
        let user = user.to_string();
        self.call(move |store| store.get(&user))
    }

    pub fn delete(&self, user: &str) -> Result<bool, OsError> {
        let user = user.to_string();
        self.call(move |store| store.delete(&user))
    }

    /// Helper threads still blocked in a call that was given up on.
    #[cfg(test)]
    pub fn stuck(&self) -> usize {
        self.inner.stuck.load(Ordering::SeqCst)
    }

    /// Runs `op` on a helper thread and waits at most the timeout for it.
    fn call<T, F>(&self, op: F) -> Result<T, OsError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn OsStore) -> Result<T, OsError> + Send + 'static,
    {
        if self.inner.stuck.load(Ordering::SeqCst) > 0 {
            return Err(OsError::Unavailable(
                "an earlier call to the OS credential store has not returned yet".into(),
            ));
        }
        let slot = Arc::new((Mutex::new(Slot { result: None, abandoned: false }), Condvar::new()));
        let helper_slot = Arc::clone(&slot);
        let inner = Arc::clone(&self.inner);
        let spawned =
            std::thread::Builder::new().name("recorder-keyring".into()).spawn(move || {
                let result = {
                    let _serial = inner.serial.lock().unwrap_or_else(PoisonError::into_inner);
                    catch_unwind(AssertUnwindSafe(|| op(inner.store.as_ref()))).unwrap_or_else(
                        |_| {
                            Err(OsError::Unavailable(
                                "the OS credential store call panicked".into(),
                            ))
                        },
                    )
                };
                let (lock, ready) = &*helper_slot;
                let mut slot = lock.lock().unwrap_or_else(PoisonError::into_inner);
                if slot.abandoned {
                    // The caller counted us as stuck (under this same lock) and
                    // has moved on; we are back, so the store may be tried again.
                    inner.stuck.fetch_sub(1, Ordering::SeqCst);
                } else {
                    slot.result = Some(result);
                    ready.notify_one();
                }
            });
        if let Err(error) = spawned {
            return Err(OsError::Unavailable(format!("could not start a helper thread: {error}")));
        }
        let (lock, ready) = &*slot;
        let slot = lock.lock().unwrap_or_else(PoisonError::into_inner);
        let (mut slot, _) = ready
            .wait_timeout_while(slot, self.inner.timeout, |slot| slot.result.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(result) = slot.result.take() {
            return result;
        }
        slot.abandoned = true;
        self.inner.stuck.fetch_add(1, Ordering::SeqCst);
        Err(OsError::Unavailable(format!(
            "the OS credential store did not answer within {} s (locked, waiting for an unlock \
             prompt?)",
            self.inner.timeout.as_secs_f32()
        )))
    }
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate")
            .field("timeout", &self.inner.timeout)
            .field("stuck", &self.inner.stuck.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// The platform store through the `keyring` crate: Secret Service on Linux,
/// Keychain on macOS, Credential Manager on Windows.
pub struct Keyring;

#[cfg(any(target_os = "linux", target_os = "macos", windows))]
mod platform {
    use super::{Keyring, OsError, OsStore, SERVICE};
    use crate::Secret;
    use keyring::{Entry, Error};

    fn entry(user: &str) -> Result<Entry, OsError> {
        Entry::new(SERVICE, user).map_err(map)
    }

    /// Sorts keyring's errors into "use the file" and "report it". Only the
    /// `Display` text is kept: `BadEncoding`'s `Debug` holds the stored bytes.
    pub(crate) fn map(error: Error) -> OsError {
        match error {
            // No store, no D-Bus session, locked, refused: the file will do.
            Error::NoStorageAccess(_) | Error::PlatformFailure(_) => {
                OsError::Unavailable(error.to_string())
            }
            // The store cannot hold a key this long (Windows allows 2560
            // bytes): the file can.
            Error::TooLong(..) => OsError::Unavailable(error.to_string()),
            Error::BadEncoding(_) => {
                OsError::Failed("the stored entry is not UTF-8 text".to_string())
            }
            Error::Ambiguous(items) => OsError::Failed(format!(
                "{} entries match service {SERVICE:?}; remove the extra ones",
                items.len()
            )),
            other => OsError::Failed(other.to_string()),
        }
    }

    impl OsStore for Keyring {
        fn set(&self, user: &str, key: &Secret) -> Result<(), OsError> {
            entry(user)?.set_password(key.expose()).map_err(map)
        }

        fn get(&self, user: &str) -> Result<Option<Secret>, OsError> {
            match entry(user)?.get_password() {
                Ok(key) => Ok(Some(Secret::new(key))),
                Err(Error::NoEntry) => Ok(None),
                Err(error) => Err(map(error)),
            }
        }

        fn delete(&self, user: &str) -> Result<bool, OsError> {
            match entry(user)?.delete_credential() {
                Ok(()) => Ok(true),
                Err(Error::NoEntry) => Ok(false),
                Err(error) => Err(map(error)),
            }
        }
    }
}

/// Elsewhere keyring would only offer its in-memory mock, which would
/// silently lose keys: say there is no store instead.
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
mod platform {
    use super::{Keyring, OsError, OsStore};
    use crate::Secret;

    fn none() -> OsError {
        OsError::Unavailable("no OS credential store is supported on this platform".into())
    }

    impl OsStore for Keyring {
        fn set(&self, _user: &str, _key: &Secret) -> Result<(), OsError> {
            Err(none())
        }

        fn get(&self, _user: &str) -> Result<Option<Secret>, OsError> {
            Err(none())
        }

        fn delete(&self, _user: &str) -> Result<bool, OsError> {
            Err(none())
        }
    }
}
