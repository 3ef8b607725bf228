//! Telling the other side's speakers apart, once a meeting's transcript is
//! complete: the first step of the notes job that follows transcription (so
//! notes name owners by speaker, and a crash resumes it with the job). Reads
//! `meetings/<id>/sys.wav` (recorded, or the playback copy of an import),
//! diarizes it on the CPU, gives every `sys` segment its speaker, recognises
//! voices the person named in earlier meetings, and announces
//! `meeting.updated`. Without the speaker model, or without `sys` speech, the
//! other side stays one speaker, "Them".

use std::time::Instant;

use recorder_api_types::Event;
use recorder_domain::{Channel, MeetingId};
use recorder_store::{SpeakerRecord, SysSpan, VoiceRecord};
use recorder_stt::speaker::diarize::{diarize_stream, speaker_of, Diarization, DiarizeError};
use recorder_stt::vad::Gate;

use crate::state::AppState;

/// A remembered voice is taken for a speaker at least this alike (cosine of
/// their mean unit embeddings; measured in `bench/diarization.py`).
pub const RECOGNISED: f32 = 0.88;

/// Samples per millisecond (16 kHz).
const PER_MS: i64 = 16;

/// Whether the step ran to its end.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    Done,
    /// Shutdown came first; the job runs again at the next start.
    Stopped,
}

/// Tells the speakers of `meeting_id`'s `sys` channel apart, unless that was
/// done already (a job run again) or cannot be done (logged).
pub fn tell_apart(state: &AppState, meeting_id: &MeetingId) -> Result<Step, String> {
    let already = state.core.store.speakers(meeting_id).map_err(|e| e.to_string())?;
    let spans = state.core.store.sys_spans(meeting_id).map_err(|e| e.to_string())?;
    if !already.is_empty() || spans.is_empty() {
        return Ok(Step::Done);
    }
    let Some(model) = state.models.speakers.get() else {
        return Ok(Step::Done);
    };
    let path = state.core.data_dir.audio_file(meeting_id, Channel::Sys);
    if !path.is_file() {
        tracing::info!(%meeting_id, "speakers: no audio of the other side is kept");
        return Ok(Step::Done);
    }
    let began = Instant::now();
    let found = match recorder_stt::audio::open(&path, None).map_err(DiarizeError::from).and_then(
        |mut stream| {
            let gate = Gate::best(state.models.vad.get().as_ref());
            diarize_stream(&model, stream.as_mut(), gate, &|| state.core.shutdown.is_cancelled())
        },
    ) {
        Ok(found) => found,
        Err(DiarizeError::Stopped) => return Ok(Step::Stopped),
        Err(DiarizeError::Audio(error)) => {
            tracing::warn!(%meeting_id, %error, "speakers: the other side stays one speaker");
            return Ok(Step::Done);
        }
    };
    if found.voices.is_empty() {
        return Ok(Step::Done);
    }
    save(state, meeting_id, &found, &spans)?;
    tracing::info!(
        %meeting_id,
        speakers = found.voices.len(),
        seconds = began.elapsed().as_secs_f64(),
        "speakers told apart"
    );
    state.core.events.emit(Event::meeting_changed(meeting_id));
    Ok(Step::Done)
}

fn save(
    state: &AppState,
    meeting_id: &MeetingId,
    found: &Diarization,
    spans: &[SysSpan],
) -> Result<(), String> {
    let remembered = if state.effective_settings().transcription.remember_voices {
        state.core.store.voices().map_err(|e| e.to_string())?
    } else {
        Vec::new()
    };
    let names = recognise(&found.voices, &remembered);
    let speakers: Vec<SpeakerRecord> = found
        .voices
        .iter()
        .zip(names)
        .enumerate()
        .map(|(index, (voice, name))| SpeakerRecord {
            number: index as i64 + 1,
            name,
            voice: voice.clone(),
        })
        .collect();
    let labels: Vec<(i64, i64)> = spans
        .iter()
        .filter_map(|span| {
            let (start, end) = (samples(span.start_ms), samples(span.end_ms));
            speaker_of(&found.turns, start, end).map(|k| (span.seq, k as i64 + 1))
        })
        .collect();
    state.core.store.save_speakers(meeting_id, &speakers, &labels).map_err(|e| e.to_string())
}

fn samples(ms: i64) -> usize {
    usize::try_from(ms.max(0) * PER_MS).unwrap_or(usize::MAX)
}

/// The remembered name of each voice: the most alike pairs first, each name
/// given once, none below [`RECOGNISED`].
pub fn recognise(voices: &[Vec<f32>], remembered: &[VoiceRecord]) -> Vec<Option<String>> {
    let mut pairs: Vec<(f32, usize, usize)> = Vec::new();
    for (v, voice) in voices.iter().enumerate() {
        for (r, known) in remembered.iter().enumerate() {
            let likeness = recorder_stt::speaker::campplus::cosine(voice, &known.voice);
            if likeness >= RECOGNISED {
                pairs.push((likeness, v, r));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut names = vec![None; voices.len()];
    let mut used = vec![false; remembered.len()];
    for (_, v, r) in pairs {
        if names[v].is_none() && !used[r] {
            names[v] = Some(remembered[r].name.clone());
            used[r] = true;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remembered(name: &str, voice: Vec<f32>) -> VoiceRecord {
        VoiceRecord {
            id: name.into(),
            name: name.into(),
            voice,
            meetings: 1,
            created_at: 0,
            updated_at: 0,
        }
    }

    #[test]
    fn each_remembered_name_goes_to_the_most_alike_voice_once() {
        let dana = remembered("Dana", vec![1.0, 0.0, 0.0]);
        let eli = remembered("Eli", vec![0.0, 1.0, 0.0]);
        let voices = vec![vec![0.95, 0.1, 0.0], vec![0.99, 0.05, 0.0], vec![0.0, 0.0, 1.0]];
        let names = recognise(&voices, &[dana, eli]);
        assert_eq!(names, vec![None, Some("Dana".to_string()), None]);
    }

    #[test]
    fn a_voice_only_somewhat_alike_is_not_named() {
        let dana = remembered("Dana", vec![1.0, 0.0]);
        assert_eq!(recognise(&[vec![0.8, 0.6]], &[dana]), vec![None]);
    }
}
