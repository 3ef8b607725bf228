//! get_action_items (one meeting, or the last 30 days) and regenerate_notes
//! (which waits for the new notes and returns them).

use std::time::Duration;

use futures_util::{stream, StreamExt};
use recorder_api_types as api;
use recorder_client::{Client, EventStream};
use serde_json::json;

use super::args::{GetActionItems, RegenerateNotes};
use super::meetings::{fetch, headline, item_line, note_heading, resolve, started};
use super::text::quoted;
use super::{Answer, Progress, Skill, SkillError, SkillResult, Used};

const THIRTY_DAYS_MS: i64 = 30 * 24 * 3600 * 1000;
/// How long regenerate_notes waits for the new notes before answering anyway.
const NOTES_WAIT: Duration = Duration::from_secs(300);

pub async fn items(client: &Client, args: GetActionItems) -> SkillResult {
    let open_only = args.open_only.unwrap_or(false);
    let (scope, meetings) = match &args.meeting_id {
        Some(id) => {
            let id = resolve(client, id).await?;
            ("meeting", vec![fetch(client, &id).await?])
        }
        None => ("last_30_days", recent_meetings(client).await?),
    };
    let mut used = Used::default();
    let mut found = Vec::new();
    let mut text = String::new();
    for meeting in &meetings {
        let items: Vec<&api::ActionItem> = meeting
            .action_items
            .iter()
            .flatten()
            .filter(|item| !(open_only && item.done))
            .collect();
        // One named meeting is used even without items; across 30 days, only
        // the meetings that gave items.
        if args.meeting_id.is_some() || !items.is_empty() {
            used.moment(started(meeting));
        }
        if items.is_empty() {
            continue;
        }
        text.push_str(&format!("\n\n{}", headline(meeting)));
        for item in items {
            text.push_str(&format!("\n{}", item_line(item)));
            found.push(json!({
                "meeting_id": meeting.id,
                "meeting_title": meeting.title,
                "started_at": meeting.started_at,
                "id": item.id,
                "text": item.text,
                "owner": item.owner,
                "done": item.done,
                "due": item.due,
            }));
        }
    }
    let which = if open_only { "open action items" } else { "action items" };
    let place = match scope {
        "meeting" => {
            meetings.first().map(|m| format!("in {}", quoted(&m.title))).unwrap_or_default()
        }
        _ => "from the last 30 days".to_string(),
    };
    let text = if found.is_empty() {
        format!("No {which} {place}.")
    } else {
        format!("{} {which} {place}:{text}", found.len())
    };
    Ok(Answer {
        skill: Skill::GetActionItems,
        text,
        result: json!({ "scope": scope, "open_only": open_only, "items": found }),
        used,
    })
}

/// Every meeting that started in the last 30 days, with its action items.
async fn recent_meetings(client: &Client) -> Result<Vec<api::Meeting>, SkillError> {
    let from = chrono::Utc::now().timestamp_millis() - THIRTY_DAYS_MS;
    let mut ids = Vec::new();
    loop {
        let query = [
            ("from", from.to_string()),
            ("limit", "200".to_string()),
            ("offset", ids.len().to_string()),
        ];
        let page = client
            .meetings(&query)
            .await
            .map_err(|e| SkillError::from_client("Cannot list meetings", e))?;
        let count = page.meetings.len();
        ids.extend(page.meetings.into_iter().map(|m| m.id));
        if count == 0 || ids.len() as i64 >= page.total {
            break;
        }
    }
    let fetched: Vec<Result<api::Meeting, SkillError>> = stream::iter(ids)
        .map(|id| async move { fetch(client, &id).await })
        .buffered(4)
        .collect()
        .await;
    // A meeting deleted meanwhile is simply left out.
    fetched.into_iter().filter(|result| !matches!(result, Err(SkillError::NotFound(_)))).collect()
}

pub async fn regenerate(
    client: &Client,
    args: RegenerateNotes,
    progress: &Progress,
) -> SkillResult {
    let id = resolve(client, &args.meeting_id).await?;
    let kind = args.kind.clone().unwrap_or_else(|| "summary".into());
    // Listen before asking, so the end of a quick run cannot be missed.
    let mut events =
        client.events().await.map_err(|e| SkillError::from_client("Cannot follow progress", e))?;
    let request = api::NotesRequest { kind: kind.clone(), template_id: args.template_id.clone() };
    client.regenerate_notes(&id, &request).await.map_err(|e| match e {
        recorder_client::ClientError::Api { status: 404, ref code, .. } if code == "not_found" => {
            SkillError::NotFound(format!(
                "Cannot regenerate notes: no meeting with id {id}, or no template {}.",
                args.template_id.as_deref().unwrap_or("(none given)")
            ))
        }
        other => SkillError::from_client("Cannot regenerate notes", other),
    })?;
    progress.report(0.05, "Asked the recorder for new notes; waiting for its turn.");
    // A caller that stops waiting (A2A CancelTask, MCP cancellation) drops this
    // future: the guard then cancels the service's run too.
    let mut guard = CancelOnDrop { client: Some(client.clone()), meeting_id: id.clone() };
    let outcome =
        tokio::time::timeout(NOTES_WAIT, wait_for_notes(&mut events, &id, progress)).await;
    guard.client = None;
    let meeting = fetch(client, &id).await?;
    let (status, provider) = match outcome {
        Ok(Ok(provider)) => ("ready", provider),
        Ok(Err(failure)) => return Err(failure),
        Err(_) => ("summarising", None),
    };
    let mut used = Used::default();
    used.moment(started(&meeting));
    Ok(Answer {
        skill: Skill::RegenerateNotes,
        text: regenerated_text(&meeting, &kind, status, provider.as_deref()),
        result: json!({
            "meeting_id": id,
            "kind": kind,
            "status": status,
            "provider": provider,
            "notes": meeting.notes,
            "action_items": meeting.action_items,
        }),
        used,
    })
}

/// Cancels the service's notes regeneration of `meeting_id` when dropped
/// while still armed (`client` set).
struct CancelOnDrop {
    client: Option<Client>,
    meeting_id: String,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(client) = self.client.take() else { return };
        let meeting_id = std::mem::take(&mut self.meeting_id);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                match client.cancel_notes(&meeting_id).await {
                    Ok(()) => tracing::info!(meeting_id, "notes regeneration canceled"),
                    Err(error) => tracing::info!(meeting_id, %error, "nothing to cancel"),
                }
            });
        }
    }
}

/// How far a `notes.progress` stage is, and what it means for a person.
fn stage_step(stage: &str) -> Option<(f64, &'static str)> {
    match stage {
        "started" => Some((0.1, "Started writing the notes.")),
        "generating" => Some((0.4, "Writing the notes.")),
        "saving" => Some((0.9, "Saving the notes.")),
        "done" => Some((1.0, "The notes are written.")),
        _ => None,
    }
}

/// Waits for `meeting.ready` of `id`; the provider that wrote the notes.
async fn wait_for_notes(
    events: &mut EventStream,
    id: &str,
    progress: &Progress,
) -> Result<Option<String>, SkillError> {
    let mut provider = None;
    loop {
        let event = events.next().await.map_err(|e| SkillError::from_client("Lost progress", e))?;
        let Some(event) = event else {
            return Err(SkillError::Unavailable(
                "The recorder service stopped while writing notes.".into(),
            ));
        };
        if event.data["meeting_id"].as_str() != Some(id) {
            continue;
        }
        match (event.kind.as_str(), event.data["stage"].as_str()) {
            ("notes.progress", Some("failed")) => {
                return Err(SkillError::Failed(format!(
                    "Writing the notes failed: {}",
                    event.data["message"].as_str().unwrap_or("see the recorder's logs")
                )))
            }
            ("notes.progress", Some("canceled")) => {
                return Err(SkillError::Failed(
                    "Writing the notes was canceled; the meeting keeps its earlier notes.".into(),
                ))
            }
            ("notes.progress", Some(stage)) => {
                if stage == "done" {
                    provider = event.data["provider"].as_str().map(str::to_string);
                }
                if let Some((done, message)) = stage_step(stage) {
                    progress.report(done, message);
                }
            }
            ("meeting.ready", _) => return Ok(provider),
            _ => {}
        }
    }
}

fn regenerated_text(
    meeting: &api::Meeting,
    kind: &str,
    status: &str,
    provider: Option<&str>,
) -> String {
    if status != "ready" {
        return format!(
            "The {} of {} is still being written; call get_meeting with meeting_id {} in a minute.",
            note_heading(kind).to_lowercase(),
            quoted(&meeting.title),
            meeting.id
        );
    }
    let by = provider.map(|p| format!(" (written by {p})")).unwrap_or_default();
    let mut text =
        format!("New {} of {}{by}:", note_heading(kind).to_lowercase(), quoted(&meeting.title));
    let wanted = if kind == "custom" { "custom" } else { kind };
    let items = meeting.action_items.clone().unwrap_or_default();
    if kind == "action_items" && !items.is_empty() {
        items.iter().for_each(|item| text.push_str(&format!("\n{}", item_line(item))));
        return text;
    }
    match meeting.notes.iter().flatten().find(|note| note.kind.as_str() == wanted) {
        Some(note) => text.push_str(&format!("\n\n{}", note.content_md.trim())),
        None => text.push_str("\n\n(no note of that kind was written)"),
    }
    text
}
