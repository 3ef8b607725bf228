//! The job queue: jobs move a meeting through its states in single
//! transactions, survive reopening, and refuse notes while a meeting is busy.

use recorder_domain::{Channel, MeetingId, MeetingStatus, NoteId};
use recorder_store::{
    JobKind, MeetingRecord, NewSegment, NoteRecord, NotesOutcome, Store, StoreError,
    TranscriptionEnd,
};

fn imported(id: &MeetingId) -> MeetingRecord {
    MeetingRecord { id: id.clone(), ..MeetingRecord::new_import("talk".into(), 1_000) }
}

fn segment(start_ms: i64, text: &str) -> NewSegment {
    NewSegment {
        channel: Channel::Sys,
        start_ms,
        end_ms: start_ms + 900,
        text: text.into(),
        speaker: None,
    }
}

#[test]
fn a_job_carries_a_meeting_to_ready_and_survives_reopening() {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("recorder.db");
    let id = MeetingId::generate();
    let store = Store::open(&path).expect("open");
    let kind = JobKind::Transcribe { source_path: "/audio/talk.wav".into(), channel: Channel::Sys };
    store.insert_meeting_with_job(&imported(&id), &kind, 1_000).expect("queue");
    let job = store.next_job().expect("read").expect("a job");
    assert_eq!(job.kind, kind);
    assert_eq!(job.resume_ms, 0);
    store
        .save_transcription_progress(&job, &[segment(0, "hello there")], 28_000, 30_000)
        .expect("save");
    drop(store);

    // After a crash the job is still queued, with its resume point.
    let store = Store::open(&path).expect("reopen");
    let job = store.next_job().expect("read").expect("still queued");
    assert_eq!(job.resume_ms, 28_000);
    // A resumed run first drops what an interrupted chunk may have left.
    store.insert_segments(&id, &[segment(29_000, "half a chunk")]).expect("stray");
    store.discard_segments_after(&id, Channel::Sys, job.resume_ms).expect("discard");
    assert_eq!(store.segments(&id).expect("segments").len(), 1);

    let end = TranscriptionEnd { language: Some("en".into()), duration_ms: 31_000, error: None };
    assert!(store.finish_transcription(&job, end, 2_000).expect("finish"), "last job");
    let meeting = store.meeting(&id).expect("meeting");
    assert_eq!(meeting.status, MeetingStatus::Summarising);
    assert_eq!(meeting.duration_ms, 31_000);
    assert_eq!(meeting.ended_at, Some(32_000));
    assert_eq!(meeting.language.as_deref(), Some("en"));
    let notes_job = store.next_job().expect("read").expect("notes job");
    assert_eq!(notes_job.kind, JobKind::Notes { note_kind: None, template_id: None });

    let outcome = NotesOutcome {
        notes: vec![NoteRecord {
            id: NoteId::generate(),
            kind: "summary".into(),
            template_id: None,
            content_md: "Hello.".into(),
            written_by: Some("builtin".into()),
            fallback: None,
            line_moments: Vec::new(),
        }],
        action_items: Some(vec![]),
        processing_error: None,
    };
    store.finish_notes(&notes_job, &outcome, 3_000).expect("notes");
    assert_eq!(store.meeting(&id).expect("meeting").status, MeetingStatus::Ready);
    assert!(store.next_job().expect("read").is_none(), "the queue is empty");
}

#[test]
fn notes_are_queued_only_for_ready_meetings() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let id = MeetingId::generate();
    let kind = JobKind::Transcribe { source_path: "/a.wav".into(), channel: Channel::Sys };
    store.insert_meeting_with_job(&imported(&id), &kind, 1_000).expect("queue");
    let busy = store.enqueue_notes(&id, "summary", None, 1_500);
    assert!(matches!(busy, Err(StoreError::Busy(MeetingStatus::Transcribing))), "{busy:?}");
    assert!(matches!(
        store.enqueue_notes(&MeetingId::generate(), "summary", None, 1),
        Err(StoreError::NotFound)
    ));
    store.move_status(&id, MeetingStatus::Summarising, 1_900).expect("summarising");
    store.move_status(&id, MeetingStatus::Ready, 2_000).expect("ready");
    store.enqueue_notes(&id, "decisions", None, 2_500).expect("queued");
    assert_eq!(store.meeting(&id).expect("meeting").status, MeetingStatus::Summarising);
    let again = store.enqueue_notes(&id, "decisions", None, 2_600);
    assert!(matches!(again, Err(StoreError::Busy(MeetingStatus::Summarising))), "one at a time");
}

#[test]
fn a_regeneration_can_be_dropped_but_a_transcriptions_notes_cannot() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let id = MeetingId::generate();
    let kind = JobKind::Transcribe { source_path: "/a.wav".into(), channel: Channel::Sys };
    store.insert_meeting_with_job(&imported(&id), &kind, 1_000).expect("queue");
    assert!(!store.drop_notes_regeneration(&id, 1_100).expect("nothing to drop"));
    let job = store.next_job().expect("read").expect("transcription");
    let end = TranscriptionEnd { language: None, duration_ms: 1_000, error: None };
    store.finish_transcription(&job, end, 1_200).expect("transcribed");
    // The notes every transcription queues are not a regeneration.
    assert!(!store.drop_notes_regeneration(&id, 1_300).expect("kept"));
    assert_eq!(store.meeting(&id).expect("meeting").status, MeetingStatus::Summarising);
    let notes = store.next_job().expect("read").expect("notes");
    store.finish_notes(&notes, &NotesOutcome::default(), 1_400).expect("ready");
    store.enqueue_notes(&id, "decisions", None, 2_000).expect("queued");
    assert!(store.drop_notes_regeneration(&id, 2_100).expect("dropped"));
    assert_eq!(store.meeting(&id).expect("meeting").status, MeetingStatus::Ready);
    assert!(store.next_job().expect("read").is_none());
    assert!(matches!(
        store.drop_notes_regeneration(&MeetingId::generate(), 1),
        Err(StoreError::NotFound)
    ));
}

#[test]
fn deleting_a_meeting_drops_its_jobs() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let id = MeetingId::generate();
    let kind = JobKind::Transcribe { source_path: "/a.wav".into(), channel: Channel::Sys };
    store.insert_meeting_with_job(&imported(&id), &kind, 1_000).expect("queue");
    store.delete_meeting(&id).expect("delete");
    assert!(store.next_job().expect("read").is_none());
}

#[test]
fn attempts_count_runs_without_progress() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let id = MeetingId::generate();
    let kind = JobKind::Transcribe { source_path: "/a.wav".into(), channel: Channel::Sys };
    store.insert_meeting_with_job(&imported(&id), &kind, 1_000).expect("queue");
    let job = store.next_job().expect("read").expect("job");
    assert_eq!(store.begin_attempt(&job).expect("first"), 1);
    assert_eq!(store.begin_attempt(&job).expect("second"), 2, "a crash left the first one counted");
    store.save_transcription_progress(&job, &[], 5_000, 5_000).expect("progress");
    assert_eq!(store.begin_attempt(&job).expect("after progress"), 2, "progress resets the count");
    store.cancel_attempt(&job).expect("shutdown");
    assert_eq!(store.begin_attempt(&job).expect("after shutdown"), 2);
}

#[test]
fn every_status_move_the_domain_forbids_is_refused_and_writes_nothing() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let mut tried = 0;
    for from in MeetingStatus::ALL {
        for to in MeetingStatus::ALL {
            let id = MeetingId::generate();
            store
                .insert_meeting(&MeetingRecord { status: from, ..imported(&id) }, 1_000)
                .expect("insert");
            let moved = store.move_status(&id, to, 2_000);
            let now = store.meeting(&id).expect("meeting");
            if from.can_move_to(to) {
                moved.expect("an allowed move");
                assert_eq!(now.status, to);
            } else {
                assert!(
                    matches!(moved, Err(StoreError::IllegalMove { from: f, to: t }) if f == from && t == to),
                    "{from:?} → {to:?}: {moved:?}"
                );
                assert_eq!(now.status, from, "nothing written");
                tried += 1;
            }
        }
    }
    assert_eq!(tried, 11, "16 pairs, 5 of them allowed");
    assert!(matches!(
        store.move_status(&"missing".into(), MeetingStatus::Ready, 1),
        Err(StoreError::NotFound)
    ));
}
