//! MCP prompts: a few requests a person makes of their meetings every week,
//! each written as the steps an assistant takes with this server's tools.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Local};
use rmcp::model::{
    GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};
use rmcp::ErrorData;

/// One prompt: its name, title, description and arguments.
struct Entry {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    /// (name, description, required)
    arguments: &'static [(&'static str, &'static str, bool)],
}

const PROMPTS: [Entry; 3] = [
    Entry {
        name: "summarise_my_week",
        title: "Summarise my week",
        description: "A short account of the meetings of the last seven days: what each was \
            about, what was decided, and what is still open.",
        arguments: &[("focus", "A topic to dwell on (optional), such as a project name.", false)],
    },
    Entry {
        name: "prepare_for_meeting",
        title: "Prepare for a meeting with someone",
        description: "Everything discussed with a person in earlier meetings, the decisions, and \
            the action items still open between you, as a briefing.",
        arguments: &[("person", "The person's name, as said or written in meetings.", true)],
    },
    Entry {
        name: "open_action_items",
        title: "Open action items",
        description: "The action items not yet done, grouped by owner, with the meeting each \
            came from.",
        arguments: &[(
            "meeting_id",
            "Only this meeting (an id, or `latest`); without it, the last 30 days.",
            false,
        )],
    },
];

pub fn list() -> ListPromptsResult {
    ListPromptsResult::with_all_items(PROMPTS.iter().map(prompt).collect())
}

fn prompt(entry: &Entry) -> Prompt {
    let arguments = entry
        .arguments
        .iter()
        .map(|(name, description, required)| {
            PromptArgument::new(*name).with_description(*description).with_required(*required)
        })
        .collect();
    Prompt::new(entry.name, Some(entry.description), Some(arguments)).with_title(entry.title)
}

/// The prompt `name` with `arguments`, read at `now` (for "the last seven days").
pub fn get(
    name: &str,
    arguments: &HashMap<String, String>,
    now: DateTime<Local>,
) -> Result<GetPromptResult, ErrorData> {
    let entry = PROMPTS.iter().find(|entry| entry.name == name).ok_or_else(|| {
        let names: Vec<&str> = PROMPTS.iter().map(|entry| entry.name).collect();
        ErrorData::invalid_params(
            format!("Unknown prompt: {name}; the prompts are {}", names.join(", ")),
            None,
        )
    })?;
    for (argument, _, required) in entry.arguments {
        if *required && arguments.get(*argument).is_none_or(|value| value.trim().is_empty()) {
            return Err(ErrorData::invalid_params(
                format!("Missing required argument `{argument}` of prompt {name}"),
                None,
            ));
        }
    }
    let argument = |key: &str| arguments.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
    let text = match entry.name {
        "summarise_my_week" => week(argument("focus"), now),
        "prepare_for_meeting" => briefing(argument("person").unwrap_or_default()),
        _ => open_items(argument("meeting_id")),
    };
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
        .with_description(entry.description))
}

fn week(focus: Option<&str>, now: DateTime<Local>) -> String {
    let from = (now - Duration::days(7)).timestamp_millis();
    let focus = focus
        .map(|topic| format!(" Pay particular attention to anything about \"{topic}\"."))
        .unwrap_or_default();
    format!(
        "Summarise my meetings of the last seven days.\n\n\
         1. Call list_meetings with from = {from} (seven days ago, in milliseconds) and limit = 50.\n\
         2. For each meeting, call get_meeting with its meeting_id and read its notes.\n\
         3. Call get_action_items with open_only = true.\n\n\
         Then write, per meeting (newest first): its title and date, two sentences on what it was \
         about, and its decisions. End with the open action items grouped by owner.{focus} \
         Cite meetings by title; say plainly when there were none."
    )
}

fn briefing(person: &str) -> String {
    format!(
        "I have a meeting with {person} soon. Prepare me.\n\n\
         1. Call search_meetings with query = \"{person}\" to find what was said with or about them.\n\
         2. Call get_meeting for the meetings those moments come from (at most five, newest first).\n\
         3. Call get_action_items with open_only = true and keep the items owned by {person} or \
         asked of them.\n\n\
         Then write a briefing: what we discussed before (with dates), what was decided, what \
         {person} owes and what is owed to them, and three questions worth asking. Quote the \
         transcript only where the exact words matter."
    )
}

fn open_items(meeting_id: Option<&str>) -> String {
    let (call, scope) = match meeting_id {
        Some(id) => (
            format!("get_action_items with meeting_id = \"{id}\" and open_only = true"),
            "of that meeting",
        ),
        None => ("get_action_items with open_only = true".to_string(), "of the last 30 days"),
    };
    format!(
        "Which action items are still open?\n\n\
         Call {call}. List the open items {scope} grouped by owner (\"No owner\" last), each with \
         the meeting it came from and that meeting's date. Say so plainly if nothing is open."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_prompt_has_a_description_and_gets_text() {
        let listed = list();
        assert_eq!(listed.prompts.len(), 3);
        let now = Local::now();
        for prompt in &listed.prompts {
            assert!(prompt.description.as_deref().is_some_and(|d| d.len() > 30), "{}", prompt.name);
            let mut arguments = HashMap::new();
            arguments.insert("person".to_string(), "Dana".to_string());
            let got = get(&prompt.name, &arguments, now).expect("a prompt");
            assert_eq!(got.messages.len(), 1);
        }
    }

    #[test]
    fn arguments_shape_the_text_and_missing_ones_are_named() {
        let now = Local::now();
        let mut arguments = HashMap::new();
        let error = get("prepare_for_meeting", &arguments, now).expect_err("person is required");
        assert!(error.message.contains("person"), "{}", error.message);
        arguments.insert("person".into(), "Dana Reyes".into());
        let got = get("prepare_for_meeting", &arguments, now).expect("a prompt");
        let text = format!("{:?}", got.messages[0]);
        assert!(text.contains("query = \\\"Dana Reyes\\\""), "{text}");
        let week = format!("{:?}", get("summarise_my_week", &HashMap::new(), now).expect("week"));
        let from = (now - Duration::days(7)).timestamp_millis();
        assert!(week.contains(&format!("from = {from}")), "{week}");
        assert_eq!(get("nope", &arguments, now).expect_err("unknown").code.0, -32602);
    }
}
