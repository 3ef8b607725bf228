//! Extractive ranking: which sentences carry the meeting.
//!
//! Each content term is weighted by how often the meeting used it, damped by how many
//! sentences it appears in (TF-IDF with the sentences as documents, so the topic words
//! of this meeting rise and one-off words stay low). A sentence scores the weight of
//! its distinct terms over the square root of their number, normalised to the best
//! sentence, then adjusted: very short or very long sentences, questions and small
//! talk lose; openings, decisions, summary cues and words of the meeting title gain.
//! Selection takes the best sentences, skips near-duplicates, and returns them in
//! spoken order; ties are broken by position, so the result is deterministic.

use std::collections::{BTreeMap, BTreeSet};

use crate::decisions::is_decision;
use crate::text::{content_terms, near_duplicate, term_set, words};
use crate::transcript::Sentence;

const SUMMARY_CUES: &[&str] = &[
    " the main ",
    " the goal ",
    " the key ",
    " the plan ",
    " in summary ",
    " to summarize ",
    " to sum up ",
    " overall ",
    " bottom line ",
    " the point ",
    " important ",
    " priority ",
    " the problem ",
    " the issue ",
    " agenda ",
];
const SMALL_TALK: &[&str] = &[
    " can you hear me ",
    " hear you ",
    " hear me ",
    " can you see my screen ",
    " how are you ",
    " good morning ",
    " good afternoon ",
    " hi everyone ",
    " hello everyone ",
    " thanks for joining ",
    " thank you all ",
    " see you ",
    " talk soon ",
    " talk to you later ",
    " talk later ",
    " catch you later ",
    " enjoy your ",
    " have a nice ",
    " have a good ",
    " have a great ",
    " you're on mute ",
    " you are on mute ",
    " bye ",
];
/// Sentences scoring below this share of the best one are not worth showing.
const FLOOR: f64 = 0.15;

/// One score per sentence, in sentence order.
pub(crate) fn rank(sentences: &[Sentence], title: &str) -> Vec<f64> {
    let count = sentences.len() as f64;
    let mut frequency: BTreeMap<&str, f64> = BTreeMap::new();
    let mut spread: BTreeMap<&str, f64> = BTreeMap::new();
    for sentence in sentences {
        for term in &sentence.terms {
            *frequency.entry(term).or_default() += 1.0;
        }
        for term in term_set(&sentence.terms) {
            *spread.entry(term).or_default() += 1.0;
        }
    }
    let weight = |term: &str| {
        let tf = frequency.get(term).copied().unwrap_or_default();
        let df = spread.get(term).copied().unwrap_or(1.0).max(1.0);
        (tf - 0.5).max(0.0) * (1.0 + count / df).ln()
    };
    let raw: Vec<f64> = sentences
        .iter()
        .map(|sentence| {
            let distinct = term_set(&sentence.terms);
            if distinct.is_empty() {
                return 0.0;
            }
            let total: f64 = distinct.iter().map(|term| weight(term)).sum();
            total / (distinct.len() as f64).sqrt()
        })
        .collect();
    let best = raw.iter().copied().fold(0.0, f64::max);
    let title_terms: Vec<String> = content_terms(title);
    let title_terms: BTreeSet<&str> = term_set(&title_terms);
    sentences
        .iter()
        .zip(raw)
        .map(|(sentence, raw)| {
            let position =
                if sentences.len() > 1 { sentence.index as f64 / (count - 1.0) } else { 0.0 };
            let base = if best > 0.0 { raw / best } else { 0.0 };
            base * adjustment(sentence, position, &title_terms)
        })
        .collect()
}

fn adjustment(sentence: &Sentence, position: f64, title_terms: &BTreeSet<&str>) -> f64 {
    let mut factor = match sentence.word_count {
        0..=3 => 0.1,
        4..=5 => 0.5,
        6..=7 => 0.9,
        8..=40 => 1.0,
        long => 40.0 / long as f64,
    };
    if sentence.is_question() {
        factor *= 0.6;
    }
    if position < 0.15 {
        factor *= 1.1;
    } else if position > 0.85 {
        factor *= 1.05;
    }
    let spoken = format!(" {} ", words(&sentence.text).join(" "));
    if is_decision(&sentence.text) {
        factor *= 1.5;
    }
    if SUMMARY_CUES.iter().any(|cue| spoken.contains(cue)) {
        factor *= 1.15;
    }
    if is_small_talk(sentence) {
        factor *= 0.3;
    }
    let distinct = term_set(&sentence.terms);
    let shared = distinct.intersection(title_terms).count().min(2);
    factor *= 1.0 + 0.15 * shared as f64;
    if (distinct.len() as f64) < 0.2 * sentence.word_count as f64 {
        factor *= 0.6;
    }
    factor
}

/// Whether a sentence is small talk ("can you hear me", "see you").
pub(crate) fn is_small_talk(sentence: &Sentence) -> bool {
    let spoken = format!(" {} ", words(&sentence.text).join(" "));
    SMALL_TALK.iter().any(|cue| spoken.contains(cue))
}

/// How many topics a summary names: three, rising gently to five for long meetings.
pub(crate) fn summary_size(sentences: usize) -> usize {
    (3 + sentences.saturating_sub(15) / 25).min(5)
}

/// How many key points to show: about a third of the sentences, between three and six.
pub(crate) fn key_point_size(sentences: usize) -> usize {
    sentences.div_ceil(3).clamp(3, 6)
}

/// The indexes of the `limit` best distinct sentences, in spoken order. Never empty
/// when there are sentences: with nothing above the floor, the longest one is kept.
pub(crate) fn select(sentences: &[Sentence], scores: &[f64], limit: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sentences.len().min(scores.len())).collect();
    order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b)));
    let best = order.first().map_or(0.0, |at| scores[*at]);
    let mut chosen: Vec<usize> = Vec::new();
    for at in order {
        if chosen.len() >= limit || scores[at] <= 0.0 || scores[at] < FLOOR * best {
            break;
        }
        let terms = term_set(&sentences[at].terms);
        let repeats = chosen.iter().any(|other| {
            near_duplicate(&terms, &term_set(&sentences[*other].terms))
                || words(&sentences[*other].text) == words(&sentences[at].text)
        });
        if !repeats {
            chosen.push(at);
        }
    }
    if chosen.is_empty() {
        let longest = (0..sentences.len()).rev().max_by_key(|at| sentences[*at].word_count);
        chosen.extend(longest);
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::sentences;
    use crate::Line;

    fn meeting(texts: &[&str]) -> Vec<Sentence> {
        let lines: Vec<Line> = texts
            .iter()
            .enumerate()
            .map(|(at, text)| Line {
                speaker: if at % 2 == 0 { "Me" } else { "Them" }.into(),
                start_ms: at as i64 * 1000,
                end_ms: at as i64 * 1000 + 900,
                text: (*text).into(),
            })
            .collect();
        sentences(&lines)
    }

    #[test]
    fn topic_sentences_outrank_small_talk() {
        let sentences = meeting(&[
            "Hi, can you hear me?",
            "The migration to the new billing database slipped a week.",
            "The billing database migration needs a rollback plan.",
            "I had a sandwich for lunch today.",
            "Once the billing migration lands we can retire the old database.",
        ]);
        let scores = rank(&sentences, "Billing migration");
        let picked = select(&sentences, &scores, 2);
        assert_eq!(picked.len(), 2);
        assert!(picked.iter().all(|at| sentences[*at].text.contains("billing")), "{picked:?}");
    }

    #[test]
    fn near_duplicates_are_skipped_and_order_is_spoken_order() {
        let sentences = meeting(&[
            "The vendor contract renewal is due in March.",
            "The vendor contract renewal is due in March, right.",
            "Security review of the vendor contract is still open.",
        ]);
        let scores = rank(&sentences, "");
        let picked = select(&sentences, &scores, 3);
        assert_eq!(picked.len(), 2);
        assert!(picked.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn sizes_scale_gently() {
        assert_eq!(summary_size(4), 3);
        assert_eq!(summary_size(60), 4);
        assert_eq!(summary_size(500), 5);
        assert_eq!(key_point_size(5), 3);
        assert_eq!(key_point_size(100), 6);
    }
}
