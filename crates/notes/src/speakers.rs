//! Names of anonymous voices ("Speaker 2", as diarization labels an import) told by
//! the conversation itself, so a task is owned by "Dana", not by a label.
//!
//! Evidence for a label being a name: introducing oneself ("I'm Dana", "this is
//! Dana", "Dana here", "my name is Dana") counts 3; a name said to someone counts 2
//! for the one it was said to: a greeting or thanks ("Hi Dana", "Thanks, Dana") for
//! the speaker before, anything else ("Dana, can you …?") for the speaker after, who
//! gets 1 more for answering "sure"/"yes". A label is never a name it says to someone.
//! A label takes its best name when that scores more than its second best and more
//! than any other label scores for it; then, while as many labels as attendees are
//! left, a label that can only be one of them is that one. Ties and conflicts (a
//! voice that says it is a name it also calls someone) name nobody. Named labels
//! ("Me", "Dana") and "Them" are never renamed, and a name they answer to is theirs.

use std::collections::{BTreeMap, BTreeSet};

use crate::addressee::accepts;
use crate::owners::{
    attendee_words, is_anonymous_label, is_named_speaker, is_vocative, Names, CLAUSE_OPENERS,
};
use crate::text::{capitalise_first, tokens, Token};
use crate::transcript::Sentence;
use crate::Context;

/// What an introduction counts; a name said to someone; answering it with "sure".
const INTRODUCED: i32 = 3;
const ADDRESSED: i32 = 2;
const ACCEPTED: i32 = 1;
/// Words a greeting or thanks opens with ("Morning Priya", "Thanks, Grace").
const GREETINGS: &[&str] = &[
    "hi",
    "hey",
    "hello",
    "morning",
    "evening",
    "afternoon",
    "thanks",
    "cheers",
    "bye",
    "welcome",
];
/// Words that may follow a name in an introduction ("I'm Oscar from marketing").
const AFTER_INTRODUCED: &[&str] = &["from", "here", "speaking", "with", "and", "at", "on", "again"];
/// How many words into a sentence "this is Dana" or "it's Dana" may start.
const INTRODUCTION_REACH: usize = 4;

/// A name a voice may have: an attendee (`listed`), the person, or a name heard.
struct Candidate {
    name: String,
    words: Vec<String>,
    listed: bool,
}

/// Each anonymous label with the name the conversation gives it, in order of first
/// appearance; labels it does not name are left out.
pub(crate) fn speaker_names(sentences: &[Sentence], context: &Context) -> Vec<(String, String)> {
    let labels = anonymous_labels(sentences);
    if labels.is_empty() {
        return Vec::new();
    }
    let names = Names::new(sentences, context);
    let mut candidates = Candidates::new(sentences, context);
    let evidence = Evidence::gather(sentences, &mut candidates, &names);
    let chosen = evidence.settle(&labels, &candidates);
    labels
        .iter()
        .filter_map(|label| {
            chosen.get(label).map(|&c| (label.clone(), candidates.0[c].name.clone()))
        })
        .collect()
}

/// The sentences with every anonymous label the conversation names replaced by its name.
pub(crate) fn named(sentences: &[Sentence], context: &Context) -> Vec<Sentence> {
    let names: BTreeMap<String, String> = speaker_names(sentences, context).into_iter().collect();
    let mut renamed = sentences.to_vec();
    for sentence in &mut renamed {
        if let Some(name) = names.get(&sentence.speaker) {
            sentence.speaker.clone_from(name);
        }
    }
    renamed
}

/// "Speaker 1", "In the room 1": labels that are neither a name nor "Them",
/// in order.
fn anonymous_labels(sentences: &[Sentence]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for sentence in sentences {
        let label = &sentence.speaker;
        if is_anonymous_label(label) && !labels.contains(label) {
            labels.push(label.clone());
        }
    }
    labels
}

/// Who the voices may be; names already on a named label are nobody else's.
struct Candidates(Vec<Candidate>);

impl Candidates {
    fn new(sentences: &[Sentence], context: &Context) -> Self {
        let taken: BTreeSet<String> = sentences
            .iter()
            .filter(|s| is_named_speaker(&s.speaker))
            .flat_map(|s| attendee_words(&s.speaker))
            .collect();
        let mut candidates = Candidates(Vec::new());
        for attendee in &context.attendees {
            candidates.add(attendee, true, &taken);
        }
        if !context.user_name.trim().eq_ignore_ascii_case("me") {
            candidates.add(&context.user_name, false, &taken);
        }
        candidates
    }

    fn add(&mut self, entry: &str, listed: bool, taken: &BTreeSet<String>) {
        let words = attendee_words(entry);
        let known = words.iter().any(|w| taken.contains(w) || self.find(w).is_some());
        if !words.is_empty() && !known {
            self.0.push(Candidate { name: shown_name(entry, &words), words, listed });
        }
    }

    fn find(&self, word: &str) -> Option<usize> {
        self.0.iter().position(|c| c.words.iter().any(|w| w == word))
    }

    /// The candidate a word names: one whose name has the word (none when several
    /// have it), else a name heard in the meeting, added as it is heard.
    fn named_by(&mut self, token: &Token, names: &Names) -> Option<usize> {
        let having = self.0.iter().filter(|c| c.words.contains(&token.norm)).count();
        match having {
            0 => {
                let name = names.addressee(token)?;
                self.0.push(Candidate { name, words: vec![token.norm.clone()], listed: false });
                Some(self.0.len() - 1)
            }
            1 => self.find(&token.norm),
            _ => None,
        }
    }
}

/// An attendee as a person would name the voice: "Carol Diaz", "alice.wong@x.io" →
/// "Alice Wong".
fn shown_name(entry: &str, words: &[String]) -> String {
    let shown = entry.split('<').next().unwrap_or_default().trim();
    if shown.is_empty() || shown.contains('@') {
        words.iter().map(|w| capitalise_first(w)).collect::<Vec<_>>().join(" ")
    } else {
        shown.to_string()
    }
}

/// Scores per (label, candidate) and the pairs ruled out.
#[derive(Default)]
struct Evidence {
    scores: BTreeMap<(String, usize), i32>,
    ruled_out: BTreeSet<(String, usize)>,
}

impl Evidence {
    fn gather(sentences: &[Sentence], candidates: &mut Candidates, names: &Names) -> Self {
        let mut evidence = Evidence::default();
        let turns = turns(sentences);
        for (at, turn) in turns.iter().enumerate() {
            let before = at.checked_sub(1).map(|b| &turns[b]);
            let after = turns.get(at + 1);
            for sentence in &sentences[turn.clone()] {
                let label = &sentence.speaker;
                let tokens = tokens(&sentence.text);
                for candidate in introductions(&tokens, candidates, names) {
                    evidence.add(label, candidate, INTRODUCED);
                }
                for (candidate, greeting) in addressed(&tokens, candidates, names) {
                    evidence.ruled_out.insert((label.clone(), candidate));
                    let to = if greeting { before.or(after) } else { after.or(before) };
                    let Some(to) = to.map(|range| &sentences[range.clone()]) else { continue };
                    let answered = !greeting && accepts(&to[0]);
                    let score = ADDRESSED + if answered { ACCEPTED } else { 0 };
                    evidence.add(&to[0].speaker, candidate, score);
                }
            }
        }
        evidence
    }

    fn add(&mut self, label: &str, candidate: usize, score: i32) {
        *self.scores.entry((label.to_string(), candidate)).or_default() += score;
    }

    fn score(&self, label: &str, candidate: usize) -> i32 {
        let key = (label.to_string(), candidate);
        if self.ruled_out.contains(&key) {
            return 0;
        }
        self.scores.get(&key).copied().unwrap_or_default()
    }

    /// Whether a label claims a name it also says to someone ("This is Dana." — "Dana,
    /// can you …?"): such a voice is not named by elimination either.
    fn conflicted(&self, label: &str) -> bool {
        self.ruled_out
            .iter()
            .any(|(l, c)| l == label && self.scores.get(&(l.clone(), *c)).is_some_and(|s| *s > 0))
    }

    /// Label → candidate, for the labels the evidence settles.
    fn settle(&self, labels: &[String], candidates: &Candidates) -> BTreeMap<String, usize> {
        // A name "Them" or a named voice answers to belongs to no anonymous one.
        let claimed: BTreeSet<usize> = self
            .scores
            .iter()
            .filter(|((label, _), score)| **score > 0 && !labels.contains(label))
            .map(|((_, candidate), _)| *candidate)
            .collect();
        let mut chosen: BTreeMap<String, usize> = BTreeMap::new();
        loop {
            let open: Vec<&String> = labels.iter().filter(|l| !chosen.contains_key(*l)).collect();
            let taken = |c: &usize| claimed.contains(c) || chosen.values().any(|v| v == c);
            let free: Vec<usize> = (0..candidates.0.len()).filter(|c| !taken(c)).collect();
            let next = self
                .clearest(&open, &free)
                .or_else(|| self.only_one_left(&open, &free, candidates));
            match next {
                Some((label, candidate)) => chosen.insert(label, candidate),
                None => return chosen,
            };
        }
    }

    /// A label whose best name beats its second and every other label's claim to it.
    fn clearest(&self, open: &[&String], free: &[usize]) -> Option<(String, usize)> {
        open.iter().find_map(|label| {
            let mut scored: Vec<(i32, usize)> =
                free.iter().map(|&c| (self.score(label, c), c)).filter(|(s, _)| *s > 0).collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.0));
            let (best, candidate) = *scored.first()?;
            let second = scored.get(1).map_or(0, |s| s.0);
            let rivals = open.iter().filter(|other| *other != label);
            let beaten = rivals.map(|other| self.score(other, candidate)).max().unwrap_or(0);
            (best > second && best > beaten).then(|| ((*label).clone(), candidate))
        })
    }

    /// As many labels as attendees left, and one label that can only be one of them.
    fn only_one_left(
        &self,
        open: &[&String],
        free: &[usize],
        candidates: &Candidates,
    ) -> Option<(String, usize)> {
        let listed: Vec<usize> = free.iter().copied().filter(|&c| candidates.0[c].listed).collect();
        if listed.len() != open.len() {
            return None;
        }
        open.iter().filter(|label| !self.conflicted(label)).find_map(|label| {
            let possible: Vec<usize> = listed
                .iter()
                .copied()
                .filter(|&c| !self.ruled_out.contains(&((*label).clone(), c)))
                .collect();
            (possible.len() == 1).then(|| ((*label).clone(), possible[0]))
        })
    }
}

/// Sentence ranges of one speaker each, in order.
fn turns(sentences: &[Sentence]) -> Vec<std::ops::Range<usize>> {
    let mut turns: Vec<std::ops::Range<usize>> = Vec::new();
    for (at, sentence) in sentences.iter().enumerate() {
        match turns.last_mut() {
            Some(turn) if sentences[turn.start].speaker == sentence.speaker => turn.end = at + 1,
            _ => turns.push(at..at + 1),
        }
    }
    turns
}

/// Names the speaker gives themself: "I'm Dana", "I am Dana", "my name is Dana",
/// "this is Dana" and "it's Dana" near the start, "Dana here", "Dana speaking".
fn introductions(tokens: &[Token], candidates: &mut Candidates, names: &Names) -> Vec<usize> {
    let norms: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
    let mut found = Vec::new();
    for at in 0..tokens.len() {
        let before = |words: &[&str]| at >= words.len() && norms[at - words.len()..at] == *words;
        let near_start = at <= INTRODUCTION_REACH;
        let cue = before(&["i'm"])
            || before(&["i", "am"])
            || before(&["name", "is"])
            || (near_start
                && (before(&["this", "is"]) || before(&["it's"]) || before(&["it", "is"])));
        let next = norms.get(at + 1).copied();
        let ends = tokens[at].raw.ends_with(|c: char| !c.is_alphanumeric()) || next.is_none();
        let introduced = cue && (ends || next.is_some_and(|n| AFTER_INTRODUCED.contains(&n)));
        let here = opens_clause(tokens, at)
            && matches!(next, Some("here" | "speaking"))
            && (at + 2 == tokens.len() || tokens[at + 1].raw.ends_with([',', '.', '!']));
        if introduced || here {
            found.extend(candidates.named_by(&tokens[at], names));
        }
    }
    found
}

/// Names said to someone, each with whether it was a greeting or thanks.
fn addressed(tokens: &[Token], candidates: &mut Candidates, names: &Names) -> Vec<(usize, bool)> {
    let mut found = Vec::new();
    for at in 0..tokens.len() {
        let previous = at.checked_sub(1).map(|b| tokens[b].norm.as_str());
        let greeting = previous.is_some_and(|p| GREETINGS.contains(&p))
            || (previous == Some("you") && at >= 2 && tokens[at - 2].norm == "thank");
        let leading = tokens[at].has_comma() && opens_clause(tokens, at);
        if greeting || leading || is_vocative(tokens, at) {
            if let Some(candidate) = candidates.named_by(&tokens[at], names) {
                found.push((candidate, greeting));
            }
        }
    }
    found
}

/// Whether a word starts the sentence or a clause ("Hi Felix, Dana here").
fn opens_clause(tokens: &[Token], at: usize) -> bool {
    at.checked_sub(1).is_none_or(|b| {
        tokens[b].has_comma()
            || CLAUSE_OPENERS.contains(&tokens[b].norm.as_str())
            || tokens[b].raw.ends_with(['.', '!', '?'])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::sentences;
    use crate::Line;

    fn names_of(turns: &[(&str, &str)], attendees: &[&str]) -> Vec<(String, String)> {
        let lines: Vec<Line> = turns
            .iter()
            .enumerate()
            .map(|(at, (speaker, text))| Line {
                speaker: (*speaker).into(),
                start_ms: at as i64 * 1000,
                end_ms: at as i64 * 1000 + 900,
                text: (*text).into(),
            })
            .collect();
        let context = Context {
            user_name: "Me".into(),
            attendees: attendees.iter().map(|a| (*a).to_string()).collect(),
            title: String::new(),
            ..Context::default()
        };
        speaker_names(&sentences(&lines), &context)
    }

    fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(l, n)| ((*l).to_string(), (*n).to_string())).collect()
    }

    #[test]
    fn introductions_name_voices_and_a_greeting_names_the_one_greeted() {
        let said = [
            ("Speaker 1", "Hi, this is Felix from procurement."),
            ("Speaker 2", "Hi Felix, Dana here."),
        ];
        assert_eq!(names_of(&said, &[]), pairs(&[("Speaker 1", "Felix"), ("Speaker 2", "Dana")]));
    }

    #[test]
    fn a_voice_that_introduces_itself_twice_differently_is_nobody() {
        let said = [("Speaker 1", "I'm Dana. Sorry, I'm Erin."), ("Speaker 2", "Okay.")];
        assert_eq!(names_of(&said, &["Dana", "Erin"]), pairs(&[]));
    }
}
