//! Recordings hand over to the queue: live transcription finishes them, or
//! one job per channel resumes where it stopped; notes only after both.

use recorder_domain::{Channel, MeetingStatus};
use recorder_store::{
    ChannelRest, MeetingRecord, NewSegment, RecordingEnd, Store, TranscriptionEnd,
};

fn segment(channel: Channel, start_ms: i64, text: &str) -> NewSegment {
    NewSegment { channel, start_ms, end_ms: start_ms + 900, text: text.into(), speaker: None }
}

fn recording(store: &Store) -> MeetingRecord {
    let meeting =
        MeetingRecord::new_recording("Standup".into(), "zoom".into(), vec!["Ann".into()], 1_000);
    store.insert_meeting(&meeting, 1_000).expect("insert");
    meeting
}

#[test]
fn a_stopped_recording_is_finished_by_live_transcription() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let meeting = recording(&store);
    assert_eq!(store.interrupted_meetings().expect("list")[0].id, meeting.id);
    let end = RecordingEnd { ended_at: 61_000, duration_ms: 60_000, error: None };
    let ended = store.end_recording(&meeting.id, &end, 61_000).expect("end");
    assert_eq!(ended.status, MeetingStatus::Transcribing);
    assert_eq!((ended.ended_at, ended.duration_ms), (Some(61_000), 60_000));
    // Transcribing with no job: if the service died now, recovery finds it.
    assert_eq!(store.interrupted_meetings().expect("list").len(), 1);
    assert!(store.finish_live_transcription(&meeting.id, Some("en"), 62_000).expect("finish"));
    let meeting_now = store.meeting(&meeting.id).expect("meeting");
    assert_eq!(meeting_now.status, MeetingStatus::Summarising);
    assert_eq!(meeting_now.language.as_deref(), Some("en"));
    assert!(store.interrupted_meetings().expect("list").is_empty());
    assert!(store.next_job().expect("read").is_some(), "a notes job");
}

#[test]
fn the_rest_of_each_channel_is_queued_and_notes_wait_for_both() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let meeting = recording(&store);
    store
        .insert_segments(
            &meeting.id,
            &[segment(Channel::Mic, 0, "hi"), segment(Channel::Sys, 4_000, "yo")],
        )
        .expect("segments");
    assert_eq!(store.transcript_end_ms(&meeting.id, Channel::Mic).expect("end"), 900);
    assert_eq!(store.transcript_end_ms(&meeting.id, Channel::Sys).expect("end"), 4_900);
    let error = Some("the microphone disappeared".to_owned());
    let end = RecordingEnd { ended_at: 61_000, duration_ms: 60_000, error };
    store.end_recording(&meeting.id, &end, 61_000).expect("end");
    let rest = |channel: Channel, from_ms| ChannelRest {
        channel,
        audio_path: format!("/data/{}.wav", channel.as_str()),
        from_ms,
    };
    store
        .queue_rest(&meeting.id, &[rest(Channel::Mic, 900), rest(Channel::Sys, 4_900)], 61_000)
        .expect("queue");
    assert!(!store.finish_live_transcription(&meeting.id, None, 61_000).expect("not yet"));

    let first = store.next_job().expect("read").expect("mic job");
    assert_eq!(first.resume_ms, 900);
    // A later channel's success does not wipe the reason the recording ended.
    let done = TranscriptionEnd { language: Some("en".into()), duration_ms: 60_000, error: None };
    assert!(!store.finish_transcription(&first, done.clone(), 62_000).expect("first"));
    assert_eq!(store.meeting(&meeting.id).expect("meeting").status, MeetingStatus::Transcribing);
    let second = store.next_job().expect("read").expect("sys job");
    assert_eq!(second.resume_ms, 4_900);
    assert!(store.finish_transcription(&second, done, 63_000).expect("second"));
    let meeting_now = store.meeting(&meeting.id).expect("meeting");
    assert_eq!(meeting_now.status, MeetingStatus::Summarising);
    assert_eq!(meeting_now.processing_error.as_deref(), Some("the microphone disappeared"));
    assert_eq!(meeting_now.attendees, vec!["Ann".to_string()]);
}

#[test]
fn a_recording_with_no_audio_goes_straight_to_notes() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let meeting = recording(&store);
    store.end_recording(&meeting.id, &RecordingEnd::default(), 2_000).expect("end");
    store.queue_rest(&meeting.id, &[], 2_000).expect("queue");
    assert_eq!(store.meeting(&meeting.id).expect("meeting").status, MeetingStatus::Summarising);
}
