//! Full-text search. User text never reaches FTS5 as syntax: [`fts_query`] turns it
//! into a conjunction of quoted strings, so `NEAR(`, `AND`, `-`, stray quotes or
//! asterisks can never cause a query error.

use recorder_domain::text::{MATCH_END, MATCH_START};
use recorder_domain::Channel;
use rusqlite::{params, Connection};

use crate::{StoreError, StoreResult};

/// At most this many terms are searched; longer queries keep their first terms.
const MAX_TERMS: usize = 64;
/// Tokens of context around the matches in a snippet.
const SNIPPET_TOKENS: i64 = 16;

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
        note_id: String,
    },
}

/// One search hit. `snippet` marks matches with the sentinels of
/// `recorder_domain::text`; the API turns them into `<mark>` after escaping.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub meeting_id: String,
    pub meeting_title: String,
    pub started_at: i64,
    pub source: HitSource,
    pub snippet: String,
}

/// Turns user text into a safe FTS5 expression: words are ANDed, `"quoted
/// phrases"` stay phrases, a trailing `*` makes a prefix search. Returns `None`
/// when no searchable word is left.
pub fn fts_query(input: &str) -> Option<String> {
    let terms: Vec<String> = split_terms(input)
        .into_iter()
        .filter_map(|(text, prefix)| quote_term(&text, prefix))
        .take(MAX_TERMS)
        .collect();
    (!terms.is_empty()).then(|| terms.join(" "))
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

fn quote_term(text: &str, prefix: bool) -> Option<String> {
    if !text.chars().any(char::is_alphanumeric) {
        return None;
    }
    let cleaned: String =
        text.chars().filter(|c| *c != MATCH_START && *c != MATCH_END && !c.is_control()).collect();
    let quoted = format!("\"{}\"", cleaned.replace('"', "\"\""));
    Some(if prefix { quoted + "*" } else { quoted })
}

impl crate::Store {
    /// Searches transcript segments and notes. Newest first; `limit` per call.
    pub fn search(&self, input: &str, limit: i64) -> StoreResult<Vec<SearchHit>> {
        let Some(expression) = fts_query(input) else {
            return Ok(Vec::new());
        };
        self.read(|db| {
            let mut hits = segment_hits(db, &expression, limit)?;
            hits.extend(note_hits(db, &expression, limit)?);
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

fn source_order(source: &HitSource) -> (u8, i64) {
    match source {
        HitSource::Note { .. } => (0, 0),
        HitSource::Transcript { start_ms, .. } => (1, *start_ms),
    }
}

fn segment_hits(db: &Connection, expression: &str, limit: i64) -> StoreResult<Vec<SearchHit>> {
    // ORDER BY rowid lets FTS5 walk its doclist backwards and stop after `limit`
    // rows, so a word found in a million segments costs no more than a rare one.
    let mut query = db.prepare_cached(
        "SELECT m.id, m.title, m.started_at, s.start_ms, s.end_ms, s.channel, \
                snippet(segments_fts, 0, ?3, ?4, '…', ?5), s.speaker, p.name \
         FROM segments_fts JOIN segments s ON s.seq = segments_fts.rowid \
              JOIN meetings m ON m.seq = s.meeting \
              LEFT JOIN speakers p ON p.meeting = s.meeting AND p.number = s.speaker \
         WHERE segments_fts MATCH ?1 ORDER BY segments_fts.rowid DESC LIMIT ?2",
    )?;
    let rows = query.query_map(
        params![expression, limit, marks().0, marks().1, SNIPPET_TOKENS],
        |row| {
            let channel: String = row.get(5)?;
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                channel,
                row.get(6)?,
                crate::parts::speaker_label(row.get(7)?, row.get(8)?),
            ))
        },
    )?;
    rows.map(|row| {
        let (meeting_id, meeting_title, started_at, start_ms, end_ms, channel, snippet, speaker) =
            row?;
        let channel = Channel::parse(&channel)
            .ok_or_else(|| StoreError::Malformed(format!("channel {channel}")))?;
        Ok(SearchHit {
            meeting_id,
            meeting_title,
            started_at,
            source: HitSource::Transcript { start_ms, end_ms, channel, speaker },
            snippet,
        })
    })
    .collect()
}

fn note_hits(db: &Connection, expression: &str, limit: i64) -> StoreResult<Vec<SearchHit>> {
    let mut query = db.prepare_cached(
        "SELECT m.id, m.title, m.started_at, n.id, snippet(notes_fts, 0, ?3, ?4, '…', ?5) \
         FROM notes_fts JOIN notes n ON n.seq = notes_fts.rowid \
              JOIN meetings m ON m.seq = n.meeting \
         WHERE notes_fts MATCH ?1 ORDER BY notes_fts.rowid DESC LIMIT ?2",
    )?;
    let rows = query.query_map(
        params![expression, limit, marks().0, marks().1, SNIPPET_TOKENS],
        |row| {
            Ok(SearchHit {
                meeting_id: row.get(0)?,
                meeting_title: row.get(1)?,
                started_at: row.get(2)?,
                source: HitSource::Note { note_id: row.get(3)? },
                snippet: row.get(4)?,
            })
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
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
