//! The rendered document: front matter, sections, headings inside notes.

use chrono::{DateTime, Local, SecondsFormat};
use recorder_export::{
    render_markdown, ExportActionItem, ExportMarker, ExportMeeting, ExportNote, ExportSegment,
};
use serde_json::{json, Value};

const STARTED_AT: i64 = 1_795_860_000_000;

fn note(kind: &str, content: &str) -> ExportNote {
    ExportNote { kind: kind.into(), content_md: content.into() }
}

fn item(text: &str, owner: &str, done: bool) -> ExportActionItem {
    ExportActionItem { text: text.into(), owner: owner.into(), done, due: None }
}

fn segment(speaker: &str, start_ms: i64, text: &str) -> ExportSegment {
    ExportSegment { speaker: speaker.into(), start_ms, end_ms: start_ms + 2_000, text: text.into() }
}

fn full_meeting() -> ExportMeeting {
    ExportMeeting {
        title: "Weekly sync".into(),
        started_at: STARTED_AT,
        ended_at: Some(STARTED_AT + 3_725_000),
        duration_ms: Some(3_725_000),
        source_app: "zoom".into(),
        language: "en".into(),
        attendees: vec!["Ann".into(), "Bob \"B\" Smith".into()],
        tags: vec!["team".into()],
        // Deliberately out of section order.
        notes: vec![
            note("custom", "Custom text."),
            note("decisions", "- Ship on Friday."),
            note("action_items", "- [ ] from the note, must not appear"),
            note("key_points", "- Budget is fine."),
            note("summary", "We met."),
        ],
        action_items: vec![item("Send the budget", "Them", false), item("Book the room", "", true)],
        markers: vec![
            ExportMarker { at_ms: 3_723_000, label: "Late".into() },
            ExportMarker { at_ms: 65_000, label: "Early".into() },
        ],
        segments: vec![segment("Me", 0, "Hello everyone."), segment("Them", 5_000, "Hi.")],
    }
}

/// The front matter as (key, JSON value) pairs, checking that it is delimited by
/// `---` lines and that every line in it is a `key: value` pair whose value parses
/// on its own (JSON strings, numbers and arrays are also YAML flow scalars).
fn front_matter(doc: &str) -> Vec<(String, Value)> {
    let mut lines = doc.lines();
    assert_eq!(lines.next(), Some("---"), "{doc}");
    let mut pairs = Vec::new();
    for line in lines.by_ref() {
        if line == "---" {
            return pairs;
        }
        let (key, value) = line.split_once(": ").expect("a `key: value` line");
        assert!(
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "bad key in {line:?}"
        );
        let value: Value = serde_json::from_str(value).expect("a single quoted/flow value");
        pairs.push((key.to_owned(), value));
    }
    panic!("front matter not closed:\n{doc}");
}

fn value<'a>(pairs: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn headings(doc: &str) -> Vec<&str> {
    doc.lines().filter(|line| line.starts_with('#')).collect()
}

#[test]
fn whole_document() {
    let date = DateTime::from_timestamp_millis(STARTED_AT)
        .expect("in range")
        .with_timezone(&Local)
        .to_rfc3339_opts(SecondsFormat::Secs, false);
    let expected = format!(
        "---
title: \"Weekly sync\"
date: \"{date}\"
duration: \"1h 02m 05s\"
duration_ms: 3725000
attendees: [\"Ann\", \"Bob \\\"B\\\" Smith\"]
tags: [\"team\"]
source_app: \"zoom\"
language: \"en\"
---

# Weekly sync

## Summary

We met.

## Key points

- Budget is fine.

## Action items

- [ ] Send the budget — Them
- [x] Book the room

## Decisions

- Ship on Friday.

## Notes

Custom text.

## Markers

- [01:05] Early
- [01:02:03] Late

## Transcript

**Me** [00:00] Hello everyone.

**Them** [00:05] Hi.
"
    );
    assert_eq!(render_markdown(&full_meeting()), expected);
}

#[test]
fn front_matter_keys_and_values() {
    let doc = render_markdown(&full_meeting());
    let pairs = front_matter(&doc);
    let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["title", "date", "duration", "duration_ms", "attendees", "tags", "source_app", "language"]
    );
    assert_eq!(value(&pairs, "duration"), Some(&json!("1h 02m 05s")));
    assert_eq!(value(&pairs, "duration_ms"), Some(&json!(3_725_000)));
    assert_eq!(value(&pairs, "attendees"), Some(&json!(["Ann", "Bob \"B\" Smith"])));
    assert_eq!(value(&pairs, "tags"), Some(&json!(["team"])));
    assert_eq!(value(&pairs, "source_app"), Some(&json!("zoom")));
}

#[test]
fn date_is_local_rfc3339_with_offset() {
    let doc = render_markdown(&full_meeting());
    let pairs = front_matter(&doc);
    let date = value(&pairs, "date").and_then(Value::as_str).expect("date string");
    let parsed = DateTime::parse_from_rfc3339(date).expect("RFC 3339");
    assert_eq!(parsed.timestamp_millis(), STARTED_AT);
    let local =
        DateTime::from_timestamp_millis(STARTED_AT).expect("in range").with_timezone(&Local);
    assert_eq!(parsed.offset().local_minus_utc(), local.offset().local_minus_utc());
    assert!(!date.ends_with('Z') && date.len() == "2026-11-28T12:00:00+01:00".len(), "{date}");
}

#[test]
fn hostile_title_stays_one_quoted_scalar() {
    let title = "Q3: \"plan\" #1\nnext line\r\n---\n\\ end";
    let meeting = ExportMeeting { title: title.into(), ..full_meeting() };
    let doc = render_markdown(&meeting);
    let pairs = front_matter(&doc);
    assert_eq!(value(&pairs, "title"), Some(&json!(title)));
    assert_eq!(pairs.len(), 8, "the title added no lines: {doc}");
    // The heading is one line, with the line breaks folded.
    assert!(doc.contains("\n# Q3: \"plan\" #1 next line --- \\ end\n"), "{doc}");
}

#[test]
fn hostile_lists_and_source_stay_quoted() {
    let meeting = ExportMeeting {
        attendees: vec!["a, b]".into(), "- c: d".into()],
        tags: vec!["#x".into(), "y\n".into()],
        source_app: "x\": y".into(),
        ..full_meeting()
    };
    let pairs = front_matter(&render_markdown(&meeting));
    assert_eq!(value(&pairs, "attendees"), Some(&json!(["a, b]", "- c: d"])));
    assert_eq!(value(&pairs, "tags"), Some(&json!(["#x", "y\n"])));
    assert_eq!(value(&pairs, "source_app"), Some(&json!("x\": y")));
}

#[test]
fn empty_meeting_has_placeholders_and_empty_lists() {
    let meeting = ExportMeeting { started_at: STARTED_AT, ..ExportMeeting::default() };
    let doc = render_markdown(&meeting);
    let pairs = front_matter(&doc);
    assert!(doc.contains("\nattendees: []\n") && doc.contains("\ntags: []\n"), "{doc}");
    assert_eq!(value(&pairs, "title"), Some(&json!("")));
    assert_eq!(value(&pairs, "duration"), None, "no duration without an end");
    assert_eq!(value(&pairs, "duration_ms"), None);
    assert_eq!(headings(&doc), ["# Meeting", "## Summary", "## Transcript"]);
    assert!(doc.contains("## Summary\n\n_No summary yet._\n"), "{doc}");
    assert!(doc.ends_with("## Transcript\n\n_No transcript._\n"), "{doc}");
}

#[test]
fn sections_follow_the_fixed_order_and_skip_empty_ones() {
    let doc = render_markdown(&full_meeting());
    assert_eq!(
        headings(&doc),
        [
            "# Weekly sync",
            "## Summary",
            "## Key points",
            "## Action items",
            "## Decisions",
            "## Notes",
            "## Markers",
            "## Transcript"
        ]
    );

    let meeting = ExportMeeting {
        notes: vec![note("decisions", "- Yes."), note("summary", "   \n")],
        action_items: vec![],
        markers: vec![],
        ..full_meeting()
    };
    let doc = render_markdown(&meeting);
    assert_eq!(
        headings(&doc),
        ["# Weekly sync", "## Summary", "## Decisions", "## Transcript"],
        "{doc}"
    );
    assert!(doc.contains("_No summary yet._"), "a blank summary counts as none");
}

#[test]
fn action_items_are_task_list_checkboxes_from_the_items_not_the_note() {
    let meeting = ExportMeeting {
        action_items: vec![
            item("Send\nthe budget", "Them", false),
            item("Done thing", "Me", true),
            item("Nobody's", "  ", false),
        ],
        ..full_meeting()
    };
    let doc = render_markdown(&meeting);
    assert!(
        doc.contains(
            "## Action items\n\n- [ ] Send the budget — Them\n- [x] Done thing — Me\n- [ ] Nobody's\n\n## Decisions"
        ),
        "{doc}"
    );
    assert!(!doc.contains("from the note"), "{doc}");

    let only_note = ExportMeeting { action_items: vec![], ..full_meeting() };
    assert!(!render_markdown(&only_note).contains("## Action items"));
}

#[test]
fn several_notes_of_a_kind_and_unknown_kinds() {
    let meeting = ExportMeeting {
        notes: vec![note("custom", "First."), note("summary", "S."), note("mystery", "Second.")],
        ..full_meeting()
    };
    let doc = render_markdown(&meeting);
    assert!(doc.contains("## Notes\n\nFirst.\n\nSecond.\n\n## Markers"), "{doc}");
}

#[test]
fn headings_inside_notes_are_demoted() {
    let meeting = ExportMeeting {
        notes: vec![
            note("summary", "# Overview\nText\n## Details\n```\n# code\n```"),
            note("custom", "Agenda\n======\n- one\n```\nnever closed # x\n# y"),
        ],
        ..full_meeting()
    };
    let doc = render_markdown(&meeting);
    assert!(
        doc.contains(
            "## Summary\n\n### Overview\nText\n#### Details\n```\n# code\n```\n\n## Action"
        ),
        "{doc}"
    );
    assert!(doc
        .contains("## Notes\n\n### Agenda\n- one\n```\nnever closed # x\n# y\n```\n\n## Markers"));
    // Outside code blocks, nothing from a note is a level 1 or 2 heading.
    let mut in_code = false;
    let mut top: Vec<&str> = Vec::new();
    for line in doc.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && (line.starts_with("# ") || line.starts_with("## ")) {
            top.push(line);
        }
    }
    assert_eq!(
        top,
        [
            "# Weekly sync",
            "## Summary",
            "## Action items",
            "## Notes",
            "## Markers",
            "## Transcript"
        ]
    );
    assert!(!in_code, "every fence is closed");
}

#[test]
fn markers_are_sorted_with_hours_from_one_hour() {
    let meeting = ExportMeeting {
        markers: vec![
            ExportMarker { at_ms: 7_384_500, label: "Two hours".into() },
            ExportMarker { at_ms: 599_999, label: "".into() },
            ExportMarker { at_ms: 3_600_000, label: "Hour\nmark".into() },
        ],
        ..full_meeting()
    };
    let doc = render_markdown(&meeting);
    assert!(
        doc.contains(
            "## Markers\n\n- [09:59] Marker\n- [01:00:00] Hour mark\n- [02:03:04] Two hours\n\n## Transcript"
        ),
        "{doc}"
    );
}

#[test]
fn transcript_matches_the_api_markdown_shape() {
    let meeting = ExportMeeting {
        segments: vec![
            segment("Me", 1_500, "Hello  there"),
            segment("*Them*", 3_723_004, "a <b> & c\nd"),
        ],
        ..full_meeting()
    };
    let doc = render_markdown(&meeting);
    assert!(
        doc.ends_with(
            "## Transcript\n\n**Me** [00:01] Hello there\n\n**\\*Them\\*** [62:03] a <b> & c d\n"
        ),
        "{doc}"
    );
}

#[test]
fn duration_falls_back_to_the_span_and_never_goes_negative() {
    let meeting =
        ExportMeeting { duration_ms: None, ended_at: Some(STARTED_AT + 125_000), ..full_meeting() };
    let pairs = front_matter(&render_markdown(&meeting));
    assert_eq!(value(&pairs, "duration"), Some(&json!("2m 05s")));
    assert_eq!(value(&pairs, "duration_ms"), Some(&json!(125_000)));

    let meeting = ExportMeeting { duration_ms: Some(-5), ..full_meeting() };
    let pairs = front_matter(&render_markdown(&meeting));
    assert_eq!(value(&pairs, "duration"), Some(&json!("0s")));
    assert_eq!(value(&pairs, "duration_ms"), Some(&json!(0)));
}

#[test]
fn a_title_ending_in_hashes_keeps_them() {
    let meeting = ExportMeeting { title: "Sync #".into(), ..full_meeting() };
    assert!(render_markdown(&meeting).contains("\n# Sync \\#\n"));
}

#[test]
fn my_notes_have_their_own_section_and_items_show_their_due_date() {
    let mut meeting = full_meeting();
    meeting.notes.push(note("mine", "- ask Dana about hiring"));
    meeting.action_items[0].due = Some("2026-12-24".into());
    let doc = render_markdown(&meeting);
    let mine = doc.find("## My notes\n\n- ask Dana about hiring").expect(&doc);
    let decisions = doc.find("## Decisions").expect("decisions");
    let notes = doc.find("## Notes\n\nCustom text.").expect("custom notes");
    assert!(decisions < mine && mine < notes, "after the decisions, before the other notes: {doc}");
    assert_eq!(doc.matches("ask Dana about hiring").count(), 1, "once: {doc}");
    assert!(doc.contains("- [ ] Send the budget — Them (due 2026-12-24)\n"), "{doc}");
}
