//! Word-level helpers shared by every note kind: tokens, stopwords, light stemming,
//! deadline phrases and tidying a transcript sentence for display.

use std::collections::BTreeSet;

/// One whitespace-separated token: its original spelling and a normalised form
/// (lowercase, straight apostrophes, surrounding punctuation removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub raw: String,
    pub norm: String,
}

impl Token {
    /// Whether the original spelling carries a trailing comma ("Alice,").
    pub fn has_comma(&self) -> bool {
        self.raw.trim_end_matches(['"', '\u{201d}', ')']).ends_with(',')
    }

    /// Whether the original spelling starts with a capital letter.
    pub fn is_capitalised(&self) -> bool {
        self.raw.chars().find(|c| c.is_alphanumeric()).is_some_and(char::is_uppercase)
    }
}

/// Splits text at whitespace, keeping tokens whose normal form is empty (dashes) so
/// callers can treat them as clause breaks.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    text.split_whitespace()
        .map(|raw| Token { raw: raw.to_string(), norm: normalize_word(raw) })
        .collect()
}

/// Lowercases a word, straightens apostrophes and trims surrounding punctuation.
pub(crate) fn normalize_word(raw: &str) -> String {
    let lower: String = raw
        .chars()
        .map(|c| if matches!(c, '\u{2019}' | '\u{2018}' | '`') { '\'' } else { c })
        .flat_map(char::to_lowercase)
        .collect();
    lower.trim_matches(|c: char| !c.is_alphanumeric()).to_string()
}

/// The non-empty normalised words of a text.
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(normalize_word).filter(|w| !w.is_empty()).collect()
}

/// Words that carry no topic: function words plus the filler of spoken English.
const STOPWORDS: &str =
    "a about above actually after again against all alright also am an and any anyone \
    anything are around as at basically be because been before being below between bit \
    both but by bye can cool could did do does doing done down during each else even ever \
    every everybody everyone everything few for from further get gets getting go goes \
    going gonna good got gotta great guess had has have having he hello her here hers hey \
    hi him his hmm how i if in into is it its just kind know let lets like little lot lots \
    make many may maybe me mean might mine mm mm-hmm more most much must my myself need no \
    nobody nor not nothing now of off oh ok okay on once one only or other our ours out \
    over own please pretty probably quite really right same said say says see shall she \
    should so some somebody someone something sort still stuff such sure than thank thanks \
    that the their theirs them then there these they thing things think this those through \
    to too uh uh-huh um under until up us very want was way we well were what when where \
    which while who whom why will with would yeah yep yes yet you your yours yourself";

/// Whether `word` is one of the space-separated words of `list`.
pub(crate) fn listed(list: &str, word: &str) -> bool {
    list.split_whitespace().any(|entry| entry == word)
}

/// The length of the first `|`-separated phrase of `list` that `words` start with.
pub(crate) fn leading_phrase<'w>(
    list: &str,
    words: impl Iterator<Item = &'w str> + Clone,
) -> Option<usize> {
    list.split('|').find_map(|phrase| {
        let len = phrase.split_whitespace().count();
        let matched =
            phrase.split_whitespace().zip(words.clone()).filter(|(want, got)| want == got).count();
        (len > 0 && matched == len).then_some(len)
    })
}

/// The length of the first `|`-separated phrase of `list` that `words` end with.
pub(crate) fn trailing_phrase<'w>(
    list: &str,
    words: impl DoubleEndedIterator<Item = &'w str> + Clone,
) -> Option<usize> {
    list.split('|').find_map(|phrase| {
        let len = phrase.split_whitespace().count();
        let matched = phrase
            .split_whitespace()
            .rev()
            .zip(words.clone().rev())
            .filter(|(want, got)| want == got)
            .count();
        (len > 0 && matched == len).then_some(len)
    })
}

pub(crate) fn is_stopword(word: &str) -> bool {
    listed(STOPWORDS, word)
}

/// Folds plurals so "reports" and "report" count as one term.
pub(crate) fn stem(word: &str) -> String {
    if word.len() > 4 && word.ends_with("ies") {
        format!("{}y", &word[..word.len() - 3])
    } else if word.len() > 3
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
    {
        word[..word.len() - 1].to_string()
    } else {
        word.to_string()
    }
}

/// The topic-bearing terms of a text, stemmed, in order (repeats kept).
pub(crate) fn content_terms(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter_map(|word| {
            let base = word.strip_suffix("'s").unwrap_or(&word);
            let numeric = base.chars().all(|c| c.is_ascii_digit());
            if base.contains('\'') || is_stopword(base) || (base.chars().count() < 3 && !numeric) {
                return None;
            }
            Some(stem(base))
        })
        .collect()
}

/// The distinct content terms of a text.
pub(crate) fn term_set(terms: &[String]) -> BTreeSet<&str> {
    terms.iter().map(String::as_str).collect()
}

/// Whether two term sets say nearly the same thing.
pub(crate) fn near_duplicate(a: &BTreeSet<&str>, b: &BTreeSet<&str>) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let shared = a.intersection(b).count() as f64;
    let union = a.union(b).count() as f64;
    let smaller = a.len().min(b.len()) as f64;
    shared / union >= 0.5 || (smaller >= 3.0 && shared / smaller >= 0.8)
}

const WEEKDAYS: &str = "monday tuesday wednesday thursday friday saturday sunday";
/// Months, without "may", which is far more often the verb.
const MONTHS: &str =
    "january february march april june july august september october november december";
const TIME_WORDS: &str = "today tonight tomorrow asap eod eow cob noon midnight weekend";
const TIME_NOUNS: &str =
    "week month quarter year sprint morning afternoon evening night weekend standup \
    stand-up meeting call sync review demo launch release deadline day time";
const DEADLINE_PREPOSITIONS: &str = "by before until till on within over";

fn base(word: &str) -> &str {
    let word = word.strip_suffix("'s").unwrap_or(word);
    word.strip_suffix('s').filter(|w| listed(WEEKDAYS, w)).unwrap_or(word)
}

/// "by", "before", "on": words that open a deadline ("by Friday").
pub(crate) fn is_deadline_preposition(word: &str) -> bool {
    listed(DEADLINE_PREPOSITIONS, word)
}

pub(crate) fn is_calendar_word(word: &str) -> bool {
    let word = base(word);
    listed(WEEKDAYS, word) || listed(MONTHS, word) || word == "may"
}

fn time_expression(norms: &[&str], at: usize, after_preposition: bool) -> bool {
    let Some(word) = norms.get(at).map(|w| base(w)) else {
        return false;
    };
    let next = norms.get(at + 1).map(|w| base(w)).unwrap_or_default();
    listed(TIME_WORDS, word)
        || listed(WEEKDAYS, word)
        || listed(MONTHS, word)
        || (after_preposition && (word == "may" || word.starts_with(|c: char| c.is_ascii_digit())))
        || (matches!(word, "next" | "this" | "coming" | "following")
            && (listed(TIME_NOUNS, next) || listed(WEEKDAYS, next)))
        || (word == "end" && next == "of")
        || (word == "later" && matches!(next, "today" | "tonight" | "this"))
        || (word == "the" && time_expression(norms, at + 1, after_preposition))
}

/// Where the first deadline phrase ("by Friday", "tomorrow", "next week", "end of day")
/// starts among normalised words, if there is one.
pub(crate) fn deadline_start(norms: &[&str]) -> Option<usize> {
    (0..norms.len()).find(|&at| {
        (listed(DEADLINE_PREPOSITIONS, norms[at]) && time_expression(norms, at + 1, true))
            || time_expression(norms, at, false)
    })
}

/// Past forms that do not end in "-ed".
const IRREGULAR: &str = "spent went gone did done made took taken got gotten gave given found \
    thought told sent came left kept met paid put ran saw seen set sold bought brought built \
    held lost wrote written spoke spoken began begun chose chosen said knew known felt heard \
    meant understood became grew fell stood sat won led broke broken forgot forgotten";
/// Whether a word is a past form: "-ed" ("planned", not "need") or irregular ("spent").
pub(crate) fn is_past(word: &str) -> bool {
    (word.len() >= 5 && word.ends_with("ed") && !word.ends_with("eed")) || listed(IRREGULAR, word)
}

/// Uppercases the first letter.
pub(crate) fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Fixes ASR's lowercase "i", "i'll", "i'm" to the capital pronoun.
pub(crate) fn fix_pronoun(raw: &str) -> String {
    let norm = normalize_word(raw);
    let pronoun = norm == "i" || (norm.starts_with("i'") && norm.len() <= 4);
    if pronoun && raw.starts_with('i') {
        capitalise_first(raw)
    } else {
        raw.to_string()
    }
}

/// Hesitations dropped wherever they appear.
const HESITATIONS: &str = "um uh erm er hmm mm ah uhm";
/// Openers dropped from the start of a sentence shown to the reader.
const OPENERS: &str = "so and okay ok yeah well alright anyway oh like right";

pub(crate) fn is_hesitation(norm: &str) -> bool {
    listed(HESITATIONS, norm)
}

/// A transcript sentence made presentable: hesitations and leading filler removed,
/// the pronoun "I" capitalised, a capital first letter and closing punctuation.
pub(crate) fn tidy_sentence(text: &str) -> String {
    let mut kept: Vec<&str> =
        text.split_whitespace().filter(|raw| !is_hesitation(&normalize_word(raw))).collect();
    while kept.len() > 4 && listed(OPENERS, &normalize_word(kept[0])) {
        kept.remove(0);
    }
    let joined: Vec<String> = kept.iter().map(|raw| fix_pronoun(raw)).collect();
    let mut sentence = capitalise_first(joined.join(" ").trim_start_matches([',', ' ']));
    let trimmed = sentence.trim_end_matches([',', ';', ':', ' ', '-']).len();
    sentence.truncate(trimmed);
    if !sentence.ends_with(['.', '!', '?', '\u{2026}', '"', '\u{201d}']) {
        sentence.push('.');
    }
    sentence
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deadline(text: &str) -> Option<usize> {
        let norms = words(text);
        let refs: Vec<&str> = norms.iter().map(String::as_str).collect();
        deadline_start(&refs)
    }

    #[test]
    fn deadlines_are_found_where_they_start() {
        assert_eq!(deadline("send it by Friday"), Some(2));
        assert_eq!(deadline("review it before tomorrow's standup"), Some(2));
        assert_eq!(deadline("finish the plan next week"), Some(3));
        assert_eq!(deadline("done by end of day"), Some(1));
        assert_eq!(deadline("ship it on may 3"), Some(2));
        assert_eq!(deadline("we may ship it by email"), None);
    }

    #[test]
    fn phrase_lists_match_whole_words_at_either_end() {
        let list = "go ahead and | please | make sure \
            to";
        assert_eq!(leading_phrase(list, ["make", "sure", "to", "send"].into_iter()), Some(3));
        assert_eq!(leading_phrase(list, ["go", "ahead"].into_iter()), None);
        assert_eq!(trailing_phrase(list, ["send", "it", "please"].into_iter()), Some(1));
        assert_eq!(trailing_phrase(list, ["pleased"].into_iter()), None);
        assert!(listed("a bc d", "bc") && !listed("a bc d", "b"));
    }

    #[test]
    fn content_terms_drop_stopwords_and_fold_plurals() {
        assert_eq!(
            content_terms("So we'll send the reports to the team's inbox"),
            ["send", "report", "team", "inbox"]
        );
    }

    #[test]
    fn sentences_are_tidied_for_display() {
        assert_eq!(tidy_sentence("so um i think we should ship it,"), "I think we should ship it.");
        assert_eq!(tidy_sentence("Is that okay?"), "Is that okay?");
    }
}
