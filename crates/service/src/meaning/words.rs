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

const STOPWORDS: &[&str] = &[
    "about", "after", "again", "all", "and", "any", "are", "before", "but", "can", "could", "did",
    "does", "for", "from", "had", "has", "have", "how", "into", "its", "not", "our", "should",
    "that", "the", "their", "them", "then", "there", "they", "this", "was", "were", "what", "when",
    "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// Lines ranked by the share of the question's words they hold.
pub fn lines_with_most_words(
    store: &Store,
    question: &str,
    scope: Scope,
    meeting: Option<&MeetingId>,
) -> StoreResult<Vec<Found>> {
    let words = content_words(question);
    let mut lines: HashMap<(String, i64), (Found, usize)> = HashMap::new();
    for word in &words {
        for hit in store.search(word, PER_WORD)? {
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
            let line = SegmentRecord {
                id: 0,
                edited: false,
                channel,
                start_ms,
                end_ms,
                text: strip_match_sentinels(&hit.snippet),
                speaker,
            };
            let entry = lines.entry(key).or_insert_with(|| {
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
                (Found { record, score: 0.0 }, 0)
            });
            entry.1 += 1;
        }
    }
    let mut found: Vec<Found> = lines
        .into_values()
        .map(|(mut found, count)| {
            found.score = count as f32 / words.len().max(1) as f32;
            found
        })
        .collect();
    found.sort_by(|a, b| {
        b.score.total_cmp(&a.score).then(b.record.started_at.cmp(&a.record.started_at))
    });
    found.truncate(6);
    Ok(found)
}

/// The question's words worth searching: three letters or more, not the
/// commonest English words.
fn content_words(question: &str) -> Vec<String> {
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
}
