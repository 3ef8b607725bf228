//! Telling the speakers apart, once a meeting's transcript is complete: the
//! first step of the notes job that follows transcription (so notes name
//! owners by speaker, and a crash resumes it with the job). Diarizes
//! `meetings/<id>/sys.wav` (recorded, or the playback copy of an import) and
//! `mic.wav` (where its kept lines are) on the CPU, gives every line its
//! speaker ([`super::room`]: "Them" or "Speaker N"; "Me" or "In the room N"),
//! recognises voices the person named in earlier meetings, learns the
//! owner's voice from a microphone with one voice, and announces
//! `meeting.updated`. Without the speaker model, or without speech, each
//! channel stays one speaker, "Me" and "Them".

use std::time::Instant;

use recorder_api_types::Event;
use recorder_domain::{Channel, MeetingId};
use recorder_store::{LineCut, SpeakerOfLine, SysSpan, VoiceRecord};
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::channel::ChannelSpeakers;
use recorder_stt::speaker::diarize::{speaker_of, Diarization, DiarizeError};
use recorder_stt::vad::Gate;

use super::cuts::cut;
use super::room::{cast, speech, Cast};
use crate::base::clock::now_ms;
use crate::state::AppState;

/// A remembered voice is taken for a speaker at least this alike (cosine of
/// their mean unit embeddings; measured in `bench/diarization.py`).
pub const RECOGNISED: f32 = 0.82;

/// Samples per millisecond (16 kHz).
const PER_MS: i64 = 16;

/// The owner's voice is learned only from a microphone with at least this
/// much speech of one voice (samples, 20 s).
const LEARNED_FROM: usize = 20 * 16_000;

/// Whether the step ran to its end.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    Done,
    /// Shutdown came first; the job runs again at the next start.
    Stopped,
}

/// Tells the speakers of `meeting_id`'s channels apart, unless that was
/// done already (a job run again) or cannot be done (logged).
pub fn tell_apart(state: &AppState, meeting_id: &MeetingId) -> Result<Step, String> {
    let store = &state.core.store;
    let already = store.speakers(meeting_id).map_err(|e| e.to_string())?;
    let sys_spans = store.spans(meeting_id, Channel::Sys).map_err(|e| e.to_string())?;
    let mic_spans = store.spans(meeting_id, Channel::Mic).map_err(|e| e.to_string())?;
    // Speakers told apart while recording are settled here.
    let live =
        !already.is_empty() && store.speakers_are_live(meeting_id).map_err(|e| e.to_string())?;
    if (!already.is_empty() && !live) || (sys_spans.is_empty() && mic_spans.is_empty()) {
        return Ok(Step::Done);
    }
    let Some(model) = state.models.speakers.get() else {
        return Ok(Step::Done);
    };
    let began = Instant::now();
    let Some(sys) = channel(state, &model, meeting_id, (Channel::Sys, &sys_spans))? else {
        return Ok(Step::Stopped);
    };
    let Some(mic) = channel(state, &model, meeting_id, (Channel::Mic, &mic_spans))? else {
        return Ok(Step::Stopped);
    };
    if sys.is_none() && mic.is_none() {
        if live {
            store.save_speakers(meeting_id, &[], &[]).map_err(|e| e.to_string())?;
        }
        return Ok(Step::Done);
    }
    let remember = state.effective_settings().transcription.remember_voices;
    let owner = store.owner_voice().map_err(|e| e.to_string())?;
    let cast = cast(sys.as_ref(), mic.as_ref(), owner.as_ref().map(|o| &o.voice[..]));
    save(state, meeting_id, cast, (&sys, &sys_spans), (&mic, &mic_spans))?;
    if let (true, Some(mic)) = (remember, &mic) {
        learn_owner(state, mic)?;
    }
    tracing::info!(
        %meeting_id,
        sys = sys.as_ref().map_or(0, |d| d.voices.len()),
        mic = mic.as_ref().map_or(0, |d| d.voices.len()),
        seconds = began.elapsed().as_secs_f64(),
        "speakers told apart"
    );
    state.core.events.emit(Event::meeting_changed(meeting_id));
    Ok(Step::Done)
}

/// One channel's diarization: `Some(None)` when it has no lines, no audio
/// kept or no voice found, `None` when shutdown came first.
fn channel(
    state: &AppState,
    model: &CamPlusPlus,
    meeting_id: &MeetingId,
    (channel, spans): (Channel, &[SysSpan]),
) -> Result<Option<Option<Diarization>>, String> {
    let path = state.core.data_dir.audio_file(meeting_id, channel);
    if spans.is_empty() {
        return Ok(Some(None));
    }
    if !path.is_file() {
        tracing::info!(%meeting_id, channel = channel.as_str(), "speakers: no audio is kept");
        return Ok(Some(None));
    }
    // The microphone is told apart only where its kept lines are (not where
    // it heard the other side's echo).
    let within: Option<Vec<(usize, usize)>> = (channel == Channel::Mic)
        .then(|| spans.iter().map(|s| (samples(s.start_ms), samples(s.end_ms))).collect());
    let stop = || state.core.shutdown.is_cancelled();
    // Heard while it was recorded, else read from the file.
    let live = state.work.live_speakers.conclude(meeting_id, channel, within.clone(), &stop);
    let name = channel.as_str();
    let found = match live {
        Some(found) => {
            tracing::info!(%meeting_id, channel = name, "speakers: heard live, only grouped now");
            Ok(found)
        }
        None => from_file(state, model, &path, within.as_deref(), &stop),
    };
    match found {
        Ok(found) if found.voices.is_empty() => Ok(Some(None)),
        Ok(found) => Ok(Some(Some(found))),
        Err(DiarizeError::Stopped) => Ok(None),
        Err(DiarizeError::Model(error)) => {
            let channel = channel.as_str();
            tracing::warn!(%meeting_id, channel, %error, "speakers: the channel stays one speaker");
            Ok(Some(None))
        }
        Err(DiarizeError::Audio(error)) => {
            let channel = channel.as_str();
            tracing::warn!(%meeting_id, channel, %error, "speakers: the channel stays one speaker");
            Ok(Some(None))
        }
    }
}

/// The speakers of a channel's audio file (an import, or a recording whose
/// speakers were not heard live).
fn from_file(
    state: &AppState,
    model: &CamPlusPlus,
    path: &std::path::Path,
    within: Option<&[(usize, usize)]>,
    stop: &dyn Fn() -> bool,
) -> Result<Diarization, DiarizeError> {
    let segmentation = state.models.segmentation.get();
    let gate = Gate::best(state.models.vad.get().as_ref());
    let mut speakers = ChannelSpeakers::new(model, segmentation.as_deref(), gate);
    let mut stream = recorder_stt::audio::open(path, None)?;
    speakers.read_all(stream.as_mut(), stop)?;
    Ok(speakers.conclude(within))
}

type Diarized<'a> = (&'a Option<Diarization>, &'a [SysSpan]);

fn save(
    state: &AppState,
    meeting_id: &MeetingId,
    mut cast: Cast,
    (sys, sys_spans): Diarized,
    (mic, mic_spans): Diarized,
) -> Result<(), String> {
    let remembered = if state.effective_settings().transcription.remember_voices {
        state.core.store.voices().map_err(|e| e.to_string())?
    } else {
        Vec::new()
    };
    let voices: Vec<Vec<f32>> = cast.speakers.iter().map(|s| s.voice.clone()).collect();
    for (speaker, name) in cast.speakers.iter_mut().zip(recognise(&voices, &remembered)) {
        speaker.name = name;
    }
    let (mut lines, mut cuts) = (Vec::new(), Vec::new());
    let sys_numbers: Vec<Option<i64>> = cast.sys_numbers.iter().copied().map(Some).collect();
    numbered(sys, (sys_spans, Channel::Sys), &sys_numbers, (&mut lines, &mut cuts));
    numbered(mic, (mic_spans, Channel::Mic), &cast.mic_numbers, (&mut lines, &mut cuts));
    state
        .core
        .store
        .save_speakers_cutting(meeting_id, &cast.speakers, &lines, &cuts)
        .map_err(|e| e.to_string())
}

/// Each line of a channel with the speaker number its turns give it (lines
/// of a voice without a number, the owner's, keep none), and the lines that
/// run across a turn cut where the speaker changes.
fn numbered(
    found: &Option<Diarization>,
    (spans, channel): (&[SysSpan], Channel),
    numbers: &[Option<i64>],
    (lines, cuts): (&mut Vec<SpeakerOfLine>, &mut Vec<LineCut>),
) {
    let Some(found) = found else {
        return;
    };
    let number = |voice: usize| numbers.get(voice).copied().flatten();
    for span in spans {
        let line = (span.start_ms, span.end_ms);
        if let Some(made) = (!span.edited).then(|| cut(&span.text, line, &found.turns)).flatten() {
            let speakers = (number(made.voices.0), number(made.voices.1));
            let (first, second, at_ms) = (made.first, made.second, made.at_ms);
            cuts.push(LineCut { seq: span.seq, channel, at_ms, first, second, speakers });
            continue;
        }
        let voice = speaker_of(&found.turns, samples(span.start_ms), samples(span.end_ms));
        if let Some(number) = voice.and_then(number) {
            lines.push((span.seq, channel, number));
        }
    }
}

/// The owner's voice, learned from a microphone that had one voice and
/// enough speech.
fn learn_owner(state: &AppState, mic: &Diarization) -> Result<(), String> {
    if mic.voices.len() != 1 || speech(&mic.turns) < LEARNED_FROM {
        return Ok(());
    }
    state.core.store.learn_owner_voice(&mic.voices[0], now_ms()).map_err(|e| e.to_string())
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
