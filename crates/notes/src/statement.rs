//! A decision written as what was decided: "Okay, let's plan it for the second week of
//! next month" → "Plan the offsite for the second week of next month."
//!
//! Openers and assent ("okay", "sounds good") are skipped; a leading cue ("let's", "we'll",
//! "we decided to", and for a question someone agreed to, "should we") is removed; an
//! "it" right after the verb becomes the last thing named in the two sentences before.
//! A sentence without such a cue, or one that would read wrong without it ("we'll not
//! …"), is kept whole, tidied.

use crate::phrases::{phrases, Lexicon};
use crate::task::{clause_end, skip_lead_ins, trim_trailing, wording};
use crate::text::{leading_phrase, tidy_sentence, tokens, Token};
use crate::transcript::Sentence;

/// Openers and assent skipped before a cue.
const OPENERS: &str = "sounds good | that works | works for me | in that case | all right | \
    fair enough | makes sense | i think | so | okay | ok | alright | yeah | yes | well | then \
    | sure | great | good | perfect | fine | cool | right | and | agreed | absolutely | \
    definitely";
/// Cues of a decision, removed from its statement.
const CUES: &str = "let's | let us | we'll | we will | we're going to | we are going to | \
    we're gonna | we are gonna | we decided to | we've decided to | we have decided to | we \
    agreed to | we've agreed to | we have agreed to | the decision is to | the plan is to | \
    decision is to | so we'll";
/// Cues of a proposal, removed once someone agreed to it.
const PROPOSALS: &str = "should we | shall we | can we | could we | do we want to | why don't \
    we | how about we | maybe we should | we should | we could | i suggest we | i propose we \
    | i think we should";
/// How many sentences back "it" looks for what it names.
const REACH: usize = 2;
/// The most words of a lead before a cue ("For the retro, …").
const LEAD: usize = 6;

/// The statement of the decision in sentence `at`; `agreed` when another speaker
/// agreed to it, so that a proposal ("should we …?") reads as decided.
pub(crate) fn statement(
    sentences: &[Sentence],
    at: usize,
    agreed: bool,
    lexicon: &Lexicon,
) -> String {
    let text = &sentences[at].text;
    let tokens = tokens(text);
    // The cue opens the sentence, or follows a short lead set off by a comma
    // ("For the retro, should we move it to Friday?").
    let lead_end = tokens.iter().take(LEAD).position(Token::has_comma).map_or(0, |at| at + 1);
    let found = [0, lead_end].into_iter().find_map(|start| {
        let from = skip_openers(&tokens, start);
        cue(&tokens, from, agreed).map(|len| (start, from + len))
    });
    let Some((lead, after_cue)) = found else {
        return tidy_sentence(text);
    };
    let body = skip_lead_ins(&tokens, after_cue);
    let end = trim_trailing(&tokens, body, clause_end(&tokens, body, tokens.len()));
    let first = tokens.get(body).map(|t| t.norm.as_str()).unwrap_or_default();
    if end <= body + 1 || matches!(first, "not" | "never") {
        return tidy_sentence(text);
    }
    let mut told: Vec<Token> = tokens[body..end].to_vec();
    if told.get(1).is_some_and(|t| t.norm == "it") {
        let lead_text: Vec<&str> = tokens[..lead].iter().map(|t| t.raw.as_str()).collect();
        let named =
            named_in(&lead_text.join(" "), lexicon).or_else(|| referent(sentences, at, lexicon));
        if let Some(name) = named {
            let comma = if told[1].has_comma() { "," } else { "" };
            told[1] = Token { raw: format!("{name}{comma}"), norm: name.to_lowercase() };
        }
    }
    match wording(&told) {
        Some(said) => format!("{said}."),
        None => tidy_sentence(text),
    }
}

/// The position after any openers from `at`.
fn skip_openers(tokens: &[Token], mut at: usize) -> usize {
    let norms = |from: usize| tokens[from.min(tokens.len())..].iter().map(|t| t.norm.as_str());
    while let Some(len) = leading_phrase(OPENERS, norms(at)) {
        at += len;
    }
    at
}

/// The length of the cue at `at`; proposals count once someone agreed.
fn cue(tokens: &[Token], at: usize, agreed: bool) -> Option<usize> {
    let norms = || tokens[at.min(tokens.len())..].iter().map(|t| t.norm.as_str());
    leading_phrase(CUES, norms())
        .or_else(|| agreed.then(|| leading_phrase(PROPOSALS, norms())).flatten())
}

/// The last thing a text names: "the retro".
fn named_in(text: &str, lexicon: &Lexicon) -> Option<String> {
    let phrase = phrases(text, lexicon).pop()?;
    Some(if phrase.determined { format!("the {}", phrase.text) } else { phrase.text })
}

/// The last thing named shortly before sentence `at`: "the offsite".
fn referent(sentences: &[Sentence], at: usize, lexicon: &Lexicon) -> Option<String> {
    let before = (1..=REACH).filter_map(|back| at.checked_sub(back));
    before.into_iter().find_map(|before| named_in(&sentences[before].text, lexicon))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::sentences;
    use crate::{Context, Line};

    fn decided(texts: &[&str], agreed: bool) -> String {
        let lines: Vec<Line> = texts
            .iter()
            .enumerate()
            .map(|(at, text)| Line {
                speaker: if at % 2 == 0 { "Dana" } else { "Me" }.into(),
                start_ms: at as i64,
                end_ms: at as i64,
                text: (*text).into(),
            })
            .collect();
        let sentences = sentences(&lines);
        let lexicon = Lexicon::new(&sentences, &Context::default());
        statement(&sentences, sentences.len() - 1, agreed, &lexicon)
    }

    #[test]
    fn cues_are_removed_and_it_names_what_was_just_discussed() {
        assert_eq!(
            decided(
                &[
                    "When should we do the offsite?",
                    "Okay, let's plan it for the second week of next month."
                ],
                false
            ),
            "Plan the offsite for the second week of next month."
        );
        assert_eq!(
            decided(&["Okay, we'll go with Brightline then."], false),
            "Go with Brightline."
        );
        assert_eq!(
            decided(&["We decided to go with the blue design."], false),
            "Go with the blue design."
        );
        assert_eq!(
            decided(&["Should we drop the filters from the first version?"], true),
            "Drop the filters from the first version."
        );
        assert_eq!(
            decided(&["For the retro, should we move it to Friday?"], true),
            "Move the retro to Friday."
        );
    }

    #[test]
    fn sentences_without_a_cue_stay_whole() {
        assert_eq!(
            decided(&["So that's agreed then, two hires this quarter."], false),
            "That's agreed then, two hires this quarter."
        );
        assert_eq!(
            decided(&["We'll not renew the contract."], false),
            "We'll not renew the contract."
        );
        assert_eq!(decided(&["Should we drop the filters?"], false), "Should we drop the filters?");
    }
}
