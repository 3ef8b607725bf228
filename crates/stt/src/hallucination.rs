//! Removes what whisper is known to invent: sound annotations ("[Music]",
//! "(applause)"), sign-offs it was trained on ("Thanks for watching!") when
//! it doubts there was speech, runs of one phrase repeated over and over, and
//! a segment that only repeats the one before it, a segment that says the
//! same thing twice over (whisper given a prompt does this to a short
//! utterance), and the prompt's words said back when nothing was said
//! ([`echoes_prompt`]).
//!
//! People repeat short things too ("Hello? Hello?", "Again? Again.", "No,
//! no, no."; "Great." answered by "Great."), so a short word or two counts as
//! a loop only from five times in a row, and only a segment of three words
//! or more is dropped for repeating the last one, or halved for saying one
//! phrase twice.

use crate::transcriber::RawSegment;

const SIGN_OFFS: [&str; 10] = [
    "thank you",
    "thanks for watching",
    "thank you for watching",
    "thanks for listening",
    "please subscribe",
    "subscribe to my channel",
    "bye",
    "you",
    "so",
    "okay",
];
const DOUBTFUL_SPEECH: f32 = 0.5;
/// A segment this long that says what the last one said is whisper looping.
const MIN_WORDS_OF_A_REPEATED_SEGMENT: usize = 3;

/// How many times in a row a phrase of `words` words must come before it
/// counts as a loop: five for one or two words (people say "hello, hello,
/// hello" or "no, no, no, no"), three for longer phrases.
fn loop_repeats(words: usize) -> usize {
    if words <= 2 {
        5
    } else {
        3
    }
}

/// Cleans one chunk's segments; `previous` is the last text kept before them.
pub fn clean(segments: Vec<RawSegment>, previous: Option<&str>) -> Vec<RawSegment> {
    let mut kept: Vec<RawSegment> = Vec::new();
    let mut last = previous.map(normalize);
    for mut segment in segments {
        segment.text = collapse_repeats(&undouble(&strip_annotations(&segment.text)));
        let normalized = normalize(&segment.text);
        let repeats_last = Some(&normalized) == last.as_ref()
            && normalized.split(' ').count() >= MIN_WORDS_OF_A_REPEATED_SEGMENT;
        if normalized.is_empty() || repeats_last {
            continue;
        }
        let sign_off = SIGN_OFFS.contains(&normalized.as_str());
        if sign_off && segment.no_speech_probability > DOUBTFUL_SPEECH {
            continue;
        }
        last = Some(normalized);
        kept.push(segment);
    }
    kept
}

/// Whether `text` is whisper saying its prompt back: three words or more,
/// every one of them a word of `prompt`. Real speech that names only the
/// prompt's words ("Siobhan, Tran, Krzysztof") is short and rare; whisper
/// echoing a list of names onto silence or noise is not.
pub fn echoes_prompt(text: &str, prompt: &str) -> bool {
    let words = normalize(text);
    if words.split(' ').count() < MIN_WORDS_OF_A_REPEATED_SEGMENT {
        return false;
    }
    let prompt = normalize(prompt);
    let known: std::collections::HashSet<&str> = prompt.split(' ').collect();
    words.split(' ').all(|word| known.contains(word))
}

/// How many words of `text` are words of `prompt` of four letters or more
/// (names and terms, not "the").
pub fn prompt_words_heard(text: &str, prompt: &str) -> usize {
    let prompt = normalize(prompt);
    let known: std::collections::HashSet<&str> =
        prompt.split(' ').filter(|word| word.chars().count() >= 4).collect();
    normalize(text).split(' ').filter(|word| known.contains(word)).count()
}

/// Lower-case words without punctuation.
fn normalize(text: &str) -> String {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Drops `[...]`, `(...)`, `*...*` and music notes, which whisper writes for
/// sounds, not words.
fn strip_annotations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut closing: Option<char> = None;
    for c in text.chars() {
        match (closing, c) {
            (Some(end), c) if c == end => closing = None,
            (Some(_), _) => {}
            (None, '[') => closing = Some(']'),
            (None, '(') => closing = Some(')'),
            (None, '*') => closing = Some('*'),
            (None, '♪' | '♫' | '♬') => {}
            (None, c) => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A text that is one phrase of three words or more said twice ("Thank you
/// all for joining. Thank you all for joining.") is kept once, as a
/// segment repeating the last one is dropped.
fn undouble(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let half = words.len() / 2;
    let doubled = words.len().is_multiple_of(2)
        && half >= MIN_WORDS_OF_A_REPEATED_SEGMENT
        && normalize(&words[..half].join(" ")) == normalize(&words[half..].join(" "));
    if doubled {
        words[..half].join(" ")
    } else {
        text.to_owned()
    }
}

/// A phrase of 1–8 words said [`loop_repeats`] times or more in a row is kept once.
fn collapse_repeats(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let keys: Vec<String> = words.iter().map(|w| normalize(w)).collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let mut skipped = false;
        for n in 1..=8.min((words.len() - i) / 3) {
            let repeats = count_repeats(&keys[i..], n);
            if repeats >= loop_repeats(n) {
                out.extend_from_slice(&words[i..i + n]);
                i += repeats * n;
                skipped = true;
                break;
            }
        }
        if !skipped {
            out.push(words[i]);
            i += 1;
        }
    }
    out.join(" ")
}

fn count_repeats(keys: &[String], n: usize) -> usize {
    let phrase = &keys[..n];
    keys.chunks_exact(n).take_while(|chunk| *chunk == phrase).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(text: &str, no_speech: f32) -> RawSegment {
        RawSegment {
            start_ms: 0,
            end_ms: 1000,
            text: text.into(),
            no_speech_probability: no_speech,
        }
    }

    fn texts(segments: Vec<RawSegment>) -> Vec<String> {
        segments.into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn drops_sound_annotations_and_doubtful_sign_offs() {
        let input = vec![
            segment("[Music]", 0.1),
            segment("(upbeat music) ♪", 0.1),
            segment("Thanks for watching!", 0.9),
            segment("Thank you.", 0.05),
        ];
        assert_eq!(texts(clean(input, None)), vec!["Thank you."], "a confident thank-you stays");
    }

    #[test]
    fn collapses_repeated_phrases() {
        let text = "I think so. I think so. I think so. I think so. Yes.";
        assert_eq!(collapse_repeats(text), "I think so. Yes.");
        assert_eq!(collapse_repeats("no no"), "no no", "twice is speech");
        assert_eq!(collapse_repeats("the the the the the end"), "the end");
        let loop_of_two = "thank you thank you thank you thank you thank you";
        assert_eq!(collapse_repeats(loop_of_two), "thank you");
    }

    #[test]
    fn keeps_short_words_people_repeat() {
        for said in
            ["Hello, hello, hello.", "Again? Again. Again.", "No, no, no, no.", "Sure, sure."]
        {
            assert_eq!(collapse_repeats(said), said);
        }
        let turns = vec![segment("Great.", 0.1), segment("Great.", 0.1), segment("Bye.", 0.2)];
        assert_eq!(texts(clean(turns, Some("Bye."))), ["Great.", "Great.", "Bye."]);
    }

    #[test]
    fn drops_a_segment_that_repeats_the_last_one() {
        let input = vec![segment("We ship on Friday.", 0.1), segment("we ship on friday", 0.1)];
        assert_eq!(texts(clean(input, None)), vec!["We ship on Friday."]);
        let across = vec![segment("We ship on Friday.", 0.1)];
        assert!(clean(across, Some("We ship on Friday.")).is_empty());
    }

    #[test]
    fn the_prompt_said_back_is_an_echo_and_speech_with_its_words_is_not() {
        let prompt = "Siobhan, Tran Nguyen, Kubernetes, Krzysztof Kowalczyk.";
        assert!(echoes_prompt("Siobhan, Tran Nguyen, Kubernetes.", prompt));
        assert!(echoes_prompt("Krzysztof Kowalczyk, Siobhan", prompt));
        assert!(!echoes_prompt("Siobhan and Tran will review the Kubernetes rollout.", prompt));
        assert!(!echoes_prompt("Siobhan, Tran", prompt), "two words may be said");
        assert!(!echoes_prompt("Siobhan Tran Nguyen", ""), "no prompt, no echo");
    }

    #[test]
    fn a_phrase_said_twice_in_one_segment_is_kept_once() {
        let doubled =
            segment("Thank you all for joining today. Thank you all for joining today.", 0.1);
        assert_eq!(texts(clean(vec![doubled], None)), ["Thank you all for joining today."]);
        let short = segment("Hello? Hello?", 0.1);
        assert_eq!(
            texts(clean(vec![short], None)),
            ["Hello? Hello?"],
            "two words may be said twice"
        );
        let different = segment("We ship on Monday. We ship on Tuesday.", 0.1);
        assert_eq!(texts(clean(vec![different], None)), ["We ship on Monday. We ship on Tuesday."]);
    }
}
