//! Live recordings: the meeting row while audio is captured, and the hand-over
//! to the job queue when capture ends (by a stop, a failure, or recovery
//! after a crash).

use recorder_domain::{Channel, MeetingStatus};
use rusqlite::params;

use crate::jobs::{insert_job, set_status, JobKind};
use crate::meetings::{meeting_by_id, meeting_seq};
use crate::{MeetingRecord, StoreResult};

impl MeetingRecord {
    /// A meeting being recorded from now on.
    pub fn new_recording(
        title: String,
        source_app: String,
        attendees: Vec<String>,
        started_at: i64,
    ) -> Self {
        MeetingRecord {
            id: recorder_domain::new_id(),
            title,
            source_app,
            started_at,
            ended_at: None,
            duration_ms: 0,
            status: MeetingStatus::Recording,
            language: None,
            starred: false,
            processing_error: None,
            attendees,
            tags: Vec::new(),
        }
    }
}

/// Audio of one channel still to be transcribed after capture ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelRest {
    pub channel: Channel,
    pub audio_path: String,
    /// Live transcription covered the audio before this point.
    pub from_ms: i64,
}

/// How a recording ended.
#[derive(Debug, Clone, Default)]
pub struct RecordingEnd {
    pub ended_at: i64,
    pub duration_ms: i64,
    /// Why it ended early (disk full, device gone, crash), kept on the meeting.
    pub error: Option<String>,
    pub rest: Vec<ChannelRest>,
}

impl crate::Store {
    /// Moves a recording meeting to `transcribing` and queues the rest of
    /// each channel, in one transaction. Returns the meeting as it now is.
    pub fn end_recording(
        &self,
        meeting_id: &str,
        end: &RecordingEnd,
        now: i64,
    ) -> StoreResult<MeetingRecord> {
        self.write(|tx| {
            tx.execute(
                "UPDATE meetings SET ended_at = ?2, duration_ms = ?3, \
                 processing_error = coalesce(?4, processing_error) WHERE id = ?1",
                params![meeting_id, end.ended_at, end.duration_ms, end.error],
            )?;
            for rest in &end.rest {
                let kind = JobKind::Transcribe {
                    source_path: rest.audio_path.clone(),
                    channel: rest.channel,
                };
                insert_job(tx, meeting_id, &kind, now, rest.from_ms)?;
            }
            if end.rest.is_empty() {
                // No audio reached the disk: nothing to transcribe.
                let notes = JobKind::Notes { note_kind: None, template_id: None };
                insert_job(tx, meeting_id, &notes, now, 0)?;
                set_status(tx, meeting_id, MeetingStatus::Summarising, now)?;
            } else {
                set_status(tx, meeting_id, MeetingStatus::Transcribing, now)?;
            }
            meeting_by_id(tx, meeting_id)
        })
    }

    /// Meetings still marked `recording`: at start-up, the ones a crash cut off.
    pub fn recording_meetings(&self) -> StoreResult<Vec<MeetingRecord>> {
        self.read(|db| {
            let ids: Vec<String> = db
                .prepare_cached("SELECT id FROM meetings WHERE status = 'recording' ORDER BY seq")?
                .query_map([], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            ids.iter().map(|id| meeting_by_id(db, id)).collect()
        })
    }

    /// Where the saved transcript of a channel ends (0 when it has none).
    pub fn transcript_end_ms(&self, meeting_id: &str, channel: Channel) -> StoreResult<i64> {
        self.read(|db| {
            let seq = meeting_seq(db, meeting_id)?;
            let end: Option<i64> = db.query_row(
                "SELECT max(end_ms) FROM segments WHERE meeting = ?1 AND channel = ?2",
                params![seq, channel.as_str()],
                |row| row.get(0),
            )?;
            Ok(end.unwrap_or(0))
        })
    }
}
