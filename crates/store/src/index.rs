//! The meeting-level search index (migration 0005): one document per meeting
//! in `meeting_words` (words and prefixes) and `meeting_phrases` (positions),
//! kept in step inside every write transaction, and the background move of
//! older meetings into it (`search_backlog`).

use rusqlite::{Connection, OptionalExtension, Transaction};

use crate::StoreResult;

/// Joins a meeting's transcript lines in its documents: U+E000 is a token to
/// FTS5 and never part of stored or searched text, so a phrase cannot span
/// two lines.
const LINE_BREAK: &str = " \u{E000} ";

/// How far the background build of the search index has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexProgress {
    /// Meetings still to be indexed; 0 when the index is complete.
    pub remaining: i64,
    /// Meetings in the database.
    pub meetings: i64,
}

impl IndexProgress {
    pub fn is_ready(&self) -> bool {
        self.remaining == 0
    }
}

impl crate::Store {
    /// Moves up to `meetings` meetings of the backlog into the new indexes in
    /// one short write transaction (readers and a recording go on meanwhile),
    /// and drops the old transcript index once the backlog is empty.
    pub fn build_search_index(&self, meetings: usize) -> StoreResult<IndexProgress> {
        self.write(|tx| {
            let batch: Vec<i64> = tx
                .prepare_cached(
                    "SELECT meeting FROM search_backlog ORDER BY meeting DESC LIMIT ?1",
                )?
                .query_map([meetings as i64], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            for seq in batch {
                index_meeting(tx, seq)?;
            }
            let progress = progress(tx)?;
            if progress.is_ready() {
                tx.execute("DELETE FROM search_backlog", [])?;
                drop_old_indexes(tx)?;
            }
            Ok(progress)
        })
    }

    pub fn search_index_progress(&self) -> StoreResult<IndexProgress> {
        self.read(progress)
    }
}

fn progress(db: &Connection) -> StoreResult<IndexProgress> {
    let remaining = db
        .prepare_cached(
            "SELECT count(*) FROM search_backlog b JOIN meetings m ON m.seq = b.meeting",
        )?
        .query_row([], |row| row.get(0))?;
    let meetings =
        db.prepare_cached("SELECT count(*) FROM meetings")?.query_row([], |row| row.get(0))?;
    Ok(IndexProgress { remaining, meetings })
}

/// True when every meeting is in the new indexes. (The backlog may still name
/// meetings deleted before their turn; the build drops those entries.)
pub(crate) fn is_ready(db: &Connection) -> StoreResult<bool> {
    let pending: bool = db
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM search_backlog b JOIN meetings m ON m.seq = b.meeting)",
        )?
        .query_row([], |row| row.get(0))?;
    Ok(!pending)
}

/// Puts one meeting of the backlog into `segment_words` and its documents.
fn index_meeting(tx: &Transaction, seq: i64) -> StoreResult<()> {
    tx.prepare_cached("DELETE FROM search_backlog WHERE meeting = ?1")?.execute([seq])?;
    tx.prepare_cached(
        "INSERT INTO segment_words (rowid, text) SELECT seq, text FROM segments WHERE meeting = ?1",
    )?
    .execute([seq])?;
    write_documents(tx, seq)
}

/// Drops segments_fts and titles_fts (and their triggers): the new indexes
/// answer everything they did. Idempotent.
pub(crate) fn drop_old_indexes(tx: &Connection) -> StoreResult<()> {
    tx.execute_batch(
        "DROP TRIGGER IF EXISTS segments_ai; DROP TRIGGER IF EXISTS segments_ad; \
         DROP TRIGGER IF EXISTS segments_au; DROP TABLE IF EXISTS segments_fts; \
         DROP TRIGGER IF EXISTS titles_ai; DROP TRIGGER IF EXISTS titles_ad; \
         DROP TRIGGER IF EXISTS titles_au; DROP TABLE IF EXISTS titles_fts;",
    )?;
    Ok(())
}

/// Rebuilds the documents of the meetings the open transaction changed
/// (marked in `search_dirty` by triggers). Meetings still in the backlog are
/// left to the background build.
pub(crate) fn flush_dirty(tx: &Transaction) -> StoreResult<()> {
    let dirty: Vec<i64> = tx
        .prepare_cached("SELECT meeting FROM search_dirty")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    if dirty.is_empty() {
        return Ok(());
    }
    for seq in dirty {
        let waiting: bool = tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM search_backlog WHERE meeting = ?1)")?
            .query_row([seq], |row| row.get(0))?;
        if !waiting {
            write_documents(tx, seq)?;
        }
    }
    tx.prepare_cached("DELETE FROM search_dirty")?.execute([])?;
    Ok(())
}

/// Replaces a meeting's two documents (or removes them if it is gone).
fn write_documents(tx: &Transaction, seq: i64) -> StoreResult<()> {
    for sql in [
        "DELETE FROM meeting_words WHERE rowid = ?1",
        "DELETE FROM meeting_phrases WHERE rowid = ?1",
    ] {
        tx.prepare_cached(sql)?.execute([seq])?;
    }
    let title: Option<String> = tx
        .prepare_cached("SELECT title FROM meetings WHERE seq = ?1")?
        .query_row([seq], |row| row.get(0))
        .optional()?;
    let Some(title) = title else {
        return Ok(());
    };
    let transcript = joined(
        tx,
        "SELECT text FROM segments WHERE meeting = ?1 ORDER BY start_ms, seq",
        seq,
        LINE_BREAK,
    )?;
    let notes =
        joined(tx, "SELECT content_md FROM notes WHERE meeting = ?1 ORDER BY seq", seq, "\n\n")?;
    for sql in [
        "INSERT INTO meeting_words (rowid, title, transcript, notes) VALUES (?1, ?2, ?3, ?4)",
        "INSERT INTO meeting_phrases (rowid, title, transcript, notes) VALUES (?1, ?2, ?3, ?4)",
    ] {
        tx.prepare_cached(sql)?.execute(rusqlite::params![seq, title, transcript, notes])?;
    }
    Ok(())
}

fn joined(tx: &Transaction, sql: &str, seq: i64, separator: &str) -> StoreResult<String> {
    let mut text = String::new();
    let mut query = tx.prepare_cached(sql)?;
    let mut rows = query.query([seq])?;
    while let Some(row) = rows.next()? {
        if !text.is_empty() {
            text.push_str(separator);
        }
        let part: String = row.get(0)?;
        text.push_str(&part);
    }
    Ok(text)
}
