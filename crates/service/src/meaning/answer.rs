//! Answers written by the built-in engine: the transcript lines of the best
//! passages that are nearest the question (the best one with the line said
//! after it), each with who said it and where, in the order they were said;
//! and the citations of passages a provider was given.

use recorder_api_types::Citation;
use recorder_domain::text::clock;
use recorder_embed::{quantize, Embedder};
use recorder_store::{PassageContent, SegmentRecord};

use crate::meaning::retrieve::Found;

/// Lines an answer quotes at most.
const QUOTED: usize = 3;
/// Passages whose lines are weighed.
const PASSAGES: usize = 4;
/// Lines quoted score at least this share of the best line's score.
const NEAR_BEST: f32 = 0.8;
/// Below this cosine a passage does not answer anything (all-MiniLM-L6-v2:
/// a paraphrase scores about 0.25–0.55, another subject about 0.15–0.35;
/// bench/fixtures/meaning_set.json).
pub const RELEVANT: f32 = 0.2;

pub const NOTHING: &str = "Nothing in your meetings answers that.";

/// A line that may be quoted, with where it comes from.
struct Quote<'a> {
    found: &'a Found,
    line: &'a SegmentRecord,
    score: f32,
}

/// The built-in answer to `question` (its embedding) from `found`.
pub fn builtin(
    question: &[f32],
    found: &[Found],
    embedder: Option<&Embedder>,
    user_name: &str,
) -> (String, Vec<Citation>) {
    let mut quotes: Vec<Quote> = Vec::new();
    for passage in found.iter().filter(|f| f.score >= RELEVANT).take(PASSAGES) {
        if let PassageContent::Transcript(lines) = &passage.record.content {
            for line in lines.iter().filter(|l| l.text.split_whitespace().count() >= 3) {
                quotes.push(Quote { found: passage, line, score: passage.score });
            }
        }
    }
    if let Some(embedder) = embedder {
        let texts: Vec<&str> = quotes.iter().map(|q| q.line.text.as_str()).collect();
        for (quote, vector) in quotes.iter_mut().zip(embedder.embed(&texts)) {
            quote.score = 0.7 * quantize::dot(question, &vector) + 0.3 * quote.score;
        }
    }
    quotes.sort_by(|a, b| b.score.total_cmp(&a.score));
    let Some(best) = quotes.first().map(|q| q.score) else {
        return (NOTHING.to_string(), Vec::new());
    };
    quotes.retain(|q| q.score >= best * NEAR_BEST);
    quotes.truncate(QUOTED);
    // The best line with the line said after it: an answer often follows
    // the line that names the subject ("Sam is away in August." "Priya
    // covers for him.").
    if let Some(next) = following(&quotes[0]) {
        if !quotes.iter().any(|q| std::ptr::eq(q.line, next.line)) {
            quotes.push(next);
        }
    }
    // Read in the order they were said: a meeting's lines together, in time.
    let order: Vec<String> = quotes.iter().map(|q| q.found.record.meeting_id.to_string()).collect();
    quotes.sort_by_key(|q| {
        let meeting = order.iter().position(|m| *m == q.found.record.meeting_id.as_str());
        (meeting, q.line.start_ms)
    });
    let citations: Vec<Citation> = quotes
        .iter()
        .map(|quote| Citation {
            meeting_id: quote.found.record.meeting_id.clone(),
            title: quote.found.record.meeting_title.clone(),
            start_ms: quote.line.start_ms,
            end_ms: quote.line.end_ms,
            speaker: quote.line.speaker_name(user_name),
            text: quote.line.text.trim().to_string(),
        })
        .collect();
    let answer = citations
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "{} said in “{}” at {}: “{}” [{}]",
                c.speaker,
                c.title,
                clock(c.start_ms),
                c.text,
                i + 1
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    (answer, citations)
}

/// The line after `quote` in its passage, as a quote.
fn following<'a>(quote: &Quote<'a>) -> Option<Quote<'a>> {
    let PassageContent::Transcript(lines) = &quote.found.record.content else { return None };
    let at = lines.iter().position(|l| std::ptr::eq(l, quote.line))?;
    let line = lines.get(at + 1).filter(|l| !l.text.trim().is_empty())?;
    Some(Quote { found: quote.found, line, score: 0.0 })
}

/// A passage given to a provider as a citation: its span, its main speaker.
pub fn passage_citation(found: &Found, user_name: &str) -> Citation {
    let record = &found.record;
    let speaker = match &record.content {
        PassageContent::Transcript(lines) => main_speaker(lines, user_name),
        PassageContent::Note { .. } => "Notes".to_string(),
    };
    Citation {
        meeting_id: record.meeting_id.clone(),
        title: record.meeting_title.clone(),
        start_ms: record.start_ms,
        end_ms: record.end_ms,
        speaker,
        text: found.text(),
    }
}

/// Who says the most words in `lines`.
pub fn main_speaker(lines: &[SegmentRecord], user_name: &str) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for line in lines {
        let name = line.speaker_name(user_name);
        let words = line.text.split_whitespace().count();
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 += words,
            None => counts.push((name, words)),
        }
    }
    counts.into_iter().max_by_key(|(_, words)| *words).map(|(name, _)| name).unwrap_or_default()
}

/// The citations an answer refers to as `[n]`; all of them when it names none.
pub fn referenced(answer: &str, citations: Vec<Citation>) -> Vec<Citation> {
    let named: Vec<usize> =
        (1..=citations.len()).filter(|n| answer.contains(&format!("[{n}]"))).collect();
    if named.is_empty() {
        return citations;
    }
    citations
        .into_iter()
        .enumerate()
        .filter(|(i, _)| named.contains(&(i + 1)))
        .map(|(_, c)| c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn citation(text: &str) -> Citation {
        Citation {
            meeting_id: recorder_domain::MeetingId::generate(),
            title: "t".into(),
            start_ms: 0,
            end_ms: 1,
            speaker: "Dana".into(),
            text: text.into(),
        }
    }

    #[test]
    fn an_answer_keeps_the_citations_it_names_or_all() {
        let all = vec![citation("a"), citation("b"), citation("c")];
        let kept = referenced("We move in May [2], says Dana [3].", all.clone());
        assert_eq!(kept.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["b", "c"]);
        assert_eq!(referenced("No numbers here.", all).len(), 3);
    }

    #[test]
    fn the_main_speaker_says_the_most_words() {
        let line = |speaker: Option<&str>, text: &str| SegmentRecord {
            id: 0,
            edited: false,
            channel: recorder_domain::Channel::Sys,
            start_ms: 0,
            end_ms: 1,
            text: text.into(),
            speaker: speaker.map(String::from),
        };
        let lines = [
            line(Some("Dana"), "one two"),
            line(None, "a b c d"),
            line(Some("Dana"), "three four five"),
        ];
        assert_eq!(main_speaker(&lines, "Me"), "Dana");
        assert!(builtin(&[0.0; 384], &[], None, "Me").1.is_empty());
    }
}
