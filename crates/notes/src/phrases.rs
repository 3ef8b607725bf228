//! Noun phrases, found without a tagger: the things a meeting talks about ("the new
//! hire", "the Q3 launch plan").
//!
//! A phrase is a run of up to three content words that ends at punctuation. A word is
//! not content when it is a stopword, a number, a name, a calendar or time word, an
//! adverb, or looks like a verb: a form of a common verb ("making", "needs"), a past
//! form ("spent", "cancelled"), a word after "to", a modal or a subject pronoun, an
//! "-s" word followed by a preposition ("starts on") or an "-ing" word after anything
//! but an article, a preposition or another content word. Adjectives are dropped from
//! the ends of a phrase, and a phrase right after "is" ("is ready") is a description,
//! not a thing. A few heads are too generic to name a topic alone ("plan", "team").

use std::collections::BTreeSet;

use crate::owners::Names;
use crate::text::{
    is_calendar_word, is_hesitation, is_past, is_stopword, listed, stem, tokens, Token,
};
use crate::transcript::Sentence;
use crate::Context;

/// A noun phrase of one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Phrase {
    /// As shown: "new hire", "Q3 launch plan".
    pub text: String,
    /// The stem of its last word, which names what the phrase is about.
    pub head: String,
    /// The stems of all its words: "new hire".
    pub key: String,
    /// How many words it has.
    pub size: usize,
    /// Whether an article or a possessive came before it ("the offsite").
    pub determined: bool,
}

/// What the phrase finder knows about the meeting: its names and its proper nouns.
pub(crate) struct Lexicon {
    pub names: Names,
    /// Words written with a capital inside a sentence and never in lowercase.
    proper: BTreeSet<String>,
}

const DETERMINERS: &str =
    "the a an this that these those our your their my his her its another every each any";
/// Verbs excluded in every form.
const VERBS: &str = "be do have make go get think try say take see hope wonder tell give put \
    keep let mean feel want need happen seem guess know believe remember forget like love \
    agree decide mention bring become begin lose find ask send come depend expect prefer \
    suggest sound look continue manage tend wish join matter";
/// Words after which the next word is a verb.
const VERB_BEFORE: &str = "to will would can could should must might may shall let's please \
    i we you they he she i'll we'll you'll they'll i'd we'd don't didn't won't can't never \
    not doesn't couldn't shouldn't";
/// Words that follow a verb rather than a plural noun ("starts on", "needs an").
const AFTER_VERB: &str = "on in at to for with from by about up out off over into the a an \
    our their this that me us them you him her it my your";
/// Words after which an "-ing" word is a noun ("the marketing", "of testing").
const BEFORE_NOUN: &str = "of for about on in with without from into after before";
/// The forms of "to be" and linking verbs: what follows them describes.
const LINKING: &str = "is are was were be been being am seems looks sounds feels";
/// Adjectives dropped from either end of a phrase.
const ADJECTIVES: &str =
    "another every each any short quick good great bad big small little whole full real main \
    last next final current same other different few several many certain specific \
    particular overall general entire nice easy hard early late high low top best better \
    worse worst sure fine okay open clear latest previous recent possible important \
    ready free available exact cheap cheaper expensive strong weak tight huge tiny major \
    minor simple busy happy sorry glad terrible awesome amazing biggest largest smallest \
    fastest slowest highest lowest hardest easiest newest oldest cheapest longest shortest \
    greatest nearest earliest riskiest busiest lucky fun funny interesting boring crazy weird \
    tired";
/// Adjectives dropped only where they end a phrase ("blue" alone, not "blue design").
const QUALITIES: &str = "new old blue green red yellow black white orange purple grey gray pink \
    brown loud clear";
/// Words that never name a topic.
const GENERIC: &str = "time thing things stuff way lot lots bit kind sort percent guys folks \
    people everyone everybody someone anyone moment minute minutes hour hours day days week \
    weeks month months year years quarter today tomorrow yesterday tonight morning afternoon \
    evening night hi hello thanks bye yes yeah okay sure idea ideas question questions \
    answer example case sense action next last sometime calling wow whoa oops ouch huh yay ugh \
    aha course spring summer autumn fall winter";
/// Heads that name a topic only with a word before them ("hiring plan", not "plan").
const WEAK_HEADS: &str = "team meeting call plan update problem issue part point side end \
    start number option list work note discussion topic item room goal place version change \
    talk";
const NUMBERS: &str = "two three four five six seven eight nine ten eleven twelve fifteen \
    twenty thirty forty fifty hundred thousand million billion half dozen first second \
    third fourth fifth couple";
/// Capitalised words followed by these are people ("Sam can …", "Lee said …").
const PERSON_VERBS: &str = "can will said says thinks thought wants wanted asked told \
    mentioned agreed suggested offered promised volunteered";
/// Capitalised words that do what people do but are not people ("Finance asked …").
const DEPARTMENTS: &str = "finance marketing legal sales engineering design product support \
    security operations management leadership procurement hr it qa ops";
const ADVERBS: &str = "less least ago already always never often soon later earlier almost \
    enough instead together perhaps anyway twice once again also sometime sometimes someday \
    anytime ahead";
/// Words ending in "-ly" that are not adverbs.
const LY_NOUNS: &str = "supply family assembly anomaly monopoly july italy reply apply rally";
/// The most words a phrase keeps (its last ones).
const MAX_WORDS: usize = 3;

impl Lexicon {
    pub fn new(sentences: &[Sentence], context: &Context) -> Self {
        let names = Names::new(sentences, context);
        let mut capital = BTreeSet::new();
        let mut lower = BTreeSet::new();
        for sentence in sentences {
            for (at, token) in tokens(&sentence.text).iter().enumerate() {
                if !token.is_capitalised() {
                    lower.insert(token.norm.clone());
                } else if at > 0 {
                    capital.insert(token.norm.clone());
                }
            }
        }
        let proper = capital.difference(&lower).cloned().collect();
        Lexicon { names, proper }
    }

    /// A word as shown: acronyms and proper nouns keep their capitals.
    fn display(&self, token: &Token) -> String {
        let raw = token.raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '%');
        let raw = raw.replace('\u{2019}', "'");
        let mixed = raw.chars().skip(1).any(char::is_uppercase) || is_acronym(&raw);
        let proper = self.proper.contains(&token.norm) || self.names.known(token).is_some();
        if mixed || (proper && token.is_capitalised()) {
            raw
        } else {
            raw.to_lowercase()
        }
    }
}

/// The noun phrases of a text, in order.
pub(crate) fn phrases(text: &str, lexicon: &Lexicon) -> Vec<Phrase> {
    let tokens = tokens(text);
    let mut out = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for at in 0..tokens.len() {
        if !is_content(&tokens, at, lexicon) {
            out.extend(phrase(&tokens, &run, lexicon));
            run.clear();
            continue;
        }
        run.push(at);
        if tokens[at].raw.ends_with(|c: char| !c.is_alphanumeric() && c != '%') {
            out.extend(phrase(&tokens, &run, lexicon));
            run.clear();
        }
    }
    out.extend(phrase(&tokens, &run, lexicon));
    out
}

/// The word without a possessive "'s".
fn base(token: &Token) -> &str {
    token.norm.strip_suffix("'s").unwrap_or(&token.norm)
}

fn is_content(tokens: &[Token], at: usize, lexicon: &Lexicon) -> bool {
    let token = &tokens[at];
    let word = base(token);
    let number = word.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ','));
    let plain = !word.is_empty()
        && !number
        && !word.contains('\'')
        && !is_stopword(word)
        && !is_hesitation(word)
        && (word.chars().count() >= 3 || is_acronym(&token.raw))
        && !listed(NUMBERS, word)
        && !listed(GENERIC, word)
        && !is_calendar_word(word)
        && !is_adverb(word);
    plain && lexicon.names.known(token).is_none() && !is_person(tokens, at) && !is_verb(tokens, at)
}

/// "Q3", "SSL", "UI": every letter a capital, two characters or more.
fn is_acronym(raw: &str) -> bool {
    let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
    word.chars().count() >= 2
        && word.chars().any(char::is_alphabetic)
        && word.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase)
}

fn is_adverb(word: &str) -> bool {
    listed(ADVERBS, word) || (word.len() >= 5 && word.ends_with("ly") && !listed(LY_NOUNS, word))
}

/// "Sam can …", "Lee said …": a capitalised word doing what people do.
fn is_person(tokens: &[Token], at: usize) -> bool {
    tokens[at].is_capitalised()
        && !listed(DEPARTMENTS, &tokens[at].norm)
        && tokens.get(at + 1).is_some_and(|next| listed(PERSON_VERBS, &next.norm))
}

fn is_verb(tokens: &[Token], at: usize) -> bool {
    let word = base(&tokens[at]);
    let previous = at.checked_sub(1).map(|before| &tokens[before]);
    let after_break = previous.is_none_or(|p| p.raw.ends_with([',', ';', ':', '.']));
    let previous = previous.map(|p| p.norm.as_str()).unwrap_or_default();
    let next = tokens.get(at + 1).map(|t| t.norm.as_str()).unwrap_or_default();
    if is_past(word) || verb_bases(word).iter().any(|b| listed(VERBS, b)) {
        return true;
    }
    if !after_break && listed(VERB_BEFORE, previous) {
        return true;
    }
    let plural = word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us");
    if plural && !after_break && at > 0 && listed(AFTER_VERB, next) {
        return true;
    }
    // "-ing" is a noun after an article, a preposition or a noun ("the onboarding",
    // "marketing budget"), and a verb after anything else ("went hiking").
    if !word.ends_with("ing")
        || after_break
        || listed(DETERMINERS, previous)
        || listed(BEFORE_NOUN, previous)
    {
        return false;
    }
    is_stopword(previous) || is_verb(tokens, at - 1)
}

/// The words a verb form may come from: "needs" → "need", "making" → "make",
/// "planned" → "plan", "tries" → "try".
fn verb_bases(word: &str) -> Vec<String> {
    let mut bases = vec![word.to_string()];
    for suffix in ["s", "es", "ed", "d", "ing"] {
        if let Some(stem) = word.strip_suffix(suffix).filter(|s| s.len() >= 2) {
            bases.push(stem.to_string());
            bases.push(format!("{stem}e"));
            let mut chars = stem.chars();
            let last = chars.next_back();
            if last.is_some() && last == chars.next_back() {
                bases.push(stem[..stem.len() - 1].to_string());
            }
        }
    }
    if let Some(stem) = word.strip_suffix("ies").or_else(|| word.strip_suffix("ied")) {
        bases.push(format!("{stem}y"));
    }
    bases
}

/// The phrase a run of content words makes, if it names something.
fn phrase(tokens: &[Token], run: &[usize], lexicon: &Lexicon) -> Option<Phrase> {
    let first = *run.first()?;
    let after_linking = first > 0 && listed(LINKING, &tokens[first - 1].norm);
    let mut kept: Vec<usize> = run.to_vec();
    let adjective = |at: &usize| listed(ADJECTIVES, base(&tokens[*at]));
    while kept.last().is_some_and(|at| adjective(at) || listed(QUALITIES, base(&tokens[*at]))) {
        kept.pop();
    }
    let strip = kept.iter().take_while(|at| adjective(at)).count();
    kept.drain(..strip);
    if kept.len() > MAX_WORDS {
        kept.drain(..kept.len() - MAX_WORDS);
    }
    let last = &tokens[*kept.last()?];
    let head = stem(base(last));
    if after_linking || (kept.len() == 1 && listed(WEAK_HEADS, &head)) {
        return None;
    }
    let key: Vec<String> = kept.iter().map(|at| stem(base(&tokens[*at]))).collect();
    let mut words: Vec<String> = kept.iter().map(|at| lexicon.display(&tokens[*at])).collect();
    if let Some(end) = words.last_mut() {
        if let Some(plain) = end.strip_suffix("'s") {
            *end = plain.to_string();
        }
    }
    let determined = first > 0 && listed(DETERMINERS, &tokens[first - 1].norm);
    Some(Phrase { text: words.join(" "), head, key: key.join(" "), size: kept.len(), determined })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::sentences;
    use crate::Line;

    fn found(text: &str) -> Vec<String> {
        let lines = [Line { speaker: "Dana".into(), text: text.into(), ..Line::default() }];
        let sentences = sentences(&lines);
        let context = Context { user_name: "Me".into(), ..Context::default() };
        let lexicon = Lexicon::new(&sentences, &context);
        phrases(text, &lexicon).into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn verbs_numbers_and_time_words_are_not_phrases() {
        assert_eq!(
            found("Sure, marketing spent about 12% less than planned, because the trade show was cancelled."),
            ["marketing", "trade show"]
        );
        assert_eq!(
            found("Hi, thanks for making time. How did the budget look last quarter?"),
            ["budget"]
        );
        assert_eq!(found("Let's plan it for the second week of next month."), Vec::<String>::new());
    }

    #[test]
    fn phrases_keep_their_modifiers_and_lose_adjectives() {
        assert_eq!(
            found(
                "One more thing, the new hire starts on Monday and she needs an onboarding buddy."
            ),
            ["new hire", "onboarding buddy"]
        );
        assert_eq!(found("Can you send me a short proposal by Friday?"), ["proposal"]);
        assert_eq!(
            found("The lake house is cheaper, Sam can take the Q3 launch plan."),
            ["lake house", "Q3 launch plan"]
        );
        assert_eq!(found("The search redesign keeps slipping."), ["search redesign"]);
    }
}
