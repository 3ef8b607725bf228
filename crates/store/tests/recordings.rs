//! Recordings hand over to the job queue: one transcription job per channel,
//! resuming where live transcription stopped; notes only after both.

use recorder_domain::{Channel, MeetingStatus};
use recorder_store::{
    ChannelRest, MeetingRecord, NewSegment, RecordingEnd, Store, TranscriptionEnd,
};

fn segment(channel: Channel, start_ms: i64, text: &str) -> NewSegment {
    NewSegment { channel, start_ms, end_ms: start_ms + 900, text: text.into() }
}

#[test]
fn a_recording_waits_for_both_channels_before_notes() {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    let meeting =
        MeetingRecord::new_recording("Standup".into(), "zoom".into(), vec!["Ann".into()], 1_000);
    store.insert_meeting(&meeting, 1_000).expect("insert");
    assert_eq!(store.recording_meetings().expect("list")[0].id, meeting.id);
    store
        .insert_segments(
            &meeting.id,
            &[segment(Channel::Mic, 0, "hi"), segment(Channel::Sys, 4_000, "yo")],
        )
        .expect("segments");
    assert_eq!(store.transcript_end_ms(&meeting.id, Channel::Mic).expect("end"), 900);
    assert_eq!(store.transcript_end_ms(&meeting.id, Channel::Sys).expect("end"), 4_900);

    let rest = |channel: Channel, from_ms| ChannelRest {
        channel,
        audio_path: format!("/data/{}.wav", channel.as_str()),
        from_ms,
    };
    let end = RecordingEnd {
        ended_at: 61_000,
        duration_ms: 60_000,
        error: Some("the microphone disappeared".into()),
        rest: vec![rest(Channel::Mic, 900), rest(Channel::Sys, 4_900)],
    };
    let ended = store.end_recording(&meeting.id, &end, 61_000).expect("end");
    assert_eq!(ended.status, MeetingStatus::Transcribing);
    assert_eq!((ended.ended_at, ended.duration_ms), (Some(61_000), 60_000));
    assert!(store.recording_meetings().expect("list").is_empty());

    let first = store.next_job().expect("read").expect("mic job");
    assert_eq!(first.resume_ms, 900);
    // A later channel's success does not wipe the reason the recording ended.
    let done = TranscriptionEnd { language: Some("en".into()), duration_ms: 60_000, error: None };
    assert!(!store.finish_transcription(&first, done.clone(), 62_000).expect("first"));
    let meeting_now = store.meeting(&meeting.id).expect("meeting");
    assert_eq!(meeting_now.status, MeetingStatus::Transcribing);
    let second = store.next_job().expect("read").expect("sys job");
    assert_eq!(second.resume_ms, 4_900);
    assert!(store.finish_transcription(&second, done, 63_000).expect("second"));
    let meeting_now = store.meeting(&meeting.id).expect("meeting");
    assert_eq!(meeting_now.status, MeetingStatus::Summarising);
    assert_eq!(meeting_now.processing_error.as_deref(), Some("the microphone disappeared"));
    assert_eq!(meeting_now.attendees, vec!["Ann".to_string()]);
}
