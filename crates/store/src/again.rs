//! Transcribing a ready meeting again (another model or language): its jobs
//! write to `staged_segments`, and once every channel is done the transcript
//! is replaced in one transaction, each new line keeping the speaker of the
//! earlier line it overlaps most. A pass that fails leaves the earlier
//! transcript as it was.

use recorder_domain::{Channel, MeetingId, MeetingStatus};
use rusqlite::{params, Transaction};

use crate::jobs::{insert_job, JobKind, JobRecord, Pass, TranscriptionEnd};
use crate::rows::meeting_seq;
use crate::status::{current_status, move_status};
use crate::{StoreError, StoreResult};

impl crate::Store {
    /// Queues a staged transcription of each `(channel, audio file)` of a
    /// ready meeting with `pass`'s model and language, and marks it
    /// `transcribing`. A meeting that is not ready is refused with `Busy`.
    pub fn enqueue_transcription_again(
        &self,
        meeting_id: &MeetingId,
        pass: &Pass,
        sources: &[(Channel, String)],
        now: i64,
    ) -> StoreResult<()> {
        self.write(|tx| {
            let status = current_status(tx, meeting_id)?;
            if status != MeetingStatus::Ready {
                return Err(StoreError::Busy(status));
            }
            let seq = meeting_seq(tx, meeting_id)?;
            let queued: i64 =
                tx.query_row("SELECT count(*) FROM jobs WHERE meeting = ?1", [seq], |r| r.get(0))?;
            if queued > 0 {
                return Err(StoreError::Busy(MeetingStatus::Transcribing));
            }
            tx.execute("DELETE FROM staged_segments WHERE meeting = ?1", [seq])?;
            let staged = Pass { staged: true, ..pass.clone() };
            for (channel, source_path) in sources {
                let kind =
                    JobKind::Transcribe { source_path: source_path.clone(), channel: *channel };
                insert_job(tx, meeting_id, &kind, &staged, now, 0)?;
            }
            move_status(tx, meeting_id, MeetingStatus::Transcribing, now)
        })
    }

    /// Drops the lines of `channel` a run of `job` that stopped midway left
    /// after `from_ms`: from the transcript, or from a pass's staged lines.
    pub fn discard_job_segments_after(
        &self,
        job: &JobRecord,
        channel: Channel,
        from_ms: i64,
    ) -> StoreResult<()> {
        if !job.pass.staged {
            return self.discard_segments_after(&job.meeting_id, channel, from_ms);
        }
        self.write(|tx| {
            let seq = meeting_seq(tx, &job.meeting_id)?;
            discard_staged_after(tx, seq, channel, from_ms)
        })
    }

    /// Ends a job of a pass over a ready meeting. A failure abandons the
    /// pass (the earlier transcript stays; the error is kept on the meeting).
    /// The last job replaces the transcript with the pass's lines, sets the
    /// language it found, and queues the notes again (`summarising`).
    pub(crate) fn finish_pass(
        &self,
        job: &JobRecord,
        ended: TranscriptionEnd,
        now: i64,
    ) -> StoreResult<bool> {
        self.write(|tx| {
            if let Some(error) = &ended.error {
                let kept = format!("{error} (the earlier transcript is kept)");
                tx.execute(
                    "UPDATE meetings SET processing_error = ?2 WHERE id = ?1",
                    params![job.meeting_id.as_str(), kept],
                )?;
                abandon(tx, &job.meeting_id, now)?;
                return Ok(false);
            }
            tx.execute("DELETE FROM jobs WHERE seq = ?1", [job.seq])?;
            let seq = meeting_seq(tx, &job.meeting_id)?;
            let others: i64 = tx.query_row(
                "SELECT count(*) FROM jobs WHERE meeting = ?1 AND staged = 1",
                [seq],
                |r| r.get(0),
            )?;
            if others > 0 {
                return Ok(false);
            }
            replace_with_staged(tx, seq, now)?;
            tx.execute(
                "UPDATE meetings SET language = coalesce(?2, language), processing_error = NULL \
                 WHERE seq = ?1",
                params![seq, ended.language],
            )?;
            // The pass's notes are marked too, so they start no final pass.
            let notes = JobKind::Notes { note_kind: None, template_id: None };
            let of_pass = Pass { staged: true, ..Pass::default() };
            insert_job(tx, &job.meeting_id, &notes, &of_pass, now, 0)?;
            move_status(tx, &job.meeting_id, MeetingStatus::Summarising, now)?;
            Ok(true)
        })
    }
}

pub(crate) fn discard_staged_after(
    tx: &Transaction,
    meeting: i64,
    channel: Channel,
    from_ms: i64,
) -> StoreResult<()> {
    tx.execute(
        "DELETE FROM staged_segments WHERE meeting = ?1 AND channel = ?2 AND start_ms >= ?3",
        params![meeting, channel.as_str(), from_ms],
    )?;
    Ok(())
}

/// A failed pass: its other jobs and its lines go; the earlier transcript
/// stays and the meeting is ready again.
pub(crate) fn abandon(tx: &Transaction, meeting_id: &str, now: i64) -> StoreResult<()> {
    let seq = meeting_seq(tx, meeting_id)?;
    tx.execute("DELETE FROM jobs WHERE meeting = ?1 AND staged = 1", [seq])?;
    tx.execute("DELETE FROM staged_segments WHERE meeting = ?1", [seq])?;
    // Transcribing → Ready is no move a recording makes; a pass may.
    tx.execute(
        "UPDATE meetings SET status = 'ready', updated_at = ?2 WHERE seq = ?1 AND status = 'transcribing'",
        params![seq, now],
    )?;
    Ok(())
}

/// A line of the transcript being replaced: its speaker (number, and a name
/// given to it) passes to the new lines it overlaps; a line whose words the
/// person corrected is kept.
struct Earlier {
    seq: i64,
    channel: String,
    start_ms: i64,
    end_ms: i64,
    speaker: Option<i64>,
    given: Option<String>,
    corrected: bool,
}

/// The staged lines become the transcript, but for the lines the person
/// corrected, which stay as they are (staged lines overlapping one on its
/// channel are dropped). Each new line keeps the speaker of the earlier line
/// on its channel it overlaps most. The replacement is in the history.
pub(crate) fn replace_with_staged(tx: &Transaction, meeting: i64, now: i64) -> StoreResult<usize> {
    let earlier: Vec<Earlier> = tx
        .prepare(
            "SELECT seq, channel, start_ms, end_ms, speaker, speaker_name, machine_text IS NOT NULL \
             FROM segments WHERE meeting = ?1",
        )?
        .query_map([meeting], |r| {
            Ok(Earlier {
                seq: r.get(0)?,
                channel: r.get(1)?,
                start_ms: r.get(2)?,
                end_ms: r.get(3)?,
                speaker: r.get(4)?,
                given: r.get(5)?,
                corrected: r.get(6)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let staged: Vec<(String, i64, i64, String)> = tx
        .prepare(
            "SELECT channel, start_ms, end_ms, text FROM staged_segments WHERE meeting = ?1 \
             ORDER BY start_ms, seq",
        )?
        .query_map([meeting], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let corrected: Vec<&Earlier> = earlier.iter().filter(|line| line.corrected).collect();
    let mut delete = tx.prepare_cached("DELETE FROM segments WHERE seq = ?1")?;
    for line in earlier.iter().filter(|line| !line.corrected) {
        delete.execute([line.seq])?;
    }
    let mut insert = tx.prepare_cached(
        "INSERT INTO segments (meeting, channel, start_ms, end_ms, text, speaker, speaker_name) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut added = 0;
    for (channel, start_ms, end_ms, text) in &staged {
        let overlaps = |line: &&Earlier| {
            line.channel == *channel && line.start_ms < *end_ms && *start_ms < line.end_ms
        };
        if corrected.iter().any(overlaps) {
            continue;
        }
        let (speaker, given) = speaker_at(&earlier, channel, *start_ms, *end_ms);
        insert.execute(params![meeting, channel, start_ms, end_ms, text, speaker, given])?;
        added += 1;
    }
    tx.execute("DELETE FROM staged_segments WHERE meeting = ?1", [meeting])?;
    crate::kept::transcribed_again(tx, meeting, earlier.len(), added, corrected.len(), now)?;
    Ok(added)
}

/// The speaker of the earlier line on `channel` overlapping this span most
/// (the nearest one when none overlaps, within 2 s): its number and the name
/// given to that line.
fn speaker_at(
    earlier: &[Earlier],
    channel: &str,
    start_ms: i64,
    end_ms: i64,
) -> (Option<i64>, Option<String>) {
    let score = |line: &Earlier| {
        let overlap = end_ms.min(line.end_ms) - start_ms.max(line.start_ms);
        if overlap > 0 {
            overlap
        } else {
            -overlap.abs()
        }
    };
    earlier
        .iter()
        .filter(|line| line.channel == channel && (line.speaker.is_some() || line.given.is_some()))
        .map(|line| (score(line), line))
        .filter(|(score, _)| *score > -2_000)
        .max_by_key(|(score, _)| *score)
        .map_or((None, None), |(_, line)| (line.speaker, line.given.clone()))
}

#[cfg(test)]
mod tests {
    use super::{speaker_at, Earlier};

    fn line(start_ms: i64, end_ms: i64, speaker: i64) -> Earlier {
        Earlier {
            seq: 0,
            channel: "sys".into(),
            start_ms,
            end_ms,
            speaker: Some(speaker),
            given: None,
            corrected: false,
        }
    }

    #[test]
    fn a_new_line_keeps_the_speaker_it_overlaps_most() {
        let earlier = [line(0, 4_000, 1), line(4_000, 9_000, 2)];
        let number = |start, end, channel| speaker_at(&earlier, channel, start, end).0;
        assert_eq!(number(3_000, 8_000, "sys"), Some(2), "3 s with 2, 1 s with 1");
        assert_eq!(number(500, 3_500, "sys"), Some(1));
        assert_eq!(number(9_500, 10_000, "sys"), Some(2), "near the end of one");
        assert_eq!(number(20_000, 21_000, "sys"), None, "far from any");
        assert_eq!(number(0, 4_000, "mic"), None, "another channel");
    }
}
