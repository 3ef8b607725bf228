//! Markdown output. Transcript text is escaped so a stray `*`, `_` or `<` spoken into
//! the transcript (or produced by ASR) cannot change the note's formatting.

use crate::decisions::Decision;
use crate::{ActionItemDraft, Line, MyNote};

pub(crate) const NO_SPEECH: &str = "_No speech was transcribed._";
pub(crate) const NO_DECISIONS: &str = "_No decisions were recorded._";
pub(crate) const NO_ACTION_ITEMS: &str = "_No action items were found._";
pub(crate) const NO_KEY_POINTS: &str = "_No key points were found._";
pub(crate) const ONLY_OUTCOMES: &str =
    "_Nothing was discussed beyond the decisions and action items._";

/// Escapes the characters that carry meaning inline in CommonMark.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.split_whitespace().collect::<Vec<_>>().join(" ").chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Escapes text that starts a line, so it cannot open a list or a heading.
fn escape_line_start(text: &str) -> String {
    let escaped = escape(text);
    let digits = escaped.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && escaped[digits..].starts_with(['.', ')']) {
        return format!("{}\\{}", &escaped[..digits], &escaped[digits..]);
    }
    if escaped.starts_with(['-', '+', '=']) {
        return format!("\\{escaped}");
    }
    escaped
}

/// Text as one paragraph.
pub(crate) fn paragraph(text: &str) -> String {
    escape_line_start(text)
}

/// `- point` per point, or `empty` when there are none.
pub(crate) fn bullets(points: &[String], empty: &str) -> String {
    if points.is_empty() {
        return empty.to_string();
    }
    points.iter().map(|point| format!("- {}", escape(point))).collect::<Vec<_>>().join("\n")
}

/// The person's own notes as key points: `- **Your note:** text`, with a link
/// to the moment it was typed at (`?t=<ms>` on the meeting page) and the
/// words then being said; "" when there are none.
pub(crate) fn my_notes(notes: &[MyNote], lines: &[Line]) -> String {
    notes
        .iter()
        .filter(|note| !note.text.trim().is_empty())
        .map(|note| {
            let text = escape(note.text.trim().trim_start_matches(['-', '*', '+', ' ']));
            let Some(at_ms) = note.at_ms else { return format!("- **Your note:** {text}") };
            let said = lines
                .iter()
                .filter(|line| line.start_ms <= at_ms && !line.text.trim().is_empty())
                .max_by_key(|line| line.start_ms)
                .or_else(|| lines.iter().find(|line| !line.text.trim().is_empty()));
            let link = format!("[at {}](?t={})", recorder_domain::text::clock(at_ms), at_ms);
            match said {
                Some(line) => format!(
                    "- **Your note:** {text} ({link}, while {} said “{}”)",
                    escape(&line.speaker),
                    escape(&shortened(&line.text, 14))
                ),
                None => format!("- **Your note:** {text} ({link})"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first `words` words of a line, with an ellipsis when it goes on.
fn shortened(text: &str, words: usize) -> String {
    let all: Vec<&str> = text.split_whitespace().collect();
    if all.len() <= words {
        return all.join(" ");
    }
    format!("{}…", all[..words].join(" "))
}

/// The decisions list, or a note that there were none.
pub(crate) fn decisions(decisions: &[Decision]) -> String {
    if decisions.is_empty() {
        return NO_DECISIONS.to_string();
    }
    decisions
        .iter()
        .map(|decision| {
            let line = format!("- **{}:** {}", escape(&decision.speaker), escape(&decision.text));
            match &decision.agreed_by {
                Some(by) => format!("{line} _(agreed by {})_", escape(by)),
                None => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `- [ ] Task (Owner)` per item, or a note that there were none.
pub(crate) fn checklist(items: &[ActionItemDraft]) -> String {
    if items.is_empty() {
        return NO_ACTION_ITEMS.to_string();
    }
    items
        .iter()
        .map(|item| format!("- [ ] {} ({})", escape(&item.text), escape(&item.owner)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_transcript_text_is_escaped() {
        assert_eq!(escape("use *args and <b>x_y</b>"), "use \\*args and \\<b\\>x\\_y\\</b\\>");
        assert_eq!(paragraph("1. First point."), "1\\. First point.");
        assert_eq!(paragraph("- dash start."), "\\- dash start.");
    }

    #[test]
    fn lists_render_one_line_per_item() {
        let items = [
            ActionItemDraft { text: "Send the deck".into(), owner: "Me".into() },
            ActionItemDraft { text: "Book the room".into(), owner: "Everyone".into() },
        ];
        assert_eq!(checklist(&items), "- [ ] Send the deck (Me)\n- [ ] Book the room (Everyone)");
        assert_eq!(checklist(&[]), NO_ACTION_ITEMS);
        let points = ["Budget is tight (Them)".to_string()];
        assert_eq!(bullets(&points, NO_KEY_POINTS), "- Budget is tight (Them)");
        assert_eq!(bullets(&[], NO_KEY_POINTS), NO_KEY_POINTS);
        let agreed = Decision {
            sentence: 0,
            speaker: "Them".into(),
            text: "Ship Monday.".into(),
            agreed_by: Some("Me".into()),
        };
        assert_eq!(decisions(&[agreed]), "- **Them:** Ship Monday. _(agreed by Me)_");
        assert_eq!(decisions(&[]), NO_DECISIONS);
    }
}
