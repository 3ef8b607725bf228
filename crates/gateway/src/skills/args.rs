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
    RegenerateNotes(RegenerateNotes),
    StartRecording(StartRecording),
    StopRecording,
    AddMarker(AddMarker),
}

pub const FORMATS: [&str; 5] = ["md", "txt", "srt", "vtt", "json"];
pub const KINDS: [&str; 5] = ["summary", "action_items", "decisions", "key_points", "custom"];
/// The longest question the service answers, in characters.
pub const MAX_QUESTION: usize = 2_000;

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
    }
}
