//! Live recordings: the meeting row while audio is captured, and the hand-over
//! to the job queue when capture ends (by a stop, a failure, or recovery
//! after a crash).

use recorder_domain::{Channel, MeetingId, MeetingStatus};
use rusqlite::{params, Transaction};

use crate::jobs::{insert_job, JobKind, Pass};
use crate::meetings::meeting_by_id;
use crate::rows::meeting_seq;
use crate::status::move_status;
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
            id: MeetingId::generate(),
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
            vocabulary: Vec::new(),
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
}

impl crate::Store {
    /// Moves a recording meeting to `transcribing`: capture is over, its
    /// live transcription finishes the queue (or jobs do, see [`Self::queue_rest`]).
    pub fn end_recording(
        &self,
        meeting_id: &MeetingId,
        end: &RecordingEnd,
        now: i64,
    ) -> StoreResult<MeetingRecord> {
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE meetings SET ended_at = ?2, duration_ms = ?3, \
                 processing_error = coalesce(?4, processing_error) WHERE id = ?1",
                params![meeting_id.as_str(), end.ended_at, end.duration_ms, end.error],
            )?;
            if changed == 0 {
                return Err(crate::StoreError::NotFound);
            }
            move_status(tx, meeting_id, MeetingStatus::Transcribing, now)?;
            meeting_by_id(tx, meeting_id)
        })
    }

    /// Queues what live transcription did not cover, one job per channel.
    /// With nothing to transcribe, the meeting goes straight to notes.
    pub fn queue_rest(
        &self,
        meeting_id: &MeetingId,
        rest: &[ChannelRest],
        now: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            for part in rest {
                let kind = JobKind::Transcribe {
                    source_path: part.audio_path.clone(),
                    channel: part.channel,
                };
                insert_job(tx, meeting_id, &kind, &Pass::default(), now, part.from_ms)?;
            }
            if rest.is_empty() {
                to_notes(tx, meeting_id, now)?;
            }
            Ok(())
        })
    }

    /// Live transcription finished the whole recording: on to notes (unless
    /// jobs still hold part of it). Returns whether the meeting moved on.
    pub fn finish_live_transcription(
        &self,
        meeting_id: &MeetingId,
        language: Option<&str>,
        now: i64,
    ) -> StoreResult<bool> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            tx.execute(
                "UPDATE meetings SET language = coalesce(?2, language) WHERE seq = ?1",
                params![seq, language],
            )?;
            if pending_transcription(tx, seq)? {
                return Ok(false);
            }
            to_notes(tx, meeting_id, now)?;
            Ok(true)
        })
    }

    /// Meetings a crash left behind, at start-up: those still `recording`,
    /// and those `transcribing` with no job (their live transcription was
    /// finishing the queue).
    pub fn interrupted_meetings(&self) -> StoreResult<Vec<MeetingRecord>> {
        self.read(|db| {
            let ids: Vec<String> = db
                .prepare_cached(
                    "SELECT id FROM meetings m WHERE status = 'recording' OR (status = 'transcribing' \
                     AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.meeting = m.seq)) ORDER BY seq",
                )?
                .query_map([], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            ids.iter().map(|id| meeting_by_id(db, id)).collect()
        })
    }

    /// Where the saved transcript of a channel ends (0 when it has none).
    pub fn transcript_end_ms(&self, meeting_id: &MeetingId, channel: Channel) -> StoreResult<i64> {
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

fn pending_transcription(tx: &Transaction, seq: i64) -> StoreResult<bool> {
    Ok(tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM jobs WHERE meeting = ?1 AND kind = 'transcribe')",
        [seq],
        |r| r.get(0),
    )?)
}

fn to_notes(tx: &Transaction, meeting_id: &str, now: i64) -> StoreResult<()> {
    let notes = JobKind::Notes { note_kind: None, template_id: None };
    insert_job(tx, meeting_id, &notes, &Pass::default(), now, 0)?;
    move_status(tx, meeting_id, MeetingStatus::Summarising, now)
}
