//! Property tests of search: whatever a person (or an agent) types, the FTS5
//! expression built from it is only quoted terms, and running it against a
//! real database answers with hits or none, never a query-syntax error.

use proptest::prelude::*;
use recorder_domain::Channel;
use recorder_store::{fts_query, MeetingRecord, NewSegment, Store};

/// Text full of what FTS5 would read as syntax.
fn hostile_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "budget",
        "\"",
        "*",
        "^",
        "(",
        ")",
        ":",
        "NEAR",
        "NEAR(",
        "AND",
        "OR",
        "NOT",
        "title:",
        "{",
        "}",
        "-",
        "+",
        "'",
        "\\",
        "\u{0}",
        "é",
        "😀",
        "  ",
        "\t",
        "\"budget report\"",
        "rep*",
        "*rep",
        "\"\"",
        "text:budget",
        "''",
    ]);
    prop_oneof![
        prop::collection::vec(pieces, 0..12).prop_map(|parts| parts.concat()),
        ".{0,40}",
        any::<String>(),
    ]
}

fn store_with_text() -> (tempfile::TempDir, Store) {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let meeting = MeetingRecord::new_import("Budget review".into(), 1_700_000_000_000);
    store.insert_meeting(&meeting, 1).expect("meeting");
    let lines = ["The budget report is due Friday.", "Near the end we said NOT yet (maybe)."];
    let segments: Vec<NewSegment> = lines
        .iter()
        .enumerate()
        .map(|(i, text)| NewSegment {
            channel: Channel::Sys,
            start_ms: i as i64 * 1000,
            end_ms: i as i64 * 1000 + 900,
            text: (*text).into(),
            speaker: None,
        })
        .collect();
    store.insert_segments(&meeting.id, &segments).expect("segments");
    (folder, store)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_text_searches_without_a_syntax_error(text in hostile_text()) {
        let (_folder, store) = store_with_text();
        let hits = store.search(&text, 20);
        prop_assert!(hits.is_ok(), "{text:?} → {:?} → {hits:?}", fts_query(&text));
        let grouped = store.search_meetings(&text, 20, 3, None);
        prop_assert!(grouped.is_ok(), "grouped {text:?} → {grouped:?}");
        let query = recorder_store::ListQuery { q: Some(text.clone()), limit: 20, ..Default::default() };
        let listed = store.list_meetings(&query);
        prop_assert!(listed.is_ok(), "list {text:?} → {:?}", listed.err());
    }

    #[test]
    fn the_expression_is_only_quoted_terms(text in hostile_text()) {
        let Some(expression) = fts_query(&text) else { return Ok(()) };
        // Every term is "…" (quotes inside doubled), optionally followed by *.
        let mut rest = expression.as_str();
        while !rest.is_empty() {
            prop_assert!(rest.starts_with('"'), "{expression}");
            let mut end = 1;
            let bytes = rest.as_bytes();
            loop {
                prop_assert!(end < bytes.len(), "unclosed term in {expression}");
                if bytes[end] == b'"' {
                    if bytes.get(end + 1) == Some(&b'"') { end += 2; continue; }
                    break;
                }
                end += 1;
            }
            rest = &rest[end + 1..];
            rest = rest.strip_prefix('*').unwrap_or(rest);
            rest = rest.strip_prefix(' ').unwrap_or(rest);
        }
    }
}

/// Found by the property above: a long prefix the vocabulary expands to a
/// group, then another word ("budget* report") was an FTS5 syntax error.
#[test]
fn an_expanded_prefix_and_another_word_find_the_line() {
    let (_folder, store) = store_with_text();
    for text in ["budget* report", "report budget*", "budg* report friday", "Near* end"] {
        let hits = store.search(text, 20).expect(text);
        assert_eq!(hits.len(), 1, "{text:?} → {:?} → {hits:?}", fts_query(text));
        let grouped = store.search_meetings(text, 20, 3, None).expect(text);
        assert_eq!(grouped.meetings.len(), 1, "grouped {text:?}");
    }
}
