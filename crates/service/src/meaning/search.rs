//! `mode=meaning|both` of the searches: passages by meaning as search hits in
//! today's reply shape, and both rankings fused (a word hit inside a passage
//! found by meaning is one result, shown as the word hit).

use recorder_domain::text::{strip_match_sentinels, MATCH_END, MATCH_START};
use recorder_embed::fusion;
use recorder_embed::index::Scope;
use recorder_store::{HitSource, PassageContent, SearchHit};

use crate::meaning::retrieve::{self, Found};
use crate::state::AppState;

/// Below this cosine a passage is on another subject, not a result
/// (all-MiniLM-L6-v2: a paraphrase scores about 0.25–0.55, another subject
/// about 0.15–0.35; bench/fixtures/meaning_set.json).
pub const RELEVANT: f32 = 0.2;

/// Characters of a passage a result shows.
const SNIPPET: usize = 240;

/// The `limit` passages nearest `q` (blocking), those on another subject
/// left out; empty without the model. Also whether some ready meetings are
/// not embedded yet: those are searched by their words (a search as one
/// types embeds nothing; a question does, see `pending`).
pub fn by_meaning(
    state: &AppState,
    q: &str,
    limit: usize,
) -> recorder_store::StoreResult<(Vec<Found>, bool)> {
    let Some(embedder) = state.models.meaning.embedder() else { return Ok((Vec::new(), false)) };
    let unembedded = state.core.store.meaning_progress()?.remaining > 0;
    let vector = embedder.embed(&[q]).remove(0);
    let store = &state.core.store;
    let mut found =
        retrieve::nearest(store, &state.models.meaning, &vector, Scope::default(), limit)?;
    // Passages on another subject are not results.
    found.retain(|f| f.score >= RELEVANT);
    Ok((found, unembedded))
}

/// A passage as a search hit: the passage's span and main speaker, its text
/// cut to a snippet, the words of `q` it holds marked.
pub fn hit(found: &Found, q: &str) -> SearchHit {
    let record = &found.record;
    let source = match &record.content {
        PassageContent::Transcript(lines) => {
            let main = lines.iter().max_by_key(|l| l.text.split_whitespace().count());
            HitSource::Transcript {
                start_ms: record.start_ms,
                end_ms: record.end_ms,
                channel: main.map_or(recorder_domain::Channel::Sys, |l| l.channel),
                speaker: main.and_then(|l| l.speaker.clone()),
            }
        }
        PassageContent::Note { note_id, .. } => HitSource::Note { note_id: note_id.clone() },
    };
    SearchHit {
        meeting_id: record.meeting_id.clone(),
        meeting_title: record.meeting_title.clone(),
        started_at: record.started_at,
        source,
        snippet: marked(&found.text(), q),
    }
}

/// `text` cut to a snippet, whole words of `q` wrapped in the match sentinels.
fn marked(text: &str, q: &str) -> String {
    let words: Vec<String> = q
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .collect();
    let mut out = String::new();
    for (i, word) in strip_match_sentinels(text).split(' ').enumerate() {
        if out.chars().count() >= SNIPPET {
            out.push('…');
            break;
        }
        if i > 0 {
            out.push(' ');
        }
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        if !bare.is_empty() && words.contains(&bare) {
            out.push_str(&format!("{MATCH_START}{word}{MATCH_END}"));
        } else {
            out.push_str(word);
        }
    }
    out
}

/// Word hits and meaning hits fused by reciprocal rank; a word hit that falls
/// inside a passage found by meaning counts for both and is shown.
pub fn fuse(words: Vec<SearchHit>, meaning: Vec<Found>, q: &str, limit: usize) -> Vec<SearchHit> {
    let word_keys: Vec<usize> = (0..words.len()).collect();
    let meaning_keys: Vec<usize> = meaning
        .iter()
        .enumerate()
        .map(|(i, found)| words.iter().position(|w| inside(w, found)).unwrap_or(words.len() + i))
        .collect();
    fusion::fuse(&[word_keys, meaning_keys])
        .into_iter()
        .take(limit)
        .map(|(key, _)| match key.checked_sub(words.len()) {
            None => words[key].clone(),
            Some(i) => hit(&meaning[i], q),
        })
        .collect()
}

/// Whether a word hit is a line of a passage (or the same note).
fn inside(word: &SearchHit, found: &Found) -> bool {
    if word.meeting_id != found.record.meeting_id {
        return false;
    }
    match (&word.source, &found.record.content) {
        (HitSource::Transcript { start_ms, .. }, PassageContent::Transcript(_)) => {
            (found.record.start_ms..=found.record.end_ms).contains(start_ms)
        }
        (HitSource::Note { note_id }, PassageContent::Note { note_id: other, .. }) => {
            note_id == other
        }
        _ => false,
    }
}
