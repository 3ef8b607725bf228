//! The trigger phrases of action items: first-person commitments, requests, team
//! proposals, "<Name> will …" and markers such as "action item:", with the words
//! around them that change what they mean.

/// A trigger phrase. `weak` ones need a concrete task; `imperative` ones must open a clause.
pub(crate) struct Pattern {
    pub words: &'static [&'static str],
    pub weak: bool,
    pub imperative: bool,
}

pub(crate) const fn strong(words: &'static [&'static str]) -> Pattern {
    Pattern { words, weak: false, imperative: false }
}
pub(crate) const fn weak(words: &'static [&'static str]) -> Pattern {
    Pattern { words, weak: true, imperative: false }
}
pub(crate) const fn imperative(words: &'static [&'static str]) -> Pattern {
    Pattern { words, weak: false, imperative: true }
}

pub(crate) const FIRST_PERSON: &[Pattern] = &[
    strong(&["i'll"]),
    strong(&["i", "will"]),
    strong(&["i'm", "going", "to"]),
    strong(&["i", "am", "going", "to"]),
    strong(&["i'm", "gonna"]),
    strong(&["i", "am", "gonna"]),
    strong(&["i", "shall"]),
    weak(&["i", "need", "to"]),
    weak(&["i", "have", "to"]),
    weak(&["i've", "got", "to"]),
    weak(&["i", "gotta"]),
    weak(&["i", "should"]),
    weak(&["i", "must"]),
];
pub(crate) const REQUESTS: &[Pattern] = &[
    strong(&["can", "you"]),
    strong(&["could", "you"]),
    strong(&["would", "you"]),
    strong(&["will", "you"]),
    strong(&["can", "u"]),
    imperative(&["please"]),
    imperative(&["make", "sure", "to"]),
    imperative(&["make", "sure", "you"]),
    imperative(&["be", "sure", "to"]),
    imperative(&["don't", "forget", "to"]),
    imperative(&["remember", "to"]),
    weak(&["you", "need", "to"]),
    weak(&["you", "have", "to"]),
    weak(&["you", "should"]),
];
pub(crate) const TEAM: &[&[&str]] = &[
    &["let's"],
    &["let", "us"],
    &["we", "need", "to"],
    &["we", "have", "to"],
    &["we've", "got", "to"],
    &["we", "gotta"],
    &["we", "should"],
    &["we", "must"],
];
/// What follows a name to make it the owner: "Bob will …", "Bob needs to …".
pub(crate) const NAMED: &[Pattern] = &[
    strong(&["will"]),
    strong(&["is", "going", "to"]),
    strong(&["is", "gonna"]),
    weak(&["needs", "to"]),
    weak(&["has", "to"]),
    weak(&["should"]),
];
/// Only after a marker: "Action item: Bob to send …".
pub(crate) const NAMED_AFTER_MARKER: &[Pattern] = &[strong(&["to"]), strong(&["can"])];
/// Markers, and whether their last word must carry a colon.
pub(crate) const MARKERS: &[(&[&str], bool)] = &[
    (&["action", "item"], false),
    (&["action", "items"], false),
    (&["todo"], false),
    (&["to-do"], false),
    (&["to", "do"], true),
    (&["next", "step"], true),
    (&["next", "steps"], true),
];
pub(crate) const QUESTION_WORDS: &[&str] =
    &["what", "how", "where", "why", "who", "which", "when", "whether", "whatever", "do", "if"];
pub(crate) const HANDOVER: &[&str] = &["have", "get", "ask"];
pub(crate) const DESCRIBING: &[&str] =
    &["what", "whatever", "how", "why", "where", "if", "whether"];
