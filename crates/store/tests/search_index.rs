//! The meeting-level search index (migration 0005) against the rows it indexes:
//! through inserts, edits, deletes and retention; when an older database is
//! indexed in the background (and the build is interrupted); and when the
//! writer is killed in the middle of a transaction.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use recorder_domain::{new_id, Channel, MeetingId, MeetingStatus, NoteId};
use recorder_store::{ListQuery, MeetingChanges, MeetingRecord, NewSegment, NoteRecord, Store};
use rusqlite::Connection;

fn record(title: &str, started_at: i64) -> MeetingRecord {
    MeetingRecord {
        id: MeetingId::generate(),
        title: title.to_string(),
        source_app: "zoom".into(),
        started_at,
        ended_at: Some(started_at + 60_000),
        duration_ms: 60_000,
        status: MeetingStatus::Ready,
        language: Some("en".into()),
        attendees: Vec::new(),
        tags: Vec::new(),
        vocabulary: Vec::new(),
        starred: false,
        processing_error: None,
    }
}

fn lines(texts: &[&str], from_ms: i64) -> Vec<NewSegment> {
    texts
        .iter()
        .enumerate()
        .map(|(index, text)| NewSegment {
            channel: Channel::Sys,
            start_ms: from_ms + index as i64 * 1000,
            end_ms: from_ms + index as i64 * 1000 + 900,
            text: text.to_string(),
            speaker: None,
        })
        .collect()
}

fn note(text: &str) -> NoteRecord {
    NoteRecord {
        id: NoteId::generate(),
        kind: "summary".into(),
        template_id: None,
        content_md: text.into(),
        written_by: None,
        fallback: None,
        line_moments: Vec::new(),
    }
}

fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// The meetings (by seq) whose title, transcript or notes hold each word,
/// read from the rows themselves.
fn words_in_rows(db: &Connection) -> BTreeMap<String, BTreeSet<i64>> {
    let mut words: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    let sql = "SELECT seq, title FROM meetings UNION ALL SELECT meeting, text FROM segments \
               UNION ALL SELECT meeting, content_md FROM notes";
    let mut query = db.prepare(sql).expect("rows");
    let rows = query
        .query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?)))
        .expect("rows");
    for row in rows {
        let (seq, text) = row.expect("row");
        for word in words_of(&text) {
            words.entry(word).or_default().insert(seq);
        }
    }
    words
}

/// Checks every index against the rows: FTS5's own check of the line indexes
/// against their tables, and for every word ever written (`vocabulary`), the
/// meetings each meeting-level index finds against those the rows hold.
fn assert_index_matches_rows(path: &Path, vocabulary: &BTreeSet<String>) {
    let db = Connection::open(path).expect("open");
    for table in ["segment_words", "notes_fts"] {
        db.execute(
            &format!("INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)"),
            [],
        )
        .unwrap_or_else(|error| panic!("{table} differs from its rows: {error}"));
    }
    for table in ["meeting_words", "meeting_phrases"] {
        db.execute(&format!("INSERT INTO {table} ({table}) VALUES ('integrity-check')"), [])
            .unwrap_or_else(|error| panic!("{table} is damaged: {error}"));
    }
    let in_rows = words_in_rows(&db);
    for word in vocabulary.iter().chain(in_rows.keys()) {
        let expected = in_rows.get(word).cloned().unwrap_or_default();
        for table in ["meeting_words", "meeting_phrases"] {
            let sql = format!("SELECT rowid FROM {table} WHERE {table} MATCH ?1");
            let found: BTreeSet<i64> = db
                .prepare(&sql)
                .expect("query")
                .query_map([format!("\"{word}\"")], |row| row.get(0))
                .expect("match")
                .collect::<Result<_, _>>()
                .expect("rowids");
            assert_eq!(found, expected, "{table}: meetings holding {word:?}");
        }
    }
    let dirty: i64 =
        db.query_row("SELECT count(*) FROM search_dirty", [], |row| row.get(0)).expect("dirty");
    assert_eq!(dirty, 0, "no meeting is left marked after a transaction");
}

fn listed(store: &Store, q: &str) -> Vec<String> {
    let query = ListQuery { q: Some(q.into()), limit: 50, ..ListQuery::default() };
    store.list_meetings(&query).expect("list").meetings.into_iter().map(|m| m.title).collect()
}

fn remember(vocabulary: &mut BTreeSet<String>, texts: &[&str]) {
    for text in texts {
        vocabulary.extend(words_of(text));
    }
}

#[test]
fn the_index_follows_inserts_edits_deletes_and_retention() {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("recorder.db");
    let store = Store::open(&path).expect("open");
    let mut vocabulary = BTreeSet::new();
    let texts = ["we moved the budget review", "the zebra crossing is closed"];
    remember(&mut vocabulary, &texts);
    let first = record("Planning", 1_000_000);
    store.insert_meeting(&first, 1).expect("insert");
    store.insert_segments(&first.id, &lines(&texts, 0)).expect("lines");
    let second = record("Standup", 2_000_000);
    store
        .insert_whole_meeting(
            &second,
            &lines(&["quiet morning"], 0),
            &[note("nothing new")],
            &[],
            2,
        )
        .expect("whole meeting");
    remember(&mut vocabulary, &["Planning", "Standup", "quiet morning", "nothing new"]);
    assert_index_matches_rows(&path, &vocabulary);
    assert_eq!(listed(&store, "zebra"), vec!["Planning"]);
    assert_eq!(listed(&store, "zeb*"), vec!["Planning"]);
    assert_eq!(listed(&store, "\"budget review\""), vec!["Planning"]);
    assert_eq!(listed(&store, "\"review zebra\""), Vec::<String>::new(), "no phrase across lines");

    // A recording appends lines; a title, a note and a line change.
    let more = ["zeppelin parts arrive friday"];
    remember(&mut vocabulary, &more);
    store.insert_segments(&second.id, &lines(&more, 10_000)).expect("append");
    let changes = MeetingChanges { title: Some("Retro".into()), ..MeetingChanges::default() };
    store.update_meeting(&first.id, &changes, 3).expect("rename");
    store.put_note(&first.id, &note("kangaroo court adjourned"), 4).expect("note");
    remember(&mut vocabulary, &["Retro", "kangaroo court adjourned"]);
    assert_index_matches_rows(&path, &vocabulary);
    assert_eq!(listed(&store, "zeppelin"), vec!["Standup"]);
    assert_eq!(listed(&store, "planning"), Vec::<String>::new(), "the old title is gone");
    assert_eq!(listed(&store, "retro kangaroo"), Vec::<String>::new(), "title and notes apart");
    assert_eq!(listed(&store, "kangaroo"), vec!["Retro"]);

    // Deleting, and the retention sweep's delete.
    store.delete_meeting(&second.id).expect("delete");
    assert_index_matches_rows(&path, &vocabulary);
    assert!(listed(&store, "zeppelin").is_empty());
    assert!(store.delete_expired_meeting(&first.id, i64::MAX).expect("expire"));
    assert_index_matches_rows(&path, &vocabulary);
    assert!(listed(&store, "zebra").is_empty());
    assert!(store.search("zebra", 10).expect("search").is_empty());
    assert_eq!(store.search_meetings("zebra", 10, 3, None).expect("grouped").total, 0);
}

#[test]
fn grouped_results_agree_with_the_list_and_page_by_cursor() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    for day in 0..7 {
        let meeting = record(&format!("Day {day}"), 1_000_000 + day * 86_400_000);
        let texts = ["the budget is tight", "budget again", "nothing here"];
        store.insert_whole_meeting(&meeting, &lines(&texts, 0), &[], &[], 1).expect("insert");
    }
    let odd = record("Budget only in the title", 500_000);
    store.insert_whole_meeting(&odd, &lines(&["no match"], 0), &[], &[], 1).expect("odd");

    let first = store.search_meetings("budget", 3, 2, None).expect("first page");
    assert_eq!(first.total, 8);
    let titles: Vec<&str> = first.meetings.iter().map(|m| m.meeting_title.as_str()).collect();
    assert_eq!(titles, ["Day 6", "Day 5", "Day 4"], "newest first");
    assert!(first.meetings.iter().all(|m| m.matches == 2 && m.hits.len() == 2));
    let cursor = first.next_cursor.expect("more pages");

    // A meeting added meanwhile does not move the next page.
    let newest = record("Newest budget", 9_000_000_000);
    store.insert_whole_meeting(&newest, &[], &[], &[], 1).expect("newest");
    let parsed = recorder_store::SearchCursor::parse(&cursor.to_string()).expect("round trip");
    let mut titles = Vec::new();
    let mut next = Some(parsed);
    while let Some(cursor) = next {
        let page = store.search_meetings("bud*", 3, 2, Some(cursor)).expect("page");
        titles.extend(page.meetings.iter().map(|m| m.meeting_title.clone()));
        next = page.next_cursor;
    }
    assert_eq!(titles, ["Day 3", "Day 2", "Day 1", "Day 0", "Budget only in the title"]);

    let all = store.search_meetings("budget", 50, 3, None).expect("all");
    let listed_titles = listed(&store, "budget");
    let grouped: Vec<String> = all.meetings.iter().map(|m| m.meeting_title.clone()).collect();
    assert_eq!(grouped, listed_titles, "the same meetings, in the same order, as the list");
    let title_only = all.meetings.last().expect("title only");
    assert_eq!((title_only.matches, title_only.hits.len()), (0, 0));

    // Words on different lines: the meeting is found, its lines with some of them shown.
    let spread = store.search_meetings("tight again", 50, 3, None).expect("spread");
    assert_eq!(spread.total, 7);
    assert!(spread.meetings.iter().all(|m| m.matches == 0 && m.hits.len() == 2));
}

/// A database as version 4 left it: migrations 0001-0004 and some meetings.
fn version_4_database(path: &Path, meetings: i64) {
    let db = Connection::open(path).expect("open");
    for sql in [
        include_str!("../migrations/0001_init.sql"),
        include_str!("../migrations/0002_jobs.sql"),
        include_str!("../migrations/0003_retention.sql"),
        include_str!("../migrations/0004_speakers.sql"),
    ] {
        db.execute_batch(sql).expect("old schema");
    }
    db.pragma_update(None, "user_version", 4).expect("version");
    for seq in 1..=meetings {
        db.execute(
            "INSERT INTO meetings (seq, id, title, source_app, started_at, status, created_at, updated_at) \
             VALUES (?1, ?2, ?3, 'zoom', ?1 * 1000, 'ready', 0, 0)",
            rusqlite::params![seq, new_id(), format!("Meeting {seq}")],
        )
        .expect("meeting");
        for line in 0..3 {
            db.execute(
                "INSERT INTO segments (meeting, channel, start_ms, end_ms, text) VALUES (?1, 'sys', ?2, ?2, ?3)",
                rusqlite::params![seq, line * 1000, format!("line {line} of walrus{seq} budget")],
            )
            .expect("segment");
        }
        db.execute(
            "INSERT INTO notes (id, meeting, kind, content_md, created_at) VALUES (?1, ?2, 'summary', ?3, 0)",
            rusqlite::params![new_id(), seq, format!("notes of walrus{seq}")],
        )
        .expect("note");
    }
}

fn has_table(path: &Path, name: &str) -> bool {
    let db = Connection::open(path).expect("open");
    db.query_row("SELECT count(*) FROM sqlite_schema WHERE name = ?1", [name], |row| {
        row.get::<_, i64>(0)
    })
    .expect("schema")
        > 0
}

#[test]
fn an_older_database_is_indexed_in_batches_and_resumes_after_a_restart() {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("recorder.db");
    version_4_database(&path, 10);
    let store = Store::open(&path).expect("migrate");
    assert_eq!(store.search_index_progress().expect("progress").remaining, 10);
    // Meanwhile the old indexes answer.
    assert_eq!(listed(&store, "walrus3"), vec!["Meeting 3"]);
    assert_eq!(listed(&store, "budget").len(), 10);
    assert_eq!(store.search("walrus7", 10).expect("search").len(), 4);
    assert_eq!(store.search_meetings("walrus7", 10, 5, None).expect("grouped").total, 1);

    let progress = store.build_search_index(4).expect("batch");
    assert_eq!((progress.remaining, progress.meetings), (6, 10));
    // Writes to indexed and waiting meetings during the build.
    let ids: BTreeMap<String, MeetingId> = store
        .list_meetings(&ListQuery { limit: 50, ..ListQuery::default() })
        .expect("list")
        .meetings
        .into_iter()
        .map(|m| (m.title, m.id))
        .collect();
    store.insert_segments(&ids["Meeting 10"], &lines(&["okapi sighting"], 9_000)).expect("done");
    store.insert_segments(&ids["Meeting 1"], &lines(&["okapi again"], 9_000)).expect("waiting");
    store.delete_meeting(&ids["Meeting 2"]).expect("delete waiting");
    drop(store);

    let store = Store::open(&path).expect("reopen");
    assert_eq!(store.search_index_progress().expect("progress").remaining, 5, "resumed");
    while !store.build_search_index(2).expect("batch").is_ready() {}
    assert!(!has_table(&path, "segments_fts"), "the old index is dropped");
    let mut vocabulary = BTreeSet::new();
    remember(&mut vocabulary, &["walrus2 budget okapi sighting again"]);
    assert_index_matches_rows(&path, &vocabulary);
    assert_eq!(listed(&store, "okapi"), vec!["Meeting 10", "Meeting 1"]);
    assert_eq!(listed(&store, "budget").len(), 9);
    assert_eq!(store.search("walrus7", 10).expect("search").len(), 4);
    assert!(listed(&store, "walrus2").is_empty());
}

const CHILD: &str = "RECORDER_TEST_INDEX_WRITER";

/// Writes meetings, appends, renames and deletes until killed.
fn write_until_killed(path: &Path) -> ! {
    let store = Store::open(path).expect("child open");
    let texts: Vec<String> =
        (0..400).map(|i| format!("line {i} about the budget and ferret{}", i % 7)).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut round = 0i64;
    loop {
        round += 1;
        let meeting = record(&format!("Round {round}"), round * 1000);
        store
            .insert_whole_meeting(&meeting, &lines(&texts, 0), &[note("ferret notes")], &[], round)
            .expect("insert");
        store.insert_segments(&meeting.id, &lines(&texts[..50], 500_000)).expect("append");
        let changes =
            MeetingChanges { title: Some(format!("Renamed {round}")), ..Default::default() };
        store.update_meeting(&meeting.id, &changes, round).expect("rename");
        if round % 3 == 0 {
            store.delete_meeting(&meeting.id).expect("delete");
        }
    }
}

#[test]
fn a_writer_killed_mid_transaction_leaves_the_index_consistent() {
    if let Some(path) = std::env::var_os(CHILD) {
        write_until_killed(Path::new(&path));
    }
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("recorder.db");
    let exe = std::env::current_exe().expect("test binary");
    let test = "a_writer_killed_mid_transaction_leaves_the_index_consistent";
    for (round, delay_ms) in [700u64, 1100, 1500, 1900].into_iter().enumerate() {
        let mut child = std::process::Command::new(&exe)
            .args(["--exact", test, "--nocapture", "--test-threads", "1"])
            .env(CHILD, &path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn the writer");
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().expect("kill the writer");
        child.wait().expect("reap");
        let store = Store::open(&path).expect("reopen after the kill");
        let meetings = store.search_index_progress().expect("progress").meetings;
        assert!(meetings > 0, "round {round}: the writer wrote something");
        drop(store);
        let vocabulary: BTreeSet<String> =
            ["budget", "ferret1", "ferret6", "renamed", "round", "notes"].map(String::from).into();
        assert_index_matches_rows(&path, &vocabulary);
    }
    recorder_store::integrity_check(&path).expect("PRAGMA integrity_check");
}
