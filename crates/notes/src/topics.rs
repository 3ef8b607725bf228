//! Topics: the meeting cut where its subject changes, each part named after the noun
//! phrase that leads it.
//!
//! A new part starts at a sentence with a noun phrase that announces a new subject
//! ("one more thing", "moving on", "what about") or that shares no content word with
//! the last three sentences of the part, unless it answers a question just asked by
//! someone else or points back with a pronoun ("it", "that", "she"). A part is named
//! after the head of its best phrase: the phrase that opens the part, and the one the
//! part and the meeting keep coming back to, count most; the longest wording of that
//! head in the part is shown ("onboarding buddy" over "buddy"). Parts with the same
//! head are one topic.

use std::collections::{BTreeMap, BTreeSet};

use crate::phrases::Phrase;
use crate::text::{content_terms, leading_phrase, listed, words};
use crate::transcript::Sentence;

/// One subject of the meeting and the sentences about it, in spoken order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Topic {
    pub name: String,
    pub sentences: Vec<usize>,
    /// How often the meeting named it.
    pub mentions: usize,
}

impl Topic {
    /// How much of the meeting it took.
    pub fn weight(&self) -> usize {
        self.sentences.len() + 2 * self.mentions
    }
}

/// Phrases that announce a new subject.
const SHIFTS: &str = "one more thing | another thing | the other thing | last thing | moving \
    on | next up | next topic | next item | on another note | by the way | switching gears | \
    changing topics | let's talk about | let's move on to | let's turn to | what about | how \
    about | as for | regarding | speaking of | lastly | finally";
/// Words skipped before a shift ("so, one more thing").
const OPENERS: &str = "so and okay ok alright well now right oh also but";
/// Words that point back to what was just said.
const POINTING: &str = "it that this they these those she he there his her its their";
/// How many sentences back a new sentence looks for a shared word.
const REACH: usize = 3;

/// The topics of a meeting in spoken order; `phrases` holds each sentence's phrases.
pub(crate) fn find(sentences: &[Sentence], phrases: &[Vec<Phrase>], title: &str) -> Vec<Topic> {
    let mut mentions: BTreeMap<&str, usize> = BTreeMap::new();
    for phrase in phrases.iter().flatten() {
        *mentions.entry(phrase.head.as_str()).or_default() += 1;
    }
    let title_terms: BTreeSet<String> = content_terms(title).into_iter().collect();
    let mut topics: Vec<(String, Topic)> = Vec::new();
    for part in parts(sentences, phrases) {
        let Some(named) = name(&part, phrases, &mentions, &title_terms) else {
            continue;
        };
        match topics.iter_mut().find(|(key, _)| *key == named.key) {
            Some((_, topic)) => topic.sentences.extend(part),
            None => {
                let said = phrases.iter().flatten().filter(|p| p.key == named.key).count();
                let topic = Topic { name: named.text.clone(), sentences: part, mentions: said };
                topics.push((named.key.clone(), topic));
            }
        }
    }
    topics.into_iter().map(|(_, topic)| topic).collect()
}

/// The `limit` topics that took most of the meeting, in spoken order.
pub(crate) fn main_topics(topics: &[Topic], limit: usize) -> Vec<&Topic> {
    let mut order: Vec<usize> = (0..topics.len()).collect();
    order.sort_by_key(|at| std::cmp::Reverse(topics[*at].weight()));
    order.truncate(limit);
    order.sort_unstable();
    order.into_iter().map(|at| &topics[at]).collect()
}

/// The meeting cut into parts about one subject each.
fn parts(sentences: &[Sentence], phrases: &[Vec<Phrase>]) -> Vec<Vec<usize>> {
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for at in 0..sentences.len() {
        match parts.last_mut() {
            Some(part) if !opens(sentences, phrases, part, at) => part.push(at),
            _ => parts.push(vec![at]),
        }
    }
    parts
}

/// Whether sentence `at` starts a new part after `part`.
fn opens(sentences: &[Sentence], phrases: &[Vec<Phrase>], part: &[usize], at: usize) -> bool {
    if phrases[at].is_empty() {
        return false;
    }
    let said = words(&sentences[at].text);
    let start = said.iter().take_while(|w| listed(OPENERS, w)).count();
    let rest = said[start..].iter().map(String::as_str);
    if leading_phrase(SHIFTS, rest.clone()).is_some() {
        return true;
    }
    let points_back = rest.clone().next().is_some_and(|w| listed(POINTING, w));
    let previous = at.checked_sub(1).map(|before| &sentences[before]);
    let answers = previous.is_some_and(|p| p.is_question() && p.speaker != sentences[at].speaker);
    if points_back || answers {
        return false;
    }
    let recent: BTreeSet<&str> = part
        .iter()
        .rev()
        .take(REACH)
        .flat_map(|index| sentences[*index].terms.iter().map(String::as_str))
        .collect();
    sentences[at].terms.iter().all(|term| !recent.contains(term.as_str()))
}

/// The phrase that names a part, if it has any.
fn name<'a>(
    part: &[usize],
    phrases: &'a [Vec<Phrase>],
    mentions: &BTreeMap<&str, usize>,
    title_terms: &BTreeSet<String>,
) -> Option<&'a Phrase> {
    let found: Vec<(usize, &Phrase)> =
        part.iter().flat_map(|at| phrases[*at].iter().enumerate()).collect();
    let opening = found.first().map(|(_, phrase)| phrase.head.as_str());
    let score = |head: &str| {
        let here = found.iter().filter(|(_, p)| p.head == head).count();
        let first_in_sentence = found.iter().filter(|(k, p)| *k == 0 && p.head == head).count();
        let overall = mentions.get(head).copied().unwrap_or_default();
        let opens = if opening == Some(head) { 4 } else { 0 };
        let titled = if title_terms.contains(head) { 2 } else { 0 };
        2 * here + overall + opens + first_in_sentence + titled
    };
    let mut best: Option<(&str, usize)> = None;
    for (_, phrase) in &found {
        let value = score(&phrase.head);
        if best.is_none_or(|(_, top)| value > top) {
            best = Some((&phrase.head, value));
        }
    }
    let (head, _) = best?;
    let named = found.iter().filter(|(_, p)| p.head == head).map(|(_, p)| *p);
    named.fold(None, |kept, p| match kept {
        Some(k) if k.size >= p.size => Some(k),
        _ => Some(p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrases::{phrases, Lexicon};
    use crate::transcript::sentences;
    use crate::{Context, Line};

    fn topics(turns: &[(&str, &str)]) -> Vec<(String, Vec<usize>)> {
        let lines: Vec<Line> = turns
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
        let lexicon = Lexicon::new(&sentences, &Context::default());
        let found: Vec<Vec<Phrase>> =
            sentences.iter().map(|s| phrases(&s.text, &lexicon)).collect();
        find(&sentences, &found, "").into_iter().map(|t| (t.name, t.sentences)).collect()
    }

    #[test]
    fn parts_start_at_new_subjects_and_share_a_name_across_the_meeting() {
        let found = topics(&[
            ("Dana", "How did the budget look last quarter?"),
            ("Me", "Marketing spent about 12% less than planned."),
            ("Me", "One more thing, the new hire starts on Monday."),
            ("Dana", "She needs an onboarding buddy."),
            ("Me", "When should we do the offsite?"),
            ("Dana", "Let's plan it for the second week of next month."),
            ("Me", "The new hire could join the offsite too."),
        ]);
        let names: Vec<&str> = found.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["budget", "new hire", "offsite"]);
        assert_eq!(found[0].1, [0, 1], "an answer stays with its question");
        assert_eq!(found[1].1, [2, 3], "\"she\" points back");
        assert_eq!(found[2].1, [4, 5, 6]);
    }
}
