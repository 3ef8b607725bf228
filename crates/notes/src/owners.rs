//! Names people are called by in a meeting, for action-item owners.
//!
//! A word is taken as a person's name when it matches a name word of an attendee
//! (case-insensitively, so lowercase ASR output still matches), or when it is a
//! capitalised word that is never written in lowercase elsewhere in the transcript,
//! is not a common word, and is used to address someone ("Alice, can you …",
//! "thanks Bob", "…, Carol?"). Unknown capitalised words are only trusted where the
//! position itself names an owner, such as right after "action item:".

use std::collections::BTreeSet;

use crate::text::{capitalise_first, is_calendar_word, is_stopword, normalize_word, tokens, Token};
use crate::transcript::Sentence;
use crate::Context;

/// Capitalised words that open sentences but are not names.
const NOT_NAMES: &[&str] = &[
    "absolutely",
    "actually",
    "additionally",
    "again",
    "agreed",
    "alright",
    "anyway",
    "anyways",
    "awesome",
    "basically",
    "besides",
    "clearly",
    "cool",
    "correct",
    "currently",
    "definitely",
    "eventually",
    "exactly",
    "fair",
    "finally",
    "fine",
    "first",
    "folks",
    "frankly",
    "generally",
    "gotcha",
    "great",
    "guys",
    "honestly",
    "hopefully",
    "however",
    "ideally",
    "initially",
    "instead",
    "interestingly",
    "lastly",
    "likewise",
    "listen",
    "look",
    "luckily",
    "meanwhile",
    "next",
    "nice",
    "noted",
    "obviously",
    "otherwise",
    "overall",
    "perfect",
    "personally",
    "plus",
    "realistically",
    "recently",
    "second",
    "seriously",
    "similarly",
    "sometimes",
    "sorry",
    "team",
    "technically",
    "thankfully",
    "third",
    "today",
    "tomorrow",
    "totally",
    "true",
    "understood",
    "unfortunately",
    "fortunately",
    "usually",
    "wait",
    "yesterday",
    "action",
    "todo",
    "question",
    "answer",
    "note",
    "update",
    "hello",
    "hey",
];
/// Words after a vocative that show the speaker is addressing that person.
const ADDRESS_STARTS: &[&str] =
    &["please", "can", "could", "would", "will", "you", "make", "don't", "remember", "do"];
const GREETINGS: &[&str] = &["hey", "hi", "hello", "thanks"];
/// Words that may precede a vocative at the start of a clause ("So, Alice, …").
pub(crate) const CLAUSE_OPENERS: &[&str] = &[
    "so", "and", "also", "okay", "ok", "then", "now", "just", "but", "oh", "alright", "yeah",
    "yes", "well", "right",
];

pub(crate) struct Names {
    attendees: BTreeSet<String>,
    addressed: BTreeSet<String>,
    lowercase: BTreeSet<String>,
}

/// Whether a normalised word could be a name at all.
fn is_name_word(word: &str) -> bool {
    word.chars().count() >= 2
        && word.chars().all(|c| c.is_alphabetic() || c == '\'' || c == '-')
        && !is_stopword(word)
        && !NOT_NAMES.contains(&word)
        && !is_calendar_word(word)
}

/// The name words of an attendee entry: "Alice Smith <alice@x.io>", "bob.jones@x.io", "Carol".
/// A speaker label that is a person's name.
pub(crate) fn is_named_speaker(label: &str) -> bool {
    let generic = label.eq_ignore_ascii_case("them")
        || label.eq_ignore_ascii_case("everyone")
        || is_anonymous_label(label);
    !generic && !label.trim().is_empty()
}

/// A voice told apart but not named: `Speaker N` (the other side) or `In the
/// room N` (beside the laptop's owner).
pub(crate) fn is_anonymous_label(label: &str) -> bool {
    let numbered = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    label.strip_prefix("Speaker ").is_some_and(numbered)
        || label.strip_prefix("In the room ").is_some_and(numbered)
}

pub(crate) fn attendee_words(attendee: &str) -> Vec<String> {
    let shown = attendee.split('<').next().unwrap_or_default().trim();
    let shown = if shown.is_empty() { attendee.trim_matches(['<', '>', ' ']) } else { shown };
    let shown = if shown.contains('@') && !shown.contains(' ') {
        shown.split('@').next().unwrap_or_default()
    } else {
        shown
    };
    shown
        .split(|c: char| c.is_whitespace() || matches!(c, '.' | '_' | '+' | ','))
        .map(normalize_word)
        .filter(|word| is_name_word(word))
        .collect()
}

/// A name as shown to the reader: "alice" → "Alice", "DeShawn" stays.
fn display(token: &Token) -> String {
    let word: String = token
        .raw
        .trim_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .map(|c| if c == '\u{2019}' { '\'' } else { c })
        .collect();
    let mixed = word.chars().skip(1).any(char::is_uppercase)
        && word.chars().any(char::is_lowercase)
        && word.to_lowercase() == token.norm;
    if mixed {
        capitalise_first(&word)
    } else {
        capitalise_first(&token.norm)
    }
}

impl Names {
    pub fn new(sentences: &[Sentence], context: &Context) -> Self {
        let mut attendees: BTreeSet<String> =
            context.attendees.iter().flat_map(|attendee| attendee_words(attendee)).collect();
        attendees.extend(attendee_words(&context.user_name));
        // Speakers the person named ("Dana"), not the labels "Them" or "Speaker 2".
        attendees.extend(
            sentences
                .iter()
                .filter(|s| is_named_speaker(&s.speaker))
                .flat_map(|s| attendee_words(&s.speaker)),
        );
        let tokenised: Vec<Vec<Token>> = sentences.iter().map(|s| tokens(&s.text)).collect();
        let lowercase = tokenised
            .iter()
            .flatten()
            .filter(|token| !token.is_capitalised() && !token.norm.is_empty())
            .map(|token| token.norm.clone())
            .collect();
        let mut names = Names { attendees, addressed: BTreeSet::new(), lowercase };
        let mut addressed = BTreeSet::new();
        for sentence in &tokenised {
            for at in 0..sentence.len() {
                if names.is_candidate(&sentence[at]) && is_vocative(sentence, at) {
                    addressed.insert(sentence[at].norm.clone());
                }
            }
        }
        names.addressed = addressed;
        names
    }

    fn is_attendee(&self, token: &Token) -> bool {
        self.attendees.contains(&token.norm)
    }

    /// A capitalised word that looks like a name in this transcript.
    fn is_candidate(&self, token: &Token) -> bool {
        token.is_capitalised() && is_name_word(&token.norm) && !self.lowercase.contains(&token.norm)
    }

    /// The name in a position that addresses someone: an attendee or any candidate.
    pub fn addressee(&self, token: &Token) -> Option<String> {
        (self.is_attendee(token) || self.is_candidate(token)).then(|| display(token))
    }

    /// A name trusted anywhere: an attendee, or a candidate someone was addressed by.
    pub fn known(&self, token: &Token) -> Option<String> {
        let addressed = self.is_candidate(token) && self.addressed.contains(&token.norm);
        (self.is_attendee(token) || addressed).then(|| display(token))
    }
}

/// Whether the word at `at` is used to address someone.
pub(crate) fn is_vocative(tokens: &[Token], at: usize) -> bool {
    let previous = at.checked_sub(1).and_then(|before| tokens.get(before));
    let clause_start = previous
        .is_none_or(|prev| prev.has_comma() || CLAUSE_OPENERS.contains(&prev.norm.as_str()));
    let next = tokens.get(at + 1).map(|t| t.norm.as_str()).unwrap_or_default();
    let opens_request = tokens[at].has_comma() && clause_start && ADDRESS_STARTS.contains(&next);
    let greeted = previous.is_some_and(|prev| GREETINGS.contains(&prev.norm.as_str()))
        || (previous.is_some_and(|prev| prev.norm == "you")
            && at >= 2
            && tokens.get(at - 2).is_some_and(|t| t.norm == "thank"));
    let closes = at + 1 == tokens.len() && previous.is_some_and(Token::has_comma);
    opens_request || greeted || closes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::sentences;
    use crate::Line;

    fn names(texts: &[&str], attendees: &[&str]) -> Names {
        let lines: Vec<Line> = texts
            .iter()
            .enumerate()
            .map(|(at, text)| Line {
                speaker: "Me".into(),
                start_ms: at as i64,
                end_ms: at as i64,
                text: (*text).into(),
            })
            .collect();
        let context = Context {
            user_name: "Me".into(),
            attendees: attendees.iter().map(|a| (*a).to_string()).collect(),
            title: String::new(),
            ..Context::default()
        };
        Names::new(&sentences(&lines), &context)
    }

    fn token(raw: &str) -> Token {
        Token { raw: raw.into(), norm: normalize_word(raw) }
    }

    #[test]
    fn attendees_match_in_any_case_and_from_emails() {
        let names = names(&["hello."], &["Alice Smith <alice@x.io>", "bob.jones@x.io"]);
        assert_eq!(names.known(&token("alice")), Some("Alice".into()));
        assert_eq!(names.known(&token("smith,")), Some("Smith".into()));
        assert_eq!(names.known(&token("Bob")), Some("Bob".into()));
        assert_eq!(names.known(&token("carol")), None);
    }

    #[test]
    fn addressed_capitalised_words_become_names() {
        let names = names(
            &[
                "Dana, can you check the logs?",
                "Honestly, can you believe it?",
                "The budget is fine.",
            ],
            &[],
        );
        assert_eq!(names.known(&token("Dana")), Some("Dana".into()));
        assert_eq!(names.known(&token("Honestly")), None);
        assert_eq!(names.addressee(&token("Budget")), None, "seen in lowercase");
        assert_eq!(names.addressee(&token("Erin")), Some("Erin".into()));
        assert_eq!(names.known(&token("Erin")), None, "never addressed");
    }
}
