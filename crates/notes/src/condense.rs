//! A transcript sentence condensed into a point: the filler of speech removed, a long
//! sentence cut before its "because" or "which" clause, and the speaker named.
//!
//! Openers ("Sure,", "So", "One more thing,"), hedges ("I think", "you know", "I mean")
//! and hesitations go. A named speaker's leading "I" becomes their name where the verb
//! allows it without conjugating ("I'll" → "Dana will", "I talked" → "Dana talked")
//! and no other first-person word is left; otherwise the speaker follows in brackets:
//! "Marketing spent about 12% less than planned (Me)".

use crate::text::{
    capitalise_first, fix_pronoun, is_hesitation, is_past, leading_phrase, listed, normalize_word,
};

/// Openers removed from the start, repeatedly.
const OPENERS: &str = "one more thing | another thing | the other thing is | the other thing \
    | last thing | by the way | on another note | in any case | to be fair | to be honest | \
    first of all | all right | as i said | pretty good | not bad | you know | i mean | i think | i guess | i believe \
    | i feel like | so | and | but | okay | ok | yeah | yes | yep | no | well | alright | \
    right | oh | anyway | also | now | then | sure | good | great | cool | nice | perfect | \
    fine | honestly | basically | actually | look | listen | maybe | first | second | third \
    | finally | lastly | next";
/// Openers that are removed only with a comma after them ("Good, so …", not "Good news").
const COMMA_ONLY: &str = "no yes good great cool nice perfect fine right sure look listen now \
    then maybe first second third finally lastly next";
/// Hedges removed anywhere.
const HEDGES: &str =
    "you know what | you know | i mean | i think | i guess | i believe | i feel like | to be \
    honest | basically | honestly | literally";
/// Words that start a clause a point can do without.
const SUBORDINATE: &str =
    "because mostly mainly partly especially since although though which while whereas unless";
/// First-person words that keep a sentence in the first person.
const FIRST_PERSON: &str = "i me my mine myself i'm i've i'll i'd";
/// What follows "I" unchanged after a name ("Dana can …", "Dana already …").
const KEEPS_FORM: &str = "can could will would should must might may did had already also just \
    never still really only cannot can't couldn't won't wouldn't didn't";
/// The fewest words a point has.
const MIN_WORDS: usize = 4;
/// The most words a point shows before it is cut.
const MAX_WORDS: usize = 25;

/// The point a sentence makes, attributed to `speaker`; `named` when the speaker is a
/// person's name (not "Me", "Them" or "Speaker 2"). `None` when too little is left.
pub(crate) fn condense(text: &str, speaker: &str, named: bool) -> Option<String> {
    let mut words: Vec<String> = text
        .split_whitespace()
        .filter(|raw| !is_hesitation(&normalize_word(raw)))
        .map(fix_pronoun)
        .collect();
    drop_hedges(&mut words);
    drop_openers(&mut words);
    cut_clause(&mut words);
    if words.len() > MAX_WORDS {
        words.truncate(MAX_WORDS);
        words.push("\u{2026}".to_string());
    }
    if words.len() < MIN_WORDS {
        return None;
    }
    let (words, renamed) = match named.then(|| third_person(&words, speaker)).flatten() {
        Some(renamed) => (renamed, true),
        None => (words, false),
    };
    let joined = words.join(" ");
    let point = capitalise_first(joined.trim_end_matches(['.', ',', ';', ':', '!', ' ']));
    Some(if renamed { point } else { format!("{point} ({speaker})") })
}

fn norms(words: &[String]) -> Vec<String> {
    words.iter().map(|w| normalize_word(w)).collect()
}

/// Removes hedges wherever they are, with the comma that set them off.
fn drop_hedges(words: &mut Vec<String>) {
    let mut at = 0;
    while at < words.len() {
        let norms = norms(&words[at..]);
        let Some(len) = leading_phrase(HEDGES, norms.iter().map(String::as_str)) else {
            at += 1;
            continue;
        };
        let comma = words[at + len - 1].ends_with(',');
        words.drain(at..at + len);
        if comma && at > 0 && words[at - 1].ends_with(',') {
            words[at - 1].pop();
        }
    }
}

/// Removes openers from the start while enough is left.
fn drop_openers(words: &mut Vec<String>) {
    loop {
        let norms = norms(words);
        let Some(len) = leading_phrase(OPENERS, norms.iter().map(String::as_str)) else {
            return;
        };
        let comma = words[len - 1].ends_with(',');
        let needs_comma = len == 1 && listed(COMMA_ONLY, &norms[0]);
        if (needs_comma && !comma) || words.len() == len {
            return;
        }
        words.drain(..len);
    }
}

/// Cuts a sentence before a subordinate clause set off by a comma.
fn cut_clause(words: &mut Vec<String>) {
    let norms = norms(words);
    let cut = (MIN_WORDS + 1..words.len())
        .find(|at| words[at - 1].ends_with(',') && listed(SUBORDINATE, &norms[*at]));
    if let Some(at) = cut {
        words.truncate(at);
    }
}

/// "I'll send it" → "Dana will send it", where that is simple and nothing else is in
/// the first person.
fn third_person(words: &[String], name: &str) -> Option<Vec<String>> {
    let norms = norms(words);
    let first = norms.first()?.as_str();
    let next = norms.get(1).map(String::as_str).unwrap_or_default();
    let (replaced, verb) = match first {
        "i'm" => (1, "is"),
        "i've" => (1, "has"),
        "i'll" => (1, "will"),
        "i'd" => (1, "would"),
        "i" if next == "am" => (2, "is"),
        "i" if next == "have" => (2, "has"),
        "i" if next == "was" => (2, "was"),
        "i" if listed(KEEPS_FORM, next) || is_past(next) => (1, ""),
        _ => return None,
    };
    let rest = &words[replaced..];
    if norms[replaced..].iter().any(|w| listed(FIRST_PERSON, w)) {
        return None;
    }
    let mut out = vec![name.to_string()];
    out.extend((!verb.is_empty()).then(|| verb.to_string()));
    out.extend(rest.iter().cloned());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filler_and_side_clauses_are_removed() {
        assert_eq!(
            condense(
                "Sure, marketing spent about 12% less than planned, mostly because the trade show was cancelled.",
                "Me",
                false
            )
            .as_deref(),
            Some("Marketing spent about 12% less than planned (Me)")
        );
        assert_eq!(
            condense(
                "One more thing, the new hire starts on Monday and I think she needs a buddy.",
                "Me",
                false
            )
            .as_deref(),
            Some("The new hire starts on Monday and she needs a buddy (Me)")
        );
        assert_eq!(
            condense("Good, so um we have some room for the offsite.", "Speaker 1", false)
                .as_deref(),
            Some("We have some room for the offsite (Speaker 1)")
        );
        assert_eq!(condense("Yeah, sure, sounds good.", "Me", false), None);
    }

    #[test]
    fn a_named_speaker_replaces_a_simple_leading_i() {
        assert_eq!(
            condense("I talked to their marketing lead last week.", "Hugo", true).as_deref(),
            Some("Hugo talked to their marketing lead last week")
        );
        assert_eq!(
            condense("I'm worried about the audit dates.", "Omar", true).as_deref(),
            Some("Omar is worried about the audit dates")
        );
        assert_eq!(
            condense("I need my laptop back before Friday.", "Omar", true).as_deref(),
            Some("I need my laptop back before Friday (Omar)")
        );
        assert_eq!(
            condense("I sent the deck yesterday.", "Me", false).as_deref(),
            Some("I sent the deck yesterday (Me)")
        );
    }
}
