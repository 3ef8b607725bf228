//! What a short question is after, from its first words: a time ("when"), a
//! decision ("what did we decide"), what comes next ("what's next", "next
//! steps", "to do"). An answer of that kind is weighed up: a line that names
//! a day or a date, a decision of the notes, an action item.

/// What a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    When,
    Who,
    Amount,
    Decided,
    Next,
    Other,
}

/// How much an answer of the kind asked for is weighed up (on the cosine
/// scale the relevance floor is on).
pub const BOOST: f32 = 0.15;
/// A line is weighed up only when it is this near the question already: a
/// line on another subject that names a day is not an answer.
pub const BOOSTED_FROM: f32 = 0.2;

const DECIDED: &[&str] =
    &["decide", "decided", "decision", "decisions", "agree", "agreed", "conclude", "settle"];
const NEXT: &[&str] = &[
    "next", "todo", "todos", "tasks", "task", "action", "actions", "follow", "followup", "owe",
    "homework", "assigned",
];

const DAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "today",
    "tomorrow",
    "tonight",
    "yesterday",
    "weekend",
    "week",
    "weeks",
    "month",
    "months",
    "quarter",
    "year",
    "morning",
    "afternoon",
    "evening",
    "noon",
    "midnight",
    "deadline",
    "o'clock",
    "am",
    "pm",
    "eod",
    "q1",
    "q2",
    "q3",
    "q4",
];
const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Nouns for people, after "which" ("which colleague", "which of us").
const PEOPLE: &[&str] = &[
    "colleague",
    "colleagues",
    "person",
    "people",
    "engineer",
    "manager",
    "teammate",
    "member",
    "members",
    "us",
    "them",
    "team",
    "owner",
    "lead",
    "volunteer",
    "employee",
    "employees",
];
/// Words of an amount: "how many", "what share", "what percentage".
const AMOUNT: &[&str] =
    &["share", "percent", "percentage", "price", "cost", "rate", "number", "amount", "budget"];

/// What `question` asks for.
pub fn of(question: &str) -> Intent {
    let words: Vec<String> =
        words(question).into_iter().map(|w| w.trim_end_matches("'s").to_string()).collect();
    let has = |set: &[&str]| words.iter().any(|w| set.contains(&w.as_str()));
    let first = words.first().map(String::as_str);
    let second = words.get(1).map(String::as_str);
    let near_first = |set: &[&str]| words.iter().skip(1).take(2).any(|w| set.contains(&w.as_str()));
    if first == Some("when") || (first == Some("what") && has(&["date", "day", "time"])) {
        return Intent::When;
    }
    if matches!(first, Some("who" | "whom" | "whose"))
        || (first == Some("which") && near_first(PEOPLE))
    {
        return Intent::Who;
    }
    if first == Some("how") && matches!(second, Some("many" | "much" | "big" | "far" | "often")) {
        return Intent::Amount;
    }
    if first == Some("how") && second == Some("long") {
        return Intent::When;
    }
    if has(DECIDED) {
        return Intent::Decided;
    }
    if has(NEXT) || words.windows(2).any(|w| w[0] == "to" && w[1] == "do") {
        return Intent::Next;
    }
    if first == Some("what") && near_first(AMOUNT) {
        return Intent::Amount;
    }
    Intent::Other
}

/// Whether `text` names an amount: a number, in digits or words.
pub fn names_an_amount(text: &str) -> bool {
    const NUMBERS: &[&str] = &[
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
        "ninety", "hundred", "thousand", "million", "billion", "half", "quarter", "dozen",
        "percent", "dollars", "euros", "pounds", "k",
    ];
    words(text).iter().any(|w| {
        w.chars().next().is_some_and(|c| c.is_ascii_digit())
            || NUMBERS.contains(&w.as_str())
            || NUMBERS.iter().any(|n| w.len() > n.len() && w.starts_with(n) && n.len() >= 4)
    })
}

/// Whether `text` names a time: a day, a month, a date, an hour.
pub fn names_a_time(text: &str) -> bool {
    words(text).iter().any(|w| {
        DAYS.contains(&w.as_str())
            || MONTHS.contains(&w.as_str())
            || ordinal(w)
            || w.chars().all(|c| c.is_ascii_digit()) && w.len() <= 4
    })
}

/// `3rd`, `21st`, `fourth`…
fn ordinal(word: &str) -> bool {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &word[digits.len()..];
    let numbered = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && ["st", "nd", "rd", "th"].contains(&suffix);
    numbered
        || [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "fifteenth",
            "twentieth",
            "thirtieth",
        ]
        .contains(&word)
}

/// Words a spoken sentence often starts with, capitalised only for that.
const STARTERS: &[&str] = &[
    "a", "actually", "after", "alright", "also", "and", "anyway", "are", "as", "at", "before",
    "both", "but", "by", "can", "could", "did", "do", "does", "each", "either", "every", "for",
    "from", "good", "great", "he", "her", "here", "his", "how", "i", "i'll", "i'm", "if", "in",
    "is", "it", "it's", "just", "let", "let's", "maybe", "my", "next", "no", "nobody", "not",
    "now", "of", "oh", "ok", "okay", "on", "once", "one", "only", "or", "our", "perfect", "right",
    "she", "should", "so", "sorry", "sounds", "sure", "thank", "thanks", "that", "that's", "the",
    "their", "then", "there", "there's", "these", "they", "this", "those", "to", "um", "uh", "we",
    "we'll", "we're", "well", "what", "when", "where", "which", "while", "who", "why", "will",
    "with", "would", "yeah", "yes", "you", "your",
];

/// Whether `text` names someone `question` does not: a capitalised word
/// (names are capitalised in transcripts) that is not a day, a month or,
/// first in the line, a usual first word.
pub fn names_someone_else(text: &str, question: &str) -> bool {
    let asked = words(question);
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .enumerate()
        .any(|(i, w)| {
            let lower = w.to_lowercase();
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().count() > 1
                && !asked.contains(&lower)
                && !DAYS.contains(&lower.as_str())
                && !MONTHS.contains(&lower.as_str())
                && (i > 0 || acts_as_subject(text))
        })
}

/// Whether a line's first word is followed by what follows a name as the
/// subject ("Priya is covering", "Omar said", "Dana and I").
fn acts_as_subject(text: &str) -> bool {
    const AFTER_A_NAME: &[&str] = &[
        "is",
        "was",
        "will",
        "would",
        "can",
        "could",
        "should",
        "said",
        "says",
        "has",
        "had",
        "and",
        "offered",
        "agreed",
        "volunteered",
        "wants",
        "thinks",
        "takes",
        "covers",
        "owns",
        "handles",
        "leads",
        "does",
        "did",
        "might",
        "may",
    ];
    let words = words(text);
    let first = words.first().map(|w| w.trim_end_matches("'ll").trim_end_matches("'s"));
    first.is_some_and(|w| !STARTERS.contains(&w))
        && (words.first().is_some_and(|w| w.ends_with("'ll") || w.ends_with("'s"))
            || words.get(1).is_some_and(|w| AFTER_A_NAME.contains(&w.as_str())))
}

/// Whether a line says what was decided.
pub fn states_a_decision(text: &str) -> bool {
    let words = words(text);
    words.iter().any(|w| DECIDED.contains(&w.as_str()))
        || words.windows(2).any(|w| {
            matches!(
                (w[0].as_str(), w[1].as_str()),
                ("we", "will") | ("let's", "go") | ("go", "with")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_questions_say_what_they_ask_for() {
        assert_eq!(of("When is the launch?"), Intent::When);
        assert_eq!(of("what date did we pick"), Intent::When);
        assert_eq!(of("How long will the migration take?"), Intent::When);
        assert_eq!(of("What did we decide?"), Intent::Decided);
        assert_eq!(of("What's next?"), Intent::Next);
        assert_eq!(of("what do I have to do"), Intent::Next);
        assert_eq!(of("Who covers for Sam?"), Intent::Who);
        assert_eq!(of("Which colleague could coach her?"), Intent::Who);
        assert_eq!(of("When's the first one?"), Intent::When);
        assert_eq!(of("How many grades will it have?"), Intent::Amount);
        assert_eq!(of("What share of subscribers leave?"), Intent::Amount);
        assert_eq!(of("Where is the offsite?"), Intent::Other);
    }

    #[test]
    fn times_and_decisions_are_told_from_other_lines() {
        assert!(names_a_time("The release goes out on the 3rd of March."));
        assert!(names_a_time("Let us meet on Friday afternoon."));
        assert!(names_a_time("It ships in 2027."));
        assert!(!names_a_time("The pricing page needs a new layout."));
        assert!(states_a_decision("So we agreed to keep the old plan."));
        assert!(states_a_decision("Okay, let's go with the blue one."));
        assert!(!states_a_decision("The blue one is nicer."));
        let question = "Who covers for Sam in August?";
        assert!(names_someone_else("While he is out, Priya covers.", question));
        assert!(!names_someone_else("Sam is away in August.", question));
        assert!(!names_someone_else("Nobody, I think.", question));
        assert!(names_someone_else("Priya is covering for him.", question));
        assert!(!names_someone_else("While he is out, we cover.", question));
        assert!(!names_someone_else("Badge photos at nine.", question));
        assert!(names_someone_else("Ask Hiro, he would mentor.", question));
        assert!(names_an_amount("We switch to three levels."));
        assert!(names_an_amount("About 40k downloads an episode."));
        assert!(!names_an_amount("We switch to the new levels."));
    }
}
