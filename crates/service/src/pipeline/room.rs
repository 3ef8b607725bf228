//! Who is who on each channel once both are diarized: the other side's one
//! voice is "Them", several are "Speaker N"; on the microphone the laptop's
//! owner stays "Me" (no speaker row: a `mic` line without a speaker is the
//! owner's) and everyone else beside them is "In the room N".
//!
//! The owner is the voice most alike the owner's learned or enrolled voice
//! ([`OWNER_ALIKE`] at least), else the one who talks most (nearest the
//! microphone); any other voice as alike the owner's known one is the owner
//! too (one person the clustering split). A microphone voice alike one of
//! the other side's is that voice's echo, not a person in the room, and stays
//! the owner's.

use recorder_domain::Channel;
use recorder_store::{in_the_room, label_of, SpeakerRecord, THEM};
use recorder_stt::speaker::campplus::cosine;
use recorder_stt::speaker::diarize::{Diarization, Turn};

/// The owner's known voice is taken for a microphone voice at least this
/// alike (cosine of mean unit embeddings; on real voices, `bench/voices/`:
/// the owner's own voice at least 0.93, others in the room at most 0.53).
pub const OWNER_ALIKE: f32 = 0.7;
/// A microphone voice at least this alike one of the other side's is its echo.
pub const ECHO_ALIKE: f32 = 0.75;

/// Both channels' speakers, numbered across the meeting (the other side's
/// first), and which microphone voice is the owner's.
#[derive(Debug, Clone, PartialEq)]
pub struct Cast {
    pub speakers: Vec<SpeakerRecord>,
    /// For each `sys` voice, its speaker number.
    pub sys_numbers: Vec<i64>,
    /// For each `mic` voice, its speaker number (`None`: the owner, "Me").
    pub mic_numbers: Vec<Option<i64>>,
}

/// The cast of a meeting from its channels' diarizations and the owner's
/// known voice.
pub fn cast(sys: Option<&Diarization>, mic: Option<&Diarization>, owner: Option<&[f32]>) -> Cast {
    let mut speakers = Vec::new();
    let sys_voices = sys.map_or(&[][..], |d| &d.voices[..]);
    let sys_numbers: Vec<i64> = (1..=sys_voices.len() as i64).collect();
    for (voice, number) in sys_voices.iter().zip(&sys_numbers) {
        let key = if sys_voices.len() == 1 { THEM.to_string() } else { label_of(*number) };
        speakers.push(record(*number, Channel::Sys, key, voice));
    }
    let mut mic_numbers = Vec::new();
    if let Some(mic) = mic {
        let me = owner_of(mic, owner);
        let mut next = sys_numbers.len() as i64;
        let mut room = 0;
        for (index, voice) in mic.voices.iter().enumerate() {
            let echo = sys_voices.iter().any(|s| cosine(s, voice) >= ECHO_ALIKE);
            let mine = owner.is_some_and(|known| cosine(known, voice) >= OWNER_ALIKE);
            if index == me || echo || mine {
                mic_numbers.push(None);
                continue;
            }
            (next, room) = (next + 1, room + 1);
            speakers.push(record(next, Channel::Mic, in_the_room(room), voice));
            mic_numbers.push(Some(next));
        }
    }
    Cast { speakers, sys_numbers, mic_numbers }
}

fn record(number: i64, channel: Channel, key: String, voice: &[f32]) -> SpeakerRecord {
    SpeakerRecord { number, channel, key, name: None, voice: voice.to_vec() }
}

/// The owner among the microphone's voices.
pub fn owner_of(mic: &Diarization, owner: Option<&[f32]>) -> usize {
    let known = owner.and_then(|known| {
        let alike = mic.voices.iter().map(|v| cosine(v, known));
        let (best, likeness) = alike.enumerate().max_by(|a, b| a.1.total_cmp(&b.1))?;
        (likeness >= OWNER_ALIKE).then_some(best)
    });
    known.unwrap_or_else(|| most_talk(&mic.turns, mic.voices.len()))
}

/// The speaker with the most time in `turns`.
fn most_talk(turns: &[Turn], speakers: usize) -> usize {
    let mut talk = vec![0usize; speakers];
    for turn in turns {
        if let Some(t) = talk.get_mut(turn.speaker) {
            *t += turn.end - turn.start;
        }
    }
    (0..speakers).max_by_key(|s| talk[*s]).unwrap_or(0)
}

/// Samples of speech in `turns` (16 kHz).
pub fn speech(turns: &[Turn]) -> usize {
    turns.iter().map(|t| t.end - t.start).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voice(x: f32, y: f32) -> Vec<f32> {
        let norm = (x * x + y * y).sqrt();
        vec![x / norm, y / norm, 0.0]
    }

    fn turn(start: usize, end: usize, speaker: usize) -> Turn {
        Turn { start, end, speaker }
    }

    fn diarized(voices: Vec<Vec<f32>>, turns: Vec<Turn>) -> Diarization {
        Diarization { turns, voices }
    }

    #[test]
    fn the_other_sides_one_voice_is_them_and_several_are_numbered() {
        let one = diarized(vec![voice(1.0, 0.0)], vec![turn(0, 10, 0)]);
        let cast_one = cast(Some(&one), None, None);
        assert_eq!(cast_one.speakers[0].key, "Them");
        let two = diarized(vec![voice(1.0, 0.0), voice(0.0, 1.0)], vec![]);
        let keys: Vec<String> =
            cast(Some(&two), None, None).speakers.iter().map(|s| s.key.clone()).collect();
        assert_eq!(keys, ["Speaker 1", "Speaker 2"]);
    }

    #[test]
    fn the_owner_talks_most_unless_their_known_voice_says_otherwise() {
        let room = diarized(
            vec![voice(1.0, 0.0), voice(0.0, 1.0)],
            vec![turn(0, 100, 0), turn(100, 400, 1)],
        );
        assert_eq!(owner_of(&room, None), 1);
        assert_eq!(owner_of(&room, Some(&voice(1.0, 0.1))), 0);
        // A known voice like neither: the one who talks most.
        assert_eq!(owner_of(&room, Some(&[0.0, 0.0, 1.0])), 1);
        let made = cast(None, Some(&room), Some(&voice(1.0, 0.1)));
        assert_eq!(made.mic_numbers, vec![None, Some(1)]);
        assert_eq!(made.speakers[0].key, "In the room 1");
        assert_eq!(made.speakers[0].channel, Channel::Mic);
    }

    #[test]
    fn two_microphone_voices_both_like_the_owners_known_voice_are_both_me() {
        let split = diarized(
            vec![voice(1.0, 0.2), voice(1.0, -0.2), voice(0.0, 1.0)],
            vec![turn(0, 100, 0), turn(100, 200, 1), turn(200, 250, 2)],
        );
        let made = cast(None, Some(&split), Some(&voice(1.0, 0.0)));
        assert_eq!(made.mic_numbers, vec![None, None, Some(1)]);
    }

    #[test]
    fn a_microphone_voice_alike_the_other_side_is_its_echo_not_someone_in_the_room() {
        let sys = diarized(vec![voice(1.0, 0.0), voice(0.0, 1.0)], vec![]);
        let mic = diarized(
            vec![voice(1.0, 1.0), voice(0.05, 1.0), voice(-1.0, 0.2)],
            vec![turn(0, 500, 0), turn(500, 600, 1), turn(600, 700, 2)],
        );
        let made = cast(Some(&sys), Some(&mic), None);
        assert_eq!(made.sys_numbers, vec![1, 2]);
        assert_eq!(made.mic_numbers, vec![None, None, Some(3)]);
        assert_eq!(made.speakers[2].key, "In the room 1");
    }
}
