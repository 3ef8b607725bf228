//! The keyword router: a person's free text (an A2A text part) becomes one skill
//! call. Rules are tried in order (changes to action items first, then recording
//! commands, reading last), and the arguments the text carries are pulled out: a
//! meeting id (or "the last meeting" → `latest`), a quoted phrase or the words
//! after "about" as the query, "open" for `open_only`, a period ("last week",
//! "yesterday", "last 10 days") as `from`/`to`. "Add an action item: …" (or a
//! quoted item) adds one, with "for Alice" as its owner and "due 2026-12-24" as
//! its due date; text that starts with a change and names the item by its id
//! ("mark action item <id> as done", "assign task <id> to Bob") updates it. A question no other
//! rule claims (or text that says "ask") is asked of the meetings; other text
//! that matches no rule is a search.

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, Duration, Local, NaiveDate};
use regex::Regex;
use serde_json::{json, Map, Value};

use crate::skills::text::local_midnight;
use crate::skills::{parse_args, Skill, SkillCall, MAX_QUESTION};

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("router patterns are valid")
}

static UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
});
static LATEST: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(last|latest|most recent|previous|newest|recent|this|that) (meeting|call|recording|conversation|session|one)\b",
    )
});
static QUOTED: LazyLock<Regex> = LazyLock::new(|| regex(r#""([^"]+)"|“([^”]+)”|'([^']{2,})'"#));
static STOP: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"\b(stop|end|finish|halt|terminate)\b.*\brecord|\bstop (the )?(meeting|call)\b")
});
static START: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(start|begin|kick off|resume)\b.*\brecord|^(please )?record\b|\brecord (this|the|my|our|a|an) (meeting|call|conversation|session)",
    )
});
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(marker|bookmark)\b|\bmark (this|that|the|it) ?(moment|point|spot|time)?\b|\bflag (this|that) (moment|point)\b",
    )
});
static REGENERATE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(regenerate|re-generate|redo|re-do|rewrite|re-write|recreate|refresh|remake)\b|\b(summari[sz]e|write|make)\b.*\bagain\b|\bnew (summary|notes)\b",
    )
});
static ACTIONS: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\baction items?\b|\bto-?dos?\b|\btasks?\b|\bfollow[- ]?ups?\b|\bnext steps\b|\bwho (is doing|does|will do|owns|has to)\b|\bassigned to\b|\bdeliverables\b",
    )
});
static OPEN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(open|pending|outstanding|remaining|unfinished|undone|incomplete|not done|not yet done|left|still to do|still open|due)\b",
    )
});
static TRANSCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\btranscripts?\b|\btranscription\b|\bwhat was said\b|\bword for word\b|\bverbatim\b|\bsubtitles?\b|\bcaptions?\b|\bsrt\b|\bvtt\b",
    )
});
static SEARCH: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(please )?(search|find|look for|look up|grep)\b|\b(search|look) (for|through)\b|\bmentions? of\b|\bmentioned\b|\b(when|where) did (we|i|they|you|someone|anyone|he|she)\b|\bwho (said|mentioned|talked|spoke)\b|\bwhat did (we|they|i|he|she) (say|said|discuss|decide)\b|\bdid (we|anyone|someone) (talk|speak|discuss|mention)\b",
    )
});
/// A request that says "search" in so many words: it is a search even when it
/// names the meetings to search ("search my meetings for budget").
static SEARCH_VERB: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(please )?(search|grep)\b|\b(search|look|go) (through|in|across)\b|\bsearch (my|our|all|the)\b",
    )
});
/// Text that says "ask", and the words that only say whom to ask.
static ASK: LazyLock<Regex> = LazyLock::new(|| regex(r"\bask\b"));
static ASK_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^\s*(please )?(can you |could you )?ask( (my|our|all|the|all my|all our) (meetings|calls|recordings|transcripts))?( about)?\s*[:,]?\s*",
    )
});
/// A question: a question word first, or a question mark last.
static QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(what|what's|whats|who|whom|whose|when|where|why|how|did|does|do|is|are|was|were|which|will)\b|\?\s*$",
    )
});
static SHOW: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(show|open|details?|summary|summari[sz]e|notes|recap|overview|tell me about|what happened|decisions|key points|about)\b",
    )
});
static LIST: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\bmeetings\b|\bcalls\b|\brecordings\b|\bmy schedule\b|\bhistory\b|\bwhat (did i have|have i recorded)\b|\blist\b",
    )
});
static TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:about|regarding|concerning|mentioning|mentions? of|discussing|discussed|on the topic of|talk(?:ed)? about|said about|say about|search for|look for|find|search|for)\s+(.+)$",
    )
});
static TITLE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(?:called|titled|named|as|labell?ed)\s+(.+)$"));
static LAST_DAYS: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b(?:last|past|previous) (\d{1,3}) days?\b"));
static PERIOD_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\s*\b(?:from |in |during |over )?(?:the )?(?:today|yesterday|this week|last week|previous week|past week|this month|last month|previous month|(?:last|past|previous) \d{1,3} days?)\b.*$",
    )
});
static FILLER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(please|could|would|can|you|me|my|i|we|our|us|the|a|an|of|in|on|at|to|from|with|and|or|is|are|was|were|did|do|does|what|which|who|when|where|how|why|anything|something|everything|show|tell|give|get|find|search|look|list|all|any|meetings?|calls?|recordings?|notes|there|through|across|mentioning|grep|that|this|it|about|for|mentions?|mentioned|said|talked|spoke)\b",
    )
});

/// "Add an action item", "create a to-do", "note down a follow-up"… at the
/// start, before any colon or quote.
static ADD_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r#"^(please |can you |could you )?(add|create|note( down)?|log|jot( down)?|put( down)?|make)\b[^:"“]*?\b(action items?|to-?dos?|tasks?|follow[- ]?ups?)\b"#,
    )
});
/// A change asked for: the text starts with its verb ("mark", "assign", …).
static UPDATE_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(please |can you |could you )?(mark|set|tick|check|complete|finish|close|reopen|re-open|assign|reassign|give|hand|move|change|rename|reword|retitle|update|edit|push|postpone|clear|remove|drop|untick|uncheck|make)\b",
    )
});
/// Words that name one action item.
static ITEM_WORD: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b(action items?|to-?dos?|tasks?|follow[- ]?ups?|items?)\b"));
/// The id right after "meeting" (or "call", …), and right after "item" (or "task", …).
static MEETING_UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:meeting|call|recording|conversation|session)(?:\s+id)?\s*:?\s*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
    )
});
static ITEM_UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:item|to-?do|task|follow[- ]?up)(?:\s+id)?\s*:?\s*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
    )
});
static UNDONE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(not done|undone|not finished|not complete|incomplete|open again|reopen|re-open|uncheck|untick)\b",
    )
});
static DONE: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"\b(done|complete|completed|finished|tick(ed)? off|check(ed)? off|close|closed)\b")
});
/// A person's name (capitalised words), as owner. Matched on the text as written.
static OWNER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(?:for|owner(?: is)?:?|owned by|assigned to|(?:re)?assign(?:ed)?\b[^\n]*?\bto|(?:give|hand)\b[^\n]*?\bto)\s+(\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+\p{Lu}[\p{L}\p{M}'’.-]*)?)",
    )
});
/// A due date: "due 2026-12-24", "by tomorrow", or a bare `YYYY-MM-DD`.
static DUE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b(?:due|by|before|until|deadline)\b(?:\s+(?:on|date|is|:))*\s*(\d{4}-\d{2}-\d{2}|today|tomorrow)\b|\b(\d{4}-\d{2}-\d{2})\b",
    )
});
static NO_DUE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b(no|clear|remove|drop|without)\b[^.]*?\bdue( date)?\b"));
static REWORD: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"\b(rename|reword|rewrite|retitle|change the text|new text|text to|call it)\b")
});

/// Routes `text`, read at the moment `now` (for periods like "last week").
pub fn route(text: &str, now: DateTime<Local>) -> SkillCall {
    let lower = text.trim().to_lowercase();
    if let Some(call) = item_change(text.trim(), &lower, now) {
        return call;
    }
    let mut args = Map::new();
    let (skill, extra) = choose(&lower);
    match skill {
        Skill::StopRecording => {}
        Skill::StartRecording => put(&mut args, "title", title(text)),
        Skill::AddMarker => put(&mut args, "label", title(text)),
        Skill::RegenerateNotes => {
            args.insert(
                "meeting_id".into(),
                json!(meeting_ref(text, &lower).unwrap_or("latest".into())),
            );
            regenerate_args(&lower, &mut args);
        }
        Skill::GetActionItems => {
            put(&mut args, "meeting_id", meeting_ref(text, &lower));
            if OPEN.is_match(&lower) {
                args.insert("open_only".into(), json!(true));
            }
        }
        Skill::GetTranscript => {
            args.insert(
                "meeting_id".into(),
                json!(meeting_ref(text, &lower).unwrap_or("latest".into())),
            );
            put(&mut args, "format", transcript_format(&lower).map(str::to_string));
        }
        Skill::GetMeeting => {
            args.insert(
                "meeting_id".into(),
                json!(meeting_ref(text, &lower).unwrap_or("latest".into())),
            );
        }
        Skill::ListMeetings => {
            put(&mut args, "query", extra);
            put_period(&mut args, &lower, now);
        }
        Skill::SearchMeetings => {
            args.insert("query".into(), json!(extra.unwrap_or_else(|| text.trim().to_string())));
        }
        Skill::Ask => ask_args(text, &lower, now, &mut args),
        // Only `item_change` routes to these, with their arguments.
        Skill::AddActionItem | Skill::UpdateActionItem => {}
    }
    SkillCall { skill, args: Value::Object(args), agent: None }
}

/// An action item to add or to change, when the text says so and carries
/// what that needs (the item's words; the item's id and a change). The
/// arguments are checked here: text that only looks like such a change goes
/// to the other rules.
fn item_change(text: &str, lower: &str, now: DateTime<Local>) -> Option<SkillCall> {
    let (skill, args) = if ADD_ITEM.is_match(lower) {
        (Skill::AddActionItem, add_item_args(text, now)?)
    } else if UPDATE_ITEM.is_match(lower) && ITEM_WORD.is_match(lower) {
        (Skill::UpdateActionItem, update_item_args(text, lower, now)?)
    } else {
        return None;
    };
    let args = Value::Object(args);
    parse_args(skill, &args).ok()?;
    Some(SkillCall { skill, args, agent: None })
}

/// `add an action item to the last meeting: send the budget`, `add a to-do
/// for Alice: "update the roadmap" due 2026-12-24`.
fn add_item_args(text: &str, now: DateTime<Local>) -> Option<Map<String, Value>> {
    // The item's words: the quoted ones, else what follows the first colon
    // (where a trailing ", due <day>" is its due date).
    let (words, rest) = match QUOTED.find(text) {
        Some(found) => {
            let words = quoted(found.as_str())?;
            (words, format!("{} {}", &text[..found.start()], &text[found.end()..]))
        }
        None => {
            let (head, tail) = text.split_once(':')?;
            let tail = tail.trim().trim_end_matches(['.', '!']).trim();
            static TRAILING_DUE: LazyLock<Regex> = LazyLock::new(|| {
                regex(r"(?i)[,;]?\s*\b(?:due|by)\s+(\d{4}-\d{2}-\d{2}|today|tomorrow)$")
            });
            match TRAILING_DUE.find(tail) {
                Some(due) => {
                    (tail[..due.start()].trim().to_string(), format!("{head} {}", due.as_str()))
                }
                None => (tail.to_string(), head.to_string()),
            }
        }
    };
    let rest_lower = rest.to_lowercase();
    let mut args = Map::new();
    args.insert(
        "meeting_id".into(),
        json!(meeting_ref(&rest, &rest_lower).unwrap_or("latest".into())),
    );
    args.insert("text".into(), json!(words.trim()));
    put(&mut args, "owner", owner(&rest));
    put(&mut args, "due", due(&rest_lower, now));
    Some(args)
}

/// `mark action item <id> of meeting <id> as done`, `assign task <id> to Bob`,
/// `action item <id>: no due date`, `rename to-do <id> to "…"`.
fn update_item_args(text: &str, lower: &str, now: DateTime<Local>) -> Option<Map<String, Value>> {
    let meeting = MEETING_UUID.captures(text).and_then(|c| c.get(1));
    let item = ITEM_UUID.captures(text).and_then(|c| c.get(1)).or_else(|| {
        UUID.find_iter(text).find(|id| Some(id.start()) != meeting.map(|m| m.start()))
    })?;
    let meeting_id = match meeting {
        Some(meeting) => meeting.as_str().to_lowercase(),
        None => UUID
            .find_iter(text)
            .find(|id| id.start() != item.start())
            .map(|id| id.as_str().to_lowercase())
            .unwrap_or_else(|| "latest".into()),
    };
    let mut args = Map::new();
    args.insert("meeting_id".into(), json!(meeting_id));
    args.insert("item_id".into(), json!(item.as_str().to_lowercase()));
    if UNDONE.is_match(lower) {
        args.insert("done".into(), json!(false));
    } else if DONE.is_match(lower) {
        args.insert("done".into(), json!(true));
    }
    put(&mut args, "owner", owner(text));
    if NO_DUE.is_match(lower) {
        args.insert("due".into(), Value::Null);
    } else {
        put(&mut args, "due", due(lower, now));
    }
    if REWORD.is_match(lower) {
        put(&mut args, "text", quoted(text));
    }
    // Something must change.
    (args.len() > 2).then_some(args)
}

/// The owner a text names ("for Alice", "assign … to Bob Smith"); not a word
/// like "the" or "meeting".
fn owner(text: &str) -> Option<String> {
    const NOT_NAMES: [&str; 12] =
        ["the", "this", "that", "my", "our", "me", "latest", "last", "meeting", "call", "i", "a"];
    OWNER
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|name| name.as_str().trim_end_matches(['.', '\'', '’']).to_string())
        .find(|name| {
            let first = name.split_whitespace().next().unwrap_or_default().to_lowercase();
            !name.is_empty() && !NOT_NAMES.contains(&first.as_str())
        })
}

/// A due date the text names, as `YYYY-MM-DD` (a day that exists).
fn due(lower: &str, now: DateTime<Local>) -> Option<String> {
    let captures = DUE.captures(lower)?;
    let said = captures.get(1).or_else(|| captures.get(2))?.as_str();
    let today = now.date_naive();
    let date = match said {
        "today" => today,
        "tomorrow" => today + Duration::days(1),
        iso => NaiveDate::parse_from_str(iso, "%Y-%m-%d").ok()?,
    };
    Some(date.format("%Y-%m-%d").to_string())
}

/// The question (without "ask my meetings"), the meeting it names and its period.
fn ask_args(text: &str, lower: &str, now: DateTime<Local>, args: &mut Map<String, Value>) {
    let question = ASK_PREFIX.replace(text.trim(), "");
    let question = if question.trim().is_empty() { text.trim() } else { question.trim() };
    args.insert("question".into(), json!(question));
    put(args, "meeting_id", meeting_ref(text, lower));
    put_period(args, lower, now);
}

/// A question to answer from the meetings (not too long to ask).
fn is_question(lower: &str) -> bool {
    QUESTION.is_match(lower) && lower.chars().count() <= MAX_QUESTION
}

/// The skill, and for list/search the words to look for.
fn choose(lower: &str) -> (Skill, Option<String>) {
    if STOP.is_match(lower) {
        return (Skill::StopRecording, None);
    }
    // "Mark the action item as done" (without its id) is about the items.
    let about_items = ITEM_WORD.is_match(lower) && (DONE.is_match(lower) || UNDONE.is_match(lower));
    if MARKER.is_match(lower) && !lower.contains("markers") && !about_items {
        return (Skill::AddMarker, None);
    }
    if START.is_match(lower) {
        return (Skill::StartRecording, None);
    }
    if REGENERATE.is_match(lower) {
        return (Skill::RegenerateNotes, None);
    }
    if ACTIONS.is_match(lower) {
        return (Skill::GetActionItems, None);
    }
    if TRANSCRIPT.is_match(lower) {
        return (Skill::GetTranscript, None);
    }
    if ASK.is_match(lower) && lower.chars().count() <= MAX_QUESTION {
        return (Skill::Ask, None);
    }
    let topic = topic(lower);
    if SEARCH.is_match(lower) && topic.is_some() && !LIST.is_match(lower) {
        return (Skill::SearchMeetings, topic);
    }
    if SEARCH_VERB.is_match(lower) && topic.is_some() {
        return (Skill::SearchMeetings, topic);
    }
    let one_meeting = UUID.is_match(lower) || LATEST.is_match(lower);
    if is_question(lower) && !LIST.is_match(lower) && !(one_meeting && SHOW.is_match(lower)) {
        return (Skill::Ask, None);
    }
    if UUID.is_match(lower) || (LATEST.is_match(lower) && SHOW.is_match(lower)) {
        return (Skill::GetMeeting, None);
    }
    if LIST.is_match(lower) || PERIOD_WORDS.is_match(lower) {
        return (Skill::ListMeetings, topic);
    }
    (Skill::SearchMeetings, topic)
}

fn put(args: &mut Map<String, Value>, name: &str, value: Option<String>) {
    if let Some(value) = value.filter(|v| !v.trim().is_empty()) {
        args.insert(name.into(), json!(value));
    }
}

/// `from` and `to` of the period the text names, if it names one.
fn put_period(args: &mut Map<String, Value>, lower: &str, now: DateTime<Local>) {
    if let Some((from, to)) = period(lower, now) {
        args.insert("from".into(), json!(from));
        if let Some(to) = to {
            args.insert("to".into(), json!(to));
        }
    }
}

/// A meeting id in the text, or `latest` for "the last meeting".
fn meeting_ref(text: &str, lower: &str) -> Option<String> {
    if let Some(id) = UUID.find(text) {
        return Some(id.as_str().to_lowercase());
    }
    LATEST.is_match(lower).then(|| "latest".to_string())
}

fn quoted(text: &str) -> Option<String> {
    let captures = QUOTED.captures(text)?;
    (1..=3).find_map(|i| captures.get(i)).map(|m| m.as_str().trim().to_string())
}

/// A title or label: the quoted words, else what follows "called"/"as".
fn title(text: &str) -> Option<String> {
    quoted(text).or_else(|| {
        let words = TITLE.captures(text)?.get(1)?.as_str();
        let words = words.trim().trim_end_matches(['.', '!', '?']).trim();
        (!words.is_empty()).then(|| words.to_string())
    })
}

/// What to look for: a quoted phrase (kept as a phrase), the words after
/// "about"/"for", or the words that are not filler.
fn topic(lower: &str) -> Option<String> {
    if let Some(phrase) = quoted(lower) {
        return Some(format!("\"{phrase}\""));
    }
    let without_period = PERIOD_WORDS.replace(lower, "").to_string();
    if let Some(captures) = TOPIC.captures(&without_period) {
        let words = keywords(captures.get(1).map_or("", |m| m.as_str()));
        if !words.is_empty() {
            return Some(words);
        }
    }
    let words = keywords(&without_period);
    (!words.is_empty()).then_some(words)
}

fn keywords(text: &str) -> String {
    let cleaned = FILLER.replace_all(text, " ");
    cleaned
        .split(|c: char| !(c.is_alphanumeric() || c == '*' || c == '-' || c == '\''))
        .filter(|word| !word.is_empty() && *word != "-")
        .collect::<Vec<_>>()
        .join(" ")
}

fn regenerate_args(lower: &str, args: &mut Map<String, Value>) {
    let template = [
        ("standup", "standup"),
        ("stand-up", "standup"),
        ("one on one", "one_on_one"),
        ("one-on-one", "one_on_one"),
        ("1:1", "one_on_one"),
        ("customer call", "customer_call"),
        ("interview", "interview"),
    ]
    .into_iter()
    .find(|(words, _)| lower.contains(words))
    .map(|(_, id)| id.to_string())
    .or_else(|| {
        static NAMED: LazyLock<Regex> = LazyLock::new(|| regex(r"\btemplate ([a-z0-9_\-]+)"));
        NAMED.captures(lower).and_then(|c| c.get(1)).map(|m| m.as_str().to_string())
    });
    let kind = if template.is_some() {
        "custom"
    } else if ACTIONS.is_match(lower) {
        "action_items"
    } else if lower.contains("decision") {
        "decisions"
    } else if lower.contains("key point") || lower.contains("highlights") {
        "key_points"
    } else {
        "summary"
    };
    args.insert("kind".into(), json!(kind));
    put(args, "template_id", template);
}

fn transcript_format(lower: &str) -> Option<&'static str> {
    [
        ("srt", "srt"),
        ("subtitle", "srt"),
        ("webvtt", "vtt"),
        ("vtt", "vtt"),
        ("caption", "vtt"),
        ("json", "json"),
        ("plain text", "txt"),
        ("txt", "txt"),
        ("markdown", "md"),
    ]
    .into_iter()
    .find(|(word, _)| lower.contains(word))
    .map(|(_, format)| format)
}

/// `from` (inclusive) and `to` (exclusive, none = up to now) in ms.
fn period(lower: &str, now: DateTime<Local>) -> Option<(i64, Option<i64>)> {
    let today = now.date_naive();
    let day = |date: NaiveDate| local_midnight(date);
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    let first = today.with_day(1)?;
    let previous_first = (first - Duration::days(1)).with_day(1)?;
    let next_first = (first + Duration::days(32)).with_day(1)?;
    if let Some(days) = LAST_DAYS.captures(lower).and_then(|c| c[1].parse::<i64>().ok()) {
        return Some((now.timestamp_millis() - days * 86_400_000, None));
    }
    let range = |from: NaiveDate, to: NaiveDate| Some((day(from)?, Some(day(to)?)));
    if lower.contains("yesterday") {
        range(today - Duration::days(1), today)
    } else if lower.contains("today") {
        range(today, today + Duration::days(1))
    } else if lower.contains("last week") || lower.contains("previous week") {
        range(monday - Duration::days(7), monday)
    } else if lower.contains("past week") {
        Some((now.timestamp_millis() - 7 * 86_400_000, None))
    } else if lower.contains("this week") {
        range(monday, monday + Duration::days(7))
    } else if lower.contains("last month") || lower.contains("previous month") {
        range(previous_first, first)
    } else if lower.contains("this month") {
        range(first, next_first)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const ID: &str = "0194f2d3-5e6a-7b8c-9d0e-1f2a3b4c5d6e";
    const ITEM: &str = "0194f2d3-5e6a-7b8c-9d0e-0000000000a1";

    /// Saturday 21 November 2026, 10:00 local time.
    fn now() -> DateTime<Local> {
        Local.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).single().expect("local time")
    }

    fn ms(y: i32, m: u32, d: u32) -> i64 {
        local_midnight(NaiveDate::from_ymd_opt(y, m, d).expect("date")).expect("midnight")
    }

    /// Each phrasing, the skill it must reach and the arguments it must carry
    /// (only those listed are checked; `null` means "must be absent").
    fn table() -> Vec<(String, Skill, Value)> {
        use Skill::*;
        let rows: Vec<(String, Skill, Value)> = vec![
            ("stop recording".to_string(), StopRecording, json!({})),
            ("Please stop the recording now".to_string(), StopRecording, json!({})),
            ("end the recording".to_string(), StopRecording, json!({})),
            ("finish recording this call".to_string(), StopRecording, json!({})),
            ("start recording".to_string(), StartRecording, json!({"title": null})),
            (
                "Start a recording called Design review".to_string(),
                StartRecording,
                json!({"title": "Design review"}),
            ),
            (
                "record this meeting as \"Budget sync\"".to_string(),
                StartRecording,
                json!({"title": "Budget sync"}),
            ),
            ("begin recording please".to_string(), StartRecording, json!({})),
            ("add a marker".to_string(), AddMarker, json!({"label": null})),
            ("bookmark this".to_string(), AddMarker, json!({})),
            (
                "mark this moment as \"pricing question\"".to_string(),
                AddMarker,
                json!({"label": "pricing question"}),
            ),
            (
                "drop a marker labelled customer objection".to_string(),
                AddMarker,
                json!({"label": "customer objection"}),
            ),
            (
                "regenerate the summary of the last meeting".to_string(),
                RegenerateNotes,
                json!({"meeting_id": "latest", "kind": "summary"}),
            ),
            (
                format!("redo the action items of {ID}"),
                RegenerateNotes,
                json!({"meeting_id": ID, "kind": "action_items"}),
            ),
            (
                "rewrite the notes with the standup template".to_string(),
                RegenerateNotes,
                json!({"kind": "custom", "template_id": "standup"}),
            ),
            (
                "summarise the last meeting again".to_string(),
                RegenerateNotes,
                json!({"meeting_id": "latest"}),
            ),
            ("regenerate decisions".to_string(), RegenerateNotes, json!({"kind": "decisions"})),
            (
                "what are my open action items?".to_string(),
                GetActionItems,
                json!({"open_only": true, "meeting_id": null}),
            ),
            ("action items".to_string(), GetActionItems, json!({"open_only": null})),
            (
                "show me the to-dos from the last meeting".to_string(),
                GetActionItems,
                json!({"meeting_id": "latest"}),
            ),
            ("pending tasks".to_string(), GetActionItems, json!({"open_only": true})),
            (
                "who is doing what after the last call?".to_string(),
                GetActionItems,
                json!({"meeting_id": "latest"}),
            ),
            (format!("follow-ups from {ID}"), GetActionItems, json!({"meeting_id": ID})),
            ("what are the next steps?".to_string(), GetActionItems, json!({})),
            (
                "transcript of the latest meeting".to_string(),
                GetTranscript,
                json!({"meeting_id": "latest", "format": null}),
            ),
            (
                format!("get the transcript of {ID} as srt"),
                GetTranscript,
                json!({"meeting_id": ID, "format": "srt"}),
            ),
            (
                "give me subtitles for the last recording".to_string(),
                GetTranscript,
                json!({"format": "srt"}),
            ),
            (
                "what was said in the last meeting, word for word, in plain text".to_string(),
                GetTranscript,
                json!({"format": "txt"}),
            ),
            (
                "transcript as json".to_string(),
                GetTranscript,
                json!({"format": "json", "meeting_id": "latest"}),
            ),
            (
                "search for \"quarterly budget\"".to_string(),
                SearchMeetings,
                json!({"query": "\"quarterly budget\""}),
            ),
            ("find mentions of pricing".to_string(), SearchMeetings, json!({"query": "pricing"})),
            (
                "when did we talk about the launch date?".to_string(),
                SearchMeetings,
                json!({"query": "launch date"}),
            ),
            ("who mentioned the roadmap".to_string(), SearchMeetings, json!({"query": "roadmap"})),
            ("look for hiring plan".to_string(), SearchMeetings, json!({"query": "hiring plan"})),
            (
                "kubernetes migration".to_string(),
                SearchMeetings,
                json!({"query": "kubernetes migration"}),
            ),
            (
                "What did we decide about the office move?".to_string(),
                SearchMeetings,
                json!({"query": "office move"}),
            ),
            ("hello there".to_string(), SearchMeetings, json!({"query": "hello"})),
            (format!("show meeting {ID}"), GetMeeting, json!({"meeting_id": ID})),
            (
                "summary of the last meeting".to_string(),
                GetMeeting,
                json!({"meeting_id": "latest"}),
            ),
            (
                "what happened in the most recent call?".to_string(),
                GetMeeting,
                json!({"meeting_id": "latest"}),
            ),
            (ID.to_string(), GetMeeting, json!({"meeting_id": ID})),
            ("list my meetings".to_string(), ListMeetings, json!({"from": null, "query": null})),
            (
                "what meetings did I have last week?".to_string(),
                ListMeetings,
                json!({"from": ms(2026, 11, 9), "to": ms(2026, 11, 16)}),
            ),
            (
                "meetings yesterday".to_string(),
                ListMeetings,
                json!({"from": ms(2026, 11, 20), "to": ms(2026, 11, 21)}),
            ),
            (
                "calls today".to_string(),
                ListMeetings,
                json!({"from": ms(2026, 11, 21), "to": ms(2026, 11, 22)}),
            ),
            (
                "meetings this month".to_string(),
                ListMeetings,
                json!({"from": ms(2026, 11, 1), "to": ms(2026, 12, 1)}),
            ),
            (
                "meetings from last month".to_string(),
                ListMeetings,
                json!({"from": ms(2026, 10, 1), "to": ms(2026, 11, 1)}),
            ),
            (
                "meetings in the last 10 days".to_string(),
                ListMeetings,
                json!({"from": now().timestamp_millis() - 10 * 86_400_000, "to": null}),
            ),
            (
                "meetings about the budget last week".to_string(),
                ListMeetings,
                json!({"query": "budget", "from": ms(2026, 11, 9)}),
            ),
            (
                "search my meetings for budget".to_string(),
                SearchMeetings,
                json!({"query": "budget"}),
            ),
            (
                "Search through my calls for the hiring plan".to_string(),
                SearchMeetings,
                json!({"query": "hiring plan"}),
            ),
            (
                "search all meetings mentioning pricing".to_string(),
                SearchMeetings,
                json!({"query": "pricing"}),
            ),
            (
                "grep my recordings for kubernetes".to_string(),
                SearchMeetings,
                json!({"query": "kubernetes"}),
            ),
            (
                "look through our meetings for the launch date".to_string(),
                SearchMeetings,
                json!({"query": "launch date"}),
            ),
            (
                "search my meetings this week".to_string(),
                ListMeetings,
                json!({"from": ms(2026, 11, 16), "to": ms(2026, 11, 23)}),
            ),
            (
                "When will the replica be added?".to_string(),
                Ask,
                json!({"question": "When will the replica be added?", "meeting_id": null, "from": null}),
            ),
            (
                "ask my meetings what we decided on pricing".to_string(),
                Ask,
                json!({"question": "what we decided on pricing"}),
            ),
            (
                "please ask the recordings: how much did the vendor quote".to_string(),
                Ask,
                json!({"question": "how much did the vendor quote"}),
            ),
            (
                "what did Dana promise about pricing last week?".to_string(),
                Ask,
                json!({"from": ms(2026, 11, 9), "to": ms(2026, 11, 16), "meeting_id": null}),
            ),
            (
                "why did the launch slip in the last meeting?".to_string(),
                Ask,
                json!({"meeting_id": "latest", "from": null}),
            ),
            (format!("did anyone object in {ID}?"), Ask, json!({"meeting_id": ID})),
            (
                "Is the budget approved".to_string(),
                Ask,
                json!({"question": "Is the budget approved"}),
            ),
            (
                "the new pricing page?".to_string(),
                Ask,
                json!({"question": "the new pricing page?"}),
            ),
            (
                "add an action item to the latest meeting: send the budget to finance".to_string(),
                AddActionItem,
                json!({"meeting_id": "latest", "text": "send the budget to finance",
                    "owner": null, "due": null}),
            ),
            (
                "add a to-do for Alice to the last meeting: \"update the roadmap\" due 2026-12-24"
                    .to_string(),
                AddActionItem,
                json!({"meeting_id": "latest", "text": "update the roadmap", "owner": "Alice",
                    "due": "2026-12-24"}),
            ),
            (
                format!("please create a task in meeting {ID}: Bob sends the slides, due tomorrow"),
                AddActionItem,
                json!({"meeting_id": ID, "text": "Bob sends the slides", "owner": null,
                    "due": "2026-11-22"}),
            ),
            (
                "Note down a follow-up for Dana Scully: 'call the vendor' by 2026-02-30"
                    .to_string(),
                AddActionItem,
                json!({"text": "call the vendor", "owner": "Dana Scully", "due": null}),
            ),
            ("add an action item".to_string(), GetActionItems, json!({})),
            (
                format!("mark action item {ITEM} of meeting {ID} as done"),
                UpdateActionItem,
                json!({"meeting_id": ID, "item_id": ITEM, "done": true, "owner": null}),
            ),
            (
                format!("assign task {ITEM} of the latest meeting to Bob Smith, due 2026-12-24"),
                UpdateActionItem,
                json!({"meeting_id": "latest", "item_id": ITEM, "owner": "Bob Smith",
                    "due": "2026-12-24", "done": null}),
            ),
            (
                format!("reopen to-do {ITEM} in {ID}"),
                UpdateActionItem,
                json!({"meeting_id": ID, "item_id": ITEM, "done": false}),
            ),
            (
                format!("rename task {ITEM} to \"Send the final budget\""),
                UpdateActionItem,
                json!({"item_id": ITEM, "text": "Send the final budget", "owner": null}),
            ),
            (
                "mark the action item about the budget as done".to_string(),
                GetActionItems,
                json!({}),
            ),
            (format!("which tasks are done in {ID}?"), GetActionItems, json!({"meeting_id": ID})),
        ];
        rows
    }

    #[test]
    fn at_least_forty_phrasings_reach_their_skill_with_their_arguments() {
        let table = table();
        assert!(table.len() >= 40, "only {} phrasings", table.len());
        let mut failures = Vec::new();
        for (text, skill, expected) in &table {
            let call = route(text, now());
            if call.skill != *skill {
                failures.push(format!(
                    "{text:?}: {:?} instead of {skill:?} ({})",
                    call.skill, call.args
                ));
                continue;
            }
            for (name, value) in expected.as_object().expect("object") {
                let actual = call.args.get(name).cloned().unwrap_or(Value::Null);
                if actual != *value {
                    failures.push(format!("{text:?}: {name} = {actual} instead of {value}"));
                }
            }
        }
        assert!(failures.is_empty(), "misrouted:\n{}", failures.join("\n"));
    }

    #[test]
    fn every_catalogue_example_reaches_its_own_skill() {
        for entry in crate::catalogue::entries() {
            for example in entry.examples {
                assert_eq!(route(example, now()).skill, entry.skill, "{example:?}");
            }
        }
    }

    #[test]
    fn a_due_date_can_be_cleared_in_words() {
        let call = route(&format!("remove the due date of action item {ITEM}"), now());
        assert_eq!(call.skill, Skill::UpdateActionItem);
        assert_eq!(call.args, json!({"meeting_id": "latest", "item_id": ITEM, "due": null}));
        // An id and no change: not an update.
        let call = route(&format!("update task {ITEM}"), now());
        assert_ne!(call.skill, Skill::UpdateActionItem);
    }

    #[test]
    fn a_question_too_long_to_ask_is_a_search() {
        let long = format!("{}?", "why ".repeat(MAX_QUESTION / 4));
        assert_eq!(route(&long, now()).skill, Skill::SearchMeetings);
    }

    #[test]
    fn every_routed_call_passes_argument_checks() {
        for (text, _, _) in table() {
            let call = route(&text, now());
            SkillCall::new(call.skill, call.args.clone())
                .unwrap_or_else(|e| panic!("{text:?} gives bad arguments {}: {e}", call.args));
        }
    }
}
