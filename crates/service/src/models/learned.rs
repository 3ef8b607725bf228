//! Words learned from the person's corrections (`transcription.learned`): a
//! word the person writes into a line where the transcription had something
//! else, and that is rare (not one of the ten thousand everyday English words
//! in `everyday-en.txt`), biases later transcriptions as the person's own
//! words to know do (`vocabulary.rs`).

use std::collections::HashSet;
use std::sync::LazyLock;

use recorder_settings::{is_vocabulary_word, MAX_WORDS};

static EVERYDAY: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("everyday-en.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .collect()
});

/// The rare words of `after` that `before` did not have, in order, each once.
pub fn new_rare_words(before: &str, after: &str) -> Vec<String> {
    let had: HashSet<String> = words(before).map(|word| word.to_lowercase()).collect();
    let mut found: Vec<String> = Vec::new();
    for word in words(after).map(without_possessive) {
        let lower = word.to_lowercase();
        let duplicate = found.iter().any(|kept| kept.to_lowercase() == lower);
        if !had.contains(&lower) && !duplicate && is_rare(word) {
            found.push(word.to_string());
        }
    }
    found
}

/// `Priya's` → `Priya`.
fn without_possessive(word: &str) -> &str {
    word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")).unwrap_or(word)
}

/// The words of a line: runs of letters, digits, `'` and `-`, their edge
/// punctuation trimmed.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty())
}

/// At least three characters, a letter among them, and not an everyday word.
fn is_rare(word: &str) -> bool {
    if word.chars().count() < 3 || !word.chars().any(char::is_alphabetic) {
        return false;
    }
    !EVERYDAY.contains(word.to_lowercase().replace('’', "'").as_str())
}

/// `learned` with `new` words added (those not in it nor in the person's
/// own `vocabulary`, compared without case), the oldest dropped past
/// [`MAX_WORDS`]; `None` when nothing is added.
pub fn with_new(learned: &[String], vocabulary: &[String], new: &[String]) -> Option<Vec<String>> {
    let known =
        |word: &str| learned.iter().chain(vocabulary).any(|kept| kept.eq_ignore_ascii_case(word));
    let added: Vec<&String> =
        new.iter().filter(|word| is_vocabulary_word(word) && !known(word)).collect();
    if added.is_empty() {
        return None;
    }
    let mut words: Vec<String> = learned.to_vec();
    words.extend(added.into_iter().cloned());
    let excess = words.len().saturating_sub(MAX_WORDS);
    words.drain(..excess);
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_rare_words_the_person_wrote_in_are_learned() {
        let learned = new_rare_words(
            "Sure, Shivon will send it to Tran with the cube config.",
            "Sure, Siobhan will send it to Tran with the Kubernetes config, that's good news.",
        );
        assert_eq!(
            learned,
            ["Siobhan", "Kubernetes"],
            "not 'good', 'news', nor Tran (there before)"
        );
        assert!(new_rare_words("At Scott News", "That's good news").is_empty(), "everyday words");
        assert!(
            new_rare_words("the one", "the 42 ones").is_empty(),
            "numbers and plurals of everyday words"
        );
        assert_eq!(new_rare_words("ask her", "ask Priya’s team"), ["Priya"]);
    }

    #[test]
    fn learned_words_are_added_once_and_the_oldest_give_way() {
        let vocabulary = vec!["Kubernetes".to_string()];
        let learned = vec!["Siobhan".to_string()];
        let new = vec!["siobhan".to_string(), "kubernetes".to_string(), "Okonkwo".to_string()];
        assert_eq!(
            with_new(&learned, &vocabulary, &new),
            Some(vec!["Siobhan".into(), "Okonkwo".into()])
        );
        assert_eq!(with_new(&learned, &vocabulary, &["SIOBHAN".to_string()]), None);
        let full: Vec<String> = (0..MAX_WORDS).map(|n| format!("Name{n}")).collect();
        let grown = with_new(&full, &[], &["Okonkwo".to_string()]).expect("added");
        assert_eq!(
            (grown.len(), grown[0].as_str(), grown[MAX_WORDS - 1].as_str()),
            (MAX_WORDS, "Name1", "Okonkwo")
        );
    }
}
