//! Key points: one condensed point per topic the summary names, then the next most
//! central sentences, at most six, in spoken order.
//!
//! A sentence can make a point when it is not a question, small talk or a short
//! reply, and did not give a decision or an action item (those have their own notes).
//! The point is the sentence condensed (`condense`) with its speaker.

use crate::condense::condense;
use crate::outline::Outline;
use crate::owners::is_named_speaker;
use crate::scoring::{is_small_talk, key_point_size, select, summary_size};
use crate::text::{near_duplicate, term_set};
use crate::topics::main_topics;
use crate::transcript::Sentence;

/// The fewest words of a sentence that makes a point.
const MIN_WORDS: usize = 5;

/// The key points of a meeting, each attributed to its speaker.
pub(crate) fn key_points(sentences: &[Sentence], outline: &Outline) -> Vec<String> {
    let taken = outline.taken();
    let points: Vec<Option<String>> = sentences
        .iter()
        .map(|sentence| {
            let usable = !taken.contains(&sentence.index)
                && !sentence.is_question()
                && sentence.word_count >= MIN_WORDS
                && !is_small_talk(sentence);
            usable.then(|| point(sentence)).flatten()
        })
        .collect();
    let scores: Vec<f64> = outline
        .scores
        .iter()
        .zip(&points)
        .map(|(score, point)| if point.is_some() { *score } else { 0.0 })
        .collect();
    let limit = key_point_size(sentences.len());
    let mut chosen: Vec<usize> = Vec::new();
    let mut topics = main_topics(&outline.topics, summary_size(sentences.len()));
    topics.sort_by_key(|topic| std::cmp::Reverse(topic.weight()));
    let per_topic = topics.iter().filter_map(|topic| best(&topic.sentences, &scores));
    for at in per_topic.chain(select(sentences, &scores, limit)) {
        if chosen.len() < limit && scores[at] > 0.0 && !repeats(sentences, &chosen, at) {
            chosen.push(at);
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().filter_map(|at| points[at].clone()).collect()
}

fn point(sentence: &Sentence) -> Option<String> {
    let speaker = sentence.speaker.as_str();
    let named = is_named_speaker(speaker) && !speaker.eq_ignore_ascii_case("me");
    condense(&sentence.text, speaker, named)
}

/// The most central sentence of a topic that makes a point; the earliest on a tie.
fn best(indexes: &[usize], scores: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for at in indexes.iter().copied().filter(|at| scores[*at] > 0.0) {
        if best.is_none_or(|top| scores[at] > scores[top]) {
            best = Some(at);
        }
    }
    best
}

/// Whether sentence `at` is already chosen or says what a chosen one says.
fn repeats(sentences: &[Sentence], chosen: &[usize], at: usize) -> bool {
    let terms = term_set(&sentences[at].terms);
    chosen
        .iter()
        .any(|other| *other == at || near_duplicate(&terms, &term_set(&sentences[*other].terms)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::sentences;
    use crate::{Context, Line};

    #[test]
    fn decisions_tasks_questions_and_small_talk_make_no_points() {
        let lines: Vec<Line> = [
            ("Dana", "Hi, can you hear me?"),
            ("Me", "The vendor raised the price of the analytics contract by twenty percent."),
            ("Dana", "Should we look for another analytics vendor?"),
            ("Me", "Let's go with the cheaper analytics vendor from next month."),
            ("Dana", "I'll send the cancellation notice to the old vendor on Friday."),
            ("Me", "I was on vacation last week, by the way."),
        ]
        .iter()
        .enumerate()
        .map(|(at, (speaker, text))| Line {
            speaker: (*speaker).into(),
            start_ms: at as i64,
            end_ms: at as i64,
            text: (*text).into(),
        })
        .collect();
        let sentences = sentences(&lines);
        let context = Context { user_name: "Me".into(), ..Context::default() };
        let outline = Outline::new(&sentences, &context);
        let points = key_points(&sentences, &outline);
        assert_eq!(
            points[0],
            "The vendor raised the price of the analytics contract by twenty percent (Me)"
        );
        assert!(
            points.iter().all(|p| !p.contains("hear")
                && !p.contains("Let's")
                && !p.contains("cancellation")),
            "{points:?}"
        );
    }
}
