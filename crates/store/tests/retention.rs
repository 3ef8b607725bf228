//! Retention decisions with a clock the test controls: every instant is explicit.

use recorder_domain::{MeetingId, MeetingStatus};
use recorder_store::{MeetingChanges, MeetingRecord, RetentionCutoffs, Store};

const DAY: i64 = 86_400_000;

fn meeting(store: &Store, title: &str, ended_day: i64, status: MeetingStatus) -> MeetingId {
    let mut record = MeetingRecord::new_import(title.into(), ended_day * DAY - 3_600_000);
    record.ended_at = Some(ended_day * DAY);
    record.status = status;
    store.insert_meeting(&record, ended_day * DAY).expect("insert");
    record.id
}

fn store() -> (tempfile::TempDir, Store) {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    (folder, store)
}

#[test]
fn due_meetings_follow_their_age_and_skip_starred_and_busy_ones() {
    let (_folder, store) = store();
    let old = meeting(&store, "Old", 10, MeetingStatus::Ready);
    let starred = meeting(&store, "Starred", 11, MeetingStatus::Ready);
    let busy = meeting(&store, "Busy", 12, MeetingStatus::Transcribing);
    let recent = meeting(&store, "Recent", 50, MeetingStatus::Ready);
    let changes = MeetingChanges { starred: Some(true), ..MeetingChanges::default() };
    store.update_meeting(&starred, &changes, 60 * DAY).expect("star");
    // Now is day 60: 30 days of meetings and 7 days of audio.
    let cutoffs =
        RetentionCutoffs { audio_before: Some(53 * DAY), meetings_before: Some(30 * DAY) };
    let due = store.retention_due(cutoffs).expect("due");
    assert_eq!(due.meetings, vec![old.clone()]);
    // The starred meeting keeps its rows but not its audio; the old one goes whole.
    assert_eq!(due.audio, vec![starred.clone(), recent.clone()]);
    assert!(!due.audio.contains(&busy));
    assert!(store.delete_expired_meeting(&old, 30 * DAY).expect("delete"));
    store.mark_audio_removed(&recent, 60 * DAY).expect("mark");
    assert_eq!(store.audio_removed_at(&recent).expect("read"), Some(60 * DAY));
    let again = store.retention_due(cutoffs).expect("due");
    assert!(again.meetings.is_empty());
    assert_eq!(again.audio, vec![starred]);
}

#[test]
fn forever_keeps_everything_and_a_meeting_starred_meanwhile_survives() {
    let (_folder, store) = store();
    let id = meeting(&store, "Old", 1, MeetingStatus::Ready);
    let due = store.retention_due(RetentionCutoffs::default()).expect("due");
    assert!(due.meetings.is_empty() && due.audio.is_empty());
    let due = store
        .retention_due(RetentionCutoffs { audio_before: None, meetings_before: Some(5 * DAY) })
        .expect("due");
    assert_eq!(due.meetings, vec![id.clone()]);
    // Starred between the sweep's query and its delete: not deleted.
    let changes = MeetingChanges { starred: Some(true), ..MeetingChanges::default() };
    store.update_meeting(&id, &changes, 2 * DAY).expect("star");
    assert!(!store.delete_expired_meeting(&id, 5 * DAY).expect("delete"));
    assert!(store.meeting(&id).is_ok());
}
