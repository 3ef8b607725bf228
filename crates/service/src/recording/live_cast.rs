//! Live lines told apart while the meeting goes on: about every second,
//! what each channel's worker found so far ([`super::live_speakers`]) makes
//! the cast of the pass after the recording ("Them" or "Speaker N"; "Me" or
//! "In the room N"; remembered voices named), saved as the meeting's live
//! speakers, each line's speaker set, and the lines whose label changed sent
//! as `segment.speakers`. The pass after the recording settles them (and
//! cuts lines that run across a turn, which live lines never are).

use std::collections::HashMap;
use std::time::Duration;

use recorder_api_types::{Event, LineSpeaker, SegmentSpeakers};
use recorder_domain::{Channel, MeetingId};
use recorder_store::{SpeakerOfLine, SysSpan};
use recorder_stt::speaker::diarize::{speaker_of, Diarization};

use crate::pipeline::room::{cast, Cast};
use crate::pipeline::speakers::recognise;
use crate::recording::context::RecordingContext;

/// How often the live lines' speakers are looked at again.
const EVERY: Duration = Duration::from_secs(1);
/// How long a recording may take to open.
const OPENING: Duration = Duration::from_secs(30);

/// Runs until `meeting_id` is no longer the recording.
pub fn run(context: &RecordingContext, meeting_id: &MeetingId) {
    let mut seen = [0u64; 2];
    let mut shown: HashMap<i64, String> = HashMap::new();
    let recording = || context.recorder().current().is_some_and(|c| c.meeting_id == *meeting_id);
    // Started as the recording opens, before it is the current one.
    let opened = std::time::Instant::now();
    while !recording() && opened.elapsed() < OPENING {
        std::thread::sleep(EVERY / 10);
    }
    while recording() && !context.shutdown().is_cancelled() {
        std::thread::sleep(EVERY);
        if let Err(error) = label(context, meeting_id, &mut seen, &mut shown) {
            tracing::warn!(%meeting_id, %error, "live speakers: lines keep their speakers");
        }
    }
}

/// Gives the lines their speakers when a worker found something new.
fn label(
    context: &RecordingContext,
    meeting_id: &MeetingId,
    seen: &mut [u64; 2],
    shown: &mut HashMap<i64, String>,
) -> Result<(), String> {
    let live = context.live_speakers();
    let (sys_version, sys) = live.so_far(meeting_id, Channel::Sys);
    let (mic_version, mic) = live.so_far(meeting_id, Channel::Mic);
    if [sys_version, mic_version] == *seen {
        return Ok(());
    }
    *seen = [sys_version, mic_version];
    let store = context.store();
    let sys_spans = store.spans(meeting_id, Channel::Sys).map_err(|e| e.to_string())?;
    let mic_spans = store.spans(meeting_id, Channel::Mic).map_err(|e| e.to_string())?;
    let owner = store.owner_voice().map_err(|e| e.to_string())?;
    let mut cast = cast(sys.as_deref(), mic.as_deref(), owner.as_ref().map(|o| &o.voice[..]));
    let settings = context.effective_settings();
    if settings.transcription.remember_voices {
        let remembered = store.voices().map_err(|e| e.to_string())?;
        let voices: Vec<Vec<f32>> = cast.speakers.iter().map(|s| s.voice.clone()).collect();
        for (speaker, name) in cast.speakers.iter_mut().zip(recognise(&voices, &remembered)) {
            speaker.name = name;
        }
    }
    let sys_numbers: Vec<Option<i64>> = cast.sys_numbers.iter().copied().map(Some).collect();
    let mut lines = of_lines(sys.as_deref(), (&sys_spans, Channel::Sys), &sys_numbers);
    lines.extend(of_lines(mic.as_deref(), (&mic_spans, Channel::Mic), &cast.mic_numbers));
    if !store.save_live_speakers(meeting_id, &cast.speakers, &lines).map_err(|e| e.to_string())? {
        return Ok(());
    }
    let names = Names { cast: &cast, me: settings.general.user_name.clone() };
    let changed = changed_labels((&sys_spans, &mic_spans), &lines, &names, shown);
    if !changed.is_empty() {
        let segments = SegmentSpeakers { meeting_id: meeting_id.clone(), segments: changed };
        context.events().emit(Event::SegmentSpeakers(segments));
    }
    Ok(())
}

/// Each line with the speaker number its channel's turns give it (the
/// owner's lines, "Me", have none).
fn of_lines(
    found: Option<&Diarization>,
    (spans, channel): (&[SysSpan], Channel),
    numbers: &[Option<i64>],
) -> Vec<SpeakerOfLine> {
    let Some(found) = found else { return Vec::new() };
    let samples = |ms: i64| usize::try_from(ms.max(0) * 16).unwrap_or(usize::MAX);
    spans
        .iter()
        .filter_map(|span| {
            let voice = speaker_of(&found.turns, samples(span.start_ms), samples(span.end_ms))?;
            let number = numbers.get(voice).copied().flatten()?;
            Some((span.seq, channel, number))
        })
        .collect()
}

/// What a line shows: its speaker's name or key, else its channel's own.
struct Names<'a> {
    cast: &'a Cast,
    me: String,
}

impl Names<'_> {
    fn label(&self, channel: Channel, number: Option<i64>) -> String {
        let speaker = number.and_then(|n| self.cast.speakers.iter().find(|s| s.number == n));
        match (speaker, channel) {
            (Some(speaker), _) => speaker.label(),
            (None, Channel::Mic) => self.me.clone(),
            (None, Channel::Sys) => recorder_store::THEM.to_owned(),
        }
    }
}

/// The lines whose label is not the one shown (or, new to this, not the
/// channel's own), remembered as shown; the person's corrections left out.
fn changed_labels(
    (sys_spans, mic_spans): (&[SysSpan], &[SysSpan]),
    lines: &[SpeakerOfLine],
    names: &Names,
    shown: &mut HashMap<i64, String>,
) -> Vec<LineSpeaker> {
    // A line's seq is unique across channels.
    let number: HashMap<i64, i64> = lines.iter().map(|(seq, _, n)| (*seq, *n)).collect();
    let spans = sys_spans.iter().map(|s| (s, Channel::Sys));
    let spans = spans.chain(mic_spans.iter().map(|s| (s, Channel::Mic)));
    let mut changed = Vec::new();
    // A line the person corrected shows what they gave it.
    for (span, channel) in spans.filter(|(span, _)| !span.edited) {
        let label = names.label(channel, number.get(&span.seq).copied());
        let before = shown.get(&span.seq).cloned().unwrap_or_else(|| names.label(channel, None));
        if before != label {
            changed.push(LineSpeaker { id: span.seq.to_string(), speaker: label.clone() });
        }
        shown.insert(span.seq, label);
    }
    changed
}
