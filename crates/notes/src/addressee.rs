//! Who a request without a name was put to, offers someone accepted, open tasks
//! someone volunteered for, and a request's wording from the side of the one asked.
//!
//! A request is put to the next other speaker who accepts it ("sure", "will do"), else
//! to the one whose question it answers, else to the next other speaker, else to the
//! last one before it: never to the one who asked. "Can you send me the deck?" asked by
//! Dana becomes "Send Dana the deck"; asked by an unnamed voice, "Send the deck".

use crate::owners::is_named_speaker;
use crate::task::{clause_end, skip_lead_ins, stopped, trim_trailing, wording, FIRST_PERSON_STOPS};
use crate::text::{leading_phrase, listed, normalize_word, tokens, words};
use crate::transcript::Sentence;

/// How far a request looks for the person who answers it.
const REACH: usize = 3;
/// How an acceptance opens.
const ACCEPTS: &str = "sure | yes | yeah | yep | ok | okay | will do | of course | absolutely \
    | definitely | no problem | on it | i'll | i will | i can | can do | happy to | certainly \
    | alright | fine | sounds good | please do | please | go ahead | that would be great";
/// How an offer opens ("Should I book a room?").
const OFFERS: &str = "should i | shall i | do you want me to | want me to | would you like me \
    to | do you need me to";
/// How someone takes an open task, said on its own.
const TAKES: &str = "i'll take that | i'll take it | i'll take this | i can take that | i can \
    take it | i can do that | i'll do that | i'll do it | i'll handle that | i'll handle it | i \
    can handle that | i'm on it | leave it with me | i'll take care of it | i'll take care of \
    that | i'll own that | i'll own it | i'll do this | i can do it";
/// Words said before taking a task ("Sure, I'll take that").
const BEFORE_TAKING: &str = "sure yes yeah ok okay so well oh fine alright";
/// Who an open task is put to, and what follows to open the task.
const ANYONE: &str = "someone somebody anyone anybody who";
const OPEN_CUES: &str = "to | needs to | has to | should | must | could | can | will | wants to";
/// Words skipped before an offer.
const OPENERS: &str = "so and okay ok also then well";
/// Verbs after which "me" is the one who receives ("send me the deck").
pub(crate) const GIVING: &str =
    "send give show forward email mail bring get pass hand text message buy";

/// Whether a sentence opens by accepting what was asked.
pub(crate) fn accepts(sentence: &Sentence) -> bool {
    let said = words(&sentence.text);
    leading_phrase(ACCEPTS, said.iter().map(String::as_str)).is_some()
}

/// Who a request without a name in sentence `index` was put to.
pub(crate) fn answerer(index: usize, sentences: &[Sentence]) -> Option<String> {
    let speaker = &sentences[index].speaker;
    let other = |s: &&Sentence| s.speaker != *speaker;
    let next = sentences[index + 1..].iter().take(REACH).find(other);
    let before = sentences[..index].iter().rev().take(REACH).find(other);
    let accepted = next.filter(|s| accepts(s));
    let asked = before.filter(|s| s.is_question() && index - s.index <= 2);
    accepted.or(asked).or(next).or(before).map(|s| s.speaker.clone())
}

/// The task of an offer in sentence `index` that the next speaker accepted:
/// "Do you want me to cancel the licenses?" — "Yes, please do." → "Cancel the licenses".
pub(crate) fn accepted_offer(sentences: &[Sentence], index: usize) -> Option<String> {
    let offer = &sentences[index];
    let answer = sentences.get(index + 1).filter(|s| s.speaker != offer.speaker)?;
    if !offer.is_question() || !accepts(answer) {
        return None;
    }
    let tokens = tokens(&offer.text);
    let norms: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
    let start = norms.iter().take_while(|w| listed(OPENERS, w)).count();
    let cue = leading_phrase(OFFERS, norms[start..].iter().copied())?;
    let body = skip_lead_ins(&tokens, start + cue);
    let end = trim_trailing(&tokens, body, clause_end(&tokens, body, tokens.len()));
    let task: Vec<&str> = norms[body..end].to_vec();
    if task.len() < 2 || stopped(FIRST_PERSON_STOPS, &task) {
        return None;
    }
    wording(&tokens[body..end])
}

/// The task someone volunteers for: "We need someone to design the booth." — "I'll
/// take that." → "Design the booth", said within reach before sentence `index` by
/// another voice (or by "Them", whose voices are not told apart).
pub(crate) fn volunteered(sentences: &[Sentence], index: usize) -> Option<String> {
    let taker = &sentences[index];
    let said = words(&taker.text);
    let start = said.iter().take_while(|w| listed(BEFORE_TAKING, w)).count();
    let taken = leading_phrase(TAKES, said[start..].iter().map(String::as_str))?;
    if start + taken < said.len() {
        return None;
    }
    let many = taker.speaker.trim().eq_ignore_ascii_case("them");
    sentences[..index]
        .iter()
        .rev()
        .take(REACH)
        .filter(|s| s.speaker != taker.speaker || many)
        .find_map(|s| open_task(&s.text))
}

/// "we need someone to X", "someone has to X", "who can X?", "can somebody X?".
fn open_task(text: &str) -> Option<String> {
    let tokens = tokens(text);
    let norms: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
    let at = norms.iter().position(|w| listed(ANYONE, w))?;
    let after = &norms[at + 1..];
    let cue = leading_phrase(OPEN_CUES, after.iter().copied()).or_else(|| {
        let asked = at.checked_sub(1).is_some_and(|b| listed("can could would will", norms[b]));
        (asked && norms[at] != "who").then_some(0)
    })?;
    let body = skip_lead_ins(&tokens, at + 1 + cue);
    let end = trim_trailing(&tokens, body, clause_end(&tokens, body, tokens.len()));
    (end >= body + 2).then(|| wording(&tokens[body..end])).flatten()
}

/// A commitment's task without the listener it was said to: "send you the summary" →
/// "Send the summary".
pub(crate) fn without_listener(task: &str) -> String {
    let raws: Vec<&str> = task.split_whitespace().collect();
    let kept: Vec<&str> = raws
        .iter()
        .enumerate()
        .filter(|(at, raw)| {
            let giving =
                at.checked_sub(1).is_some_and(|b| listed(GIVING, &normalize_word(raws[b])));
            !(giving && *at + 1 < raws.len() && normalize_word(raw) == "you")
        })
        .map(|(_, raw)| *raw)
        .collect();
    kept.join(" ")
}

/// A request's task as the one asked would write it: "me" and "my" become the asker
/// ("Send Dana the deck", "Review Dana's draft"). For the user ("Me") they stay; for an
/// unnamed asker "me" after a giving verb goes ("Send the deck") and is "them" elsewhere.
pub(crate) fn from_asker(task: &str, asker: &str) -> String {
    if asker.trim().eq_ignore_ascii_case("me") {
        return task.to_string();
    }
    let named = is_named_speaker(asker);
    let raws: Vec<&str> = task.split_whitespace().collect();
    let mut out: Vec<String> = Vec::with_capacity(raws.len());
    for (at, raw) in raws.iter().enumerate() {
        let norm = normalize_word(raw);
        let tail = &raw[raw.trim_end_matches(|c: char| !c.is_alphanumeric()).len()..];
        let previous = at.checked_sub(1).map(|before| normalize_word(raws[before]));
        let gives = previous.is_some_and(|p| listed(GIVING, &p)) && at + 1 < raws.len();
        match norm.as_str() {
            "me" if named => out.push(format!("{asker}{tail}")),
            "me" if gives => {}
            "me" => out.push(format!("them{tail}")),
            "my" if named => out.push(format!("{asker}'s{tail}")),
            "my" => out.push(format!("their{tail}")),
            _ => out.push((*raw).to_string()),
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn me_becomes_the_one_who_asked() {
        assert_eq!(
            from_asker("Send me a short proposal by Friday", "Dana"),
            "Send Dana a short proposal by Friday"
        );
        assert_eq!(
            from_asker("Send me a short proposal by Friday", "Speaker 1"),
            "Send a short proposal by Friday"
        );
        assert_eq!(from_asker("Review my draft", "Dana"), "Review Dana's draft");
        assert_eq!(from_asker("Call me tomorrow", "Them"), "Call them tomorrow");
        assert_eq!(from_asker("Send me the logs", "Me"), "Send me the logs");
        assert_eq!(without_listener("Send you the summary today"), "Send the summary today");
        assert_eq!(without_listener("Tell you later"), "Tell you later");
    }
}
