//! The words sent to the model: the system prompt, the meeting's particulars, the
//! task for each note kind, and the transcript as `[mm:ss] Speaker: text` lines.
//! Three shapes of request: notes of one transcript part (`part`), merging partial
//! notes (`merge`), and repairing malformed action-item JSON (`repair`).

use recorder_domain::NoteKind;
use recorder_notes::{Context, Line};

use crate::NotesRequest;

/// One request to the model: a system prompt and one user message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chat {
    pub system: String,
    pub user: String,
    /// The answer must be JSON (action items).
    pub json: bool,
    /// The JSON schema the answer follows, for a model that can be held to one
    /// (the model inside); servers get `json` only.
    pub schema: Option<&'static str>,
}

const SYSTEM: &str = "You write meeting notes from a meeting transcript. Write in the \
language of the transcript. Answer in Markdown with the notes only: no preamble, no \
closing remarks, no title unless asked. Use only what the transcript says; never invent \
names, dates or facts.";

const SYSTEM_JSON: &str = "You find the action items of a meeting from its transcript. \
Write them in the language of the transcript. Answer with JSON only: no Markdown, no \
code fences, no explanation.";

pub(crate) const ACTION_ITEMS_SHAPE: &str =
    r#"{"action_items":[{"text":"imperative task","owner":"name or Everyone"}]}"#;

/// The transcript as `[mm:ss] Speaker: text` lines; blank lines and lines that are
/// only a sound annotation such as `[BLANK_AUDIO]` are left out.
pub(crate) fn transcript(lines: &[Line]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|line| {
            let text = line.text.split_whitespace().collect::<Vec<_>>().join(" ");
            let annotation = text.starts_with('[') && text.ends_with(']');
            (!text.is_empty() && !annotation).then(|| {
                let seconds = line.start_ms.max(0) / 1000;
                let speaker = line.speaker.trim();
                let speaker = if speaker.is_empty() { "Unknown" } else { speaker };
                format!("[{:02}:{:02}] {speaker}: {text}", seconds / 60, seconds % 60)
            })
        })
        .collect()
}

/// Notes of the kind for one part of the transcript (`part` is (number, count);
/// (1, 1) is the whole meeting).
pub(crate) fn part(request: &NotesRequest<'_>, text: &str, part: (usize, usize)) -> Chat {
    let mut user = meeting(request.context);
    if part.1 > 1 {
        user.push_str(&format!(
            "This is part {} of {} of a longer transcript. Write the notes for this part \
             only; they will be merged with the notes of the other parts.\n\n",
            part.0, part.1
        ));
    }
    user.push_str(&task(request.kind, request.template));
    user.push_str(&format!("\n\n<transcript>\n{}</transcript>", text));
    chat(request.kind, user)
}

/// Merges partial notes (each from a consecutive part of one meeting) into one.
pub(crate) fn merge(request: &NotesRequest<'_>, notes: &[String]) -> Chat {
    let mut user = meeting(request.context);
    user.push_str(
        "Below are partial notes, each written from a consecutive part of this meeting's \
         transcript, in order. Merge them into one set of notes for the whole meeting: \
         remove repetition, keep everything important, and do not mention the parts.\n\n",
    );
    user.push_str(&task(request.kind, request.template));
    for (at, note) in notes.iter().enumerate() {
        user.push_str(&format!("\n\n<part number=\"{}\">\n{}\n</part>", at + 1, note.trim()));
    }
    chat(request.kind, user)
}

/// Asks again for action items whose JSON could not be read.
pub(crate) fn repair(answer: &str, error: &str) -> Chat {
    let answer: String = answer.chars().take(crate::chunk::BUDGET).collect();
    let user = format!(
        "Your previous answer was meant to be the meeting's action items as JSON, but it \
         could not be read: {error}\n\n<previous_answer>\n{answer}\n</previous_answer>\n\n\
         Answer again with the corrected JSON only, in exactly this shape: \
         {ACTION_ITEMS_SHAPE}"
    );
    Chat { system: SYSTEM_JSON.to_string(), user, json: true, schema: Some(ACTION_ITEMS_SCHEMA) }
}

fn chat(kind: NoteKind, user: String) -> Chat {
    let json = kind == NoteKind::ActionItems;
    let system = if json { SYSTEM_JSON } else { SYSTEM };
    let schema = json.then_some(ACTION_ITEMS_SCHEMA);
    Chat { system: system.to_string(), user, json, schema }
}

/// All four notes of one transcript part as one JSON answer (the model inside:
/// one reading of the transcript instead of four).
pub(crate) fn structured(context: &Context, text: &str, part: (usize, usize)) -> Chat {
    let mut user = meeting(context);
    if part.1 > 1 {
        user.push_str(&format!(
            "This is part {} of {} of a longer transcript: write the notes of this part \
             only.\n\n",
            part.0, part.1
        ));
    }
    user.push_str(STRUCTURED_TASK);
    user.push_str(&format!("\n\n<transcript>\n{text}</transcript>"));
    Chat { system: SYSTEM_STRUCTURED.to_string(), user, json: true, schema: Some(NOTES_SCHEMA) }
}

/// One summary from the summaries of consecutive parts.
pub(crate) fn merge_summaries(context: &Context, summaries: &[String]) -> Chat {
    let mut user = meeting(context);
    user.push_str(
        "Below are summaries of consecutive parts of one meeting, in order. Write one \
         summary of the whole meeting in 2 to 5 sentences: the topics, what was agreed and \
         what happens next. Answer as JSON: {\"summary\": \"...\"}.",
    );
    for (at, summary) in summaries.iter().enumerate() {
        user.push_str(&format!("\n\n<part number=\"{}\">\n{}\n</part>", at + 1, summary.trim()));
    }
    Chat { system: SYSTEM_STRUCTURED.to_string(), user, json: true, schema: Some(SUMMARY_SCHEMA) }
}

const SYSTEM_STRUCTURED: &str = "You write meeting notes from a meeting transcript, in \
the language of the transcript. Answer with JSON only. Use only what the transcript says; \
never invent names, dates or facts.";

const STRUCTURED_TASK: &str = "Task: write the notes of this meeting as JSON with four \
fields. \"summary\": 2 to 4 sentences naming the topics discussed, what was agreed and \
what happens next. \"key_points\": the most important points, each one short sentence in \
your own words (not a copied line), most important first. \"decisions\": what the meeting \
decided or agreed, one per item; empty when nothing was decided. \"action_items\": tasks \
someone agreed or was asked to do, each with \"text\" (a short imperative task, e.g. \
\"Send the proposal by Friday\") and \"owner\" (the person who will do it, as named in the \
transcript; the person asked, not the one asking; \"Everyone\" when nobody in particular).";

/// The action items' JSON schema (llama.cpp's grammar constraint).
pub(crate) const ACTION_ITEMS_SCHEMA: &str = r#"{"type":"object","properties":{"action_items":{"type":"array","maxItems":15,"items":{"type":"object","properties":{"text":{"type":"string","maxLength":160},"owner":{"type":"string","maxLength":40}},"required":["text","owner"]}}},"required":["action_items"]}"#;

/// The four notes' JSON schema.
/// The four notes' JSON schema; its limits keep the whole answer (some 1 300
/// tokens at most) inside the answer's token budget, so it always closes.
pub(crate) const NOTES_SCHEMA: &str = r#"{"type":"object","properties":{"summary":{"type":"string","maxLength":800},"key_points":{"type":"array","maxItems":6,"items":{"type":"string","maxLength":200}},"decisions":{"type":"array","maxItems":6,"items":{"type":"string","maxLength":200}},"action_items":{"type":"array","maxItems":10,"items":{"type":"object","properties":{"text":{"type":"string","maxLength":160},"owner":{"type":"string","maxLength":40}},"required":["text","owner"]}}},"required":["summary","key_points","decisions","action_items"]}"#;

const SUMMARY_SCHEMA: &str = r#"{"type":"object","properties":{"summary":{"type":"string","maxLength":1200}},"required":["summary"]}"#;

/// Title, attendees and who the user is.
fn meeting(context: &Context) -> String {
    let mut out = String::new();
    if !context.title.trim().is_empty() {
        out.push_str(&format!("Meeting title: {}\n", context.title.trim()));
    }
    if !context.attendees.is_empty() {
        out.push_str(&format!("Attendees: {}\n", context.attendees.join(", ")));
    }
    if !context.user_name.trim().is_empty() {
        out.push_str(&format!(
            "The notes are for {name}, who speaks on the microphone: lines from \
             \"{name}\" are theirs. Lines from \"Them\" are the other participants.\n",
            name = context.user_name.trim()
        ));
    }
    let mine: Vec<String> = context
        .my_notes
        .iter()
        .filter(|note| !note.text.trim().is_empty())
        .map(|note| {
            let text = note.text.trim().trim_start_matches(['-', '*', '+', ' ']);
            match note.at_ms {
                Some(ms) => format!("- [{:02}:{:02}] {text}", ms / 60_000, ms / 1000 % 60),
                None => format!("- {text}"),
            }
        })
        .collect();
    if !mine.is_empty() {
        out.push_str(&format!(
            "{name}'s own notes, typed during the meeting (with the moment each was typed): \
             their own points. Build on them: keep each point they make, in the notes where \
             it belongs.\n{}\n",
            mine.join("\n"),
            name = if context.user_name.trim().is_empty() {
                "The person"
            } else {
                context.user_name.trim()
            },
        ));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// What to write for the kind, shaped by the template when there is one.
fn task(kind: NoteKind, template: Option<&str>) -> String {
    let template = template.map(str::trim).filter(|text| !text.is_empty());
    let mut out = match (kind, template) {
        (NoteKind::Custom, Some(_)) => {
            "Task: write the notes the instructions below ask for.".to_string()
        }
        // `mine` is the person's own and never written by a model; asked
        // anyway, it is a summary.
        (NoteKind::Summary | NoteKind::Custom | NoteKind::Mine, _) => {
            "Task: summarise the meeting in a few short paragraphs.".to_string()
        }
        (NoteKind::KeyPoints, _) => "Task: list the key points of the meeting as Markdown \
            bullets (\"- \"), one point per bullet, most important first."
            .to_string(),
        (NoteKind::Decisions, _) => "Task: list the decisions the meeting made as Markdown \
            bullets (\"- \"), one decision per bullet. If no decision was made, answer \
            exactly: No decisions were recorded."
            .to_string(),
        (NoteKind::ActionItems, _) => format!(
            "Task: list the action items (tasks someone agreed or was asked to do). Answer \
             with JSON only, in exactly this shape: {ACTION_ITEMS_SHAPE}\n\"text\" is a \
             short imperative task; \"owner\" is the person responsible as named in the \
             transcript, or \"Everyone\" when it is nobody in particular. With no action \
             items, answer {{\"action_items\":[]}}."
        ),
    };
    if let Some(template) = template {
        out.push_str("\n\nThe notes must follow these instructions");
        if kind == NoteKind::ActionItems {
            out.push_str(" (the JSON shape above still applies)");
        }
        out.push_str(&format!(":\n<instructions>\n{template}\n</instructions>"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(speaker: &str, start_ms: i64, text: &str) -> Line {
        Line { speaker: speaker.into(), start_ms, end_ms: start_ms + 1000, text: text.into() }
    }

    fn context() -> Context {
        Context {
            user_name: "Ada".into(),
            attendees: vec!["Bob".into(), "cy@example.com".into()],
            title: "Budget review".into(),
            ..Context::default()
        }
    }

    #[test]
    fn the_persons_own_notes_reach_the_model_as_their_points() {
        let mut with_notes = context();
        with_notes.my_notes = vec![
            recorder_notes::MyNote { at_ms: Some(65_000), text: "- ask Bob about hiring".into() },
            recorder_notes::MyNote { at_ms: None, text: "follow up Friday".into() },
        ];
        let text = meeting(&with_notes);
        assert!(text.contains("Ada's own notes, typed during the meeting"), "{text}");
        assert!(text.contains("- [01:05] ask Bob about hiring\n- follow up Friday\n"), "{text}");
        assert!(!meeting(&context()).contains("own notes"));
    }

    #[test]
    fn transcript_lines_carry_time_and_speaker() {
        let lines = [
            line("Ada", 5_400, "  Hello   there. "),
            line("Them", 754_000, "[BLANK_AUDIO]"),
            line("Them", 3_725_000, "Late point."),
            line(" ", 61_000, "   "),
            line("", 61_000, "Who?"),
        ];
        assert_eq!(
            transcript(&lines),
            ["[00:05] Ada: Hello there.", "[62:05] Them: Late point.", "[01:01] Unknown: Who?"]
        );
    }

    #[test]
    fn part_prompts_name_the_meeting_the_user_and_the_task() {
        let context = context();
        let request = NotesRequest {
            kind: NoteKind::Decisions,
            lines: &[],
            context: &context,
            template: None,
        };
        let chat = part(&request, "[00:01] Ada: We ship.\n", (1, 1));
        for needle in [
            "Budget review",
            "Bob, cy@example.com",
            "\"Ada\"",
            "No decisions were recorded.",
            "[00:01] Ada: We ship.",
        ] {
            assert!(chat.user.contains(needle), "{needle} missing in {}", chat.user);
        }
        assert!(!chat.user.contains("part 1 of"));
        assert!(!chat.json && chat.system.contains("language of the transcript"));
        let chunked = part(&request, "x\n", (2, 3));
        assert!(chunked.user.contains("part 2 of 3"));
    }

    #[test]
    fn templates_shape_every_kind_and_define_custom() {
        let context = context();
        let template = Some("## Risks\nList every risk raised.");
        let custom =
            NotesRequest { kind: NoteKind::Custom, lines: &[], context: &context, template };
        let chat = part(&custom, "", (1, 1));
        assert!(chat.user.contains("List every risk raised.") && !chat.user.contains("summarise"));
        let plain = NotesRequest { template: None, ..custom };
        assert!(part(&plain, "", (1, 1)).user.contains("summarise"));
        let items = NotesRequest { kind: NoteKind::ActionItems, ..custom };
        let chat = part(&items, "", (1, 1));
        assert!(
            chat.json && chat.user.contains(ACTION_ITEMS_SHAPE) && chat.user.contains("## Risks")
        );
    }

    #[test]
    fn merge_and_repair_prompts_carry_their_inputs() {
        let context = context();
        let request = NotesRequest {
            kind: NoteKind::KeyPoints,
            lines: &[],
            context: &context,
            template: None,
        };
        let chat = merge(&request, &["- one".into(), "- two".into()]);
        assert!(chat.user.contains("<part number=\"2\">\n- two\n</part>"));
        assert!(chat.user.contains("Markdown bullets"));
        let fix = repair("{\"action_items\": [", "EOF while parsing");
        assert!(fix.json && fix.user.contains("EOF while parsing"));
        assert!(fix.user.contains("{\"action_items\": [") && fix.user.contains(ACTION_ITEMS_SHAPE));
    }
}
