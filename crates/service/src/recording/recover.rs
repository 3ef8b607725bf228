//! Start-up recovery of meetings a crash left behind.
//!
//! - Still `recording`: capture was cut off. The journal files are repaired
//!   (every sample that reached the disk is kept) and the meeting moves on
//!   like a stopped recording, with an `error` event and a `processing_error`
//!   saying what happened.
//! - `transcribing` with no job: live transcription was finishing its queue.
//!   The rest of each channel, after its last saved line, is queued as a job.

use recorder_api_types::StopReason;
use recorder_capture::journal;
use recorder_domain::{Channel, MeetingStatus};
use recorder_store::{ChannelRest, MeetingRecord, RecordingEnd};

use super::session::hand_over;
use crate::base::clock::now_ms;
use crate::recording::context::RecordingContext;
use crate::state::{AppState, Core};

/// Concludes every interrupted meeting; false when one could not be (the
/// database refused, say on a full disk), to be tried again.
pub fn recover_interrupted(state: &AppState) -> bool {
    let meetings = match state.core.store.interrupted_meetings() {
        Ok(meetings) => meetings,
        Err(error) => {
            tracing::error!(%error, "cannot look for interrupted recordings");
            return false;
        }
    };
    let mut all = true;
    for meeting in meetings {
        let (rest, samples) = repaired_channels(&state.core, &meeting);
        if meeting.status == MeetingStatus::Recording {
            let ended = match state.work.recorder.stranded_end(&meeting.id) {
                // Stopped while running, its end not saved then: that end.
                Some(end) => hand_over(
                    &RecordingContext::of(state),
                    &meeting.id,
                    &end,
                    end.error.as_deref(),
                    StopReason::Error,
                ),
                None => end_cut_off_recording(state, &meeting, samples),
            };
            if !ended {
                all = false;
                continue;
            }
        }
        match state.core.store.queue_rest(&meeting.id, &rest, now_ms()) {
            Ok(()) => {
                tracing::info!(meeting_id = %meeting.id, "queued the untranscribed rest of a recording")
            }
            Err(error) => {
                tracing::error!(%error, meeting_id = %meeting.id, "cannot queue a recording's rest");
                all = false;
            }
        }
    }
    state.work.pipeline.wake();
    all
}

/// Repairs each channel's file; returns what is left to transcribe and the
/// longest channel's length in samples.
fn repaired_channels(core: &Core, meeting: &MeetingRecord) -> (Vec<ChannelRest>, u64) {
    let mut rest = Vec::new();
    let mut longest = 0u64;
    for channel in [Channel::Mic, Channel::Sys] {
        let path = core.data_dir.audio_file(&meeting.id, channel);
        if !path.exists() {
            continue;
        }
        match journal::repair(&path) {
            Ok(samples) => longest = longest.max(samples),
            Err(error) => {
                tracing::error!(%error, path = %path.display(), "cannot repair a recording's audio");
                continue;
            }
        }
        let from_ms = core.store.transcript_end_ms(&meeting.id, channel).unwrap_or(0);
        rest.push(ChannelRest {
            channel,
            audio_path: path.to_string_lossy().into_owned(),
            from_ms,
        });
    }
    (rest, longest)
}

fn end_cut_off_recording(state: &AppState, meeting: &MeetingRecord, samples: u64) -> bool {
    let duration_ms = (samples / 16) as i64;
    let message = format!(
        "The recording was cut off: the service stopped while recording. The {} of audio saved until then was recovered.",
        recorder_domain::text::clock(duration_ms)
    );
    tracing::warn!(meeting_id = %meeting.id, duration_ms, "recovered an interrupted recording");
    let end = RecordingEnd {
        ended_at: meeting.started_at + duration_ms,
        duration_ms,
        error: Some(message.clone()),
    };
    hand_over(&RecordingContext::of(state), &meeting.id, &end, Some(&message), StopReason::Error)
}
