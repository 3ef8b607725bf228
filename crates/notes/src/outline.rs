//! What a meeting came to: its topics, decisions and action items, found once and
//! shared by the summary and the key points; and the summary itself.
//!
//! The summary is written, not copied: "Topics: budget, new hire, offsite. Agreed: plan
//! the offsite for the second week of next month. Next: send Dana a short proposal by
//! Friday (Me)." A task that is also a decision is said once, as the decision. A
//! meeting with neither says so plainly.

use std::collections::BTreeSet;

use crate::decisions::{self, Decision};
use crate::phrases::{phrases, Lexicon, Phrase};
use crate::topics::{self, main_topics, Topic};
use crate::transcript::Sentence;
use crate::{actions, scoring, ActionItemDraft, Context};

/// How many decisions or tasks the summary names before it counts the rest.
const LISTED: usize = 3;
/// The most words of a decision or task in the summary, and the fewest before a cut.
const BRIEF: usize = 14;
const MIN_BRIEF: usize = 5;
/// A conversation of this many sentences or fewer is a short one.
const SHORT: usize = 15;

pub(crate) struct Outline {
    pub topics: Vec<Topic>,
    pub decisions: Vec<Decision>,
    /// Action items with the sentence each was said in.
    pub items: Vec<(usize, ActionItemDraft)>,
    /// How central each sentence is (`scoring::rank`).
    pub scores: Vec<f64>,
}

impl Outline {
    pub fn new(sentences: &[Sentence], context: &Context) -> Self {
        let lexicon = Lexicon::new(sentences, context);
        let found: Vec<Vec<Phrase>> =
            sentences.iter().map(|sentence| phrases(&sentence.text, &lexicon)).collect();
        Outline {
            topics: topics::find(sentences, &found, &context.title),
            decisions: decisions::find(sentences, &lexicon),
            items: actions::find_at(sentences, context),
            scores: scoring::rank(sentences, &context.title),
        }
    }

    /// The sentences a decision or an action item was taken from.
    pub fn taken(&self) -> BTreeSet<usize> {
        let decided = self.decisions.iter().map(|decision| decision.sentence);
        decided.chain(self.items.iter().map(|(at, _)| *at)).collect()
    }

    /// The summary paragraph of a meeting of `count` sentences.
    pub fn summary(&self, count: usize) -> String {
        let mut parts: Vec<String> = Vec::new();
        let topics = main_topics(&self.topics, scoring::summary_size(count));
        if !topics.is_empty() {
            let names: Vec<&str> = topics.iter().map(|topic| topic.name.as_str()).collect();
            parts.push(format!("Topics: {}.", names.join(", ")));
        }
        let agreed: Vec<String> =
            self.decisions.iter().map(|decision| brief(&lower_first(&decision.text))).collect();
        if !agreed.is_empty() {
            parts.push(format!("Agreed: {}.", listed(&agreed, "decision")));
        }
        let decided: BTreeSet<usize> = self.decisions.iter().map(|d| d.sentence).collect();
        let next: Vec<String> = self
            .items
            .iter()
            .filter(|(at, _)| !decided.contains(at))
            .map(|(_, item)| format!("{} ({})", brief(&lower_first(&item.text)), item.owner))
            .collect();
        if !next.is_empty() {
            parts.push(format!("Next: {}.", listed(&next, "task")));
        }
        if agreed.is_empty() && next.is_empty() {
            parts.push(if count <= SHORT || topics.is_empty() {
                "A short conversation with no decisions or tasks.".to_string()
            } else {
                "No decisions or tasks were recorded.".to_string()
            });
        }
        parts.join(" ")
    }
}

/// The first few, then how many more: "a; b; c; and 2 more tasks".
fn listed(all: &[String], noun: &str) -> String {
    let mut shown: Vec<String> = all.iter().take(LISTED).cloned().collect();
    match all.len().saturating_sub(LISTED) {
        0 => {}
        1 => shown.push(format!("and 1 more {noun}")),
        more => shown.push(format!("and {more} more {noun}s")),
    }
    shown.join("; ")
}

/// A long statement cut for the summary: at a comma after a few words, else after
/// `BRIEF` words with an ellipsis.
fn brief(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let comma = (MIN_BRIEF..words.len().min(BRIEF)).find(|at| words[at - 1].ends_with(','));
    match comma {
        Some(at) => words[..at].join(" ").trim_end_matches(',').to_string(),
        None if words.len() > BRIEF => format!("{}\u{2026}", words[..BRIEF].join(" ")),
        None => text.to_string(),
    }
}

/// A statement made to run on in a sentence: closing punctuation dropped and a
/// capital that only opened the sentence lowered ("Plan the offsite" → "plan the
/// offsite"; "I", "Q3" and "Dana" stay).
fn lower_first(text: &str) -> String {
    let text = text.trim_end_matches(['.', '!', ';', ':', ' ']);
    let first = text.split_whitespace().next().unwrap_or_default();
    let rest_lower = first.chars().skip(1).all(|c| !c.is_uppercase());
    let pronoun = first == "I" || first.starts_with("I'") || first.starts_with("I\u{2019}");
    if !rest_lower || pronoun {
        return text.to_string();
    }
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_stay_short_and_statements_run_on() {
        let all: Vec<String> = ["a", "b", "c", "d", "e"].iter().map(|s| s.to_string()).collect();
        assert_eq!(listed(&all, "task"), "a; b; c; and 2 more tasks");
        assert_eq!(listed(&all[..4], "decision"), "a; b; c; and 1 more decision");
        assert_eq!(lower_first("Plan the offsite."), "plan the offsite");
        assert_eq!(lower_first("I'll send it"), "I'll send it");
        assert_eq!(lower_first("QA signs off"), "QA signs off");
        assert_eq!(
            brief("send a short summary this afternoon, with the list of accounts"),
            "send a short summary this afternoon"
        );
    }
}
