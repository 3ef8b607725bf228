//! Action items: commitments and requests found in the transcript, with an owner.
//!
//! Each sentence is scanned left to right for triggers:
//! - first-person commitments ("I'll", "I will", "I'm going to"; weaker "I need to")
//!   are owned by the speaker;
//! - requests ("can you", "could you", "please", "make sure to"; weaker "you should")
//!   are owned by the person addressed ("Alice, please …", "…, Bob?"), or else by the
//!   one they were put to (`addressee`), and are worded from that side ("send me …"
//!   asked by Dana is "Send Dana …");
//! - offers the other side accepts ("Should I book a room?" — "Yes, please.") are owned
//!   by the one who offered, and an open task someone takes ("We need someone to design
//!   the booth." — "I'll take that.") by the one who took it;
//! - "<Name> will …" is owned by that person; after "action item:" or "todo:" any
//!   capitalised name counts, and "action item for Carol:" names the owner outright;
//! - team proposals ("let's", "we need to") are owned by "Everyone" unless they hand
//!   the task to someone ("let's have Dana …").
//!
//! Weak triggers need a deadline or a task verb; phrasings that are not tasks ("I'll be
//! honest", "can you hear me", "let's get started") are stopped; items with the same
//! wording are kept once, in spoken order.

use std::collections::BTreeSet;

use crate::addressee::{
    accepted_offer, answerer, from_asker, volunteered, without_listener, GIVING,
};
use crate::owners::{Names, CLAUSE_OPENERS};
use crate::speakers::named;
use crate::task::{
    clause_end, is_concrete, is_personal, is_task_verb, is_vague, leading_deadline, skip_lead_ins,
    starts_with, stopped, trim_trailing, wording, FIRST_PERSON_STOPS, REQUEST_STOPS, TEAM_STOPS,
};
use crate::text::{deadline_start, is_calendar_word, is_stopword, listed, tokens, words, Token};
use crate::transcript::Sentence;
use crate::triggers::{
    weak, Pattern, DESCRIBING, FIRST_PERSON, HANDOVER, MARKERS, NAMED, NAMED_AFTER_MARKER,
    QUESTION_WORDS, REQUESTS, TEAM,
};
use crate::{ActionItemDraft, Context};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Owner {
    Speaker,
    OtherParty,
    Everyone,
    Named(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    FirstPerson,
    Request,
    Team,
    Marker,
}

/// A trigger found at `start`; its task starts at `body`.
struct Hit {
    start: usize,
    body: usize,
    kind: Kind,
    weak: bool,
    owner: Owner,
}

/// Object pronouns that make a commitment point back at something said before
/// ("I'll draft it by Monday").
const BACK_REFERENCES: &[&str] = &["it", "them", "that", "this", "one", "those", "these"];
/// Words that open the thing given after a receiver ("send them *the* report").
const DETERMINERS: &str = "the a an our my your their his her its this that these those some \
    all both every each any another";
/// How many sentences back an acceptance looks for the request it answers.
const ANSWER_REACH: usize = 3;

/// An item as found, before acceptances fold into the requests they answer.
struct Found {
    sentence: usize,
    text: String,
    owner: Owner,
    request: bool,
}

/// Action items of the whole meeting, in spoken order, each wording once.
pub(crate) fn find(sentences: &[Sentence], context: &Context) -> Vec<ActionItemDraft> {
    find_at(sentences, context).into_iter().map(|(_, item)| item).collect()
}

/// Action items with the index of the sentence each was said in.
pub(crate) fn find_at(sentences: &[Sentence], context: &Context) -> Vec<(usize, ActionItemDraft)> {
    // "Speaker 2" owns nothing a person can act on when the conversation says who it is.
    let sentences = &named(sentences, context);
    let names = Names::new(sentences, context);
    let mut found: Vec<Found> = Vec::new();
    for (index, sentence) in sentences.iter().enumerate() {
        let items = sentence_items(sentence, &names);
        let offer = index.checked_sub(1).and_then(|before| accepted_offer(sentences, before));
        if let Some(text) = offer.filter(|offer| !restated(offer, &items)) {
            found.push(Found { sentence: index - 1, text, owner: Owner::Speaker, request: false });
        }
        if let Some(text) = volunteered(sentences, index) {
            found.push(Found { sentence: index, text, owner: Owner::Speaker, request: false });
        }
        for (text, owner, kind) in items {
            if kind == Kind::FirstPerson && owner == Owner::Speaker && refers_back(&text) {
                accept(&mut found, sentences, index, &text);
                continue;
            }
            found.push(Found { sentence: index, text, owner, request: kind == Kind::Request });
        }
    }
    let mut seen = BTreeSet::new();
    let repeated: Vec<bool> = found.iter().map(|item| said_in_full(&found, item)).collect();
    found
        .into_iter()
        .zip(repeated)
        .filter(|(item, repeated)| !repeated && seen.insert(words(&item.text).join(" ")))
        .map(|(item, _)| {
            let asker = &sentences[item.sentence].speaker;
            let text = if item.request {
                from_asker(&item.text, asker)
            } else {
                without_listener(&item.text)
            };
            // The one asking is never the one asked, whatever the name seemed to say
            // (under "Them" one voice may ask and another answer).
            let owner = match item.owner {
                Owner::Named(name)
                    if item.request
                        && name.eq_ignore_ascii_case(asker)
                        && !is_many_voices(asker) =>
                {
                    Owner::OtherParty
                }
                owner => owner,
            };
            let owner = resolve(owner, item.sentence, sentences, context);
            (item.sentence, ActionItemDraft { text, owner })
        })
        .collect()
}

/// Whether the answer to an offer says the task again ("Yes, book the big room").
fn restated(offer: &str, items: &[(String, Owner, Kind)]) -> bool {
    let verb = words(offer).first().cloned();
    items.iter().any(|(text, _, _)| words(text).first() == verb.as_ref())
}

/// "Draft it by Monday": a task whose object is a pronoun. In "send them the
/// report" the pronoun is who receives it and the report is the task's object.
fn refers_back(text: &str) -> bool {
    let said = words(text);
    let pronoun = said.get(1).is_some_and(|w| BACK_REFERENCES.contains(&w.as_str()));
    pronoun && !receives(&said)
}

/// Whether the pronoun after a giving verb is the one who receives what follows
/// it ("send them the report", "give them a call"), not the thing given.
fn receives(said: &[String]) -> bool {
    let giving = said.first().is_some_and(|verb| listed(GIVING, verb));
    let object = said.get(2).is_some_and(|w| listed(DETERMINERS, w));
    giving && said[1] == "them" && object
}

/// "Could you draft an agenda?" — "Sure, I'll draft it by Monday.": the
/// request of another speaker just before is this speaker's, with the
/// deadline they gave. A commitment that says more than its pronoun ("test
/// it on a copy of production") is a task of its own too, and so is one that
/// answers no request with a task verb and a date ("bring them on Saturday");
/// one that says nothing more and answers no request ("send it after this
/// call") is not.
fn accept(found: &mut Vec<Found>, sentences: &[Sentence], index: usize, text: &str) {
    let speaker = &sentences[index].speaker;
    let tokens = tokens(text);
    let norms: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
    let deadline_at = deadline_start(&norms);
    let says_more = norms[2..deadline_at.unwrap_or(norms.len()).max(2)]
        .iter()
        .filter(|w| !is_stopword(w) && !is_calendar_word(w))
        .count()
        >= 2;
    let dated = deadline_at.filter(|&at| norms[at..].iter().any(|w| is_date(w)));
    let answered = answered_request(found, sentences, index);
    let is_answer = answered.is_some();
    if let Some(request) = answered {
        if !is_many_voices(speaker) || request.owner == Owner::OtherParty {
            request.owner = Owner::Named(speaker.clone());
        }
        let request_norms = words(&request.text);
        let request_norms: Vec<&str> = request_norms.iter().map(String::as_str).collect();
        if let (false, Some(at), None) = (says_more, dated, deadline_start(&request_norms)) {
            let deadline: Vec<&str> = tokens[at..].iter().map(|t| t.raw.as_str()).collect();
            request.text = format!("{} {}", request.text, deadline.join(" "));
        }
    }
    // "I have the samples. I'll bring them on Saturday": no request, but a task with a date.
    let dated_task = dated.is_some() && listed_verb(&norms);
    if says_more || (!is_answer && dated_task) {
        let text = text.to_owned();
        found.push(Found { sentence: index, text, owner: Owner::Speaker, request: false });
    }
}

/// The request a pronoun commitment in sentence `index` answers: the latest within
/// reach put by another voice. Under "Them" the voices are not told apart, so any
/// earlier request may be the one answered.
fn answered_request<'f>(
    found: &'f mut [Found],
    sentences: &[Sentence],
    index: usize,
) -> Option<&'f mut Found> {
    let speaker = &sentences[index].speaker;
    let many = is_many_voices(speaker);
    found.iter_mut().rev().find(|item| {
        let other = sentences[item.sentence].speaker != *speaker || (many && item.sentence < index);
        item.request && index - item.sentence <= ANSWER_REACH && other
    })
}

/// Whether a label stands for several voices not told apart ("Them").
fn is_many_voices(label: &str) -> bool {
    label.trim().eq_ignore_ascii_case("them")
}

/// Whether a commitment's verb names a task on its own ("bring", not "do").
fn listed_verb(norms: &[&str]) -> bool {
    norms.first().is_some_and(|verb| is_task_verb(verb))
}

/// A word that dates a deadline ("Monday", "tomorrow", "week"), unlike "after
/// this call", which only makes sense where it was said.
fn is_date(word: &str) -> bool {
    is_calendar_word(word)
        || matches!(word, "today" | "tonight" | "tomorrow" | "week" | "weekend" | "month" | "eod")
}

/// A task with a pronoun for its object ("we should split it in two") that a
/// nearby task with the same verb says in full ("split the search story") is
/// that task said twice.
fn said_in_full(found: &[Found], item: &Found) -> bool {
    let verb = words(&item.text).first().cloned();
    refers_back(&item.text)
        && found.iter().any(|other| {
            other.sentence.abs_diff(item.sentence) <= ANSWER_REACH
                && !refers_back(&other.text)
                && words(&other.text).first() == verb.as_ref()
        })
}

fn resolve(owner: Owner, index: usize, sentences: &[Sentence], context: &Context) -> String {
    let speaker = &sentences[index].speaker;
    match owner {
        Owner::Speaker => speaker.to_string(),
        Owner::Everyone => "Everyone".to_string(),
        Owner::Named(name) => name,
        Owner::OtherParty => answerer(index, sentences).unwrap_or_else(|| {
            let user = context.user_name.trim();
            let user = if user.is_empty() { "Me" } else { user };
            if context.person_absent || speaker.trim().eq_ignore_ascii_case(user) {
                "Them".to_string()
            } else {
                user.to_string()
            }
        }),
    }
}

fn sentence_items(sentence: &Sentence, names: &Names) -> Vec<(String, Owner, Kind)> {
    let tokens = tokens(&sentence.text);
    let mut hits: Vec<Hit> = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        match marker(&tokens, at, names).or_else(|| trigger(&tokens, at, names, false)) {
            Some(hit) => {
                at = hit.body.max(at + 1);
                hits.push(hit);
            }
            None => at += 1,
        }
    }
    let mut items = Vec::new();
    let mut previous_end = 0;
    for (n, hit) in hits.iter().enumerate() {
        let limit = hits.get(n + 1).map_or(tokens.len(), |next| next.start);
        let end = clause_end(&tokens, hit.body, limit);
        items.extend(item(&tokens, hit, end, previous_end, names).map(|(t, o)| (t, o, hit.kind)));
        previous_end = end;
    }
    items
}

fn matching<'a>(tokens: &[Token], at: usize, patterns: &'a [Pattern]) -> Option<&'a Pattern> {
    patterns.iter().find(|pattern| starts_with(tokens, at, pattern.words))
}

/// A hit for `pattern` matched at `at`; `start` is earlier when a name leads it.
fn found(
    start: usize,
    at: usize,
    pattern: &Pattern,
    tokens: &[Token],
    kind: Kind,
    owner: Owner,
) -> Hit {
    let body = skip_lead_ins(tokens, at + pattern.words.len());
    Hit { start, body, kind, weak: pattern.weak, owner }
}

fn opens_clause(tokens: &[Token], at: usize) -> bool {
    at.checked_sub(1).and_then(|before| tokens.get(before)).is_none_or(|previous| {
        previous.has_comma() || CLAUSE_OPENERS.contains(&previous.norm.as_str())
    })
}

/// Whether a question word just before `at` makes a request a real question
/// ("how can you tell", "do you need to").
fn after_question_word(tokens: &[Token], at: usize) -> bool {
    (at.saturating_sub(2)..at).any(|k| QUESTION_WORDS.contains(&tokens[k].norm.as_str()))
}

fn trigger(tokens: &[Token], at: usize, names: &Names, after_marker: bool) -> Option<Hit> {
    let token = &tokens[at];
    // "Alice, please …", "bob can you …": a request addressed by name.
    let vocative = if token.has_comma() { names.addressee(token) } else { names.known(token) };
    if let Some(name) = vocative.filter(|_| after_marker || opens_clause(tokens, at)) {
        if let Some(pattern) = matching(tokens, at + 1, REQUESTS) {
            return Some(found(at, at + 1, pattern, tokens, Kind::Request, Owner::Named(name)));
        }
    }
    // "Bob will …", and after a marker "Bob to …".
    let named = if after_marker { names.addressee(token) } else { names.known(token) };
    if let Some(name) = named.filter(|_| !token.has_comma()) {
        let after = if after_marker { NAMED_AFTER_MARKER } else { &[] };
        if let Some(pattern) = matching(tokens, at + 1, NAMED).or(matching(tokens, at + 1, after)) {
            return Some(found(at, at + 1, pattern, tokens, Kind::FirstPerson, Owner::Named(name)));
        }
    }
    if let Some(pattern) = matching(tokens, at, FIRST_PERSON) {
        // "what I'm going to do is …" describes, it does not commit.
        let described = at
            .checked_sub(1)
            .is_some_and(|before| DESCRIBING.contains(&tokens[before].norm.as_str()));
        return (!described)
            .then(|| found(at, at, pattern, tokens, Kind::FirstPerson, Owner::Speaker));
    }
    if let Some(pattern) = matching(tokens, at, REQUESTS) {
        let placed = if pattern.imperative {
            after_marker || opens_clause(tokens, at)
        } else {
            !after_question_word(tokens, at)
        };
        return placed.then(|| found(at, at, pattern, tokens, Kind::Request, Owner::OtherParty));
    }
    let team = TEAM.iter().find(|words| starts_with(tokens, at, words))?;
    let mut hit = found(at, at, &weak(team), tokens, Kind::Team, Owner::Everyone);
    // "let's have Dana draft …": the task is handed to Dana.
    if tokens.get(hit.body).is_some_and(|t| HANDOVER.contains(&t.norm.as_str())) {
        if let Some(name) = tokens.get(hit.body + 1).and_then(|t| names.known(t)) {
            let after_name = hit.body + 2;
            let skip_to = usize::from(tokens.get(after_name).is_some_and(|t| t.norm == "to"));
            hit.body = skip_lead_ins(tokens, after_name + skip_to);
            hit.owner = Owner::Named(name);
        }
    }
    Some(hit)
}

/// "action item: …", "action item for Carol: …", "todo: …", "next steps: …".
fn marker(tokens: &[Token], at: usize, names: &Names) -> Option<Hit> {
    let (words, _) = MARKERS.iter().find(|(words, colon)| {
        starts_with(tokens, at, words)
            && (!colon || tokens[at + words.len() - 1].raw.ends_with(':'))
    })?;
    let mut next = at + words.len();
    let mut owner = None;
    if tokens.get(next).is_some_and(|t| t.norm == "for") {
        owner = tokens.get(next + 1).and_then(|t| match t.norm.as_str() {
            "me" => Some(Owner::Speaker),
            "you" => Some(Owner::OtherParty),
            "us" | "everyone" | "everybody" | "all" | "team" => Some(Owner::Everyone),
            _ => names.addressee(t).map(Owner::Named),
        });
        if owner.is_some() {
            next += 2;
        }
    }
    while tokens.get(next).is_some_and(|t| matches!(t.norm.as_str(), "is" | "are" | "to")) {
        next += 1;
    }
    if next < tokens.len() {
        if let Some(inner) = trigger(tokens, next, names, true) {
            let owner = owner.unwrap_or(inner.owner);
            return Some(Hit { start: at, body: inner.body, kind: inner.kind, weak: false, owner });
        }
    }
    let owner = owner.unwrap_or(Owner::Everyone);
    Some(Hit {
        start: at,
        body: skip_lead_ins(tokens, next),
        kind: Kind::Marker,
        weak: false,
        owner,
    })
}

fn item(
    tokens: &[Token],
    hit: &Hit,
    end: usize,
    previous_end: usize,
    names: &Names,
) -> Option<(String, Owner)> {
    let mut owner = hit.owner.clone();
    let mut end = trim_trailing(tokens, hit.body, end);
    // "Can you review it, Bob?": a trailing name says who was asked.
    if owner == Owner::OtherParty && end >= hit.body + 3 && tokens[end - 2].has_comma() {
        if let Some(name) = names.addressee(&tokens[end - 1]) {
            owner = Owner::Named(name);
            end = trim_trailing(tokens, hit.body, end - 1);
        }
    }
    let body = &tokens[hit.body..end];
    let norms: Vec<&str> = body.iter().map(|t| t.norm.as_str()).filter(|n| !n.is_empty()).collect();
    let stops = match hit.kind {
        Kind::FirstPerson => FIRST_PERSON_STOPS,
        Kind::Request => REQUEST_STOPS,
        Kind::Team => TEAM_STOPS,
        Kind::Marker => "",
    };
    let private = hit.kind == Kind::FirstPerson && is_personal(&norms);
    if norms.len() < 2 || is_vague(&norms) || stopped(stops, &norms) || private {
        return None;
    }
    // "Would you sign it if they match the price?" and "If we get the budget, would you
    // hire?" ask about a maybe; "If you have time, would you …" is only polite.
    let would =
        (hit.start..=hit.start + 1).any(|k| tokens.get(k).is_some_and(|t| t.norm == "would"));
    let condition =
        tokens[..hit.start].windows(2).any(|pair| pair[0].norm == "if" && pair[1].norm != "you");
    if hit.kind == Kind::Request && would && (norms.contains(&"if") || condition) {
        return None;
    }
    if hit.weak && !is_concrete(&norms, hit.kind == Kind::Team) {
        return None;
    }
    let mut text = wording(body)?;
    if deadline_start(&norms).is_none() {
        if let Some(deadline) = leading_deadline(tokens, previous_end, hit.start) {
            text.push(' ');
            text.push_str(&deadline);
        }
    }
    Some((text, owner))
}
