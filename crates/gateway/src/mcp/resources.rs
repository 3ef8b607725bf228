//! MCP resources: the meetings as documents an MCP client can browse.
//!
//! - `recorder://meetings`: the newest meetings (JSON, as `list_meetings`);
//! - `recorder://meetings/{id}`: one meeting (JSON, as `get_meeting`);
//! - `recorder://meetings/{id}/transcript`: its whole transcript (Markdown);
//! - `recorder://meetings/{id}/notes`: its notes and action items (Markdown).
//!
//! Every read runs the same skill an agent would call, so it passes the same
//! local API checks (Host, token, the gateway's client header, policy).

use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use rmcp::ErrorData;
use serde_json::{json, Value};

use crate::skills::{Progress, Skill, SkillCall, SkillError, SkillRunner};

pub const MEETINGS: &str = "recorder://meetings";
/// How many meetings `resources/list` and `recorder://meetings` show.
const NEWEST: i64 = 50;
/// Pages of a transcript read for one resource (a page is the skill's window).
const MOST_PAGES: usize = 200;

/// What a resource URI names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Meetings,
    Meeting(String),
    Transcript(String),
    Notes(String),
}

impl Target {
    /// Reads a `recorder://` URI; `None` for anything else.
    pub fn parse(uri: &str) -> Option<Target> {
        let rest = uri.strip_prefix(MEETINGS)?;
        if rest.is_empty() || rest == "/" {
            return Some(Target::Meetings);
        }
        let rest = rest.strip_prefix('/')?;
        let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
        let id = id.to_string();
        if id.is_empty() {
            return None;
        }
        match tail {
            "" => Some(Target::Meeting(id)),
            "transcript" => Some(Target::Transcript(id)),
            "notes" => Some(Target::Notes(id)),
            _ => None,
        }
    }

    /// The meeting this resource shows, if one.
    pub fn meeting_id(&self) -> Option<&str> {
        match self {
            Target::Meetings => None,
            Target::Meeting(id) | Target::Transcript(id) | Target::Notes(id) => Some(id),
        }
    }
}

pub fn meeting_uri(id: &str) -> String {
    format!("{MEETINGS}/{id}")
}

/// The URI templates.
pub fn templates() -> ListResourceTemplatesResult {
    let template = |path: &str, name: &str, title: &str, mime: &str, description: &str| {
        ResourceTemplate::new(format!("{MEETINGS}/{{id}}{path}"), name)
            .with_title(title)
            .with_mime_type(mime)
            .with_description(description)
    };
    ListResourceTemplatesResult::with_all_items(vec![
        template(
            "",
            "meeting",
            "A meeting",
            "application/json",
            "One meeting as JSON: title, times, status, attendees, notes, action items, markers. \
             `{id}` is a meeting id or `latest`.",
        ),
        template(
            "/transcript",
            "transcript",
            "A meeting's transcript",
            "text/markdown",
            "The whole transcript of a meeting, one line per utterance with its time and speaker.",
        ),
        template(
            "/notes",
            "notes",
            "A meeting's notes",
            "text/markdown",
            "The notes of a meeting (summary, key points, decisions) and its action items.",
        ),
    ])
}

/// The collection, then the newest meetings, one resource each.
pub async fn list(runner: &dyn SkillRunner) -> Result<ListResourcesResult, ErrorData> {
    let newest = run(runner, Skill::ListMeetings, json!({ "limit": NEWEST })).await?;
    let mut resources = vec![Resource::new(MEETINGS, "meetings")
        .with_title("Meetings")
        .with_mime_type("application/json")
        .with_description("The newest meetings recorded on this machine, newest first.")];
    for meeting in newest["meetings"].as_array().into_iter().flatten() {
        let (Some(id), Some(title)) = (meeting["id"].as_str(), meeting["title"].as_str()) else {
            continue;
        };
        resources.push(
            Resource::new(meeting_uri(id), title)
                .with_title(title)
                .with_mime_type("application/json")
                .with_description(format!("Meeting \"{title}\" ({})", meeting["status"])),
        );
    }
    Ok(ListResourcesResult::with_all_items(resources))
}

/// Reads one resource.
pub async fn read(runner: &dyn SkillRunner, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let target = Target::parse(uri).ok_or_else(|| not_found(uri))?;
    let (text, mime) = match &target {
        Target::Meetings => {
            let list = run(runner, Skill::ListMeetings, json!({ "limit": NEWEST })).await?;
            (
                pretty(&json!({ "meetings": list["meetings"], "total": list["total"] })),
                "application/json",
            )
        }
        Target::Meeting(id) => {
            let found = run(runner, Skill::GetMeeting, json!({ "meeting_id": id })).await;
            (pretty(&found.map_err(|e| missing(uri, e))?["meeting"]), "application/json")
        }
        Target::Transcript(id) => {
            (transcript(runner, id).await.map_err(|e| missing(uri, e))?, "text/markdown")
        }
        Target::Notes(id) => {
            let found = run(runner, Skill::GetMeeting, json!({ "meeting_id": id })).await;
            (notes_markdown(&found.map_err(|e| missing(uri, e))?["meeting"]), "text/markdown")
        }
    };
    Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri).with_mime_type(mime)]))
}

/// Every page of the transcript, joined.
async fn transcript(runner: &dyn SkillRunner, id: &str) -> Result<String, ErrorData> {
    let mut text = String::new();
    let mut offset = 0_u64;
    for _ in 0..MOST_PAGES {
        let args = json!({ "meeting_id": id, "format": "md", "offset": offset });
        let page = run(runner, Skill::GetTranscript, args).await?;
        text.push_str(page["text"].as_str().unwrap_or_default());
        match page["next_offset"].as_u64() {
            Some(next) if next > offset => offset = next,
            _ => return Ok(text),
        }
    }
    Ok(text)
}

/// The notes as one Markdown document.
pub fn notes_markdown(meeting: &Value) -> String {
    let mut text = format!("# {}\n", meeting["title"].as_str().unwrap_or("Meeting"));
    let notes = meeting["notes"].as_array().cloned().unwrap_or_default();
    for note in notes.iter().filter(|note| note["kind"] != "action_items") {
        let body = note["content_md"].as_str().unwrap_or_default().trim();
        text.push_str(&format!(
            "\n## {}\n\n{body}\n",
            heading(note["kind"].as_str().unwrap_or(""))
        ));
    }
    let items = meeting["action_items"].as_array().cloned().unwrap_or_default();
    if !items.is_empty() {
        text.push_str("\n## Action items\n\n");
        for item in &items {
            let done = if item["done"] == true { "x" } else { " " };
            let owner = item["owner"].as_str().map(|o| format!(" ({o})")).unwrap_or_default();
            text.push_str(&format!("- [{done}] {}{owner}\n", item["text"].as_str().unwrap_or("")));
        }
    }
    if notes.is_empty() && items.is_empty() {
        text.push_str("\nNo notes yet.\n");
    }
    text
}

fn heading(kind: &str) -> &str {
    match kind {
        "summary" => "Summary",
        "key_points" => "Key points",
        "decisions" => "Decisions",
        "custom" => "Notes",
        other => other,
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

async fn run(runner: &dyn SkillRunner, skill: Skill, args: Value) -> Result<Value, ErrorData> {
    let call = SkillCall::new(skill, args).map_err(|e| skill_error(&e))?;
    let answer = runner.run(call, Progress::none()).await.map_err(|e| skill_error(&e))?;
    Ok(answer.result)
}

/// A refusal or failure as a JSON-RPC error, with the reason in `data`.
pub fn skill_error(error: &SkillError) -> ErrorData {
    let data = Some(error.to_json());
    match error {
        SkillError::InvalidArguments(message) => ErrorData::invalid_params(message.clone(), data),
        SkillError::NotFound(message) => ErrorData::resource_not_found(message.clone(), data),
        other => ErrorData::internal_error(other.to_string(), data),
    }
}

fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("Resource not found: {uri}"),
        Some(json!({ "uri": uri, "templates": [MEETINGS, "recorder://meetings/{id}",
            "recorder://meetings/{id}/transcript", "recorder://meetings/{id}/notes"] })),
    )
}

/// A meeting that does not exist is a missing resource, named by its URI.
fn missing(uri: &str, error: ErrorData) -> ErrorData {
    if error.code == ErrorData::resource_not_found("", None).code {
        return not_found(uri);
    }
    error
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_name_their_targets() {
        assert_eq!(Target::parse("recorder://meetings"), Some(Target::Meetings));
        assert_eq!(Target::parse("recorder://meetings/"), Some(Target::Meetings));
        assert_eq!(Target::parse("recorder://meetings/abc"), Some(Target::Meeting("abc".into())));
        assert_eq!(
            Target::parse("recorder://meetings/abc/transcript"),
            Some(Target::Transcript("abc".into()))
        );
        assert_eq!(
            Target::parse("recorder://meetings/abc/notes"),
            Some(Target::Notes("abc".into()))
        );
        for wrong in [
            "recorder://meetingsx",
            "recorder://meetings//notes",
            "recorder://meetings/a/b",
            "file:///etc/passwd",
            "recorder://other",
        ] {
            assert_eq!(Target::parse(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn notes_read_as_markdown() {
        let meeting = json!({
            "title": "Budget",
            "notes": [
                { "kind": "summary", "content_md": "We agreed.\n" },
                { "kind": "action_items", "content_md": "- dup" },
            ],
            "action_items": [
                { "text": "Send the deck", "owner": "Dana", "done": false },
                { "text": "Book a room", "owner": null, "done": true },
            ],
        });
        assert_eq!(
            notes_markdown(&meeting),
            "# Budget\n\n## Summary\n\nWe agreed.\n\n## Action items\n\n- [ ] Send the deck (Dana)\n- [x] Book a room\n"
        );
        assert!(notes_markdown(&json!({ "title": "Empty" })).contains("No notes yet."));
    }
}
