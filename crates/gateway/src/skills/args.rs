//! Arguments of each skill, checked before anything reaches the service. Unknown
//! argument names are refused (they are usually a misspelling), with the names
//! the skill takes.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use super::{Skill, SkillError};

/// A moment given as milliseconds, a date or a date-time.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Moment {
    Millis(i64),
    Text(String),
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListMeetings {
    pub query: Option<String>,
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    pub from: Option<Moment>,
    pub to: Option<Moment>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GetMeeting {
    pub meeting_id: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GetTranscript {
    pub meeting_id: String,
    pub format: Option<String>,
    pub offset: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchMeetings {
    pub query: String,
    pub limit: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    pub question: String,
    pub meeting_id: Option<String>,
    pub from: Option<Moment>,
    pub to: Option<Moment>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GetActionItems {
    pub meeting_id: Option<String>,
    pub open_only: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddActionItem {
    pub meeting_id: String,
    pub text: String,
    pub owner: Option<String>,
    /// `YYYY-MM-DD`.
    pub due: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateActionItem {
    pub meeting_id: String,
    pub item_id: String,
    pub text: Option<String>,
    pub owner: Option<String>,
    /// `YYYY-MM-DD`; see [`UpdateActionItem::due_change`] for `null`.
    pub due: Option<String>,
    pub done: Option<bool>,
    /// `due` was given as `null`: the due date is to be cleared (for this
    /// argument only, null is not "not given").
    #[serde(skip)]
    pub clear_due: bool,
}

impl UpdateActionItem {
    /// The change of the due date: `Some(Some(day))` sets it, `Some(None)`
    /// clears it, `None` leaves it.
    pub fn due_change(&self) -> Option<Option<String>> {
        match (&self.due, self.clear_due) {
            (Some(day), _) => Some(Some(day.trim().to_string())),
            (None, true) => Some(None),
            (None, false) => None,
        }
    }

    fn changes_something(&self) -> bool {
        self.text.is_some()
            || self.owner.is_some()
            || self.due_change().is_some()
            || self.done.is_some()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegenerateNotes {
    pub meeting_id: String,
    pub kind: Option<String>,
    pub template_id: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRecording {
    pub source_app: Option<String>,
    pub title: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRecording {}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddMarker {
    pub label: Option<String>,
}

/// The checked arguments of one call.
#[derive(Debug, Clone)]
pub enum Args {
    ListMeetings(ListMeetings),
    GetMeeting(GetMeeting),
    GetTranscript(GetTranscript),
    SearchMeetings(SearchMeetings),
    Ask(Ask),
    GetActionItems(GetActionItems),
    AddActionItem(AddActionItem),
    UpdateActionItem(UpdateActionItem),
    RegenerateNotes(RegenerateNotes),
    StartRecording(StartRecording),
    StopRecording,
    AddMarker(AddMarker),
}

pub const FORMATS: [&str; 5] = ["md", "txt", "srt", "vtt", "json"];
pub const KINDS: [&str; 5] = ["summary", "action_items", "decisions", "key_points", "custom"];
/// The longest question the service answers, in characters.
pub const MAX_QUESTION: usize = 2_000;
/// The longest action item the service keeps, in characters (after trimming).
pub const MAX_ITEM_TEXT: usize = 1_000;
/// The longest owner of an action item, in characters (after trimming).
pub const MAX_OWNER: usize = 200;

/// Checks `args` (a JSON object) for `skill`.
pub fn parse_args(skill: Skill, args: &Value) -> Result<Args, SkillError> {
    if !args.is_object() {
        return Err(invalid(skill, "the arguments must be a JSON object"));
    }
    let parsed = match skill {
        Skill::ListMeetings => Args::ListMeetings(decode(skill, args)?),
        Skill::GetMeeting => Args::GetMeeting(decode(skill, args)?),
        Skill::GetTranscript => Args::GetTranscript(decode(skill, args)?),
        Skill::SearchMeetings => Args::SearchMeetings(decode(skill, args)?),
        Skill::Ask => Args::Ask(decode(skill, args)?),
        Skill::GetActionItems => Args::GetActionItems(decode(skill, args)?),
        Skill::AddActionItem => Args::AddActionItem(decode(skill, args)?),
        Skill::UpdateActionItem => {
            let mut update: UpdateActionItem = decode(skill, args)?;
            update.clear_due = args.get("due").is_some_and(Value::is_null);
            Args::UpdateActionItem(update)
        }
        Skill::RegenerateNotes => Args::RegenerateNotes(decode(skill, args)?),
        Skill::StartRecording => Args::StartRecording(decode(skill, args)?),
        Skill::StopRecording => {
            decode::<StopRecording>(skill, args)?;
            Args::StopRecording
        }
        Skill::AddMarker => Args::AddMarker(decode(skill, args)?),
    };
    check(skill, &parsed)?;
    Ok(parsed)
}

fn decode<T: DeserializeOwned>(skill: Skill, args: &Value) -> Result<T, SkillError> {
    // Explicit nulls mean "not given", as many agent frameworks send them.
    let mut cleaned = args.clone();
    if let Value::Object(map) = &mut cleaned {
        map.retain(|_, value| !value.is_null());
    }
    serde_json::from_value(cleaned).map_err(|error| invalid(skill, &error.to_string()))
}

fn check(skill: Skill, args: &Args) -> Result<(), SkillError> {
    let problem = match args {
        Args::ListMeetings(a) => range("limit", a.limit, 1, 200)
            .or_else(|| range("offset", a.offset, 0, i64::MAX))
            .or_else(|| blank("query", a.query.as_deref())),
        Args::GetMeeting(a) => blank("meeting_id", Some(&a.meeting_id)),
        Args::GetTranscript(a) => blank("meeting_id", Some(&a.meeting_id))
            .or_else(|| one_of("format", a.format.as_deref(), &FORMATS))
            .or_else(|| range("offset", a.offset, 0, i64::MAX)),
        Args::SearchMeetings(a) => {
            blank("query", Some(&a.query)).or_else(|| range("limit", a.limit, 1, 50))
        }
        Args::Ask(a) => blank("question", Some(&a.question))
            .or_else(|| too_long("question", &a.question, MAX_QUESTION))
            .or_else(|| blank("meeting_id", a.meeting_id.as_deref())),
        Args::GetActionItems(a) => blank("meeting_id", a.meeting_id.as_deref()),
        Args::AddActionItem(a) => blank("meeting_id", Some(&a.meeting_id))
            .or_else(|| blank("text", Some(&a.text)))
            .or_else(|| too_long("text", &a.text, MAX_ITEM_TEXT))
            .or_else(|| blank("owner", a.owner.as_deref()))
            .or_else(|| a.owner.as_deref().and_then(|o| too_long("owner", o, MAX_OWNER)))
            .or_else(|| day("due", a.due.as_deref(), "")),
        Args::UpdateActionItem(a) => blank("meeting_id", Some(&a.meeting_id))
            .or_else(|| blank("item_id", Some(&a.item_id)))
            .or_else(|| blank("text", a.text.as_deref()))
            .or_else(|| a.text.as_deref().and_then(|t| too_long("text", t, MAX_ITEM_TEXT)))
            .or_else(|| blank("owner", a.owner.as_deref()))
            .or_else(|| a.owner.as_deref().and_then(|o| too_long("owner", o, MAX_OWNER)))
            .or_else(|| day("due", a.due.as_deref(), ", or null to clear it"))
            .or_else(|| {
                (!a.changes_something())
                    .then(|| "give at least one of `text`, `owner`, `due`, `done`".to_string())
            }),
        Args::RegenerateNotes(a) => blank("meeting_id", Some(&a.meeting_id))
            .or_else(|| one_of("kind", a.kind.as_deref(), &KINDS))
            .or_else(|| blank("template_id", a.template_id.as_deref()))
            .or_else(|| {
                (a.kind.as_deref() == Some("custom") && a.template_id.is_none())
                    .then(|| "kind `custom` needs template_id".to_string())
            }),
        Args::StartRecording(a) => blank("source_app", a.source_app.as_deref())
            .or_else(|| blank("title", a.title.as_deref())),
        Args::StopRecording => None,
        Args::AddMarker(a) => blank("label", a.label.as_deref()),
    };
    match problem {
        Some(problem) => Err(invalid(skill, &problem)),
        None => Ok(()),
    }
}

fn range(name: &str, value: Option<i64>, low: i64, high: i64) -> Option<String> {
    let value = value?;
    (value < low || value > high).then(|| {
        if high == i64::MAX {
            format!("`{name}` must be at least {low}")
        } else {
            format!("`{name}` must be between {low} and {high}")
        }
    })
}

fn blank(name: &str, value: Option<&str>) -> Option<String> {
    value.filter(|v| v.trim().is_empty()).map(|_| format!("`{name}` must not be empty"))
}

fn too_long(name: &str, value: &str, most: usize) -> Option<String> {
    (value.trim().chars().count() > most)
        .then(|| format!("`{name}` must be at most {most} characters"))
}

/// A calendar day written `YYYY-MM-DD` (as the service keeps due dates).
fn is_day(value: &str) -> bool {
    let value = value.trim();
    value.len() == 10 && chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok()
}

fn day(name: &str, value: Option<&str>, or: &str) -> Option<String> {
    let value = value?;
    (!is_day(value)).then(|| {
        format!("`{name}` must be a date written YYYY-MM-DD (2026-12-24){or}, not `{value}`")
    })
}

fn one_of(name: &str, value: Option<&str>, allowed: &[&str]) -> Option<String> {
    let value = value?;
    (!allowed.contains(&value)).then(|| format!("`{name}` must be one of {}", allowed.join(", ")))
}

fn invalid(skill: Skill, problem: &str) -> SkillError {
    SkillError::InvalidArguments(format!("{}: {problem}", skill.name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(skill: Skill, args: Value) -> String {
        parse_args(skill, &args).expect_err("refused").to_string()
    }

    #[test]
    fn good_arguments_pass_and_nulls_mean_absent() {
        assert!(parse_args(Skill::ListMeetings, &json!({})).is_ok());
        assert!(parse_args(
            Skill::ListMeetings,
            &json!({"from": "2026-11-01", "to": 1, "limit": null})
        )
        .is_ok());
        assert!(parse_args(Skill::GetActionItems, &json!({"open_only": true})).is_ok());
        assert!(parse_args(Skill::StopRecording, &json!({})).is_ok());
        assert!(parse_args(
            Skill::Ask,
            &json!({"question": "why?", "meeting_id": "latest", "from": "2026-11-01", "to": 1})
        )
        .is_ok());
        assert!(parse_args(
            Skill::RegenerateNotes,
            &json!({"meeting_id": "x", "kind": "custom", "template_id": "standup"})
        )
        .is_ok());
        assert!(parse_args(
            Skill::AddActionItem,
            &json!({"meeting_id": "latest", "text": "Send the budget", "owner": "Alice",
                "due": "2026-12-24"})
        )
        .is_ok());
        assert!(parse_args(
            Skill::AddActionItem,
            &json!({"meeting_id": "x", "text": "Send it", "owner": null, "due": null})
        )
        .is_ok());
        assert!(parse_args(
            Skill::UpdateActionItem,
            &json!({"meeting_id": "x", "item_id": "y", "done": true, "text": null})
        )
        .is_ok());
    }

    fn update(args: Value) -> UpdateActionItem {
        match parse_args(Skill::UpdateActionItem, &args).expect("valid") {
            Args::UpdateActionItem(update) => update,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_null_due_date_clears_it_and_counts_as_a_change() {
        let base = json!({"meeting_id": "m", "item_id": "i"});
        let with = |extra: Value| {
            let mut args = base.clone();
            args.as_object_mut().expect("object").extend(extra.as_object().expect("o").clone());
            args
        };
        assert_eq!(update(with(json!({"due": null}))).due_change(), Some(None));
        assert_eq!(
            update(with(json!({"due": " 2026-12-24"}))).due_change(),
            Some(Some("2026-12-24".into()))
        );
        assert_eq!(update(with(json!({"done": false}))).due_change(), None);
        assert!(error(Skill::UpdateActionItem, base.clone()).contains("at least one"));
        // Other nulls still mean "not given".
        assert!(
            error(Skill::UpdateActionItem, with(json!({"owner": null}))).contains("at least one")
        );
        assert!(error(Skill::UpdateActionItem, with(json!({"clear_due": true})))
            .contains("unknown field `clear_due`"));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert!(error(Skill::GetMeeting, json!({})).contains("meeting_id"));
        assert!(error(Skill::GetMeeting, json!({"meetingId": "x"}))
            .contains("unknown field `meetingId`"));
        assert!(error(Skill::ListMeetings, json!({"limit": 0})).contains("between 1 and 200"));
        assert!(error(Skill::ListMeetings, json!({"limit": "ten"})).contains("list_meetings"));
        assert!(error(Skill::SearchMeetings, json!({"query": "  "})).contains("must not be empty"));
        assert!(error(Skill::GetTranscript, json!({"meeting_id": "x", "format": "pdf"}))
            .contains("md, txt"));
        assert!(error(Skill::RegenerateNotes, json!({"meeting_id": "x", "kind": "custom"}))
            .contains("template_id"));
        assert!(error(Skill::StopRecording, json!({"now": true})).contains("unknown field"));
        assert!(error(Skill::AddMarker, json!([1])).contains("JSON object"));
        assert!(error(Skill::Ask, json!({})).contains("question"));
        assert!(error(Skill::Ask, json!({"question": " "})).contains("must not be empty"));
        assert!(error(Skill::Ask, json!({"question": "?".repeat(2_001)})).contains("at most 2000"));
        assert!(error(Skill::Ask, json!({"question": "why?", "query": "x"}))
            .contains("unknown field `query`"));
        let add = |extra: Value| {
            let mut args = json!({"meeting_id": "m", "text": "Send the budget"});
            args.as_object_mut().expect("object").extend(extra.as_object().expect("o").clone());
            error(Skill::AddActionItem, args)
        };
        assert!(add(json!({"text": "  "})).contains("`text` must not be empty"));
        assert!(add(json!({"text": "x".repeat(1_001)})).contains("at most 1000"));
        assert!(add(json!({"owner": ""})).contains("`owner` must not be empty"));
        assert!(add(json!({"owner": "o".repeat(201)})).contains("at most 200"));
        for wrong in ["2026-02-30", "24.12.2026", "tomorrow", "2026-1-5", "2026-12-24T10:00"] {
            assert!(add(json!({"due": wrong})).contains("YYYY-MM-DD"), "{wrong}");
        }
        assert!(add(json!({"assignee": "Bob"})).contains("unknown field `assignee`"));
        assert!(error(Skill::AddActionItem, json!({"meeting_id": "m"})).contains("`text`"));
        assert!(error(Skill::UpdateActionItem, json!({"meeting_id": "m", "done": true}))
            .contains("`item_id`"));
        assert!(error(
            Skill::UpdateActionItem,
            json!({"meeting_id": "m", "item_id": "i", "due": "next week"})
        )
        .contains("or null to clear it"));
        assert!(error(
            Skill::UpdateActionItem,
            json!({"meeting_id": "m", "item_id": "i", "done": "yes"})
        )
        .contains("update_action_item"));
    }
}
