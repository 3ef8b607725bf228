//! The search indexes are merged and the WAL checkpointed by the upkeep, not
//! inside the writes (migration 0011, `index_upkeep.rs`): writes leave FTS5
//! segments for the merge step, which works until they are merged, and
//! search finds every word before and after.

use recorder_domain::{Channel, MeetingId, MeetingStatus};
use recorder_store::{Author, Edit, ListQuery, MeetingRecord, NewSegment, Store};

fn open() -> (tempfile::TempDir, Store) {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    (folder, store)
}

/// A ready meeting of `lines` lines; the ids of its lines.
fn meeting(store: &Store, lines: i64) -> (MeetingId, Vec<i64>) {
    let id = MeetingId::generate();
    let record = MeetingRecord {
        id: id.clone(),
        status: MeetingStatus::Ready,
        ..MeetingRecord::new_import("planning".into(), 1_000)
    };
    store.insert_meeting(&record, 1_000).expect("meeting");
    let segments: Vec<NewSegment> = (0..lines)
        .map(|n| NewSegment {
            channel: Channel::Sys,
            start_ms: n * 3_000,
            end_ms: n * 3_000 + 2_500,
            text: format!("the budget for quarter {n} is approved"),
            speaker: None,
        })
        .collect();
    let ids = store.insert_segments(&id, &segments).expect("lines");
    (id, ids)
}

fn found_meetings(store: &Store, q: &str) -> i64 {
    let query = ListQuery { q: Some(q.into()), limit: 50, offset: 0, from: None, to: None };
    store.list_meetings(&query).expect("list").total
}

/// Merges until a whole round finds nothing to do; the rounds it took.
fn merged(store: &Store) -> usize {
    let steps = store.merge_steps_per_round();
    let mut rounds = 0;
    while (0..steps).any(|step| store.merge_index_segments(step, 32).expect("merge")) {
        rounds += 1;
        if rounds == 1_000 {
            break;
        }
    }
    rounds
}

#[test]
fn writes_leave_segments_to_merge_and_the_merge_steps_until_none_are_left() {
    let (_folder, store) = open();
    let (id, lines) = meeting(&store, 20);
    merged(&store);
    for (n, line) in lines.iter().enumerate().take(12) {
        let text = format!("the zeppelin number {n} has landed");
        let edit = Edit::Line { segment: *line, text: Some(text), speaker: None };
        store.apply_edit(&id, &Author::Person, edit, 5_000).expect("fix");
    }
    assert_eq!(store.search("zeppelin", 50).expect("search").len(), 12, "before merging");
    assert_eq!(found_meetings(&store, "zeppelin"), 1);

    // Twelve writes, twelve new segments per index, none merged by the writes.
    let steps = store.merge_steps_per_round();
    let worked = (0..steps).filter(|&step| store.merge_index_segments(step, 32).expect("merge"));
    assert_eq!(worked.count(), steps, "the writes left segments to merge in every index");
    let rounds = merged(&store);
    assert!(rounds < 100, "the merge never finishes");
    for step in 0..steps {
        assert!(!store.merge_index_segments(step, 32).expect("merge"), "nothing is left to merge");
    }
    assert_eq!(store.search("zeppelin", 50).expect("search").len(), 12, "after merging");
    assert_eq!(store.search("budget", 50).expect("search").len(), 8, "the lines not corrected");
    assert_eq!(found_meetings(&store, "zeppelin"), 1);
    assert_eq!(found_meetings(&store, "\"quarter 15\""), 1, "a phrase of a line not corrected");
}

#[test]
fn the_writes_leave_every_index_s_merges_to_the_upkeep() {
    let (folder, _store) = open();
    let db = rusqlite::Connection::open(folder.path().join("recorder.db")).expect("db");
    for table in ["segment_words", "meeting_words", "meeting_phrases"] {
        let automerge: i64 = db
            .query_row(&format!("SELECT v FROM {table}_config WHERE k = 'automerge'"), [], |row| {
                row.get(0)
            })
            .expect(table);
        assert_eq!(automerge, 0, "{table} merges inside writes");
    }
}

#[test]
fn a_checkpoint_copies_the_wal_into_the_database_beside_the_writer() {
    let (_folder, store) = open();
    let before = store.writes();
    meeting(&store, 50);
    assert!(store.writes() > before, "the writes are counted");
    let checkpoint = store.checkpoint().expect("checkpoint");
    assert!(checkpoint.wal_frames > 0, "the writes are in the WAL: {checkpoint:?}");
    assert_eq!(checkpoint.copied, checkpoint.wal_frames, "no reader holds them back");
    meeting(&store, 5);
    assert_eq!(found_meetings(&store, "budget"), 2, "the database reads as before");
}
