//! The Markdown document: YAML front matter, the title, then one section per kind
//! of content.

use std::fmt::Write;

use chrono::SecondsFormat;
use recorder_domain::text::clock;

use crate::{local_time, one_line, ExportMeeting, ExportNote};

/// Renders a meeting as a Markdown document with YAML front matter.
///
/// Sections, in order: Summary, Key points, Action items, Decisions, My notes
/// (the person's own), Notes, Markers, Transcript. A section with nothing in it is left out, except Summary and
/// Transcript, which say so.
pub fn render_markdown(meeting: &ExportMeeting) -> String {
    let mut out = front_matter(meeting);

    let title = one_line(&meeting.title);
    let title = if title.is_empty() { "Meeting".to_owned() } else { title };
    let _ = write!(out, "\n# {}\n", escape_closing_hashes(&title));

    let summary = notes_of(meeting, |kind| kind == "summary");
    section(&mut out, "Summary", Some(summary.unwrap_or_else(|| "_No summary yet._".to_owned())));
    section(&mut out, "Key points", notes_of(meeting, |kind| kind == "key_points"));
    section(&mut out, "Action items", action_items(meeting));
    section(&mut out, "Decisions", notes_of(meeting, |kind| kind == "decisions"));
    section(&mut out, "My notes", notes_of(meeting, |kind| kind == "mine"));
    // `custom` notes, and any kind this crate does not know, so nothing is lost.
    // The `action_items` note is left out: the structured items above replace it.
    section(
        &mut out,
        "Notes",
        notes_of(meeting, |kind| {
            !matches!(kind, "summary" | "key_points" | "decisions" | "action_items" | "mine")
        }),
    );
    section(&mut out, "Markers", markers(meeting));
    let transcript = transcript(meeting);
    section(
        &mut out,
        "Transcript",
        Some(transcript.unwrap_or_else(|| "_No transcript._".to_owned())),
    );
    out
}

fn front_matter(meeting: &ExportMeeting) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "title: {}", yaml_string(&meeting.title));
    let date = local_time(meeting.started_at).to_rfc3339_opts(SecondsFormat::Secs, false);
    let _ = writeln!(out, "date: {}", yaml_string(&date));
    if let Some(duration_ms) = duration_ms(meeting) {
        let _ = writeln!(out, "duration: {}", yaml_string(&human_duration(duration_ms)));
        let _ = writeln!(out, "duration_ms: {duration_ms}");
    }
    let _ = writeln!(out, "attendees: {}", yaml_list(&meeting.attendees));
    let _ = writeln!(out, "tags: {}", yaml_list(&meeting.tags));
    let _ = writeln!(out, "source_app: {}", yaml_string(&meeting.source_app));
    let _ = writeln!(out, "language: {}", yaml_string(&meeting.language));
    out.push_str("---\n");
    out
}

/// The stored duration, else the span from start to end; never negative.
fn duration_ms(meeting: &ExportMeeting) -> Option<i64> {
    let span = meeting.ended_at.map(|end| end.saturating_sub(meeting.started_at));
    meeting.duration_ms.or(span).map(|ms| ms.max(0))
}

/// `1h 02m 05s`, `2m 05s` or `5s`.
pub(crate) fn human_duration(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}h {minutes:02}m {seconds:02}s")
    } else if minutes > 0 {
        format!("{minutes}m {seconds:02}s")
    } else {
        format!("{seconds}s")
    }
}

/// A YAML double-quoted scalar. JSON string syntax is valid YAML; on top of JSON's
/// escapes, characters YAML does not allow raw (DEL, C1 controls, non-characters)
/// or that YAML 1.1 readers treat as line breaks (NEL, LS, PS), and the BOM, are
/// written as `\uXXXX` too. The result still parses as a JSON string.
pub(crate) fn yaml_string(text: &str) -> String {
    let json = serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned());
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if yaml_printable(c) && !matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}') {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out
}

/// YAML 1.2 `c-printable`.
fn yaml_printable(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}'
        | '\u{10000}'..='\u{10ffff}')
}

/// A YAML flow sequence of double-quoted scalars; `[]` when empty.
fn yaml_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|item| yaml_string(item)).collect();
    format!("[{}]", items.join(", "))
}

/// A trailing `#` run would be read as the closing sequence of an ATX heading.
fn escape_closing_hashes(title: &str) -> String {
    let kept = title.trim_end_matches('#');
    if kept.len() == title.len() {
        return title.to_owned();
    }
    let mut out = kept.to_owned();
    for _ in 0..title.len() - kept.len() {
        out.push_str("\\#");
    }
    out
}

fn section(out: &mut String, heading: &str, body: Option<String>) {
    if let Some(body) = body {
        let _ = write!(out, "\n## {heading}\n\n{}\n", body.trim_end());
    }
}

/// The content of the notes whose kind matches, headings demoted, blank-line separated.
fn notes_of(meeting: &ExportMeeting, wanted: impl Fn(&str) -> bool) -> Option<String> {
    let parts: Vec<String> = meeting
        .notes
        .iter()
        .filter(|note: &&ExportNote| wanted(&note.kind) && !note.content_md.trim().is_empty())
        .map(|note| demote_headings(note.content_md.trim_matches('\n')).trim_end().to_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// `- [ ] text — owner` task-list lines.
fn action_items(meeting: &ExportMeeting) -> Option<String> {
    let mut out = String::new();
    for item in &meeting.action_items {
        let text = one_line(&item.text);
        let owner = one_line(&item.owner);
        if text.is_empty() && owner.is_empty() {
            continue;
        }
        let check = if item.done { 'x' } else { ' ' };
        let _ = write!(out, "- [{check}] {text}");
        if !owner.is_empty() {
            let _ = write!(out, " — {owner}");
        }
        if let Some(due) = item.due.as_deref().map(one_line).filter(|due| !due.is_empty()) {
            let _ = write!(out, " (due {due})");
        }
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

/// `- [mm:ss] label` lines in time order (`hh:mm:ss` from one hour on).
fn markers(meeting: &ExportMeeting) -> Option<String> {
    let mut markers: Vec<_> = meeting.markers.iter().collect();
    markers.sort_by_key(|marker| marker.at_ms);
    let mut out = String::new();
    for marker in markers {
        let label = one_line(&marker.label);
        let label = if label.is_empty() { "Marker".to_owned() } else { label };
        let _ = writeln!(out, "- [{}] {label}", clock(marker.at_ms));
    }
    (!out.is_empty()).then_some(out)
}

/// `**Speaker** [mm:ss] text` paragraphs, exactly like the API's Markdown transcript
/// (minutes keep counting past an hour).
fn transcript(meeting: &ExportMeeting) -> Option<String> {
    let mut out = String::new();
    for segment in &meeting.segments {
        let seconds = segment.start_ms.max(0) / 1000;
        let _ = write!(
            out,
            "**{}** [{:02}:{:02}] {}\n\n",
            segment.speaker.replace('*', "\\*"),
            seconds / 60,
            seconds % 60,
            one_line(&segment.text)
        );
    }
    (!out.is_empty()).then_some(out)
}

/// Keeps note content below the section it sits in: ATX headings go two levels down
/// (capped at `######`), setext headings become ATX headings of level 3 (`===`) or 4
/// (`---`), and a code fence left open is closed so it cannot swallow the sections
/// after it. Lines inside fenced or indented code are left alone.
pub(crate) fn demote_headings(content: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    // The open fence's character and length.
    let mut fence: Option<(char, usize)> = None;
    // Index in `out` of the first line of the paragraph being read, if any.
    let mut paragraph: Option<usize> = None;

    for line in content.lines() {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();

        if let Some((fence_char, fence_len)) = fence {
            if indent <= 3 && closes_fence(trimmed, fence_char, fence_len) {
                fence = None;
            }
            out.push(line.to_owned());
            continue;
        }
        if line.trim().is_empty() {
            paragraph = None;
            out.push(line.to_owned());
            continue;
        }
        if indent >= 4 || trimmed.starts_with('\t') {
            // Indented code, unless it continues a paragraph.
            out.push(line.to_owned());
            continue;
        }
        if let Some(opened) = opens_fence(trimmed) {
            fence = Some(opened);
            paragraph = None;
            out.push(line.to_owned());
            continue;
        }
        if let Some(level) = atx_level(trimmed) {
            let new_level = (level + 2).min(6);
            out.push(format!("{}{}", "#".repeat(new_level), &trimmed[level..]));
            paragraph = None;
            continue;
        }
        if let Some(underline) = setext_underline(trimmed) {
            if let Some(start) = paragraph.take() {
                let text: Vec<String> =
                    out.drain(start..).map(|line| line.trim().to_owned()).collect();
                let level = if underline == '=' { 3 } else { 4 };
                out.push(format!("{} {}", "#".repeat(level), text.join(" ")));
                continue;
            }
            if underline == '-' {
                // A thematic break (or an empty list item).
                out.push(line.to_owned());
                continue;
            }
            // A lone `===` line is paragraph text; fall through.
        }
        if paragraph.is_some() && continues_paragraph(trimmed) {
            out.push(line.to_owned());
            continue;
        }
        paragraph = if starts_other_block(trimmed) { None } else { Some(out.len()) };
        out.push(line.to_owned());
    }

    if let Some((fence_char, fence_len)) = fence {
        out.push(fence_char.to_string().repeat(fence_len));
    }
    let mut text = out.join("\n");
    if content.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The level of an ATX heading line (already stripped of its indent).
fn atx_level(line: &str) -> Option<usize> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    match line.as_bytes().get(level) {
        None | Some(b' ' | b'\t') => Some(level),
        _ => None,
    }
}

/// A fence opening: three or more backticks (with no backtick in the info string) or
/// tildes.
fn opens_fence(line: &str) -> Option<(char, usize)> {
    let first = line.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let len = line.chars().take_while(|&c| c == first).count();
    if len < 3 {
        return None;
    }
    if first == '`' && line[len..].contains('`') {
        return None;
    }
    Some((first, len))
}

fn closes_fence(line: &str, fence_char: char, fence_len: usize) -> bool {
    let len = line.chars().take_while(|&c| c == fence_char).count();
    len >= fence_len && line[len * fence_char.len_utf8()..].trim().is_empty()
}

/// `===` or `---` (no inner spaces), the underline of a setext heading.
fn setext_underline(line: &str) -> Option<char> {
    let line = line.trim_end();
    let first = line.chars().next().filter(|c| matches!(c, '=' | '-'))?;
    line.chars().all(|c| c == first).then_some(first)
}

/// Lines that start a list item, a block quote, a thematic break or an HTML block
/// rather than a paragraph.
fn starts_other_block(line: &str) -> bool {
    if line.starts_with('>') || line.starts_with('<') || line.starts_with('|') {
        return true;
    }
    if is_thematic_break(line) {
        return true;
    }
    bullet_item(line) || ordered_item(line).is_some()
}

/// Inside a paragraph, an ordered item not starting at 1 (and an empty item) cannot
/// interrupt it; everything else that is not another block continues it.
fn continues_paragraph(line: &str) -> bool {
    if let Some((number, empty)) = ordered_item(line) {
        return number != 1 || empty;
    }
    if bullet_item(line) {
        return line[1..].trim().is_empty();
    }
    !starts_other_block(line)
}

fn bullet_item(line: &str) -> bool {
    let mut chars = line.chars();
    matches!(chars.next(), Some('-' | '+' | '*')) && matches!(chars.next(), None | Some(' ' | '\t'))
}

/// `1.` / `1)` items: the number and whether the item is empty.
fn ordered_item(line: &str) -> Option<(u64, bool)> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=9).contains(&digits) {
        return None;
    }
    let rest = &line[digits..];
    let after = rest.strip_prefix(['.', ')'])?;
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let number = line[..digits].parse().ok()?;
    Some((number, after.trim().is_empty()))
}

fn is_thematic_break(line: &str) -> bool {
    let line = line.trim_end();
    let Some(first) = line.chars().next().filter(|c| matches!(c, '*' | '_' | '-')) else {
        return false;
    };
    line.chars().all(|c| c == first || c == ' ' || c == '\t')
        && line.chars().filter(|&c| c == first).count() >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_durations() {
        assert_eq!(human_duration(3_725_000), "1h 02m 05s");
        assert_eq!(human_duration(36_000_000), "10h 00m 00s");
        assert_eq!(human_duration(125_999), "2m 05s");
        assert_eq!(human_duration(5_000), "5s");
        assert_eq!(human_duration(0), "0s");
        assert_eq!(human_duration(-4_000), "0s");
    }

    #[test]
    fn yaml_strings_escape_what_yaml_forbids_and_still_parse_as_json() {
        let text = "a\u{7f}b\u{85}c\u{2028}d\u{feff}e\u{9b}f\u{1}g\"h\\i\nj: #k 😀";
        let quoted = yaml_string(text);
        for forbidden in ['\u{7f}', '\u{85}', '\u{2028}', '\u{feff}', '\u{9b}', '\u{1}', '\n'] {
            assert!(!quoted.contains(forbidden), "{forbidden:?} left raw in {quoted}");
        }
        assert!(quoted.contains("\\u007f") && quoted.contains("\\u2028"), "{quoted}");
        assert!(quoted.contains('😀'), "printable characters stay raw: {quoted}");
        let back: String = serde_json::from_str(&quoted).expect("valid JSON string");
        assert_eq!(back, text);
    }

    #[test]
    fn atx_headings_go_down_two_levels() {
        let content = "# One\n## Two\n   ### Three\n#### Four\n##### Five\n###### Six\n#\tTab";
        assert_eq!(
            demote_headings(content),
            "### One\n#### Two\n##### Three\n###### Four\n###### Five\n###### Six\n###\tTab"
        );
    }

    #[test]
    fn things_that_are_not_headings_stay() {
        let content =
            "#hashtag\n####### seven\n    # indented code\n\\# escaped\ntext # not a heading";
        assert_eq!(demote_headings(content), content);
    }

    #[test]
    fn fenced_code_is_left_alone() {
        let content =
            "```md\n# in code\n```\n# after\n~~~~\n# tilde\n~~~\n# still code\n~~~~\n## out";
        assert_eq!(
            demote_headings(content),
            "```md\n# in code\n```\n### after\n~~~~\n# tilde\n~~~\n# still code\n~~~~\n#### out"
        );
    }

    #[test]
    fn an_unclosed_fence_is_closed() {
        assert_eq!(demote_headings("text\n````\ncode\n"), "text\n````\ncode\n````\n");
        // Inline code with backticks is not a fence.
        assert_eq!(demote_headings("```a` b\n# h"), "```a` b\n### h");
    }

    #[test]
    fn setext_headings_become_demoted_atx_headings() {
        assert_eq!(demote_headings("Big\ntitle\n===\nbody"), "### Big title\nbody");
        assert_eq!(demote_headings("Smaller\n---\nbody"), "#### Smaller\nbody");
        // Without a paragraph above, `---` is a thematic break and `===` text.
        assert_eq!(demote_headings("para\n\n---\n\n===\n"), "para\n\n---\n\n===\n");
        // A list item above `---` is not a setext heading.
        assert_eq!(demote_headings("- item\n---"), "- item\n---");
        // An ordered item not starting at 1 cannot interrupt a paragraph.
        assert_eq!(demote_headings("Foo\n2. bar\n==="), "### Foo 2. bar");
    }
}
