//! Rebuilds whole sentences from Whisper segments.
//!
//! Whisper cuts its output at pauses, not at sentence ends, so consecutive segments
//! of one speaker are joined into a turn first and the turn is then split at sentence
//! punctuation. Sound annotations ("[BLANK_AUDIO]", "(laughs)") and the well-known
//! silence hallucinations are dropped; a short backchannel from the other side ("mm-hmm")
//! that interrupts an unfinished sentence does not break it. Where punctuation is
//! missing, overlong sentences fall back to the segment boundaries.

use crate::text::{content_terms, words};
use crate::Line;

/// One sentence of the meeting, in spoken order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sentence {
    pub index: usize,
    pub speaker: String,
    pub text: String,
    pub terms: Vec<String>,
    pub word_count: usize,
}

impl Sentence {
    pub fn is_question(&self) -> bool {
        self.text.trim_end_matches(['"', '\u{201d}', ')']).ends_with('?')
    }
}

/// A run of segments by one speaker; `breaks` are the byte offsets where a later
/// segment was appended.
struct Turn {
    speaker: String,
    text: String,
    breaks: Vec<usize>,
}

const HALLUCINATIONS: &[&str] =
    &["thanks for watching", "thank you for watching", "please subscribe", "like and subscribe"];
const BACKCHANNEL: &[&str] = &[
    "mm-hmm", "mhm", "mm", "hmm", "uh-huh", "yeah", "yep", "yes", "right", "okay", "ok", "sure",
    "uh", "um", "cool", "got", "it",
];
const TITLES: &[&str] = &["mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr"];
const ABBREVIATIONS: &[&str] =
    &["e.g", "i.e", "etc", "vs", "approx", "incl", "a.m", "p.m", "fig", "inc", "ltd"];
/// Sentences longer than this are cut at segment boundaries when they have any.
const LONG_SENTENCE: usize = 40;
/// Chunks shorter than this are merged into a neighbour after such a cut.
const MIN_CHUNK: usize = 6;
/// Unpunctuated text with no usable boundary is cut into windows of this many words.
const WINDOW: usize = 30;

/// The sentences of a transcript. Lines are taken in start order (stable for ties).
pub(crate) fn sentences(lines: &[Line]) -> Vec<Sentence> {
    let mut ordered: Vec<&Line> = lines.iter().collect();
    ordered.sort_by_key(|line| line.start_ms);
    let mut sentences = Vec::new();
    for turn in turns(&ordered) {
        for text in split_turn(&turn) {
            let word_count = words(&text).len();
            if word_count == 0 {
                continue;
            }
            let terms = content_terms(&text);
            let index = sentences.len();
            sentences.push(Sentence {
                index,
                speaker: turn.speaker.clone(),
                text,
                terms,
                word_count,
            });
        }
    }
    sentences
}

fn speaker_name(raw: &str) -> String {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        "Speaker".to_string()
    } else {
        name
    }
}

/// Removes `[...]` annotations always and `(...)` ones of up to three words without digits.
fn clean_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(['[', '(']) {
        let close = if rest[open..].starts_with('[') { ']' } else { ')' };
        let Some(len) = rest[open + 1..].find(close) else {
            break;
        };
        let inner = &rest[open + 1..open + 1 + len];
        let annotation = close == ']'
            || (inner.split_whitespace().count() <= 3
                && !inner.chars().any(|c| c.is_ascii_digit()));
        out.push_str(&rest[..open]);
        if !annotation {
            out.push_str(&rest[open..open + 2 + len]);
        }
        out.push(' ');
        rest = &rest[open + 2 + len..];
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_hallucination(text: &str) -> bool {
    let joined = words(text).join(" ");
    HALLUCINATIONS.contains(&joined.as_str()) || joined.starts_with("subtitles by")
}

fn is_backchannel(text: &str) -> bool {
    let words = words(text);
    !words.is_empty() && words.len() <= 3 && words.iter().all(|w| BACKCHANNEL.contains(&w.as_str()))
}

fn ends_sentence(text: &str) -> bool {
    text.trim_end_matches(['"', '\u{201d}', ')']).ends_with(['.', '!', '?', '\u{2026}'])
}

fn turns(lines: &[&Line]) -> Vec<Turn> {
    let segments: Vec<(String, String)> = lines
        .iter()
        .map(|line| (speaker_name(&line.speaker), clean_segment(&line.text)))
        .filter(|(_, text)| !text.is_empty() && !is_hallucination(text))
        .collect();
    let mut turns: Vec<Turn> = Vec::new();
    for (at, (speaker, text)) in segments.iter().enumerate() {
        if let (Some(last), Some((next_speaker, _))) = (turns.last(), segments.get(at + 1)) {
            let interrupts = last.speaker != *speaker && *next_speaker == last.speaker;
            if interrupts && !ends_sentence(&last.text) && is_backchannel(text) {
                continue;
            }
        }
        match turns.last_mut() {
            Some(last) if last.speaker == *speaker => {
                last.text.push(' ');
                last.breaks.push(last.text.len());
                last.text.push_str(text);
            }
            _ => turns.push(Turn {
                speaker: speaker.clone(),
                text: text.clone(),
                breaks: Vec::new(),
            }),
        }
    }
    turns
}

fn is_terminal(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '\u{2026}')
}

fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\u{201d}' | '\u{2019}' | '\'' | ')')
}

/// Whether a run of terminal punctuation ends a sentence, given the text before it
/// and after it.
fn is_boundary(before: &str, run: &str, after: &str) -> bool {
    let previous = before.split_whitespace().last().unwrap_or_default();
    let previous = previous.trim_start_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    let next_lower = after.trim_start().chars().next().is_some_and(char::is_lowercase);
    if run == "." {
        if TITLES.contains(&previous.as_str()) {
            return false;
        }
        if ABBREVIATIONS.contains(&previous.as_str()) && next_lower {
            return false;
        }
        let initial = previous.len() == 1 && !matches!(previous.as_str(), "i" | "a");
        if initial && previous.chars().all(char::is_alphabetic) {
            return false;
        }
    }
    let ellipsis = run.starts_with("..") || run.starts_with('\u{2026}');
    !(ellipsis && next_lower)
}

/// Byte ranges of the punctuated sentences of a text.
fn sentence_ranges(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut ranges = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < chars.len() {
        let (position, c) = chars[at];
        if !is_terminal(c) {
            at += 1;
            continue;
        }
        let mut end_at = at;
        while end_at < chars.len() && (is_terminal(chars[end_at].1) || is_closer(chars[end_at].1)) {
            end_at += 1;
        }
        let end = chars.get(end_at).map_or(text.len(), |(p, _)| *p);
        let at_space = chars.get(end_at).is_none_or(|(_, c)| c.is_whitespace());
        if at_space && is_boundary(&text[start..position], &text[position..end], &text[end..]) {
            ranges.push((start, end));
            start = end;
        }
        at = end_at;
    }
    ranges.push((start, text.len()));
    ranges
}

fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

fn split_turn(turn: &Turn) -> Vec<String> {
    let mut out = Vec::new();
    for (start, end) in sentence_ranges(&turn.text) {
        let piece = turn.text[start..end].trim();
        if piece.is_empty() {
            continue;
        }
        if word_count(piece) <= LONG_SENTENCE {
            out.push(piece.to_string());
            continue;
        }
        let cuts = turn.breaks.iter().copied().filter(|b| *b > start && *b < end);
        let mut chunks: Vec<String> = Vec::new();
        let mut from = start;
        for cut in cuts.chain([end]) {
            let chunk = turn.text[from..cut].trim();
            from = cut;
            match chunks.last_mut() {
                Some(last) if word_count(last) < MIN_CHUNK => {
                    last.push(' ');
                    last.push_str(chunk);
                }
                _ if chunk.is_empty() => {}
                _ => chunks.push(chunk.to_string()),
            }
        }
        if chunks.len() >= 2 && chunks.last().is_some_and(|c| word_count(c) < MIN_CHUNK) {
            if let Some(tail) = chunks.pop() {
                if let Some(last) = chunks.last_mut() {
                    last.push(' ');
                    last.push_str(&tail);
                }
            }
        }
        out.extend(chunks.into_iter().flat_map(windows));
    }
    out
}

/// Cuts a chunk still far too long into windows, merging a short tail back.
fn windows(chunk: String) -> Vec<String> {
    let words: Vec<&str> = chunk.split_whitespace().collect();
    if words.len() <= LONG_SENTENCE * 3 / 2 {
        return vec![chunk];
    }
    let mut out: Vec<String> = words.chunks(WINDOW).map(|w| w.join(" ")).collect();
    if out.len() >= 2 && out.last().is_some_and(|w| word_count(w) < MIN_CHUNK * 2) {
        if let Some(tail) = out.pop() {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(&tail);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(speaker: &str, start_ms: i64, text: &str) -> Line {
        Line { speaker: speaker.into(), start_ms, end_ms: start_ms + 1000, text: text.into() }
    }

    fn texts(lines: &[Line]) -> Vec<String> {
        sentences(lines).into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn segments_of_one_speaker_are_rejoined_and_resplit() {
        let lines = [
            line("Me", 0, "We shipped the beta. The next"),
            line("Me", 1000, "release goes out Monday."),
            line("Them", 2000, "Great."),
        ];
        assert_eq!(
            texts(&lines),
            ["We shipped the beta.", "The next release goes out Monday.", "Great."]
        );
    }

    #[test]
    fn abbreviations_decimals_and_ellipses_do_not_split() {
        let lines = [line("Me", 0, "Dr. Smith said 3.5 is fine... or close, e.g. for now. Done!")];
        assert_eq!(
            texts(&lines),
            ["Dr. Smith said 3.5 is fine... or close, e.g. for now.", "Done!"]
        );
    }

    #[test]
    fn annotations_hallucinations_and_backchannels_are_dropped() {
        let lines = [
            line("Me", 0, "[BLANK_AUDIO]"),
            line("Me", 1000, "I'll send the report to the"),
            line("Them", 2000, "Mm-hmm."),
            line("Me", 3000, "finance team (laughs) today."),
            line("Them", 4000, "Thanks for watching!"),
        ];
        assert_eq!(texts(&lines), ["I'll send the report to the finance team today."]);
    }

    #[test]
    fn unpunctuated_run_on_falls_back_to_segment_boundaries() {
        let first = "we looked at the numbers for the quarter and the budget is tight";
        let second = "so marketing will need to cut spend on events and travel this year";
        let third = "and the hiring plan moves to the second half of the year as well ok";
        let lines = [line("Me", 0, first), line("Me", 1000, second), line("Me", 2000, third)];
        assert_eq!(texts(&lines), [first, second, third]);
    }

    #[test]
    fn lines_are_ordered_by_start_time() {
        let lines = [line("Them", 5000, "Second."), line("Me", 0, "First.")];
        assert_eq!(texts(&lines), ["First.", "Second."]);
    }
}
