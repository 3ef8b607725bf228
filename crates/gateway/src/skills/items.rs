//! add_action_item and update_action_item: an agent keeps a meeting's action
//! items (adds one; rewords it, gives it an owner or a due date, ticks it).
//! The service decides (Recorder Pro for agents) and writes the change to the
//! meeting's history, under the agent's name when the call carries it.

use recorder_api_types as api;
use recorder_client::{Client, ClientError};
use serde_json::json;

use super::args::{AddActionItem, UpdateActionItem};
use super::meetings::{item_line, resolve, started};
use super::text::{date_time, day, quoted};
use super::{Answer, Skill, SkillError, SkillResult, Used};

pub async fn add(client: &Client, args: AddActionItem) -> SkillResult {
    let id = resolve(client, &args.meeting_id).await?;
    let request = api::NewActionItem {
        text: args.text.clone(),
        owner: args.owner.clone(),
        due: args.due.as_deref().map(|due| due.trim().to_string()),
    };
    let item = client.add_action_item(&id, &request).await.map_err(|error| {
        refused(
            "Cannot add the action item",
            error,
            "list_meetings or search_meetings give the meetings' ids.",
        )
    })?;
    // Read after writing: the plan is the service's first answer, before
    // whether the meeting exists.
    let meeting = client.meeting(&id).await.ok();
    let text = format!(
        "Added an action item to {}:\n{}\nitem_id: {} (update_action_item changes it or marks it done).",
        meeting_name(meeting.as_ref(), &id),
        item_line(&item),
        item.id
    );
    Ok(Answer {
        skill: Skill::AddActionItem,
        text,
        result: json!({
            "meeting_id": id,
            "meeting_title": meeting.as_ref().map(|m| m.title.clone()),
            "item": item,
        }),
        used: used(meeting.as_ref(), &id),
    })
}

pub async fn update(client: &Client, args: UpdateActionItem) -> SkillResult {
    let id = resolve(client, &args.meeting_id).await?;
    let patch = api::ActionItemPatch {
        text: args.text.clone(),
        owner: args.owner.clone(),
        due: args.due_change(),
        done: args.done,
    };
    let item_id = args.item_id.trim();
    let item = client.update_action_item(&id, item_id, &patch).await.map_err(|error| {
        refused(
            "Cannot update the action item",
            error,
            &format!("get_action_items with meeting_id {id} lists its items and their ids."),
        )
    })?;
    let meeting = client.meeting(&id).await.ok();
    let changed = changes(&patch);
    let text = format!(
        "Updated an action item of {}: {}.\n{}",
        meeting_name(meeting.as_ref(), &id),
        changed.iter().map(|(_, said)| said.as_str()).collect::<Vec<_>>().join(", "),
        item_line(&item)
    );
    Ok(Answer {
        skill: Skill::UpdateActionItem,
        text,
        result: json!({
            "meeting_id": id,
            "meeting_title": meeting.as_ref().map(|m| m.title.clone()),
            "item": item,
            "changed": changed.iter().map(|(field, _)| *field).collect::<Vec<_>>(),
        }),
        used: used(meeting.as_ref(), &id),
    })
}

/// What a patch changes: the field, and the change in words.
fn changes(patch: &api::ActionItemPatch) -> Vec<(&'static str, String)> {
    let mut changed = Vec::new();
    if let Some(text) = &patch.text {
        changed.push(("text", format!("now reads {}", quoted(text.trim()))));
    }
    if let Some(owner) = &patch.owner {
        changed.push(("owner", format!("owner now {}", owner.trim())));
    }
    match &patch.due {
        Some(Some(due)) => changed.push(("due", format!("due {}", day(due)))),
        Some(None) => changed.push(("due", "no due date any more".to_string())),
        None => {}
    }
    match patch.done {
        Some(true) => changed.push(("done", "marked done".to_string())),
        Some(false) => changed.push(("done", "open again".to_string())),
        None => {}
    }
    changed
}

/// `“Budget review” (Fri 20 Nov 2026, 14:05)`, or the meeting's id when it
/// could not be read.
fn meeting_name(meeting: Option<&api::Meeting>, id: &str) -> String {
    match meeting {
        Some(meeting) => {
            format!("{} ({})", quoted(&meeting.title), date_time(meeting.started_at))
        }
        None => format!("meeting {id}"),
    }
}

fn used(meeting: Option<&api::Meeting>, id: &str) -> Used {
    let mut used = Used::default();
    match meeting {
        Some(meeting) => used.moment(started(meeting)),
        None => used.meeting(id),
    }
    used
}

/// The service's refusal in a person's words; a 404 says where the ids are.
fn refused(doing: &str, error: ClientError, ids_from: &str) -> SkillError {
    match SkillError::from_client(doing, error) {
        SkillError::NotFound(text) => SkillError::NotFound(format!("{text} {ids_from}")),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_is_told_field_by_field() {
        let patch = api::ActionItemPatch {
            text: Some(" Send the budget ".into()),
            owner: Some("Bob".into()),
            due: Some(Some("2026-12-24".into())),
            done: Some(true),
        };
        let said: Vec<String> = changes(&patch).into_iter().map(|(_, said)| said).collect();
        assert_eq!(
            said,
            ["now reads “Send the budget”", "owner now Bob", "due Thu 24 Dec 2026", "marked done"]
        );
        let clear =
            api::ActionItemPatch { due: Some(None), done: Some(false), ..Default::default() };
        let fields: Vec<&str> = changes(&clear).into_iter().map(|(field, _)| field).collect();
        assert_eq!(fields, ["due", "done"]);
    }

    #[test]
    fn an_unknown_meeting_or_item_says_where_the_ids_are() {
        let error = ClientError::Api {
            status: 404,
            code: "not_found".into(),
            message: "action item not found".into(),
        };
        let refusal =
            refused("Cannot update the action item", error, "get_action_items lists them.");
        assert!(matches!(refusal, SkillError::NotFound(_)));
        assert_eq!(
            refusal.to_string(),
            "Cannot update the action item: action item not found. get_action_items lists them."
        );
        let plan = ClientError::Api {
            status: 402,
            code: "pro_required".into(),
            message: "Recorder Pro is needed".into(),
        };
        let refusal = refused("Cannot add the action item", plan, "");
        assert_eq!(refusal.code(), "pro_required");
        assert!(refusal.to_string().contains("Recorder Pro only"), "{refusal}");
    }
}
