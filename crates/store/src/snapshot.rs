//! Consistent copies of the database while it is in use: SQLite's online
//! backup, done in one step under a read transaction. In WAL mode a reader
//! never blocks the writer, so a recording goes on while a copy is made.

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use crate::StoreResult;

/// Copies the database at `source` (opened read-only, from any process) into
/// a new file `destination`, as it was at one moment. Returns its schema version.
pub fn snapshot(source: &Path, destination: &Path) -> StoreResult<i64> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let from = Connection::open_with_flags(source, flags)?;
    from.busy_timeout(Duration::from_secs(30))?;
    copy(&from, destination)
}

/// Copies an open connection's database into `destination`.
pub(crate) fn copy(from: &Connection, destination: &Path) -> StoreResult<i64> {
    let mut to = Connection::open(destination)?;
    {
        let backup = Backup::new(from, &mut to)?;
        // One step: every page under one read transaction, so the copy is of
        // one moment and never restarts because the writer moved on.
        let mut waits = 0;
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => continue,
                _ if waits < 100 => {
                    waits += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => return Err(crate::StoreError::Malformed("the database stayed busy".into())),
            }
        }
    }
    // A copy that stands alone: no WAL beside it.
    to.pragma_update(None, "journal_mode", "DELETE")?;
    let version = to.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    Ok(version)
}

/// `PRAGMA integrity_check` of the database at `path`: `Ok` when it says ok.
pub fn integrity_check(path: &Path) -> StoreResult<()> {
    let connection = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let answer: String = connection.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
    match answer.as_str() {
        "ok" => Ok(()),
        _ => Err(crate::StoreError::Malformed(format!("integrity check: {answer}"))),
    }
}

/// The ids of the meetings in the database file at `path` (a snapshot).
pub fn meeting_ids_in(path: &Path) -> StoreResult<Vec<String>> {
    let connection = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut query = connection.prepare("SELECT id FROM meetings ORDER BY seq")?;
    let ids = query.query_map([], |row| row.get(0))?.collect::<Result<_, _>>()?;
    Ok(ids)
}

/// The schema version of the database file at `path`.
pub fn schema_version_of(path: &Path) -> StoreResult<i64> {
    let connection = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    Ok(connection.query_row("PRAGMA user_version", [], |row| row.get(0))?)
}
