//! Versioned migrations, tracked in `PRAGMA user_version`. Each migration runs in its
//! own transaction together with the version bump, so a crash never leaves half of one.

use rusqlite::Connection;

use crate::{StoreError, StoreResult};

const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_jobs.sql"),
    include_str!("../migrations/0003_retention.sql"),
];

/// Applies every migration newer than the database's version.
pub fn apply(connection: &mut Connection) -> StoreResult<()> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > known {
        return Err(StoreError::FutureSchema { found, known });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let transaction = connection.transaction()?;
        transaction.execute_batch(sql)?;
        transaction.pragma_update(None, "user_version", index as i64 + 1)?;
        transaction.commit()?;
        tracing::info!(version = index + 1, "applied database migration");
    }
    Ok(())
}
