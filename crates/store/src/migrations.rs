//! Versioned migrations, tracked in `PRAGMA user_version`. Each migration runs in its
//! own transaction together with the version bump, so a crash never leaves half of one.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;

use crate::{StoreError, StoreResult};

const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_jobs.sql"),
    include_str!("../migrations/0003_retention.sql"),
    include_str!("../migrations/0004_speakers.sql"),
    include_str!("../migrations/0005_search_index.sql"),
    include_str!("../migrations/0006_notes_writer.sql"),
    include_str!("../migrations/0007_meeting_vocabulary.sql"),
    include_str!("../migrations/0008_transcribe_again.sql"),
    include_str!("../migrations/0009_passages.sql"),
    include_str!("../migrations/0010_person_record.sql"),
    include_str!("../migrations/0011_index_merges.sql"),
    include_str!("../migrations/0012_room_speakers.sql"),
    include_str!("../migrations/0013_live_speakers.sql"),
];

/// The schema version this build makes and reads.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Applies every migration newer than the database's version. A database that
/// has data (version above 0) is first copied to `backups` (see
/// [`backup_before_migrating`]).
pub fn apply(connection: &mut Connection, backups: &Path) -> StoreResult<()> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if found > known {
        return Err(StoreError::FutureSchema { found, known });
    }
    if found > 0 && found < known {
        backup_before_migrating(connection, backups, found, known)?;
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

/// Copies the database to `backups/recorder-v<found>-<ms>.db` before a
/// migration changes it, and says where: a failed or unwanted upgrade can be
/// undone by putting that file back. No copy, no migration.
fn backup_before_migrating(
    connection: &Connection,
    backups: &Path,
    found: i64,
    known: i64,
) -> StoreResult<()> {
    let ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let failed = |error: std::io::Error| {
        StoreError::Malformed(format!("cannot back the database up before migrating: {error}"))
    };
    std::fs::create_dir_all(backups).map_err(failed)?;
    let path = backups.join(format!("recorder-v{found}-{ms}.db"));
    if let Err(error) = crate::snapshot::copy(connection, &path) {
        // Nothing half-written is left; the database is as it was.
        let _ = std::fs::remove_file(&path);
        return Err(error);
    }
    tracing::warn!(
        path = %path.display(),
        from = found,
        to = known,
        "the database was backed up before migrating; put this file back as recorder.db to undo"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_database_is_copied_before_it_is_migrated() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("recorder.db");
        {
            let connection = Connection::open(&path).expect("open");
            for sql in &MIGRATIONS[..2] {
                connection.execute_batch(sql).expect("old schema");
            }
            connection.pragma_update(None, "user_version", 2).expect("version");
        }
        let store = crate::Store::open(&path).expect("migrated");
        drop(store);
        let backups: Vec<_> = std::fs::read_dir(folder.path().join("backups"))
            .expect("backups folder")
            .map(|entry| entry.expect("entry").path())
            .collect();
        assert_eq!(backups.len(), 1, "{backups:?}");
        let name = backups[0].file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert!(name.starts_with("recorder-v2-") && name.ends_with(".db"), "{name}");
        let copy = Connection::open(&backups[0]).expect("copy");
        let version: i64 = copy.query_row("PRAGMA user_version", [], |r| r.get(0)).expect("v");
        assert_eq!(version, 2, "the copy is the database as it was");
        crate::integrity_check(&backups[0]).expect("a whole database");
        let now = Connection::open(&path).expect("reopen");
        let version: i64 = now.query_row("PRAGMA user_version", [], |r| r.get(0)).expect("v");
        assert_eq!(version, MIGRATIONS.len() as i64);

        // A new database and an up-to-date one are not copied.
        let fresh = folder.path().join("fresh.db");
        drop(crate::Store::open(&fresh).expect("new"));
        drop(crate::Store::open(&fresh).expect("again"));
        assert_eq!(std::fs::read_dir(folder.path().join("backups")).expect("dir").count(), 1);
    }
}
