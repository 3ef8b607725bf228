//! Asking without the embedding model: the lines that hold most of the
//! question's words (each word searched alone, as search by words would).

use std::collections::HashMap;

use recorder_domain::text::strip_match_sentinels;
use recorder_embed::index::Scope;
use recorder_store::{
    HitSource, MeetingId, PassageContent, PassageRecord, SegmentRecord, Store, StoreResult,
};

use crate::meaning::retrieve::Found;

/// Words a question is searched by at most.
const WORDS: usize = 8;
/// Hits read per word.
const PER_WORD: i64 = 50;
/// Lines returned at most.
const LINES: usize = 12;

#[rustfmt::skip]
const STOPWORDS: &[&str] = &[
    "about", "after", "again", "all", "and", "any", "are", "before", "but", "can", "could", "did",
    "does", "for", "from", "had", "has", "have", "how", "into", "its", "not", "our", "should",
    "that", "the", "their", "them", "then", "there", "they", "this", "was", "were", "what", "when",
    "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your", "said", "say",
    "says", "tell", "told", "talk", "talked", "discuss", "discussed", "mention", "mentioned",
    "meeting", "meetings", "anyone", "someone", "what's", "who's", "we're", "going", "get", "got",
    "also", "just", "want", "wanted", "know", "doing", "thing", "things", "much", "many", "each",
    "one", "some", "very", "really", "still", "more", "most", "lot", "now", "right", "take",
];

/// The question's content words, each weighted by how rare it is in the
/// library (a word on every page says little about which line answers).
#[derive(Debug, Clone, Default)]
pub struct Weighted {
    pub words: Vec<(String, f32)>,
}

impl Weighted {
    /// The weighted share of the question's words that `text` holds (a word
    /// counts when a word of the text starts with it, or it with the text's
    /// word, at four letters or more: plurals and tenses).
    pub fn share(&self, text: &str) -> f32 {
        let total: f32 = self.words.iter().map(|(_, w)| w).sum();
        if total <= 0.0 {
            return 0.0;
        }
        let held: Vec<String> =
            text.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
        let found: f32 = self
            .words
            .iter()
            .filter(|(word, _)| held.iter().any(|h| same_word(h, word)))
            .map(|(_, w)| w)
            .sum();
        found / total
    }
}

fn same_word(held: &str, word: &str) -> bool {
    if held == word {
        return true;
    }
    let (short, long) = if held.len() < word.len() { (held, word) } else { (word, held) };
    short.chars().count() >= 4 && long.starts_with(short) && long.len() - short.len() <= 3
}

/// Lines ranked by the weighted share of the question's words they hold,
/// and the weights.
pub fn lines_with_most_words(
    store: &Store,
    question: &str,
    scope: Scope,
    meeting: Option<&MeetingId>,
) -> StoreResult<(Vec<Found>, Weighted)> {
    let words = content_words(question);
    let mut weighted = Weighted::default();
    let mut lines: HashMap<(String, i64), Found> = HashMap::new();
    for word in &words {
        let hits = store.search(&format!("{word}*"), PER_WORD)?;
        let weight =
            if hits.is_empty() { 1.0 } else { (1.0 + PER_WORD as f32 / hits.len() as f32).ln() };
        weighted.words.push((word.clone(), weight));
        for hit in hits {
            let HitSource::Transcript { start_ms, end_ms, channel, speaker } = hit.source else {
                continue;
            };
            let outside = meeting.is_some_and(|m| *m != hit.meeting_id)
                || scope.from.is_some_and(|from| hit.started_at < from)
                || scope.to.is_some_and(|to| hit.started_at >= to);
            if outside {
                continue;
            }
            let key = (hit.meeting_id.to_string(), start_ms);
            lines.entry(key).or_insert_with(|| {
                let line = SegmentRecord {
                    id: 0,
                    edited: false,
                    channel,
                    start_ms,
                    end_ms,
                    text: strip_match_sentinels(&hit.snippet),
                    speaker,
                };
                let record = PassageRecord {
                    passage: 0,
                    meeting: 0,
                    meeting_id: hit.meeting_id.clone(),
                    meeting_title: hit.meeting_title.clone(),
                    started_at: hit.started_at,
                    start_ms,
                    end_ms,
                    content: PassageContent::Transcript(vec![line]),
                };
                Found { record, score: 0.0 }
            });
        }
    }
    let mut found: Vec<Found> = lines
        .into_values()
        .map(|mut found| {
            found.score = weighted.share(&found.text());
            found
        })
        .filter(|found| found.score > 0.0)
        .collect();
    found.sort_by(|a, b| {
        b.score.total_cmp(&a.score).then(b.record.started_at.cmp(&a.record.started_at))
    });
    found.truncate(LINES);
    Ok((found, weighted))
}

/// The question's words worth searching: three letters or more, not the
/// commonest English words.
pub fn content_words(question: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for word in question.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase) {
        if word.chars().count() >= 3
            && !STOPWORDS.contains(&word.as_str())
            && !words.contains(&word)
        {
            words.push(word);
        }
    }
    words.truncate(WORDS);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_searched_by_their_content_words() {
        assert_eq!(
            content_words("What did we decide about the office move? The OFFICE!"),
            ["decide", "office", "move"]
        );
        assert!(content_words("who is it?").is_empty());
    }

    #[test]
    fn a_line_holds_the_weighted_share_of_the_words_plurals_and_tenses_too() {
        let weighted = Weighted { words: vec![("launch".into(), 3.0), ("plan".into(), 1.0)] };
        assert_eq!(weighted.share("The launches slipped."), 0.75);
        assert_eq!(weighted.share("We planned it."), 0.25);
        assert_eq!(weighted.share("A planetarium."), 0.0, "at most three letters more");
        assert_eq!(weighted.share("The plan: launch!"), 1.0);
        assert_eq!(Weighted::default().share("anything"), 0.0);
    }
}
