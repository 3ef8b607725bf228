//! Names and terms put right after whisper: a word of the transcript one
//! small slip away from a word the meeting is known to use ("Koalczyk" for
//! "Kowalczyk", "Gozi" for "Ngozi") is written as that word. Whisper's
//! prompt makes it likelier to spell such words right; this catches the
//! near misses the prompt did not. Only words rare enough that whisper's
//! tokenizer has no single token for them are touched, so everyday words
//! ("hung", "then") always stay as heard.

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

    /// `text` with each near miss of a known word written as that word.
    /// `is_rare` says whether a word (as heard) is rare enough to change.
    pub fn respell(&self, text: &str, is_rare: &mut dyn FnMut(&str) -> bool) -> String {
        if self.is_empty() {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(is_word_char) {
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            let end = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
            let (word, after) = rest.split_at(end);
            out.push_str(self.spelling_of(word, is_rare).unwrap_or(word));
            rest = after;
        }
        out.push_str(rest);
        out
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
        !["hung", "Then", "will", "wrong"].contains(&word)
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
    fn names_with_marks_inside_are_one_word() {
        let lexicon = Lexicon::from_prompt("Aoife O'Sullivan, Jean-Luc");
        assert_eq!(
            lexicon.respell("O'Sulivan met Jean-Luk.", &mut |_| true),
            "O'Sullivan met Jean-Luc."
        );
    }
}
