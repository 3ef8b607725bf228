//! Full-text search. User text never reaches FTS5 as syntax: [`fts_query`] turns it
//! into a conjunction of quoted strings, so `NEAR(`, `AND`, `-`, stray quotes or
//! asterisks can never cause a query error.

use recorder_domain::text::{MATCH_END, MATCH_START};
use recorder_domain::{Channel, MeetingId, NoteId};
use rusqlite::{params, Connection, OptionalExtension};

use crate::{StoreError, StoreResult};

/// At most this many terms are searched; longer queries keep their first terms.
const MAX_TERMS: usize = 64;
/// Tokens of context around the matches in a snippet.
const SNIPPET_TOKENS: i64 = 16;
/// A prefix standing for more words than this is left to FTS5's own prefix search.
const MAX_EXPANSION: i64 = 64;

/// Where a search hit was found.
#[derive(Debug, Clone, PartialEq)]
pub enum HitSource {
    /// `speaker`: the segment's speaker label when the other side's speakers
    /// are told apart (see [`crate::SegmentRecord::speaker`]).
    Transcript {
        start_ms: i64,
        end_ms: i64,
        channel: Channel,
        speaker: Option<String>,
    },
    Note {
        note_id: NoteId,
    },
}

/// One search hit. `snippet` marks matches with the sentinels of
/// `recorder_domain::text`; the API turns them into `<mark>` after escaping.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub meeting_id: MeetingId,
    pub meeting_title: String,
    pub started_at: i64,
    pub source: HitSource,
    pub snippet: String,
}

/// User text as search terms: words, `"quoted phrases"`, each maybe a prefix.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Query {
    terms: Vec<Term>,
}

#[derive(Debug, Clone, PartialEq)]
struct Term {
    /// The text inside the quotes (quotes not yet doubled).
    text: String,
    prefix: bool,
}

impl Query {
    /// Parses user text; `None` when no searchable word is left.
    pub(crate) fn parse(input: &str) -> Option<Query> {
        let terms: Vec<Term> = split_terms(input)
            .into_iter()
            .filter_map(|(text, prefix)| clean_term(&text).map(|text| Term { text, prefix }))
            .take(MAX_TERMS)
            .collect();
        (!terms.is_empty()).then_some(Query { terms })
    }

    /// Every term, ANDed.
    pub(crate) fn expression(&self) -> String {
        self.terms.iter().map(Term::quoted).collect::<Vec<_>>().join(" ")
    }

    /// How many terms there are.
    pub(crate) fn terms(&self) -> usize {
        self.terms.len()
    }

    /// Every term in one column of a meeting's documents: the title, the
    /// transcript or the notes.
    pub(crate) fn per_column(&self) -> String {
        let all = self.expression();
        format!("{{title}} : ({all}) OR {{transcript}} : ({all}) OR {{notes}} : ({all})")
    }

    /// True when a term may be more than one token (a phrase), which needs an
    /// index with positions.
    pub(crate) fn has_phrase(&self) -> bool {
        self.terms.iter().any(|term| !term.text.chars().all(char::is_alphanumeric))
    }

    /// [`Query::expression`] with long prefixes (4 letters or more; shorter ones
    /// have their own prefix index) replaced by the words they stand for, read
    /// from the vocabulary of `meeting_words`: FTS5 then walks each word's list
    /// newest first and stops at the limit instead of merging every list.
    /// `joiner` is `" AND "` (every term: FTS5 has no implicit AND after a
    /// parenthesised group) or `" OR "` (any term).
    pub(crate) fn expanded(&self, db: &Connection, joiner: &str) -> StoreResult<String> {
        let mut parts = Vec::with_capacity(self.terms.len());
        for term in &self.terms {
            parts.push(match term.expansion(db)? {
                Some(words) => words,
                None => term.quoted(),
            });
        }
        Ok(parts.join(joiner))
    }
}

impl Term {
    fn quoted(&self) -> String {
        let quoted = format!("\"{}\"", self.text.replace('"', "\"\""));
        if self.prefix {
            quoted + "*"
        } else {
            quoted
        }
    }

    fn expansion(&self, db: &Connection) -> StoreResult<Option<String>> {
        let folded = self.text.to_lowercase();
        let simple = folded.chars().all(|c| c.is_ascii_alphanumeric());
        if !self.prefix || !simple || folded.len() < 4 {
            return Ok(None);
        }
        let mut upper = folded.clone().into_bytes();
        if let Some(last) = upper.last_mut() {
            *last += 1;
        }
        let upper = String::from_utf8(upper).unwrap_or_default();
        let words: Vec<String> = db
            .prepare_cached(
                "SELECT term FROM meeting_vocab WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3",
            )?
            .query_map(params![folded, upper, MAX_EXPANSION + 1], |row| row.get(0))?
            .collect::<Result<_, _>>()?;
        if words.is_empty() || words.len() > MAX_EXPANSION as usize {
            return Ok(None);
        }
        let words: Vec<String> = words.iter().map(|word| format!("\"{word}\"")).collect();
        Ok(Some(format!("({})", words.join(" OR "))))
    }
}

/// Turns user text into a safe FTS5 expression: words are ANDed, `"quoted
/// phrases"` stay phrases, a trailing `*` makes a prefix search. Returns `None`
/// when no searchable word is left.
pub fn fts_query(input: &str) -> Option<String> {
    Query::parse(input).map(|query| query.expression())
}

/// Splits on white space, keeping `"…"` together. A missing closing quote ends the
/// phrase at the end of the input.
fn split_terms(input: &str) -> Vec<(String, bool)> {
    let mut terms = Vec::new();
    let mut chars = input.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let phrase: String = chars.by_ref().take_while(|c| *c != '"').collect();
            let prefix = chars.peek() == Some(&'*');
            terms.push((phrase, prefix));
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '"' {
                    break;
                }
                word.push(c);
                chars.next();
            }
            let prefix = word.ends_with('*');
            terms.push((word.trim_end_matches('*').to_string(), prefix));
        }
    }
    terms
}

fn clean_term(text: &str) -> Option<String> {
    if !text.chars().any(char::is_alphanumeric) {
        return None;
    }
    Some(text.chars().filter(|c| *c != MATCH_START && *c != MATCH_END && !c.is_control()).collect())
}

impl crate::Store {
    /// Searches transcript segments and notes. Newest first; `limit` per call.
    pub fn search(&self, input: &str, limit: i64) -> StoreResult<Vec<SearchHit>> {
        let Some(query) = Query::parse(input) else {
            return Ok(Vec::new());
        };
        self.read(|db| {
            let (table, expression) = transcript_index(db, &query, " AND ")?;
            let mut hits = segment_hits(db, table, &expression, Scope::Newest, limit)?;
            hits.extend(note_hits(db, &query.expression(), limit)?);
            hits.sort_by(|a, b| {
                b.started_at
                    .cmp(&a.started_at)
                    .then_with(|| a.meeting_id.cmp(&b.meeting_id))
                    .then_with(|| source_order(&a.source).cmp(&source_order(&b.source)))
            });
            hits.truncate(limit.max(0) as usize);
            Ok(hits)
        })
    }
}

/// The index of transcript lines to ask, and the expression for it (`joiner`
/// as in [`Query::expanded`]): the new `segment_words` (prefixes expanded) once
/// every meeting is in it, else the old `segments_fts`.
pub(crate) fn transcript_index(
    db: &Connection,
    query: &Query,
    joiner: &str,
) -> StoreResult<(&'static str, String)> {
    if crate::index::is_ready(db)? {
        Ok(("segment_words", query.expanded(db, joiner)?))
    } else {
        let terms: Vec<String> = query.terms.iter().map(Term::quoted).collect();
        Ok(("segments_fts", terms.join(joiner)))
    }
}

fn source_order(source: &HitSource) -> (u8, i64) {
    match source {
        HitSource::Note { .. } => (0, 0),
        HitSource::Transcript { start_ms, .. } => (1, *start_ms),
    }
}

/// Which transcript lines a search reads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scope {
    /// All, newest first.
    Newest,
    /// One meeting's (its lines' rowids lie in `first..=last`), in order.
    Meeting { seq: i64, first: i64, last: i64 },
}

const SEGMENT_HIT: &str = "SELECT m.id, m.title, m.started_at, s.start_ms, s.end_ms, s.channel, \
            snippet({t}, 0, ?3, ?4, '…', ?5), s.speaker, COALESCE(p.name, p.key) \
     FROM {t} JOIN segments s ON s.seq = {t}.rowid \
          JOIN meetings m ON m.seq = s.meeting \
          LEFT JOIN speakers p ON p.meeting = s.meeting AND p.number = s.speaker \
     WHERE {t} MATCH ?1";

pub(crate) fn segment_hits(
    db: &Connection,
    table: &str,
    expression: &str,
    scope: Scope,
    limit: i64,
) -> StoreResult<Vec<SearchHit>> {
    let base = SEGMENT_HIT.replace("{t}", table);
    let (first, second) = marks();
    let fixed = params![expression, limit, first, second, SNIPPET_TOKENS];
    match scope {
        // ORDER BY rowid lets FTS5 walk its doclist backwards and stop after
        // `limit` rows, so a word found in a million segments costs no more
        // than a rare one.
        Scope::Newest => {
            let sql = format!("{base} ORDER BY {table}.rowid DESC LIMIT ?2");
            let mut statement = db.prepare_cached(&sql)?;
            let hits = collect_segment_hits(statement.query(fixed)?);
            hits
        }
        Scope::Meeting { seq, first: low, last: high } => {
            let sql = format!(
                "{base} AND {table}.rowid BETWEEN ?6 AND ?7 AND s.meeting = ?8 \
                 ORDER BY {table}.rowid LIMIT ?2"
            );
            let mut statement = db.prepare_cached(&sql)?;
            let rows = statement.query(params![
                expression,
                limit,
                first,
                second,
                SNIPPET_TOKENS,
                low,
                high,
                seq
            ])?;
            collect_segment_hits(rows)
        }
    }
}

fn collect_segment_hits(mut rows: rusqlite::Rows) -> StoreResult<Vec<SearchHit>> {
    let mut hits = Vec::new();
    while let Some(row) = rows.next()? {
        let channel: String = row.get(5)?;
        let channel = Channel::parse(&channel)
            .ok_or_else(|| StoreError::Malformed(format!("channel {channel}")))?;
        let speaker = crate::rows::speaker_label(row.get(7)?, row.get(8)?);
        hits.push(SearchHit {
            meeting_id: row.get::<_, String>(0)?.into(),
            meeting_title: row.get(1)?,
            started_at: row.get(2)?,
            source: HitSource::Transcript {
                start_ms: row.get(3)?,
                end_ms: row.get(4)?,
                channel,
                speaker,
            },
            snippet: row.get(6)?,
        });
    }
    Ok(hits)
}

const NOTE_HIT: &str = "SELECT m.id, m.title, m.started_at, n.id, \
            snippet(notes_fts, 0, ?3, ?4, '…', ?5) \
     FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid \
          JOIN meetings m ON m.seq = n.meeting \
     WHERE notes_fts MATCH ?1";

fn note_hits(db: &Connection, expression: &str, limit: i64) -> StoreResult<Vec<SearchHit>> {
    let sql = format!("{NOTE_HIT} ORDER BY notes_fts.rowid DESC LIMIT ?2");
    let mut query = db.prepare_cached(&sql)?;
    let (first, second) = marks();
    let rows = query
        .query_map(params![expression, limit, first, second, SNIPPET_TOKENS], read_note_hit)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The notes of meeting `seq` that match, each looked up by its rowid (a
/// meeting has a few notes; the index may hold thousands that match).
pub(crate) fn meeting_note_hits(
    db: &Connection,
    expression: &str,
    seq: i64,
) -> StoreResult<Vec<SearchHit>> {
    let notes: Vec<i64> = db
        .prepare_cached("SELECT seq FROM notes WHERE meeting = ?1 ORDER BY seq")?
        .query_map([seq], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    let sql = format!("{NOTE_HIT} AND notes_fts.rowid = ?2");
    let mut query = db.prepare_cached(&sql)?;
    let (first, second) = marks();
    let mut hits = Vec::new();
    for note in notes {
        let found = query
            .query_row(params![expression, note, first, second, SNIPPET_TOKENS], read_note_hit)
            .optional()?;
        hits.extend(found);
    }
    Ok(hits)
}

fn read_note_hit(row: &rusqlite::Row) -> rusqlite::Result<SearchHit> {
    Ok(SearchHit {
        meeting_id: row.get::<_, String>(0)?.into(),
        meeting_title: row.get(1)?,
        started_at: row.get(2)?,
        source: HitSource::Note { note_id: row.get::<_, String>(3)?.into() },
        snippet: row.get(4)?,
    })
}

fn marks() -> (String, String) {
    (MATCH_START.to_string(), MATCH_END.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_and_anded() {
        assert_eq!(fts_query("budget review").as_deref(), Some("\"budget\" \"review\""));
    }

    #[test]
    fn phrases_and_prefixes() {
        assert_eq!(
            fts_query("\"quarterly plan\" budg*").as_deref(),
            Some("\"quarterly plan\" \"budg\"*")
        );
        assert_eq!(fts_query("\"open phrase").as_deref(), Some("\"open phrase\""));
    }

    #[test]
    fn syntax_characters_are_literal_or_dropped() {
        assert_eq!(fts_query("NEAR(a b)").as_deref(), Some("\"NEAR(a\" \"b)\""));
        assert_eq!(fts_query("say \"hi\"\"").as_deref(), Some("\"say\" \"hi\""));
        assert_eq!(fts_query("- * \" AND"), Some("\" AND\"".to_string()));
        assert_eq!(fts_query("  \"\" * -- "), None);
        assert_eq!(fts_query(""), None);
    }

    #[test]
    fn long_queries_are_capped() {
        let long = "word ".repeat(2000);
        let expression = fts_query(&long).expect("terms");
        assert_eq!(expression.matches("\"word\"").count(), MAX_TERMS);
    }
}
