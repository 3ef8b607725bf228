//! The connection pool: one writer and a few readers, all on the same WAL database.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use crate::{index, migrations, StoreResult};

const READERS: usize = 4;
/// The writer's own checkpoint, a backstop: the service checkpoints from a
/// connection of its own long before the WAL holds this many pages (40 MB),
/// so that no write's commit pays for copying and syncing the database.
const CHECKPOINT_BACKSTOP_PAGES: i64 = 10_000;

/// The database. Cheap to share behind an `Arc`; every call blocks its thread, so
/// async callers run it on a blocking thread.
pub struct Store {
    path: PathBuf,
    // Each reader is locked only while one query runs; `next` spreads callers.
    // Declared before the writer so the readers close first: the last connection to
    // close checkpoints the WAL into the database, and only the writer can.
    readers: Vec<Mutex<Connection>>,
    next: AtomicUsize,
    // Copies the WAL into the database beside the writer (index_upkeep.rs).
    pub(crate) checkpointer: Mutex<Connection>,
    // Write transactions committed since the store opened.
    pub(crate) writes: AtomicU64,
    // The writer lock serialises writes: SQLite allows one writer at a time anyway,
    // and holding our own lock avoids busy-waiting inside SQLite.
    writer: Mutex<Connection>,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and applies migrations.
    pub fn open(path: &Path) -> StoreResult<Store> {
        let mut writer = Connection::open(path)?;
        configure(&writer)?;
        writer.pragma_update(None, "journal_mode", "WAL")?;
        writer.pragma_update(None, "wal_autocheckpoint", CHECKPOINT_BACKSTOP_PAGES)?;
        let backups = path.parent().unwrap_or(Path::new(".")).join("backups");
        migrations::apply(&mut writer, &backups)?;
        if index::is_ready(&writer)? {
            index::drop_old_indexes(&writer)?;
        }
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let reader = Connection::open_with_flags(path, flags)?;
            configure(&reader)?;
            readers.push(Mutex::new(reader));
        }
        let checkpointer = Connection::open(path)?;
        configure(&checkpointer)?;
        checkpointer.pragma_update(None, "wal_autocheckpoint", 0)?;
        Ok(Store {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            readers,
            next: AtomicUsize::new(0),
            checkpointer: Mutex::new(checkpointer),
            writes: AtomicU64::new(0),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `work` on a reader connection.
    pub fn read<T>(&self, work: impl FnOnce(&Connection) -> StoreResult<T>) -> StoreResult<T> {
        let reader = self.reader();
        work(&reader)
    }

    /// Runs `work` in an immediate transaction on the writer; commits on `Ok`,
    /// rolls back on `Err`. The search documents of the meetings `work` changed
    /// are rebuilt in the same transaction.
    pub fn write<T>(&self, work: impl FnOnce(&Transaction) -> StoreResult<T>) -> StoreResult<T> {
        let mut writer = lock(&self.writer);
        let transaction = writer.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = work(&transaction)?;
        index::flush_dirty(&transaction)?;
        transaction.commit()?;
        self.writes.fetch_add(1, Ordering::Relaxed);
        Ok(value)
    }

    fn reader(&self) -> MutexGuard<'_, Connection> {
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for offset in 0..self.readers.len() {
            let index = (start + offset) % self.readers.len();
            if let Ok(reader) = self.readers[index].try_lock() {
                return reader;
            }
        }
        lock(&self.readers[start % self.readers.len()])
    }
}

fn configure(connection: &Connection) -> StoreResult<()> {
    connection.busy_timeout(Duration::from_secs(5))?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    connection.pragma_update(None, "synchronous", "NORMAL")?;
    connection.set_prepared_statement_cache_capacity(64);
    Ok(())
}

/// A poisoned lock only means another thread panicked while holding it; the
/// connection itself is still usable (SQLite rolled back any open transaction).
pub(crate) fn lock(mutex: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
