//! Names and terms put right after whisper: a word of the transcript one
//! small slip away from a word the meeting is known to use ("Koalczyk" for
//! "Kowalczyk", "Gozi" for "Ngozi") is written as that word. Whisper's
//! prompt makes it likelier to spell such words right; this catches the
//! near misses the prompt did not. Only words rare enough that whisper's
//! tokenizer has no single token for them are touched, so everyday words
//! ("hung", "then") always stay as heard. A known word that whisper wrote as
//! two or three words, which spell it exactly when joined ("Service Now",
//! "data bricks"), is written as that word too.

/// The words to put right: those of the prompt with five letters or more.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lexicon {
    /// Each word as given, and in lower case.
    words: Vec<(String, String)>,
}

/// Known words shorter than this are never written in place of another:
/// too many everyday words lie one letter from a short name ("Tran", "Tram").
const MIN_KNOWN_LETTERS: usize = 5;
/// Heard words shorter than this are never changed.
const MIN_HEARD_LETTERS: usize = 4;

impl Lexicon {
    pub fn from_prompt(prompt: &str) -> Self {
        let mut words: Vec<(String, String)> = Vec::new();
        for word in words_of(prompt) {
            let lower = word.to_lowercase();
            if letters(word) >= MIN_KNOWN_LETTERS && !words.iter().any(|(_, known)| *known == lower)
            {
                words.push((word.to_owned(), lower));
            }
        }
        Lexicon { words }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// `text` with each near miss of a known word written as that word, and
    /// each known word heard as two or three words joined again.
    /// `is_rare` says whether a word (as heard) is rare enough to change.
    pub fn respell(&self, text: &str, is_rare: &mut dyn FnMut(&str) -> bool) -> String {
        if self.is_empty() {
            return text.to_owned();
        }
        let (pieces, tail) = pieces_of(text);
        let mut out = String::with_capacity(text.len());
        let mut index = 0;
        while index < pieces.len() {
            let (before, word) = pieces[index];
            out.push_str(before);
            if let Some((joined, taken)) = self.joined_at(&pieces[index..], is_rare) {
                out.push_str(joined);
                index += taken;
                continue;
            }
            out.push_str(self.spelling_of(word, is_rare).unwrap_or(word));
            index += 1;
        }
        out.push_str(tail);
        out
    }

    /// The known word that the first two or three of `pieces` spell exactly
    /// when joined (only spaces or hyphens between them), and how many it took;
    /// only a rare one ("new man" stays, though Newman attends).
    fn joined_at(
        &self,
        pieces: &[(&str, &str)],
        is_rare: &mut dyn FnMut(&str) -> bool,
    ) -> Option<(&str, usize)> {
        for taken in (2..=MAX_JOINED.min(pieces.len())).rev() {
            let run = &pieces[..taken];
            let apart = run[1..].iter().all(|(between, _)| {
                !between.is_empty() && between.chars().all(|c| c.is_whitespace() || c == '-')
            });
            if !apart {
                continue;
            }
            let joined: String = run.iter().map(|(_, word)| word.to_lowercase()).collect();
            let found = self.words.iter().find(|(_, known)| *known == joined);
            if let Some((given, _)) = found.filter(|(given, _)| is_rare(given)) {
                return Some((given.as_str(), taken));
            }
        }
        None
    }

    /// The known word `heard` is a near miss of, if exactly one is nearest.
    fn spelling_of(&self, heard: &str, is_rare: &mut dyn FnMut(&str) -> bool) -> Option<&str> {
        let core = heard.trim_matches(|c: char| !c.is_alphanumeric());
        if core.len() != heard.len() || letters(core) < MIN_HEARD_LETTERS {
            return None;
        }
        let lower = core.to_lowercase();
        let mut best: Option<(usize, &str)> = None;
        let mut tied = false;
        for (given, known) in &self.words {
            if *known == lower {
                return None;
            }
            let distance = strsim::osa_distance(&lower, known);
            if distance > slips_allowed(known) {
                continue;
            }
            match best {
                Some((nearest, _)) if distance > nearest => {}
                Some((nearest, _)) if distance == nearest => tied = true,
                _ => {
                    best = Some((distance, given));
                    tied = false;
                }
            }
        }
        let (_, given) = best.filter(|_| !tied)?;
        is_rare(core).then_some(given)
    }
}

/// The most heard words joined into one known word.
const MAX_JOINED: usize = 3;

/// `text` as its words, each with the text before it, and what follows the
/// last word.
fn pieces_of(text: &str) -> (Vec<(&str, &str)>, &str) {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(is_word_char) {
        let (before, from_word) = rest.split_at(start);
        let end = from_word.find(|c: char| !is_word_char(c)).unwrap_or(from_word.len());
        let (word, after) = from_word.split_at(end);
        pieces.push((before, word));
        rest = after;
    }
    (pieces, rest)
}

/// One slip (a letter added, dropped, changed or two swapped) in a known
/// word of up to seven letters, two in a longer one.
fn slips_allowed(word: &str) -> usize {
    if letters(word) >= 8 {
        2
    } else {
        1
    }
}

/// The words of a prompt (names and terms), their edge marks trimmed.
pub(crate) fn words_of(prompt: &str) -> impl Iterator<Item = &str> {
    prompt
        .split(|c: char| !is_word_char(c))
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty())
}

pub(crate) fn letters(word: &str) -> usize {
    word.chars().filter(|c| c.is_alphabetic()).count()
}

/// Letters, digits and the marks inside names ("O'Brien", "Jean-Luc").
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'
}

#[cfg(test)]
mod tests {
    use super::Lexicon;

    fn rare(word: &str) -> bool {
        !["hung", "Then", "will", "wrong", "Newman"].contains(&word)
    }

    #[test]
    fn a_near_miss_of_a_known_name_is_spelled_as_given() {
        let lexicon = Lexicon::from_prompt("Ngozi Okafor, Piotr Kowalczyk, Tran Nguyen.");
        let heard = "Then Gozi will ask Koalczyk, and Nguyen.";
        assert_eq!(
            lexicon.respell(heard, &mut rare),
            "Then Ngozi will ask Kowalczyk, and Nguyen.",
            "one slip in a short name, one in a long one; a name heard right stays"
        );
    }

    #[test]
    fn everyday_words_short_words_and_far_words_stay_as_heard() {
        let lexicon = Lexicon::from_prompt("Huong, Tran, Joaquin");
        assert_eq!(
            lexicon.respell("We hung up, then Dokwin and Tram left.", &mut rare),
            "We hung up, then Dokwin and Tram left.",
            "\"hung\" is common, \"Tram\"/\"Tran\" are too short, \"Dokwin\" is too far"
        );
        assert_eq!(lexicon.respell("Huang said so.", &mut rare), "Huong said so.");
    }

    #[test]
    fn a_word_as_near_to_two_known_words_is_left_alone() {
        let lexicon = Lexicon::from_prompt("Marta, Marti");
        assert_eq!(lexicon.respell("Marty agreed.", &mut |_| true), "Marty agreed.");
        assert_eq!(Lexicon::from_prompt("").respell("Marty", &mut |_| true), "Marty");
    }

    #[test]
    fn a_known_word_heard_as_two_or_three_words_is_joined_again() {
        let lexicon = Lexicon::from_prompt("ServiceNow, Databricks, PostgreSQL");
        assert_eq!(
            lexicon
                .respell("Move it to Service Now, then data-bricks and Post gre SQL.", &mut rare),
            "Move it to ServiceNow, then Databricks and PostgreSQL.",
        );
        assert_eq!(
            lexicon.respell("The service, now late. Data, bricks. Service Know.", &mut |_| true),
            "The service, now late. Data, bricks. Service Know.",
            "words apart by more than a space or hyphen, or not spelling it exactly, stay"
        );
        assert_eq!(
            Lexicon::from_prompt("Newman").respell("A new man joined.", &mut rare),
            "A new man joined.",
            "a known word whisper has one token for is not joined"
        );
    }

    #[test]
    fn names_with_marks_inside_are_one_word() {
        let lexicon = Lexicon::from_prompt("Aoife O'Sullivan, Jean-Luc");
        assert_eq!(
            lexicon.respell("O'Sulivan met Jean-Luk.", &mut |_| true),
            "O'Sullivan met Jean-Luc."
        );
    }
}
