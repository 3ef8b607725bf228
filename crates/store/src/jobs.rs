//! The processing queue. A job is taken oldest first; its progress and its
//! results are written in the same transaction as its own update or removal,
//! so a crash at any point leaves either the old state or the new one.

use recorder_domain::{Channel, MeetingId, MeetingStatus};
use rusqlite::{params, OptionalExtension, Transaction};

use crate::meetings::insert_meeting;
use crate::parts::{ActionItemRecord, NewSegment, NoteRecord};
use crate::rows::meeting_seq;
use crate::status::{current_status, move_status};
use crate::{MeetingRecord, StoreError, StoreResult};

/// What a job does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobKind {
    /// Transcribe `source_path` into segments of `channel`.
    Transcribe { source_path: String, channel: Channel },
    /// Write notes: every kind (`note_kind` None, after transcription) or one.
    Notes { note_kind: Option<String>, template_id: Option<String> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRecord {
    pub seq: i64,
    pub meeting_id: MeetingId,
    pub kind: JobKind,
    pub resume_ms: i64,
    pub pass: Pass,
}

/// How a transcription job runs: with the configured model and language
/// (the default), or with those a pass over the meeting named; a pass over a
/// meeting that has a transcript is `staged` (see `again.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pass {
    pub model: Option<String>,
    pub language: Option<String>,
    pub staged: bool,
}

/// The results of a notes job.
#[derive(Debug, Clone, Default)]
pub struct NotesOutcome {
    pub notes: Vec<NoteRecord>,
    /// Replaces the meeting's action items when present.
    pub action_items: Option<Vec<ActionItemRecord>>,
    pub processing_error: Option<String>,
}

impl crate::Store {
    /// Creates a meeting together with the job that will fill it.
    pub fn insert_meeting_with_job(
        &self,
        meeting: &MeetingRecord,
        kind: &JobKind,
        now: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            insert_meeting(tx, meeting, now)?;
            insert_job(tx, &meeting.id, kind, &Pass::default(), now, 0)
        })
    }

    /// Queues a notes job for a ready meeting and marks it `summarising`.
    /// A meeting that is not `ready` (still being recorded or processed) is
    /// refused with `Busy`.
    pub fn enqueue_notes(
        &self,
        meeting_id: &MeetingId,
        note_kind: &str,
        template_id: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            let status = current_status(tx, meeting_id)?;
            if status != MeetingStatus::Ready {
                return Err(StoreError::Busy(status));
            }
            let kind = JobKind::Notes {
                note_kind: Some(note_kind.to_owned()),
                template_id: template_id.map(str::to_owned),
            };
            insert_job(tx, meeting_id, &kind, &Pass::default(), now, 0)?;
            move_status(tx, meeting_id, MeetingStatus::Summarising, now)
        })
    }

    /// Drops the meeting's notes regeneration (a job for one note kind, queued
    /// or stopped mid-run) and moves the meeting back to `ready`, keeping its
    /// earlier notes. False, and nothing written, when there is none. The
    /// notes a transcription queues (every kind) are not a regeneration and
    /// are never dropped here.
    pub fn drop_notes_regeneration(&self, meeting_id: &MeetingId, now: i64) -> StoreResult<bool> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            let dropped = tx.execute(
                "DELETE FROM jobs WHERE meeting = ?1 AND kind = 'notes' AND note_kind IS NOT NULL",
                [seq],
            )?;
            if dropped == 0 {
                return Ok(false);
            }
            if current_status(tx, meeting_id)? == MeetingStatus::Summarising {
                move_status(tx, meeting_id, MeetingStatus::Ready, now)?;
            }
            Ok(true)
        })
    }

    /// The oldest job, if any.
    pub fn next_job(&self) -> StoreResult<Option<JobRecord>> {
        self.read(|db| {
            let row = db
                .prepare_cached(
                    "SELECT j.seq, m.id, j.kind, j.source_path, j.channel, j.note_kind, \
                     j.template_id, j.resume_ms, j.model, j.language, j.staged \
                     FROM jobs j JOIN meetings m ON m.seq = j.meeting ORDER BY j.seq LIMIT 1",
                )?
                .query_row([], |row| {
                    let pass = Pass {
                        model: row.get(8)?,
                        language: row.get(9)?,
                        staged: row.get::<_, i64>(10)? == 1,
                    };
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, Option<String>>(4)?,
                        (row.get::<_, Option<String>>(5)?, row.get::<_, Option<String>>(6)?),
                        row.get::<_, i64>(7)?,
                        pass,
                    ))
                })
                .optional()?;
            let Some((seq, meeting_id, kind, source, channel, notes, resume_ms, pass)) = row else {
                return Ok(None);
            };
            let (note_kind, template_id) = notes;
            let kind = match kind.as_str() {
                "transcribe" => JobKind::Transcribe {
                    source_path: source.unwrap_or_default(),
                    channel: channel.as_deref().and_then(Channel::parse).unwrap_or(Channel::Sys),
                },
                _ => JobKind::Notes { note_kind, template_id },
            };
            Ok(Some(JobRecord { seq, meeting_id: meeting_id.into(), kind, resume_ms, pass }))
        })
    }

    /// Saves transcribed segments and the point to resume from, at once, and
    /// returns the lines' ids (none for a pass's staged lines).
    /// Segments at or after `from_ms` (from an interrupted earlier run) are
    /// replaced, so a resumed job never stores a segment twice.
    pub fn save_transcription_progress(
        &self,
        job: &JobRecord,
        segments: &[NewSegment],
        resume_ms: i64,
        duration_ms: i64,
    ) -> StoreResult<Vec<i64>> {
        self.write(|tx| {
            let seq = meeting_seq(tx, &job.meeting_id)?;
            tx.execute(
                "UPDATE jobs SET resume_ms = ?2, attempts = 1 WHERE seq = ?1",
                params![job.seq, resume_ms],
            )?;
            tx.execute(
                "UPDATE meetings SET duration_ms = max(duration_ms, ?2) WHERE seq = ?1",
                params![seq, duration_ms],
            )?;
            if job.pass.staged {
                crate::parts::insert_staged_rows(tx, seq, segments).map(|()| Vec::new())
            } else {
                crate::parts::insert_segment_rows(tx, seq, segments)
            }
        })
    }

    /// Counts a run of the job as started and returns how many runs have
    /// started since it last saved progress (this one included).
    pub fn begin_attempt(&self, job: &JobRecord) -> StoreResult<i64> {
        self.write(|tx| {
            tx.execute("UPDATE jobs SET attempts = attempts + 1 WHERE seq = ?1", [job.seq])?;
            let attempts = tx
                .query_row("SELECT attempts FROM jobs WHERE seq = ?1", [job.seq], |r| r.get(0))
                .optional()?;
            attempts.ok_or(StoreError::NotFound)
        })
    }

    /// A run that stopped on purpose (shutdown) does not count.
    pub fn cancel_attempt(&self, job: &JobRecord) -> StoreResult<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE jobs SET attempts = max(attempts - 1, 0) WHERE seq = ?1",
                [job.seq],
            )?;
            Ok(())
        })
    }

    /// Drops segments of `channel` left after `from_ms` by a run that stopped
    /// midway (the other channel of a recording keeps its own).
    pub fn discard_segments_after(
        &self,
        meeting_id: &MeetingId,
        channel: Channel,
        from_ms: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            tx.execute(
                "DELETE FROM segments WHERE meeting = ?1 AND channel = ?2 AND start_ms >= ?3",
                params![seq, channel.as_str(), from_ms],
            )?;
            Ok(())
        })
    }

    /// Ends a transcription job. When it was the meeting's last one (a
    /// recording has one per channel), the meeting moves to `summarising` and
    /// a notes job takes its place; returns whether it did. An `error` is kept
    /// on the meeting (an earlier one is not wiped by a later success).
    pub fn finish_transcription(
        &self,
        job: &JobRecord,
        ended: TranscriptionEnd,
        now: i64,
    ) -> StoreResult<bool> {
        if job.pass.staged {
            return self.finish_pass(job, ended, now);
        }
        self.write(|tx| {
            tx.execute("DELETE FROM jobs WHERE seq = ?1", [job.seq])?;
            tx.execute(
                "UPDATE meetings SET language = coalesce(?2, language), \
                 duration_ms = max(duration_ms, ?3), ended_at = coalesce(ended_at, started_at + ?3), \
                 processing_error = coalesce(?4, processing_error) WHERE id = ?1",
                params![job.meeting_id.as_str(), ended.language, ended.duration_ms, ended.error],
            )?;
            let seq = meeting_seq(tx, &job.meeting_id)?;
            let others: i64 = tx.query_row(
                "SELECT count(*) FROM jobs WHERE meeting = ?1 AND kind = 'transcribe'",
                [seq],
                |r| r.get(0),
            )?;
            if others > 0 {
                return Ok(false);
            }
            let notes = JobKind::Notes { note_kind: None, template_id: None };
            insert_job(tx, &job.meeting_id, &notes, &Pass::default(), now, 0)?;
            move_status(tx, &job.meeting_id, MeetingStatus::Summarising, now)?;
            Ok(true)
        })
    }

    /// Stores a notes job's results (keeping what the person wrote, see
    /// `kept.rs`), removes the job and marks the meeting ready.
    pub fn finish_notes(
        &self,
        job: &JobRecord,
        outcome: &NotesOutcome,
        now: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            let seq = meeting_seq(tx, &job.meeting_id)?;
            // A kind regenerated on purpose replaces the person's edited note
            // (which goes to the history); the automatic runs keep it.
            let on_purpose = matches!(&job.kind, JobKind::Notes { note_kind: Some(_), .. });
            for note in &outcome.notes {
                crate::kept::service_note(tx, seq, note, on_purpose, now)?;
            }
            if let Some(items) = &outcome.action_items {
                crate::kept::service_items(tx, seq, items, now)?;
            }
            if let Some(error) = &outcome.processing_error {
                tx.execute(
                    "UPDATE meetings SET processing_error = ?2 WHERE seq = ?1",
                    params![seq, error],
                )?;
            }
            tx.execute("DELETE FROM jobs WHERE seq = ?1", [job.seq])?;
            move_status(tx, &job.meeting_id, MeetingStatus::Ready, now)
        })
    }
}

/// How a transcription ended.
#[derive(Debug, Clone, Default)]
pub struct TranscriptionEnd {
    pub language: Option<String>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

pub(crate) fn insert_job(
    tx: &Transaction,
    meeting_id: &str,
    kind: &JobKind,
    pass: &Pass,
    now: i64,
    resume_ms: i64,
) -> StoreResult<()> {
    let seq = meeting_seq(tx, meeting_id)?;
    let (name, source, channel, note_kind, template_id) = match kind {
        JobKind::Transcribe { source_path, channel } => {
            ("transcribe", Some(source_path.as_str()), Some(channel.as_str()), None, None)
        }
        JobKind::Notes { note_kind, template_id } => {
            ("notes", None, None, note_kind.as_deref(), template_id.as_deref())
        }
    };
    tx.execute(
        "INSERT INTO jobs (meeting, kind, source_path, channel, note_kind, template_id, \
         created_at, resume_ms, model, language, staged) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            seq,
            name,
            source,
            channel,
            note_kind,
            template_id,
            now,
            resume_ms,
            pass.model,
            pass.language,
            i64::from(pass.staged)
        ],
    )?;
    Ok(())
}
