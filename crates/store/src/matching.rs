//! Which meetings match a search, newest first, and how many: from the
//! meeting-level index (one entry per meeting) once it is complete, else from
//! the line-level indexes (one entry per matching line), as before it existed.

use std::collections::HashSet;

use rusqlite::{params, Connection};

use crate::search::Query;
use crate::StoreResult;

/// The part of the matching meetings wanted: within `from..to` (ms of
/// `started_at`), after `after` (a page's last `(started_at, seq)`), then
/// `offset` and `limit`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Window {
    pub from: Option<i64>,
    pub to: Option<i64>,
    pub after: Option<(i64, i64)>,
    pub offset: i64,
    pub limit: i64,
}

/// The seqs of the wanted meetings, newest first, and how many match in all
/// (within the time bounds).
pub(crate) fn page(
    db: &Connection,
    query: &Query,
    window: &Window,
) -> StoreResult<(Vec<i64>, i64)> {
    if !crate::index::is_ready(db)? {
        return page_from_lines(db, query, window);
    }
    let table = if query.has_phrase() { "meeting_phrases" } else { "meeting_words" };
    match page_from_documents(db, table, query, window) {
        // A term Rust sees as one word may be two tokens to FTS5, a phrase
        // meeting_words (no positions) cannot answer.
        Err(crate::StoreError::Sqlite(error)) if error.to_string().contains("detail!=full") => {
            page_from_documents(db, "meeting_phrases", query, window)
        }
        other => other,
    }
}

const TIME: &str = "(?2 IS NULL OR started_at >= ?2) AND (?3 IS NULL OR started_at < ?3)";

fn page_from_documents(
    db: &Connection,
    table: &str,
    query: &Query,
    window: &Window,
) -> StoreResult<(Vec<i64>, i64)> {
    let matching = format!("seq IN (SELECT rowid FROM {table} WHERE {table} MATCH ?1)");
    // One term matches the same meetings in any column as in one of them; the
    // plain expression walks one list instead of three.
    let expression = match query.terms() {
        1 => query.expression(),
        _ => query.per_column(),
    };
    let total = if window.from.is_none() && window.to.is_none() {
        // Documents exist only for existing meetings (both change in one
        // transaction): counting index entries is the count.
        db.prepare_cached(&format!("SELECT count(*) FROM {table} WHERE {table} MATCH ?1"))?
            .query_row([&expression], |row| row.get(0))?
    } else {
        db.prepare_cached(&format!("SELECT count(*) FROM meetings WHERE {matching} AND {TIME}"))?
            .query_row(params![expression, window.from, window.to], |row| row.get(0))?
    };
    let (after_start, after_seq) = window.after.unzip();
    let sql = format!(
        "SELECT seq FROM meetings WHERE {matching} AND {TIME} \
         AND (?4 IS NULL OR started_at < ?4 OR (started_at = ?4 AND seq < ?5)) \
         ORDER BY started_at DESC, seq DESC LIMIT ?6 OFFSET ?7"
    );
    let seqs = db
        .prepare_cached(&sql)?
        .query_map(
            params![
                expression,
                window.from,
                window.to,
                after_start,
                after_seq,
                window.limit,
                window.offset
            ],
            |row| row.get(0),
        )?
        .collect::<Result<_, _>>()?;
    Ok((seqs, total))
}

/// Meetings (by seq) with a transcript line, note or title matching `?1`.
const MATCHING_LINES: [&str; 3] = [
    "SELECT s.meeting FROM segments_fts JOIN segments s ON s.seq = segments_fts.rowid \
     WHERE segments_fts MATCH ?1",
    "SELECT n.meeting FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid WHERE notes_fts MATCH ?1",
    "SELECT rowid FROM titles_fts WHERE titles_fts MATCH ?1",
];

/// Before the meeting-level index is complete: the set of matching meetings is
/// collected from every matching line, then the meetings are paged in order.
fn page_from_lines(
    db: &Connection,
    query: &Query,
    window: &Window,
) -> StoreResult<(Vec<i64>, i64)> {
    let expression = query.expression();
    let mut matching = HashSet::new();
    for sql in MATCHING_LINES {
        let mut statement = db.prepare_cached(sql)?;
        for seq in statement.query_map([&expression], |row| row.get::<_, i64>(0))? {
            matching.insert(seq?);
        }
    }
    let mut ordered = db.prepare_cached(&format!(
        "SELECT started_at, seq FROM meetings WHERE ?1 IS NULL AND {TIME} \
         ORDER BY started_at DESC, seq DESC"
    ))?;
    let in_order: Vec<(i64, i64)> = ordered
        .query_map(params![None::<i64>, window.from, window.to], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?
        .filter_map(|row| row.ok().filter(|(_, seq)| matching.contains(seq)))
        .collect();
    let total = in_order.len() as i64;
    let seqs = in_order
        .into_iter()
        .filter(|key| window.after.is_none_or(|after| *key < after))
        .skip(window.offset.max(0) as usize)
        .take(window.limit.max(0) as usize)
        .map(|(_, seq)| seq)
        .collect();
    Ok((seqs, total))
}
