//! The model's action items: lenient JSON reading, validation, merging of the lists
//! of several chunks, and the Markdown task list.

use recorder_notes::ActionItemDraft;
use serde_json::Value;

/// The longest task text kept, in characters.
const MAX_TEXT: usize = 300;

pub(crate) const NONE_FOUND: &str = "_No action items were found._";

/// Reads `{"action_items":[{"text","owner"}]}` (or a bare array of items) out of a
/// model answer: code fences and chatter around the JSON are ignored, invalid items
/// dropped. Err says why the answer is malformed.
pub(crate) fn parse(answer: &str) -> Result<Vec<ActionItemDraft>, String> {
    let json = outermost_json(answer).ok_or("the answer holds no JSON object or array")?;
    let value: Value = serde_json::from_str(json).map_err(|error| error.to_string())?;
    let items = match &value {
        Value::Array(items) => items,
        Value::Object(object) => match object.get("action_items") {
            Some(Value::Array(items)) => items,
            _ => return Err("the JSON has no \"action_items\" array".to_string()),
        },
        _ => return Err("the JSON is neither an object nor an array".to_string()),
    };
    Ok(items.iter().filter_map(item).collect())
}

/// From the first `{` or `[` to the last matching closer.
fn outermost_json(answer: &str) -> Option<&str> {
    let start = answer.find(['{', '['])?;
    let closer = if answer[start..].starts_with('{') { '}' } else { ']' };
    let end = answer.rfind(closer).filter(|end| *end > start)?;
    Some(&answer[start..=end])
}

fn item(value: &Value) -> Option<ActionItemDraft> {
    let text = collapse(value.get("text")?.as_str()?);
    if text.is_empty() || text.chars().count() > MAX_TEXT {
        return None;
    }
    let owner = match value.get("owner") {
        None | Some(Value::Null) => String::new(),
        Some(owner) => collapse(owner.as_str()?),
    };
    let owner = if owner.is_empty() { "Everyone".to_string() } else { owner };
    Some(ActionItemDraft { text, owner })
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Concatenates lists in order, keeping the first of items whose texts are the
/// same ignoring case and spacing.
pub(crate) fn merge(lists: Vec<Vec<ActionItemDraft>>) -> Vec<ActionItemDraft> {
    let mut seen = std::collections::HashSet::new();
    lists
        .into_iter()
        .flatten()
        .filter(|item| seen.insert(collapse(&item.text).to_lowercase()))
        .collect()
}

/// `- [ ] text (owner)` per item.
pub(crate) fn checklist(items: &[ActionItemDraft]) -> String {
    if items.is_empty() {
        return NONE_FOUND.to_string();
    }
    items
        .iter()
        .map(|item| format!("- [ ] {} ({})", item.text, item.owner))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(text: &str, owner: &str) -> ActionItemDraft {
        ActionItemDraft { text: text.into(), owner: owner.into() }
    }

    #[test]
    fn plain_fenced_and_chatty_answers_are_read() {
        let plain = r#"{"action_items":[{"text":"Send the report","owner":"Ada"}]}"#;
        assert_eq!(parse(plain), Ok(vec![draft("Send the report", "Ada")]));
        let fenced = format!("Here you go:\n```json\n{plain}\n```\nAnything else?");
        assert_eq!(parse(&fenced), Ok(vec![draft("Send the report", "Ada")]));
        let bare = r#"[{"text":"Book the room","owner":""}]"#;
        assert_eq!(parse(bare), Ok(vec![draft("Book the room", "Everyone")]));
        assert_eq!(parse(r#"{"action_items":[]}"#), Ok(vec![]));
    }

    #[test]
    fn invalid_items_are_dropped_and_owners_default() {
        let long = "x".repeat(MAX_TEXT + 1);
        let answer = format!(
            r#"{{"action_items":[{{"text":"  Call   Bob "}},{{"text":"  "}},{{"text":"{long}"}},
            {{"owner":"Ada"}},"a string",{{"text":"Fix CI","owner":7}},{{"text":"Ship","owner":null}},
            {{"text":"{}","owner":"Bo"}}]}}"#,
            "y".repeat(MAX_TEXT)
        );
        let items = parse(&answer).expect("parsed");
        assert_eq!(
            items,
            [
                draft("Call Bob", "Everyone"),
                draft("Ship", "Everyone"),
                draft(&"y".repeat(300), "Bo")
            ]
        );
    }

    #[test]
    fn malformed_answers_say_why() {
        for answer in [
            "No action items.",
            r#"{"action_items": [{"text": "Send"#,
            r#"{"items":[{"text":"Send"}]}"#,
            r#"{"action_items":"none"}"#,
            "} backwards {",
        ] {
            assert!(parse(answer).is_err(), "{answer}");
        }
        let error = parse(r#"{"tasks":[]}"#).expect_err("malformed");
        assert!(error.contains("action_items"), "{error}");
    }

    #[test]
    fn merging_drops_repeats_ignoring_case_and_spacing() {
        let merged = merge(vec![
            vec![draft("Send the report", "Ada"), draft("Book a room", "Everyone")],
            vec![draft("send  the REPORT", "Bob"), draft("Call the vendor", "Bob")],
        ]);
        assert_eq!(
            merged,
            [
                draft("Send the report", "Ada"),
                draft("Book a room", "Everyone"),
                draft("Call the vendor", "Bob")
            ]
        );
    }

    #[test]
    fn the_checklist_is_a_markdown_task_list() {
        let items = [draft("Send the report", "Ada"), draft("Ship it", "Everyone")];
        assert_eq!(checklist(&items), "- [ ] Send the report (Ada)\n- [ ] Ship it (Everyone)");
        assert_eq!(checklist(&[]), NONE_FOUND);
    }
}
