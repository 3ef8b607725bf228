//! Store tests against a real SQLite file in a temporary folder.

use recorder_domain::{Channel, MeetingId, MeetingStatus, NoteId};
use recorder_store::{
    HitSource, ListQuery, MeetingChanges, MeetingRecord, NewSegment, NoteRecord, SpeakerRecord,
    Store,
};

fn open() -> (tempfile::TempDir, Store) {
    let folder = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open store");
    (folder, store)
}

fn meeting(store: &Store, title: &str, started_at: i64, lines: &[&str]) -> MeetingId {
    let id = MeetingId::generate();
    let new = MeetingRecord {
        id: id.clone(),
        title: title.to_string(),
        source_app: "zoom".into(),
        started_at,
        ended_at: Some(started_at + 60_000),
        duration_ms: 60_000,
        status: MeetingStatus::Ready,
        language: Some("en".into()),
        attendees: vec!["Ada".into()],
        tags: vec!["team".into()],
        vocabulary: vec!["Kubernetes".into()],
        starred: false,
        processing_error: None,
    };
    store.insert_meeting(&new, started_at).expect("insert meeting");
    let segments: Vec<NewSegment> = lines
        .iter()
        .enumerate()
        .map(|(index, text)| NewSegment {
            channel: if index % 2 == 0 { Channel::Mic } else { Channel::Sys },
            start_ms: index as i64 * 1000,
            end_ms: index as i64 * 1000 + 900,
            text: text.to_string(),
            speaker: None,
        })
        .collect();
    store.insert_segments(&id, &segments).expect("insert segments");
    id
}

fn list(store: &Store, q: Option<&str>) -> Vec<String> {
    let query = ListQuery { q: q.map(str::to_string), limit: 50, ..ListQuery::default() };
    store.list_meetings(&query).expect("list").meetings.into_iter().map(|m| m.title).collect()
}

#[test]
fn reopening_keeps_data_and_schema() {
    let (folder, store) = open();
    meeting(&store, "Standup", 1_000, &["hello"]);
    drop(store);
    let store = Store::open(&folder.path().join("recorder.db")).expect("reopen");
    assert_eq!(list(&store, None), vec!["Standup"]);
}

#[test]
fn search_finds_segments_and_notes_and_forgets_deleted_meetings() {
    let (_folder, store) = open();
    let id = meeting(&store, "Budget", 2_000, &["we reviewed the budget", "zebra crossing"]);
    let note = NoteRecord {
        id: NoteId::generate(),
        kind: "summary".into(),
        template_id: None,
        content_md: "The zebra plan was approved".into(),
        written_by: None,
        fallback: None,
        line_moments: Vec::new(),
    };
    store.put_note(&id, &note, 3_000).expect("note");
    let hits = store.search("zebra", 20).expect("search");
    assert_eq!(hits.len(), 2);
    assert!(hits.iter().any(|hit| matches!(hit.source, HitSource::Note { .. })));
    assert!(hits
        .iter()
        .any(|hit| matches!(hit.source, HitSource::Transcript { channel: Channel::Sys, .. })));
    assert_eq!(list(&store, Some("zebra")), vec!["Budget"]);
    assert_eq!(list(&store, Some("budget")), vec!["Budget"], "title or transcript match");

    store.delete_meeting(&id).expect("delete");
    assert!(store.search("zebra", 20).expect("search").is_empty());
    assert!(list(&store, Some("budget")).is_empty());
    let db = rusqlite::Connection::open(store.path()).expect("open");
    for table in ["segment_words", "meeting_words", "meeting_phrases", "notes_fts"] {
        let sql = format!("SELECT count(*) FROM {table} WHERE {table} MATCH 'zebra'");
        let count: i64 = db.query_row(&sql, [], |row| row.get(0)).expect("count");
        assert_eq!(count, 0, "{table}: index entries are removed with the rows");
    }
}

#[test]
fn hostile_queries_never_fail() {
    let (_folder, store) = open();
    meeting(&store, "Weekly", 1_000, &["NEAR the end AND OR not", "שלום עולם", "emoji 🎉 party"]);
    let long = "a".repeat(10_000);
    let hostile = [
        "\"",
        "*",
        "NEAR(",
        "-",
        "AND OR",
        "\"unterminated",
        "a\"b",
        "^",
        ":",
        "col:word",
        "(",
        ")",
        "{a b}",
        "+",
        "NOT",
        "🎉",
        "שלום",
        long.as_str(),
        "\u{E000}x\u{E001}",
        "''",
    ];
    for q in hostile {
        store.search(q, 20).unwrap_or_else(|error| panic!("{q:?} failed: {error}"));
        store
            .list_meetings(&ListQuery { q: Some(q.into()), limit: 10, ..ListQuery::default() })
            .unwrap_or_else(|error| panic!("list {q:?} failed: {error}"));
        store
            .search_meetings(q, 10, 3, None)
            .unwrap_or_else(|error| panic!("grouped {q:?} failed: {error}"));
    }
    assert_eq!(store.search("שלום", 20).expect("rtl").len(), 1);
    assert_eq!(store.search("NEAR(", 20).expect("near").len(), 1);
    assert_eq!(store.search("part*", 20).expect("prefix").len(), 1);
    assert_eq!(store.search("\"the end\"", 20).expect("phrase").len(), 1);
    assert_eq!(store.search("\"end the\"", 20).expect("phrase order").len(), 0);
}

#[test]
fn list_pages_newest_first_with_time_bounds() {
    let (_folder, store) = open();
    for index in 0..5 {
        meeting(&store, &format!("M{index}"), index * 1000, &[]);
    }
    let page = store
        .list_meetings(&ListQuery { limit: 2, offset: 1, ..ListQuery::default() })
        .expect("page");
    assert_eq!(page.total, 5);
    let titles: Vec<_> = page.meetings.iter().map(|m| m.title.as_str()).collect();
    assert_eq!(titles, ["M3", "M2"]);
    let bounded = store
        .list_meetings(&ListQuery {
            limit: 50,
            from: Some(1000),
            to: Some(3000),
            ..ListQuery::default()
        })
        .expect("bounded");
    let titles: Vec<_> = bounded.meetings.iter().map(|m| m.title.as_str()).collect();
    assert_eq!(titles, ["M2", "M1"], "from inclusive, to exclusive");
}

#[test]
fn changes_replace_tags_attendees_and_words_atomically() {
    let (_folder, store) = open();
    let id = meeting(&store, "Old", 1_000, &[]);
    let changes = MeetingChanges {
        title: Some("New".into()),
        tags: Some(vec!["a".into(), "b".into()]),
        starred: Some(true),
        attendees: Some(vec!["Grace".into(), "Linus".into()]),
        vocabulary: Some(vec!["Krzysztof".into(), "Nguyen".into()]),
        language: Some("de".into()),
    };
    let updated = store.update_meeting(&id, &changes, 2_000).expect("update");
    assert_eq!(updated.language.as_deref(), Some("de"));
    assert_eq!(updated.title, "New");
    assert_eq!(updated.tags, ["a", "b"]);
    assert_eq!(updated.attendees, ["Grace", "Linus"]);
    assert_eq!(updated.vocabulary, ["Krzysztof", "Nguyen"], "in the order given");
    assert!(updated.starred);
    assert_eq!(list(&store, Some("new")), vec!["New"]);
    assert!(list(&store, Some("old")).is_empty(), "title index follows the change");
    assert!(matches!(
        store.update_meeting(&MeetingId::generate(), &changes, 0),
        Err(recorder_store::StoreError::NotFound)
    ));
}

#[test]
fn closing_the_store_folds_the_wal_into_the_database() {
    let (folder, store) = open();
    meeting(&store, "Kept", 1_000, &["a line of text"]);
    drop(store);
    let wal = folder.path().join("recorder.db-wal");
    let wal_size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert_eq!(wal_size, 0, "the writer closes last and checkpoints");
    let store = Store::open(&folder.path().join("recorder.db")).expect("reopen");
    assert_eq!(list(&store, Some("text")), vec!["Kept"]);
}

#[test]
fn known_names_are_the_named_speakers_of_earlier_meetings_latest_first() {
    let (_folder, store) = open();
    let speaker = |number: i64, name: Option<&str>| {
        SpeakerRecord::other_side(number, name.map(str::to_owned), vec![1.0, 0.0])
    };
    let first = meeting(&store, "First", 1_000, &[]);
    let second = meeting(&store, "Second", 2_000, &[]);
    let third = meeting(&store, "Third", 3_000, &[]);
    store
        .save_speakers(&first, &[speaker(1, Some("Siobhan")), speaker(2, None)], &[])
        .expect("store");
    store
        .save_speakers(&second, &[speaker(1, Some("Krzysztof")), speaker(2, Some("Siobhan"))], &[])
        .expect("store");
    store.save_speakers(&third, &[speaker(1, Some("Later"))], &[]).expect("store");
    assert_eq!(
        store.known_names(3_000, 10).expect("store"),
        ["Krzysztof", "Siobhan"],
        "one each, latest first, none from the meeting itself or later"
    );
    assert_eq!(store.known_names(3_000, 1).expect("store"), ["Krzysztof"]);
    assert!(store.known_names(1_000, 10).expect("store").is_empty());
}
