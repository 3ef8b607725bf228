//! The speakers of a meeting (the other side's, and the people in the room
//! beside the laptop's owner), the voices the person named, and the owner's.
//!
//! Diarization saves, in one transaction, each speaker's number, channel, key
//! and voice and every segment's speaker number. A speaker's label is its
//! name, else its key (`Speaker N`, `Them`, `In the room N`). Renaming follows through action-item owners and the notes. Named voices are
//! kept (when the person allows it) to recognise the speaker next time.

use recorder_domain::{new_id, Channel, MeetingId, VoiceId};
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::json;

use crate::history::{record, Author, Change};
use crate::rows::{label_of, meeting_seq};
use crate::{StoreError, StoreResult};

/// One speaker of a meeting.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeakerRecord {
    /// Unique within the meeting, across both channels.
    pub number: i64,
    pub channel: Channel,
    /// The label until named: `Speaker N`, `Them` or `In the room N`.
    pub key: String,
    pub name: Option<String>,
    pub voice: Vec<f32>,
}

impl SpeakerRecord {
    /// Speaker `number` of the other side, `Speaker N`.
    pub fn other_side(number: i64, name: Option<String>, voice: Vec<f32>) -> Self {
        Self { number, channel: Channel::Sys, key: label_of(number), name, voice }
    }

    /// What transcripts show: the name, else the key.
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.key.clone())
    }
}

/// The key of the other side's one voice.
pub const THEM: &str = "Them";

/// The key of the `n`th person in the room beside the owner.
pub fn in_the_room(n: usize) -> String {
    format!("In the room {n}")
}

/// The laptop owner's voice, as learned or enrolled.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnerVoice {
    pub voice: Vec<f32>,
    /// Meetings with one voice on the microphone it was learned from.
    pub meetings: i64,
    pub enrolled: bool,
    pub updated_at: i64,
}

/// A voice the person named.
#[derive(Debug, Clone, PartialEq)]
pub struct VoiceRecord {
    pub id: VoiceId,
    pub name: String,
    pub voice: Vec<f32>,
    pub meetings: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A segment's place and words, for giving it a speaker.
#[derive(Debug, Clone, PartialEq)]
pub struct SysSpan {
    pub seq: i64,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    /// Corrected by the person: its words are never split.
    pub edited: bool,
}

/// A segment given a speaker: its seq, channel and speaker number.
pub type SpeakerOfLine = (i64, Channel, i64);

/// A line that runs across a turn, cut in two where the speaker changes:
/// the line keeps `first` up to `at_ms`, a new line holds `second` from it.
#[derive(Debug, Clone, PartialEq)]
pub struct LineCut {
    pub seq: i64,
    pub channel: Channel,
    pub at_ms: i64,
    pub first: String,
    pub second: String,
    /// Speaker numbers of each half (`None`: the channel's own, "Me").
    pub speakers: (Option<i64>, Option<i64>),
}

fn insert_speakers(
    tx: &Transaction,
    seq: i64,
    speakers: &[SpeakerRecord],
    live: bool,
) -> StoreResult<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO speakers (meeting, number, name, voice, channel, key, live) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for speaker in speakers {
        let key = (speaker.key != label_of(speaker.number)).then_some(&speaker.key);
        let voice = voice_bytes(&speaker.voice);
        let channel = speaker.channel.as_str();
        insert.execute(params![seq, speaker.number, speaker.name, voice, channel, key, live])?;
    }
    Ok(())
}

fn set_line_speakers(tx: &Transaction, seq: i64, segments: &[SpeakerOfLine]) -> StoreResult<()> {
    let mut update = tx.prepare_cached(
        "UPDATE segments SET speaker = ?3 WHERE meeting = ?1 AND seq = ?2 AND channel = ?4",
    )?;
    for (segment, channel, number) in segments {
        update.execute(params![seq, segment, number, channel.as_str()])?;
    }
    Ok(())
}

pub(crate) fn voice_bytes(voice: &[f32]) -> Vec<u8> {
    voice.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(crate) fn voice_of(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

impl crate::Store {
    /// The `sys` segments of a meeting, in order.
    pub fn sys_spans(&self, meeting_id: &MeetingId) -> StoreResult<Vec<SysSpan>> {
        self.spans(meeting_id, Channel::Sys)
    }

    /// The segments of one channel of a meeting, in order.
    pub fn spans(&self, meeting_id: &MeetingId, channel: Channel) -> StoreResult<Vec<SysSpan>> {
        self.read(|db| {
            let seq = meeting_seq(db, meeting_id)?;
            let mut query = db.prepare_cached(
                "SELECT seq, start_ms, end_ms, text, edited FROM segments \
                 WHERE meeting = ?1 AND channel = ?2 ORDER BY start_ms, seq",
            )?;
            let rows = query.query_map(params![seq, channel.as_str()], |row| {
                Ok(SysSpan {
                    seq: row.get(0)?,
                    start_ms: row.get(1)?,
                    end_ms: row.get(2)?,
                    text: row.get(3)?,
                    edited: row.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Replaces a meeting's speakers and sets each listed segment's speaker
    /// number (a segment of another channel than its speaker's is left
    /// alone), in one transaction.
    pub fn save_speakers(
        &self,
        meeting_id: &MeetingId,
        speakers: &[SpeakerRecord],
        segments: &[SpeakerOfLine],
    ) -> StoreResult<()> {
        self.save_speakers_cutting(meeting_id, speakers, segments, &[])
    }

    /// As [`Self::save_speakers`], and cuts the lines of `cuts` in two where
    /// their speaker changes (a corrected line is never cut), in the same
    /// transaction.
    pub fn save_speakers_cutting(
        &self,
        meeting_id: &MeetingId,
        speakers: &[SpeakerRecord],
        segments: &[SpeakerOfLine],
        cuts: &[LineCut],
    ) -> StoreResult<()> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            tx.execute("UPDATE segments SET speaker = NULL WHERE meeting = ?1", [seq])?;
            tx.execute("DELETE FROM speakers WHERE meeting = ?1", [seq])?;
            insert_speakers(tx, seq, speakers, false)?;
            set_line_speakers(tx, seq, segments)?;
            cuts.iter().try_for_each(|cut| cut_line(tx, seq, cut))
        })
    }

    /// Saves the speakers told apart so far of a meeting that is recording
    /// (marked live, until [`Self::save_speakers_cutting`] settles them) and
    /// each listed segment's speaker number (not of a line the person
    /// corrected), in one transaction; `false`
    /// (nothing changed) once the meeting no longer records.
    pub fn save_live_speakers(
        &self,
        meeting_id: &MeetingId,
        speakers: &[SpeakerRecord],
        segments: &[SpeakerOfLine],
    ) -> StoreResult<bool> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            let status: String =
                tx.query_row("SELECT status FROM meetings WHERE seq = ?1", [seq], |r| r.get(0))?;
            if status != "recording" {
                return Ok(false);
            }
            // A line the person corrected keeps what they gave it.
            let unedited = "UPDATE segments SET speaker = NULL WHERE meeting = ?1 AND edited = 0";
            tx.execute(unedited, [seq])?;
            tx.execute("DELETE FROM speakers WHERE meeting = ?1", [seq])?;
            insert_speakers(tx, seq, speakers, true)?;
            let mut update = tx.prepare_cached(
                "UPDATE segments SET speaker = ?3 \
                 WHERE meeting = ?1 AND seq = ?2 AND channel = ?4 AND edited = 0",
            )?;
            for (segment, channel, number) in segments {
                update.execute(params![seq, segment, number, channel.as_str()])?;
            }
            Ok(true)
        })
    }

    /// Whether a meeting's speakers are the live ones, not settled yet.
    pub fn speakers_are_live(&self, meeting_id: &MeetingId) -> StoreResult<bool> {
        self.read(|db| {
            let seq = meeting_seq(db, meeting_id)?;
            let live = "SELECT EXISTS (SELECT 1 FROM speakers WHERE meeting = ?1 AND live = 1)";
            Ok(db.query_row(live, [seq], |row| row.get(0))?)
        })
    }

    /// A meeting's speakers, by number.
    pub fn speakers(&self, meeting_id: &MeetingId) -> StoreResult<Vec<SpeakerRecord>> {
        self.read(|db| {
            let seq = meeting_seq(db, meeting_id)?;
            speaker_rows(db, seq)
        })
    }

    /// Renames speakers (`None`: back to `Speaker N`), the owners of action
    /// items and the notes that carried an old label, records each rename in
    /// the history (by `renamed.author`, undoable), and (with
    /// `renamed.remember`) remembers each named voice, all in one transaction.
    /// Returns every speaker. Unknown numbers change nothing and are `NotFound`.
    pub fn rename_speakers(
        &self,
        meeting_id: &MeetingId,
        names: &[(i64, Option<String>)],
        renamed: Renamed,
    ) -> StoreResult<Vec<SpeakerRecord>> {
        self.write(|tx| {
            let seq = meeting_seq(tx, meeting_id)?;
            let before = speaker_rows(tx, seq)?;
            for (number, name) in names {
                let old =
                    before.iter().find(|s| s.number == *number).ok_or(StoreError::NotFound)?;
                if old.name != *name {
                    rename_one(tx, seq, old, name.as_deref())?;
                    record_rename(tx, seq, (old, name.as_deref()), &renamed)?;
                }
                if let (true, Some(name)) = (renamed.remember, name) {
                    remember_voice(tx, name, &old.voice, renamed.now)?;
                }
            }
            speaker_rows(tx, seq)
        })
    }

    /// Names the person gave to speakers in meetings before `before` (a
    /// meeting's start time) and to remembered voices, the most recently used
    /// first, at most `limit`: the people likely to be heard again.
    pub fn known_names(&self, before: i64, limit: i64) -> StoreResult<Vec<String>> {
        self.read(|db| {
            let mut query = db.prepare_cached(
                "SELECT name FROM ( \
                   SELECT s.name AS name, m.started_at AS used FROM speakers s \
                   JOIN meetings m ON m.seq = s.meeting \
                   WHERE s.name IS NOT NULL AND m.started_at < ?1 \
                   UNION ALL SELECT name, updated_at FROM voices) \
                 GROUP BY name ORDER BY max(used) DESC, name LIMIT ?2",
            )?;
            let rows = query.query_map(params![before, limit], |row| row.get(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Every remembered voice, by name.
    pub fn voices(&self) -> StoreResult<Vec<VoiceRecord>> {
        self.read(|db| {
            let mut query = db.prepare_cached(
                "SELECT id, name, voice, meetings, created_at, updated_at FROM voices ORDER BY name",
            )?;
            let rows = query.query_map([], |row| {
                let bytes: Vec<u8> = row.get(2)?;
                Ok(VoiceRecord {
                    id: row.get::<_, String>(0)?.into(),
                    name: row.get(1)?,
                    voice: voice_of(&bytes),
                    meetings: row.get(3)?,
                    created_at: row.get(4)?,
                    updated_at: row.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The laptop owner's voice, when learned or enrolled.
    pub fn owner_voice(&self) -> StoreResult<Option<OwnerVoice>> {
        self.read(|db| {
            Ok(db
                .prepare_cached(
                    "SELECT voice, meetings, enrolled, updated_at FROM owner_voice WHERE id = 1",
                )?
                .query_row([], |row| {
                    let bytes: Vec<u8> = row.get(0)?;
                    Ok(OwnerVoice {
                        voice: voice_of(&bytes),
                        meetings: row.get(1)?,
                        enrolled: row.get(2)?,
                        updated_at: row.get(3)?,
                    })
                })
                .optional()?)
        })
    }

    /// Folds the voice of a meeting whose microphone had one voice into the
    /// owner's (an enrolled voice keeps its weight of one meeting).
    pub fn learn_owner_voice(&self, voice: &[f32], now: i64) -> StoreResult<()> {
        self.write(|tx| {
            let known = tx
                .prepare_cached("SELECT voice, meetings, enrolled FROM owner_voice WHERE id = 1")?
                .query_row([], |row| {
                    Ok((row.get::<_, Vec<u8>>(0)?, row.get::<_, i64>(1)?, row.get::<_, bool>(2)?))
                })
                .optional()?;
            let (mean, meetings, enrolled) = match known {
                None => (voice.to_vec(), 1, false),
                Some((bytes, meetings, enrolled)) => {
                    let weight = meetings + i64::from(enrolled);
                    (folded(&voice_of(&bytes), weight, voice), meetings + 1, enrolled)
                }
            };
            put_owner_voice(tx, &OwnerVoice { voice: mean, meetings, enrolled, updated_at: now })
        })
    }

    /// Sets the owner's voice from an enrolment reading, in place of any
    /// voice learned before.
    pub fn enrol_owner_voice(&self, voice: &[f32], now: i64) -> StoreResult<()> {
        self.write(|tx| {
            let enrolled =
                OwnerVoice { voice: voice.to_vec(), meetings: 0, enrolled: true, updated_at: now };
            put_owner_voice(tx, &enrolled)
        })
    }

    /// Forgets the owner's voice; `NotFound` when none was kept.
    pub fn forget_owner_voice(&self) -> StoreResult<()> {
        self.write(|tx| match tx.execute("DELETE FROM owner_voice", [])? {
            0 => Err(StoreError::NotFound),
            _ => Ok(()),
        })
    }

    /// Forgets one remembered voice.
    pub fn delete_voice(&self, id: &VoiceId) -> StoreResult<()> {
        self.write(|tx| match tx.execute("DELETE FROM voices WHERE id = ?1", [id.as_str()])? {
            0 => Err(StoreError::NotFound),
            _ => Ok(()),
        })
    }
}

fn cut_line(tx: &Transaction, meeting: i64, cut: &LineCut) -> StoreResult<()> {
    let end_ms: Option<i64> = tx
        .prepare_cached(
            "SELECT end_ms FROM segments WHERE meeting = ?1 AND seq = ?2 AND channel = ?3 \
               AND edited = 0 AND start_ms < ?4 AND end_ms > ?4",
        )?
        .query_row(params![meeting, cut.seq, cut.channel.as_str(), cut.at_ms], |row| row.get(0))
        .optional()?;
    let Some(end_ms) = end_ms else {
        return Ok(());
    };
    tx.prepare_cached("UPDATE segments SET end_ms = ?2, text = ?3, speaker = ?4 WHERE seq = ?1")?
        .execute(params![cut.seq, cut.at_ms, cut.first, cut.speakers.0])?;
    tx.prepare_cached(
        "INSERT INTO segments (meeting, channel, start_ms, end_ms, text, speaker) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        meeting,
        cut.channel.as_str(),
        cut.at_ms,
        end_ms,
        cut.second,
        cut.speakers.1
    ])?;
    Ok(())
}

fn put_owner_voice(tx: &Transaction, owner: &OwnerVoice) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO owner_voice (id, voice, meetings, enrolled, updated_at) \
         VALUES (1, ?1, ?2, ?3, ?4) ON CONFLICT (id) DO UPDATE SET voice = ?1, meetings = ?2, \
         enrolled = ?3, updated_at = ?4",
        params![voice_bytes(&owner.voice), owner.meetings, owner.enrolled, owner.updated_at],
    )?;
    Ok(())
}

/// Remembers `voice` as `name`'s: a new voice, or folded into the mean of
/// the one of that name.
fn remember_voice(tx: &Transaction, name: &str, voice: &[f32], now: i64) -> StoreResult<()> {
    let known: Option<(Vec<u8>, i64)> = tx
        .prepare_cached("SELECT voice, meetings FROM voices WHERE name = ?1")?
        .query_row([name], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    match known {
        None => {
            tx.execute(
                "INSERT INTO voices (id, name, voice, meetings, created_at, updated_at) \
                 VALUES (?1, ?2, ?3, 1, ?4, ?4)",
                params![new_id(), name, voice_bytes(voice), now],
            )?;
        }
        Some((bytes, meetings)) => {
            let mean = folded(&voice_of(&bytes), meetings, voice);
            tx.execute(
                "UPDATE voices SET voice = ?2, meetings = ?3, updated_at = ?4 WHERE name = ?1",
                params![name, voice_bytes(&mean), meetings + 1, now],
            )?;
        }
    }
    Ok(())
}

/// Who renames speakers, when, and whether the named voices are remembered.
pub struct Renamed<'a> {
    pub author: &'a Author,
    pub now: i64,
    /// Remember each named voice to recognise it next time.
    pub remember: bool,
}

/// The history row of `speaker` renamed to `new` (None: back to its key):
/// target `speaker_name:<number>`, undone through [`set_name`].
fn record_rename(
    tx: &Transaction,
    meeting: i64,
    (speaker, new): (&SpeakerRecord, Option<&str>),
    renamed: &Renamed,
) -> StoreResult<()> {
    let (number, old) = (speaker.number, speaker.name.as_deref());
    let was = speaker.label();
    let summary = match new {
        Some(name) => format!("Named {was} “{name}”"),
        None => format!("Took the name “{was}” from {}", speaker.key),
    };
    let change = Change {
        target: format!("speaker_name:{number}"),
        before: Some(json!({ "number": number, "name": old })),
        after: Some(json!({ "number": number, "name": new })),
        summary,
        fold: false,
        author: renamed.author,
    };
    record(tx, meeting, change, renamed.now).map(drop)
}

/// Gives speaker `number` the name `wanted` (None: `Speaker N`) as a rename
/// does (owners and notes follow), for an undo. Returns the name it had;
/// `NotFound` when the meeting has no such speaker.
pub(crate) fn set_name(
    tx: &Transaction,
    meeting: i64,
    number: i64,
    wanted: Option<&str>,
) -> StoreResult<Option<String>> {
    let current = speaker_rows(tx, meeting)?.into_iter().find(|s| s.number == number);
    let current = current.ok_or(StoreError::NotFound)?;
    rename_one(tx, meeting, &current, wanted)?;
    Ok(current.name)
}

fn rename_one(
    tx: &Transaction,
    meeting: i64,
    speaker: &SpeakerRecord,
    name: Option<&str>,
) -> StoreResult<()> {
    let old_label = speaker.label();
    let new_label = name.map_or_else(|| speaker.key.clone(), str::to_string);
    tx.execute(
        "UPDATE speakers SET name = ?3 WHERE meeting = ?1 AND number = ?2",
        params![meeting, speaker.number, name],
    )?;
    tx.execute(
        "UPDATE action_items SET owner = ?3 WHERE meeting = ?1 AND owner = ?2",
        params![meeting, old_label, new_label],
    )?;
    rename_in_notes(tx, meeting, &old_label, &new_label)
}

/// Notes name speakers by label (key points, owners): the old label, as a
/// whole word, becomes the new one.
fn rename_in_notes(
    tx: &Transaction,
    meeting: i64,
    old_label: &str,
    new_label: &str,
) -> StoreResult<()> {
    let notes: Vec<(i64, String)> = tx
        .prepare_cached("SELECT seq, content_md FROM notes WHERE meeting = ?1")?
        .query_map([meeting], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut update = tx.prepare_cached("UPDATE notes SET content_md = ?2 WHERE seq = ?1")?;
    for (seq, content) in notes {
        let renamed = replace_label(&content, old_label, new_label);
        if renamed != content {
            update.execute(params![seq, renamed])?;
        }
    }
    Ok(())
}

/// `text` with every whole-word `old` (no letter or digit either side)
/// replaced by `new`: `Speaker 1` is not the start of `Speaker 12`.
pub(crate) fn replace_label(text: &str, old: &str, new: &str) -> String {
    if old.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let before = rest[..at].chars().next_back().or_else(|| out.chars().next_back());
        let after = rest[at + old.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        out.push_str(if word(before) || word(after) { old } else { new });
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

/// The running mean of `meetings` unit voices and one more, as a unit vector.
fn folded(mean: &[f32], meetings: i64, voice: &[f32]) -> Vec<f32> {
    let weight = meetings as f32;
    let sum: Vec<f32> = mean.iter().zip(voice).map(|(m, v)| m * weight + v).collect();
    let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::EPSILON);
    sum.iter().map(|x| x / norm).collect()
}

fn speaker_rows(db: &Connection, meeting: i64) -> StoreResult<Vec<SpeakerRecord>> {
    let mut query = db.prepare_cached(
        "SELECT number, name, voice, channel, key FROM speakers WHERE meeting = ?1 ORDER BY number",
    )?;
    let rows = query.query_map([meeting], |row| {
        let bytes: Vec<u8> = row.get(2)?;
        let number = row.get(0)?;
        let channel: String = row.get(3)?;
        Ok(SpeakerRecord {
            number,
            channel: Channel::parse(&channel).unwrap_or(Channel::Sys),
            key: row.get::<_, Option<String>>(4)?.unwrap_or_else(|| label_of(number)),
            name: row.get(1)?,
            voice: voice_of(&bytes),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voices_survive_the_round_trip_through_bytes() {
        let voice = vec![0.25, -1.5, 3.0e-7];
        assert_eq!(voice_of(&voice_bytes(&voice)), voice);
    }

    #[test]
    fn labels_are_replaced_as_whole_words_only() {
        let text = "- **Speaker 1:** budget. Speaker 12 agreed; ask Speaker 1.";
        assert_eq!(
            replace_label(text, "Speaker 1", "Dana"),
            "- **Dana:** budget. Speaker 12 agreed; ask Dana."
        );
        assert_eq!(replace_label("Danae and Dana", "Dana", "Eli"), "Danae and Eli");
    }

    #[test]
    fn a_voice_folded_in_moves_the_mean_by_its_share() {
        let mean = folded(&[1.0, 0.0], 3, &[0.0, 1.0]);
        assert!((mean[0] - 0.948_683).abs() < 1e-5, "{mean:?}");
        assert!((mean[1] - 0.316_228).abs() < 1e-5, "{mean:?}");
    }
}
