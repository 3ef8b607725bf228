//! The wording of an action item: where the task after a trigger ends, what filler is
//! trimmed from either side, and which phrasings are not tasks at all.
//!
//! A task runs from the end of its trigger to the end of its clause: the next trigger,
//! a contrast ("but", "because"), a new subject ("and we …"), a dash or a semicolon.
//! Lead-ins ("go ahead and", "make sure to", "please") and trailing tags ("okay?",
//! "for me", "if you can") are removed; deadlines are kept.

use crate::text::{
    capitalise_first, deadline_start, fix_pronoun, is_calendar_word, is_deadline_preposition,
    is_hesitation, leading_phrase, listed, trailing_phrase, Token,
};

/// Words skipped between a trigger and its task.
const LEAD_INS: &str =
    "go ahead and | make sure to | make sure that i | make sure you | be sure to | be able to | be willing \
    to | do me a favor and | try to | try and | have to | need to | also | just | quickly \
    | definitely | probably | actually | then | please | kindly | mind | maybe | um | uh | \
    all | guys | both";
/// Words that end a task's clause.
const CUT_WORDS: &str = "but because cause 'cause although though unless whereas otherwise";
const JOINERS: &str = "and so then or";
const SUBJECTS: &str =
    "i we you they he she it that this then there i'll we'll you'll it'll we're i'm you're \
    they're let's that's it's";
/// Tags trimmed from the end of a task.
const TRAILING: &str =
    "if you don't mind | if that's okay | if that's ok | if that works | if you can | if \
    you could | if possible | does that work | is that okay | is that ok | sounds good | \
    thank you | for me | you know | i guess | i think | or something | and stuff | all \
    right | okay | ok | alright | yeah | please | thanks | then | so | and | or | but | \
    maybe | um | uh";
/// The longest task kept before cutting at a comma or a word limit.
const MAX_WORDS: usize = 25;

/// Not a commitment when said as "I'll …", "I will …" or "<Name> will …".
pub(crate) const FIRST_PERSON_STOPS: &str =
    "be | say | tell you | admit | think | guess | see | bet | pass | leave it | stop | \
    start | begin | go first | keep it | wait | hold | mute | unmute | get started | kick \
    off | jump in | hop off | drop off | let you go | talk to you | catch you | miss | \
    explain | walk you | go through | summarize | recap | repeat | answer | continue | \
    move on | skip | share my screen | share the screen | give you a | never | not | \
    remember | shut | come back | make it | do my best | hand it over | take that as | \
    have a look now | read it out | note that | need | take it from | do is | do here | do \
    now | sleep | relax | rest | stay home | stay in | eat | hang out | have fun | enjoy | \
    chill";
/// Not a request when asked as "can you …", "please …".
pub(crate) const REQUEST_STOPS: &str =
    "hear | see my | see the | see your | see this | see that | see it | see me | see what \
    | see everything | see anything | repeat | say that | say it | say more | explain | \
    tell me | give me a | hold on | hang on | wait | mute | unmute | speak up | share your \
    screen | share the screen | share my screen | go back | go ahead | scroll | zoom | \
    clarify | elaborate | believe | imagine | guess | help me understand | walk me through \
    | talk about | read that | think | like | not | keep going | continue | stop sharing | \
    move on | give us a | pause | pull up | click | refresh | turn on | turn your | be \
    open | be okay | be ok | be fine | be there | remind me what | still | just confirm | \
    do that | do it | be | give me an | tell us | talk | walk us | expand | say | describe \
    | agree | try again | share your thoughts | bear | excuse | forgive | feel free | go \
    on | ignore | note that";
/// Not a team task when said as "let's …" or "we need to …".
pub(crate) const TEAM_STOPS: &str =
    "see | start | get started | go with | go ahead | stick | use | move on | move | talk | \
    discuss | begin | kick off | wrap | do it | do this | do that | try | jump | dive | \
    hear | continue | go back | recap | keep going | call it | say | assume | not | take a \
    step | table | pause | break | focus | look at | think | be | hope | get into | go \
    through | go over | walk through | review | take a look | circle back to that | circle \
    back to this | come back | park | take this offline | take it offline | grab | get lunch | \
    get coffee | get a coffee | get drinks | catch up | hang out";
/// Whole tasks too vague for a checkbox unless more is said ("I'll let you know").
const VAGUE_TASKS: &str =
    "let you know | get back to you | follow up | look into it | look into that | take care \
    of it | take care of that | send it | send that | keep you posted | keep you updated | \
    keep everyone posted | check on that | think about it | get on it | get it done";
/// Verbs that make a weak trigger ("I need to", "you should") a task without a deadline.
const TASK_VERBS: &str =
    "send email share schedule book set finalize finish follow draft prepare create update \
    write review fix file submit sync reach contact call ping reconvene meet plan organize \
    document circulate publish ship deploy release test order buy hire invite loop check \
    confirm circle investigate migrate reserve arrange post upload deliver collect gather \
    compile sign approve merge renew cancel notify inform announce outline decide complete \
    clean forward add ask tell talk move reply propose split pick convert increase present \
    rehearse compare shorten remove rename refund resolve escalate research bring";
/// Verbs that would be discussion in the meeting itself, so not team tasks by themselves.
const MEETING_VERBS: &str = "review check decide investigate plan outline talk discuss";
/// Words that make a first-person plan a private one ("go back with my kids").
const PERSONAL: &str = "kids kid children family wife husband son daughter mom dad mum parents \
    brother sister dog cat gym beach hiking camping skiing wedding dentist doctor";
/// Words that start a place or a thing, not a task ("I'm going to the beach").
const DETERMINERS: &str = "the a an my our his her their this that";
/// Tasks this vague are not worth a checkbox.
const VAGUE: &str = "do it that this handle take one them so too";

pub(crate) fn starts_with(tokens: &[Token], at: usize, pattern: &[&str]) -> bool {
    pattern.iter().enumerate().all(|(k, word)| tokens.get(at + k).is_some_and(|t| t.norm == *word))
}

fn norms(tokens: &[Token]) -> impl DoubleEndedIterator<Item = &str> + Clone {
    tokens.iter().map(|token| token.norm.as_str())
}

/// The position after any lead-ins starting at `at`.
pub(crate) fn skip_lead_ins(tokens: &[Token], mut at: usize) -> usize {
    while let Some(len) = leading_phrase(LEAD_INS, norms(tokens.get(at..).unwrap_or_default())) {
        at += len;
    }
    at
}

/// Where the clause of a task starting at `from` ends, at the latest at `limit`.
pub(crate) fn clause_end(tokens: &[Token], from: usize, limit: usize) -> usize {
    let mut end = limit.min(tokens.len());
    for at in from..end {
        let token = &tokens[at];
        let next_is_subject = tokens.get(at + 1).is_some_and(|next| listed(SUBJECTS, &next.norm));
        if at > from
            && (token.norm.is_empty()
                || listed(CUT_WORDS, &token.norm)
                || (listed(JOINERS, &token.norm) && next_is_subject))
        {
            end = at;
            break;
        }
        if token.raw.ends_with([';', ':']) && at > from {
            end = at + 1;
            break;
        }
    }
    if end.saturating_sub(from) > MAX_WORDS {
        let comma = (from + MAX_WORDS / 2..from + MAX_WORDS).find(|at| tokens[*at].has_comma());
        end = comma.map_or(from + MAX_WORDS, |at| at + 1);
    }
    end
}

/// The end of a task once trailing tags, hesitations and dashes are trimmed.
pub(crate) fn trim_trailing(tokens: &[Token], from: usize, mut end: usize) -> usize {
    loop {
        if end <= from {
            return from;
        }
        let last = &tokens[end - 1];
        if last.norm.is_empty() || is_hesitation(&last.norm) {
            end -= 1;
            continue;
        }
        let tag_question = last.norm == "right"
            && end >= from + 2
            && (tokens[end - 2].has_comma() || last.raw.ends_with('?'));
        if tag_question {
            end -= 1;
            continue;
        }
        match trailing_phrase(TRAILING, norms(&tokens[from..end])) {
            Some(len) => end -= len,
            None => return end,
        }
    }
}

/// Whether a task starts with one of the phrases of a stop list.
pub(crate) fn stopped(list: &str, norms: &[&str]) -> bool {
    leading_phrase(list, norms.iter().copied()).is_some()
}

/// Whether a task says too little to act on ("do it", "I'll let you know").
pub(crate) fn is_vague(norms: &[&str]) -> bool {
    norms.iter().all(|word| listed(VAGUE, word))
        || leading_phrase(VAGUE_TASKS, norms.iter().copied()).is_some_and(|len| len == norms.len())
}

/// Whether a task after a weak trigger is concrete: it has a deadline or starts with
/// a task verb. Team tasks exclude verbs that describe the meeting's own talk, and
/// with such a verb only a deadline counts ("plan it by Friday", not "plan it for
/// next month", which says when, not by when).
pub(crate) fn is_concrete(norms: &[&str], team: bool) -> bool {
    let verb = norms.first().copied().unwrap_or_default();
    let meeting_verb = team && listed(MEETING_VERBS, verb);
    let task_verb = listed(TASK_VERBS, verb) && !meeting_verb;
    let deadline = deadline_start(norms).is_some_and(|at| {
        !meeting_verb || norms.get(at).is_some_and(|w| is_deadline_preposition(w))
    });
    task_verb || deadline
}

/// Whether a word is a verb that names a task on its own ("send", "book", "bring").
pub(crate) fn is_task_verb(word: &str) -> bool {
    listed(TASK_VERBS, word)
}

/// Whether a first-person plan is private or a place to go, not a task ("go back next
/// month with my kids", "the dentist tomorrow").
pub(crate) fn is_personal(norms: &[&str]) -> bool {
    norms.first().is_some_and(|w| listed(DETERMINERS, w))
        || norms.iter().any(|w| listed(PERSONAL, w))
}

/// The task as shown: hesitations dropped, "i" capitalised, outer punctuation trimmed,
/// a capital first letter. `None` when fewer than two words remain.
pub(crate) fn wording(tokens: &[Token]) -> Option<String> {
    let parts: Vec<String> =
        tokens.iter().filter(|t| !is_hesitation(&t.norm)).map(|t| fix_pronoun(&t.raw)).collect();
    let joined = parts.join(" ");
    let trimmed = joined
        .trim_start_matches([',', ';', ':', '-', ' ', '.', '"', '\u{201c}'])
        .trim_end_matches(|c: char| !c.is_alphanumeric() && !matches!(c, ')' | '%' | '$'));
    (trimmed.split_whitespace().count() >= 2).then(|| capitalise_first(trimmed))
}

/// A deadline said just before the trigger ("By Friday, I'll …", "Tomorrow I'll …").
pub(crate) fn leading_deadline(tokens: &[Token], from: usize, start: usize) -> Option<String> {
    let region = &tokens[from..start];
    let norms: Vec<&str> = region.iter().map(|t| t.norm.as_str()).collect();
    let first = deadline_start(&norms)?;
    let span = &region[first..];
    let adjacent = span.len() <= 2 || span.last().is_some_and(Token::has_comma);
    if span.len() > 5 || !adjacent {
        return None;
    }
    let mut parts: Vec<String> = span
        .iter()
        .map(|t| t.raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_string())
        .filter(|raw| !raw.is_empty())
        .collect();
    if let Some(head) = parts.first_mut() {
        if !is_calendar_word(&span[0].norm) {
            *head = head.to_lowercase();
        }
    }
    Some(parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokens;

    fn body(text: &str) -> String {
        let tokens = tokens(text);
        let from = skip_lead_ins(&tokens, 0);
        let end = clause_end(&tokens, from, tokens.len());
        let end = trim_trailing(&tokens, from, end);
        wording(&tokens[from..end]).unwrap_or_default()
    }

    #[test]
    fn lead_ins_and_tags_are_trimmed_and_deadlines_kept() {
        assert_eq!(body("go ahead and send the deck by Friday, okay?"), "Send the deck by Friday");
        assert_eq!(body("please review the doc for me, right?"), "Review the doc");
        assert_eq!(body("just ping legal if you can."), "Ping legal");
    }

    #[test]
    fn clauses_end_at_contrast_and_new_subjects() {
        assert_eq!(body("send the deck and we can talk Monday"), "Send the deck");
        assert_eq!(body("book the room but it may be taken"), "Book the room");
        assert_eq!(
            body("invite Alice, Bob, and Carol to the demo."),
            "Invite Alice, Bob, and Carol to the demo"
        );
    }

    #[test]
    fn weak_triggers_need_a_verb_or_a_deadline() {
        assert!(is_concrete(&["send", "the", "deck"], true));
        assert!(is_concrete(&["get", "this", "done", "by", "friday"], true));
        assert!(!is_concrete(&["review", "the", "numbers"], true));
        assert!(is_concrete(&["review", "the", "numbers"], false));
        assert!(!is_concrete(&["get", "better", "at", "this"], false));
    }
}
