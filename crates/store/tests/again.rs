//! Transcribing a ready meeting again: the pass's lines are staged; the
//! transcript is replaced only when every channel is done (named speakers
//! kept by time, the notes queued again), and a failure leaves the earlier
//! transcript as it was.

use recorder_domain::{Channel, MeetingId, MeetingStatus};
use recorder_store::{
    MeetingRecord, NewSegment, NotesOutcome, Pass, SpeakerRecord, Store, StoreError,
    TranscriptionEnd,
};

fn segment(start_ms: i64, text: &str) -> NewSegment {
    NewSegment {
        channel: Channel::Sys,
        start_ms,
        end_ms: start_ms + 3_000,
        text: text.into(),
        speaker: None,
    }
}

/// A ready import with two lines by two named speakers.
fn ready_meeting(store: &Store) -> MeetingId {
    let id = MeetingId::generate();
    let record = MeetingRecord {
        id: id.clone(),
        status: MeetingStatus::Ready,
        ..MeetingRecord::new_import("rollout".into(), 1_000)
    };
    store.insert_meeting(&record, 1_000).expect("meeting");
    store
        .insert_segments(&id, &[segment(0, "Shivon will renew it"), segment(4_000, "Sure thing")])
        .expect("lines");
    let spans = store.sys_spans(&id).expect("spans");
    let speakers = [
        SpeakerRecord::other_side(1, Some("Siobhan".into()), vec![0.0; 4]),
        SpeakerRecord::other_side(2, Some("Tran".into()), vec![0.0; 4]),
    ];
    store
        .save_speakers(
            &id,
            &speakers,
            &[(spans[0].seq, Channel::Sys, 1), (spans[1].seq, Channel::Sys, 2)],
        )
        .expect("speakers");
    id
}

fn pass() -> Pass {
    Pass { model: Some("base.en".into()), language: Some("en".into()), staged: true }
}

fn texts(store: &Store, id: &MeetingId) -> Vec<(String, Option<String>)> {
    let lines = store.segments(id).expect("segments");
    lines.into_iter().map(|s| (s.text, s.speaker)).collect()
}

#[test]
fn a_pass_replaces_the_transcript_only_when_whole_and_keeps_the_speakers() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let id = ready_meeting(&store);
    let before = texts(&store, &id);
    let sources = [(Channel::Sys, "/data/sys.wav".to_string())];
    store.enqueue_transcription_again(&id, &pass(), &sources, 2_000).expect("queued");
    assert_eq!(store.meeting(&id).expect("meeting").status, MeetingStatus::Transcribing);
    assert!(matches!(
        store.enqueue_transcription_again(&id, &pass(), &sources, 2_000),
        Err(StoreError::Busy(MeetingStatus::Transcribing))
    ));

    let job = store.next_job().expect("read").expect("the pass's job");
    assert_eq!(job.pass, pass());
    let new = [
        segment(100, "Siobhan will review it"),
        segment(4_100, "Sure thing"),
        segment(8_000, "Bye"),
    ];
    store.save_transcription_progress(&job, &new[..2], 7_000, 7_000).expect("save");
    assert_eq!(texts(&store, &id), before, "the earlier transcript shows while the pass runs");
    // A resumed run drops what it staged after its resume point, not the transcript.
    store.discard_job_segments_after(&job, Channel::Sys, 4_000).expect("discard");
    store.save_transcription_progress(&job, &new[1..], 9_000, 11_000).expect("save again");

    let end = TranscriptionEnd { language: Some("en".into()), duration_ms: 11_000, error: None };
    assert!(store.finish_transcription(&job, end, 3_000).expect("finish"), "the last job");
    assert_eq!(
        texts(&store, &id),
        vec![
            ("Siobhan will review it".into(), Some("Siobhan".into())),
            ("Sure thing".into(), Some("Tran".into())),
            ("Bye".into(), Some("Tran".into())),
        ],
        "replaced whole; each line keeps the speaker it overlaps (or is nearest)"
    );
    let meeting = store.meeting(&id).expect("meeting");
    assert_eq!(meeting.status, MeetingStatus::Summarising, "the notes are written again");
    let notes = store.next_job().expect("read").expect("notes job");
    store.finish_notes(&notes, &NotesOutcome::default(), 4_000).expect("notes");
    assert_eq!(store.meeting(&id).expect("meeting").status, MeetingStatus::Ready);
}

#[test]
fn a_pass_that_fails_leaves_the_earlier_transcript_and_says_why() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let id = ready_meeting(&store);
    let before = texts(&store, &id);
    let sources =
        [(Channel::Mic, "/data/mic.wav".to_string()), (Channel::Sys, "/data/sys.wav".to_string())];
    store.enqueue_transcription_again(&id, &pass(), &sources, 2_000).expect("queued");
    let first = store.next_job().expect("read").expect("mic");
    store.save_transcription_progress(&first, &[segment(0, "half")], 3_000, 3_000).expect("save");
    let end =
        TranscriptionEnd { error: Some("transcription failed: disk".into()), ..Default::default() };
    assert!(!store.finish_transcription(&first, end, 3_000).expect("failed"));
    assert_eq!(texts(&store, &id), before, "nothing of the pass reached the transcript");
    assert!(store.next_job().expect("read").is_none(), "the other channel's job went too");
    let meeting = store.meeting(&id).expect("meeting");
    assert_eq!(meeting.status, MeetingStatus::Ready);
    assert!(meeting
        .processing_error
        .as_deref()
        .is_some_and(|e| e.contains("earlier transcript is kept")));
    // It can be tried again; that pass starts clean.
    store.enqueue_transcription_again(&id, &pass(), &sources, 4_000).expect("again");
}
