//! Keeping the database's files in shape outside the writes that change them,
//! in short steps that the service's upkeep runs after writes: merging the
//! search indexes' FTS5 segments (their automatic merge is off since migration
//! 0011) and copying the WAL into the database (the writer's own checkpoint is
//! only a backstop, `pool.rs`). Either, done inside a write's commit, took a
//! corrected line from 3 ms to 40–70 ms about one time in fifty.

use std::sync::atomic::Ordering;

use crate::pool::lock;
use crate::StoreResult;

/// The FTS5 tables a write adds segments to (segment_words per line, the
/// meeting documents of index.rs).
const MERGED: [&str; 3] = ["segment_words", "meeting_words", "meeting_phrases"];

/// What a checkpoint left: the WAL's frames, and how many of them are now in
/// the database file (fewer while a reader still needs the older pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkpoint {
    pub wal_frames: i64,
    pub copied: i64,
}

impl crate::Store {
    /// Write transactions committed since the store was opened, its own
    /// merges included: upkeep runs when this has moved.
    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }

    /// One step of merging: FTS5's `merge` command on one search index
    /// (`step` picks which, in turn), writing at most `pages` pages where a
    /// level holds at least four segments; one short write transaction. True
    /// when it merged anything.
    pub fn merge_index_segments(&self, step: usize, pages: u32) -> StoreResult<bool> {
        let table = MERGED[step % MERGED.len()];
        self.write(|tx| {
            let before = tx.total_changes();
            tx.prepare_cached(&format!(
                "INSERT INTO {table} ({table}, rank) VALUES ('merge', ?1)"
            ))?
            .execute([pages])?;
            // FTS5 counts two changes or more when it merged anything.
            Ok(tx.total_changes() - before >= 2)
        })
    }

    /// Steps of [`Self::merge_index_segments`] that go through every index.
    pub fn merge_steps_per_round(&self) -> usize {
        MERGED.len()
    }

    /// Copies the committed pages of the WAL into the database file on a
    /// connection of its own (PASSIVE: it waits for no reader and no writer,
    /// and writes go on meanwhile).
    pub fn checkpoint(&self) -> StoreResult<Checkpoint> {
        let connection = lock(&self.checkpointer);
        let (wal_frames, copied) =
            connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                Ok((row.get(1)?, row.get(2)?))
            })?;
        Ok(Checkpoint { wal_frames, copied })
    }
}
