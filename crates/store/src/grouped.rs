//! Search results grouped by meeting, for the library: the meetings that match
//! (the same set, order and count as the meeting list with `q`), each with how
//! many of its lines and notes match and its best passages, a page at a time
//! behind a cursor.

use recorder_domain::MeetingId;
use rusqlite::{params, Connection};

use crate::matching::{self, Window};
use crate::search::{meeting_note_hits, segment_hits, transcript_index, Query, Scope};
use crate::{SearchHit, StoreResult};

/// Where the next page starts: the last meeting shown, as `(started_at, seq)`.
/// Written as two hex numbers; a page is stable while meetings are added,
/// because it continues after a position, not an offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchCursor {
    started_at: i64,
    seq: i64,
}

impl SearchCursor {
    pub fn parse(text: &str) -> Option<SearchCursor> {
        let (started_at, seq) = text.split_once('.')?;
        Some(SearchCursor {
            started_at: i64::from_str_radix(started_at, 16).ok()?,
            seq: i64::from_str_radix(seq, 16).ok()?,
        })
    }
}

impl std::fmt::Display for SearchCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:x}.{:x}", self.started_at, self.seq)
    }
}

/// One meeting of the grouped results.
#[derive(Debug, Clone, PartialEq)]
pub struct MeetingMatches {
    pub meeting_id: MeetingId,
    pub meeting_title: String,
    pub started_at: i64,
    /// Lines and notes that contain every word (0 when only the title matches,
    /// or the words are spread over several lines).
    pub matches: i64,
    /// The best passages: notes, then lines with every word, then (when fewer)
    /// lines with some of the words; each group in the meeting's order.
    pub hits: Vec<SearchHit>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MatchesPage {
    pub meetings: Vec<MeetingMatches>,
    /// Meetings that match in all.
    pub total: i64,
    /// Pass back for the next page; `None` on the last.
    pub next_cursor: Option<SearchCursor>,
}

impl crate::Store {
    /// `limit` meetings that match `input`, newest first, after `cursor`, each
    /// with at most `passages` passages.
    pub fn search_meetings(
        &self,
        input: &str,
        limit: i64,
        passages: i64,
        cursor: Option<SearchCursor>,
    ) -> StoreResult<MatchesPage> {
        let Some(query) = Query::parse(input) else {
            return Ok(MatchesPage { meetings: Vec::new(), total: 0, next_cursor: None });
        };
        self.read(|db| {
            let window = Window {
                after: cursor.map(|c| (c.started_at, c.seq)),
                limit: limit + 1,
                ..Window::default()
            };
            let (mut seqs, total) = matching::page(db, &query, &window)?;
            let more = seqs.len() as i64 > limit;
            seqs.truncate(limit.max(0) as usize);
            let lines = Lines::of(db, &query)?;
            let mut meetings = Vec::with_capacity(seqs.len());
            let mut last = None;
            for seq in seqs {
                let (found, started_at) = meeting_matches(db, &lines, seq, passages)?;
                last = Some(SearchCursor { started_at, seq });
                meetings.push(found);
            }
            Ok(MatchesPage { meetings, total, next_cursor: last.filter(|_| more) })
        })
    }
}

/// The line index and expressions of a query, worked out once per page.
struct Lines {
    table: &'static str,
    /// Every word; for the notes (no expansion there).
    notes: String,
    /// Every word, prefixes expanded.
    every: String,
    /// Any word, when there are several.
    any: Option<String>,
}

impl Lines {
    fn of(db: &Connection, query: &Query) -> StoreResult<Lines> {
        let (table, every) = transcript_index(db, query, " AND ")?;
        let any = match query.terms() {
            1 => None,
            _ => Some(transcript_index(db, query, " OR ")?.1),
        };
        Ok(Lines { table, notes: query.expression(), every, any })
    }
}

fn meeting_matches(
    db: &Connection,
    lines: &Lines,
    seq: i64,
    passages: i64,
) -> StoreResult<(MeetingMatches, i64)> {
    let (meeting_id, meeting_title, started_at): (String, String, i64) = db
        .prepare_cached("SELECT id, title, started_at FROM meetings WHERE seq = ?1")?
        .query_row([seq], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?;
    let (first, last): (Option<i64>, Option<i64>) = db
        .prepare_cached("SELECT min(seq), max(seq) FROM segments WHERE meeting = ?1")?
        .query_row([seq], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let table = lines.table;
    let notes = meeting_note_hits(db, &lines.notes, seq)?;
    let mut matches = notes.len() as i64;
    let mut hits = notes;
    if let (Some(first), Some(last)) = (first, last) {
        let scope = Scope::Meeting { seq, first, last };
        matches += count_lines(db, table, &lines.every, seq, first, last)?;
        let wanted = passages - hits.len() as i64;
        if wanted > 0 {
            hits.extend(segment_hits(db, table, &lines.every, scope, wanted)?);
        }
        let wanted = passages - hits.len() as i64;
        if let (true, Some(any)) = (wanted > 0, &lines.any) {
            let some = segment_hits(db, table, any, scope, passages)?;
            let new: Vec<SearchHit> = some.into_iter().filter(|hit| !hits.contains(hit)).collect();
            hits.extend(new.into_iter().take(wanted as usize));
        }
    }
    hits.truncate(passages.max(0) as usize);
    Ok((
        MeetingMatches { meeting_id: meeting_id.into(), meeting_title, started_at, matches, hits },
        started_at,
    ))
}

fn count_lines(
    db: &Connection,
    table: &str,
    expression: &str,
    seq: i64,
    first: i64,
    last: i64,
) -> StoreResult<i64> {
    let sql = format!(
        "SELECT count(*) FROM {table} JOIN segments s ON s.seq = {table}.rowid \
         WHERE {table} MATCH ?1 AND {table}.rowid BETWEEN ?2 AND ?3 AND s.meeting = ?4"
    );
    Ok(db
        .prepare_cached(&sql)?
        .query_row(params![expression, first, last, seq], |row| row.get(0))?)
}
