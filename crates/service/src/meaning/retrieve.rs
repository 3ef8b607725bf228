//! The search by meaning itself (blocking): the question embedded, the nearest
//! sign codes of the in-memory index as candidates, re-ranked by their int8
//! vectors from the store, the best read back as passages. A meeting not
//! embedded yet (a recording, or one just finished) is embedded on the spot
//! when a question is about it alone.

use recorder_embed::index::Scope;
use recorder_embed::passages::{self, Line};
use recorder_embed::quantize::{self, Quantized};
use recorder_embed::Embedder;
use recorder_store::{
    EmbeddingSource, PassageContent, PassageRecord, SegmentRecord, Store, StoreResult,
};

use crate::meaning::Meaning;

/// Candidates taken from the binary index for the exact re-rank.
const CANDIDATES: usize = 256;

/// A passage found, with its cosine to the question.
#[derive(Debug, Clone)]
pub struct Found {
    pub record: PassageRecord,
    pub score: f32,
}

impl Found {
    /// The passage's text: its lines, or its note item.
    pub fn text(&self) -> String {
        match &self.record.content {
            PassageContent::Transcript(lines) => {
                lines.iter().map(|line| line.text.trim()).collect::<Vec<_>>().join(" ")
            }
            PassageContent::Note { markdown, item, .. } => {
                passages::note(markdown).into_iter().nth(*item as usize).unwrap_or_default()
            }
        }
    }
}

/// The `limit` passages nearest `question` within `scope`, best first.
pub fn nearest(
    store: &Store,
    meaning: &Meaning,
    question: &[f32],
    scope: Scope,
    limit: usize,
) -> StoreResult<Vec<Found>> {
    meaning.catch_up(store)?;
    let candidates = meaning.nearest(&quantize::code(question), scope, CANDIDATES.max(limit));
    let mut scored: Vec<(i64, f32)> = store
        .passage_vectors(&candidates)?
        .into_iter()
        .map(|stored| {
            (stored.passage, Quantized::from_bytes(stored.scale, &stored.vector).dot(question))
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.truncate(limit);
    let ids: Vec<i64> = scored.iter().map(|(passage, _)| *passage).collect();
    let records = store.passages(&ids)?;
    Ok(records
        .into_iter()
        .filter_map(|record| {
            let score = scored.iter().find(|(p, _)| *p == record.passage)?.1;
            Some(Found { record, score })
        })
        .collect())
}

/// A meeting's transcript passages embedded now (for one not embedded yet),
/// the `limit` nearest `question` first.
pub fn within_unembedded(
    source: &EmbeddingSource,
    meeting_title: &str,
    started_at: i64,
    embedder: &Embedder,
    question: &[f32],
    limit: usize,
) -> Vec<Found> {
    let lines = lines_of(&source.lines);
    let cut = passages::transcript(&lines);
    let texts: Vec<&str> = cut.iter().map(|p| p.text.as_str()).collect();
    let vectors = embedder.embed(&texts);
    let mut found: Vec<Found> = cut
        .iter()
        .zip(vectors)
        .map(|(passage, vector)| Found {
            record: PassageRecord {
                passage: 0,
                meeting: source.meeting,
                meeting_id: source.meeting_id.clone(),
                meeting_title: meeting_title.to_string(),
                started_at,
                start_ms: passage.start_ms,
                end_ms: passage.end_ms,
                content: PassageContent::Transcript(source.lines[passage.lines.clone()].to_vec()),
            },
            score: quantize::dot(&vector, question),
        })
        .collect();
    found.sort_by(|a, b| b.score.total_cmp(&a.score));
    found.truncate(limit);
    found
}

/// Segments as the passage cutter takes them.
pub fn lines_of(segments: &[SegmentRecord]) -> Vec<Line> {
    segments
        .iter()
        .map(|s| Line { start_ms: s.start_ms, end_ms: s.end_ms, text: s.text.clone() })
        .collect()
}
