//! Decision detection: sentences that state what the meeting settled.
//!
//! A sentence is a decision when it carries an explicit cue ("we decided", "we agreed",
//! "let's go with", "decision:"), a firm team future ("we will", "we're going to") or a
//! team proposal ("let's …", "let us …") followed by something other than talk about
//! the meeting itself ("we'll see", "let's move on", "let's grab a coffee").
//! Questions, negations ("we haven't decided") and hypotheticals ("if we decide") are
//! not decisions. A bare agreement ("Agreed.", "Sounds good.") turns the other
//! speaker's preceding proposal, a question too ("Should we …?"), into a decision.
//! Each decision is written as a statement (`statement`).

use crate::phrases::Lexicon;
use crate::statement::statement;
use crate::text::{leading_phrase, near_duplicate, term_set, words};
use crate::transcript::Sentence;

/// A decision as shown in the note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decision {
    /// The sentence it was said in.
    pub sentence: usize,
    pub speaker: String,
    pub text: String,
    pub agreed_by: Option<String>,
}

const STRONG: &[&str] = &[
    "decided",
    "agreed",
    "approved",
    "finalized",
    "settled on",
    "final answer",
    "final decision",
    "the decision is",
    "the decision was",
    "our decision is",
    "decision is to",
    "let's go with",
    "let's go ahead with",
    "let's stick with",
    "let's use",
    "we'll go with",
    "we will go with",
    "we're going with",
    "we are going with",
    "we're going to go with",
    "we'll use",
    "we will use",
    "we'll stick with",
    "we're sticking with",
    "we chose",
    "we've chosen",
    "we picked",
    "it's settled",
    "that's settled",
    "it's decided",
    "that's decided",
    "we won't",
    "we will not",
    "we're not going to",
    "move forward with",
    "moving forward with",
    "go forward with",
    "the plan is to",
];
/// What may not follow "let's": talk about the meeting, small talk and suppositions.
const LETS_STOPS: &str = "see | start | get started | get going | get into | get back | move on \
    | talk | discuss | begin | kick off | wrap | try | jump | dive | hear | continue | go back \
    | go around | go over | go through | go first | recap | keep going | call it | say | just \
    say | assume | imagine | pretend | suppose | take a step | take a look | take a minute | \
    take a second | take a break | table | pause | break | focus | look | think | be | hope | \
    face it | walk through | review | circle back | come back | park | take this offline | \
    take it offline | know | grab | catch up | chat | hang | get lunch | get coffee | get a \
    coffee | get together | do it | do this | do that | leave it | quickly | first | bring up \
    | pull up | open | share | wait | touch base | start with | hop | just | not forget";
const WEAK: &[&str] =
    &["we will", "we'll", "we're going to", "we are going to", "we're gonna", "we are gonna"];
/// What may not follow a weak cue: talk about the meeting, or about uncertainty.
const WEAK_STOPS: &[&str] = &[
    "see",
    "talk",
    "figure",
    "find",
    "have",
    "need",
    "probably",
    "maybe",
    "get",
    "circle",
    "come",
    "cover",
    "hear",
    "look",
    "start",
    "go",
    "jump",
    "continue",
    "hopefully",
    "likely",
    "run",
    "lose",
    "miss",
    "be",
    "try",
    "want",
    "discuss",
    "take",
    "just",
    "still",
    "keep",
    "never",
    "do",
    "move",
    "wrap",
    "dive",
    "check",
    "think",
    "hold",
    "pick",
];
const NEGATIONS: &[&str] = &[
    "haven't decided",
    "have not decided",
    "didn't decide",
    "did not decide",
    "not decided",
    "not yet decided",
    "isn't decided",
    "undecided",
    "yet to decide",
    "didn't agree",
    "did not agree",
    "don't agree",
    "do not agree",
    "not agreed",
    "haven't agreed",
    "never agreed",
    "disagree",
    "not approved",
    "wasn't approved",
    "no decision",
    "need to decide",
    "have to decide",
    "should decide",
    "once we decide",
    "when we decide",
    "before we decide",
    "if we decide",
    "not finalized",
];
const HYPOTHETICAL_OPENERS: &[&str] = &[
    " if ",
    " maybe ",
    " should we ",
    " do we ",
    " could we ",
    " what if ",
    " whether ",
    " unless ",
    " in case ",
    " i wonder ",
    " not sure ",
];
const AGREEMENTS: &[&str] = &[
    " agreed ",
    " agree ",
    " deal ",
    " sounds good ",
    " let's do it ",
    " let's do that ",
    " works for me ",
    " that works ",
    " sounds like a plan ",
    " makes sense ",
];
const AGREEMENT_WORDS: &[&str] = &[
    "agreed",
    "agree",
    "deal",
    "sounds",
    "good",
    "great",
    "let's",
    "do",
    "it",
    "that",
    "yes",
    "yeah",
    "okay",
    "ok",
    "perfect",
    "done",
    "fine",
    "works",
    "for",
    "me",
    "i",
    "totally",
    "absolutely",
    "sure",
    "then",
    "like",
    "a",
    "plan",
    "makes",
    "sense",
    "so",
    "fully",
];

/// Words skipped before a proposal.
const OPENERS: &[&str] = &["so", "okay", "ok", "and", "then", "well", "maybe", "alright"];
/// How a yes-or-no question opens.
const YES_OR_NO: &str = "should we | shall we | can we | could we | do we | do you want | \
    would it | is it okay | is that okay | are we | how about | what about | why don't we | \
    does that work | would you be okay";
const SUGGESTIONS: &[&str] = &[
    " should we ",
    " shall we ",
    " we should ",
    " we could ",
    " let's ",
    " let us ",
    " how about ",
    " i suggest ",
    " i propose ",
    " i'd suggest ",
    " i'd propose ",
    " my suggestion is ",
    " the proposal is ",
    " the plan is ",
];

/// Lowercase words padded with spaces so cues match whole words only.
fn phrase(text: &str) -> String {
    format!(" {} ", words(text).join(" "))
}

fn contains(phrase: &str, cue: &str) -> bool {
    phrase.contains(&format!(" {cue} "))
}

/// Whether a sentence states a decision.
pub(crate) fn is_decision(text: &str) -> bool {
    let spoken = phrase(text);
    let question = text.trim_end_matches(['"', '\u{201d}', ')']).ends_with('?');
    if question
        || NEGATIONS.iter().any(|cue| contains(&spoken, cue))
        || HYPOTHETICAL_OPENERS.iter().any(|opener| spoken.starts_with(opener))
    {
        return false;
    }
    if text.to_lowercase().contains("decision:") || STRONG.iter().any(|cue| contains(&spoken, cue))
    {
        return true;
    }
    let firm = WEAK.iter().any(|cue| {
        spoken.match_indices(&format!(" {cue} ")).any(|(at, matched)| {
            let next = spoken[at + matched.len()..].split(' ').next().unwrap_or_default();
            !next.is_empty() && !WEAK_STOPS.contains(&next)
        })
    });
    firm || proposes(&spoken)
}

/// "let's plan the offsite", not "let's see" or "let's grab a coffee".
fn proposes(spoken: &str) -> bool {
    [" let's ", " let us "].iter().any(|cue| {
        spoken.match_indices(cue).any(|(at, matched)| {
            let rest = spoken[at + matched.len()..].split_whitespace();
            rest.clone().next().is_some() && leading_phrase(LETS_STOPS, rest).is_none()
        })
    })
}

/// Whether a sentence puts something up for agreement: a yes-or-no question, a
/// suggestion ("we could …", "how about …") or a decision already.
fn is_proposal(text: &str) -> bool {
    let spoken = phrase(text);
    let opening = spoken.split_whitespace().skip_while(|w| OPENERS.contains(w));
    let yes_or_no = leading_phrase(YES_OR_NO, opening).is_some();
    let suggested = SUGGESTIONS.iter().any(|cue| spoken.contains(cue));
    let stopped = spoken.contains(" let's ") && !proposes(&spoken);
    !stopped && (yes_or_no || suggested || is_decision(text))
}

/// Whether a sentence is nothing but assent ("Agreed.", "Sounds good to me.").
fn is_bare_agreement(sentence: &Sentence) -> bool {
    let spoken = phrase(&sentence.text);
    sentence.word_count <= 5
        && AGREEMENTS.iter().any(|cue| spoken.contains(cue))
        && words(&sentence.text).iter().all(|w| AGREEMENT_WORDS.contains(&w.as_str()))
}

/// The decisions of a meeting in spoken order, near-duplicates removed.
pub(crate) fn find(sentences: &[Sentence], lexicon: &Lexicon) -> Vec<Decision> {
    let mut chosen: Vec<(&Sentence, Option<String>)> = Vec::new();
    for (at, sentence) in sentences.iter().enumerate() {
        if is_bare_agreement(sentence) {
            let Some(proposal) = at.checked_sub(1).and_then(|before| sentences.get(before)) else {
                continue;
            };
            let agreed_by = Some(sentence.speaker.clone());
            let same = chosen.last().is_some_and(|(last, _)| last.index == proposal.index);
            if let Some((last, by)) = chosen.last_mut().filter(|_| same) {
                if by.is_none() && last.speaker != sentence.speaker {
                    *by = agreed_by;
                }
            } else if proposal.speaker != sentence.speaker
                && proposal.word_count >= 4
                && is_proposal(&proposal.text)
            {
                chosen.push((proposal, agreed_by));
            }
        } else if sentence.word_count >= 3 && is_decision(&sentence.text) {
            chosen.push((sentence, None));
        }
    }
    let mut decisions: Vec<Decision> = Vec::new();
    let mut seen: Vec<&Sentence> = Vec::new();
    for (sentence, agreed_by) in chosen {
        let terms = term_set(&sentence.terms);
        if seen.iter().any(|other| near_duplicate(&terms, &term_set(&other.terms))) {
            continue;
        }
        seen.push(sentence);
        let agreed = agreed_by.is_some();
        decisions.push(Decision {
            sentence: sentence.index,
            speaker: sentence.speaker.clone(),
            text: statement(sentences, sentence.index, agreed, lexicon),
            agreed_by,
        });
    }
    decisions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_and_firm_statements_are_decisions() {
        for text in [
            "We decided to go with the blue design.",
            "Okay, let's go with vendor B.",
            "Decision: the launch moves to May.",
            "We'll use Postgres for the new service.",
            "We're going to ship the beta on Monday.",
            "So that's agreed then, two hires this quarter.",
            "Let's plan it for the second week of next month.",
            "Sounds good, let us move the launch to May.",
            "Okay, so we'll launch in May.",
        ] {
            assert!(is_decision(text), "{text}");
        }
    }

    #[test]
    fn questions_negations_and_meeting_talk_are_not() {
        for text in [
            "Have we decided on the vendor?",
            "We haven't decided on the vendor yet.",
            "We'll see how it goes.",
            "We're going to talk about the budget next.",
            "If we go with blue we need new assets.",
            "We need to make a decision about pricing.",
            "Let's see what the numbers say.",
            "Let's grab a coffee after the call.",
            "Let us look at the budget for the next quarter.",
            "If the vendor says no, let's switch.",
            "Should we go with vendor B?",
            "How was your weekend?",
        ] {
            assert!(!is_decision(text), "{text}");
        }
    }
}
