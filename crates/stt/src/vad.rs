//! Voice-activity gate: fixed frames classified as speech or not, grouped
//! into speech chunks for whisper, cut at pauses. Silence (and, with Silero,
//! noise and music) is never sent to the model, so it produces no text there
//! and long quiet stretches cost almost nothing.
//!
//! Two classifiers: Silero VAD (`silero.rs`, 32 ms frames) when its weights
//! are installed, else an energy gate (30 ms frames) against an adaptive noise
//! floor. Two profiles: files (chunks up to ~28 s, one whisper window, cut at
//! 1.5 s pauses) and live capture (utterances up to 10 s, cut at short pauses
//! so a line appears soon after it was said).

use std::sync::Arc;

use crate::silero::{SileroModel, SileroVad};

/// Samples per energy frame (30 ms at 16 kHz).
pub const FRAME: usize = 480;
/// Frames below this level are silence whatever the noise floor.
const ABSOLUTE_FLOOR_DB: f32 = -50.0;
/// Speech must stand this far above the noise floor.
const ABOVE_FLOOR_DB: f32 = 10.0;
/// Silero: a frame starts speech at this probability, and speech goes on
/// while frames stay above the lower one (its own recommended hysteresis).
const SILERO_START: f32 = 0.5;
const SILERO_CONTINUE: f32 = 0.35;

/// A stretch of audio that holds speech, with its place in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeechChunk {
    pub start_ms: i64,
    pub samples: Vec<f32>,
    /// Where its last speech frame ends (the rest is pause kept as margin).
    pub speech_end_ms: i64,
}

/// Adaptive energy classifier.
pub struct Detector {
    floor_db: f32,
}

impl Detector {
    fn is_speech(&mut self, level: f32) -> bool {
        // The floor falls at once to quieter frames and rises slowly, so
        // speech (loud, brief) does not lift it but a noisier room does.
        self.floor_db = if level < self.floor_db { level } else { self.floor_db + 0.02 };
        level > ABSOLUTE_FLOOR_DB && level > self.floor_db + ABOVE_FLOOR_DB
    }
}

fn level_db(frame: &[f32]) -> f32 {
    let energy = frame.iter().map(|s| s * s).sum::<f32>() / frame.len().max(1) as f32;
    10.0 * (energy + 1e-12).log10()
}

/// What decides whether a frame is speech.
pub enum Gate {
    Energy(Detector),
    Silero(Box<SileroVad>),
}

impl Gate {
    pub fn energy() -> Self {
        Gate::Energy(Detector { floor_db: ABSOLUTE_FLOOR_DB })
    }

    pub fn silero(model: Arc<SileroModel>) -> Self {
        Gate::Silero(Box::new(SileroVad::new(model)))
    }

    /// Silero when its weights are loaded, else energy.
    pub fn best(model: Option<&Arc<SileroModel>>) -> Self {
        model.map_or_else(Self::energy, |model| Self::silero(model.clone()))
    }

    fn frame_len(&self) -> usize {
        match self {
            Gate::Energy(_) => FRAME,
            Gate::Silero(_) => crate::silero::FRAME,
        }
    }

    /// Whether the frame (at `level` dB) is speech; `in_speech`: the frame
    /// before was.
    fn is_speech(&mut self, frame: &[f32], level: f32, in_speech: bool) -> bool {
        match self {
            Gate::Energy(detector) => detector.is_speech(level),
            Gate::Silero(vad) => {
                let threshold = if in_speech { SILERO_CONTINUE } else { SILERO_START };
                vad.probability(frame) >= threshold
            }
        }
    }
}

/// How chunks are cut, in ms.
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    /// A pause this long ends a chunk.
    pub pause_ms: i64,
    /// No chunk is longer: long speech is cut at its quietest point of the
    /// last `split_window_ms`.
    pub max_ms: i64,
    pub split_window_ms: i64,
    /// Audio kept before the first speech frame and after the last one.
    pub pre_roll_ms: i64,
    pub hangover_ms: i64,
    /// Speech must last this long to open a chunk.
    pub start_ms: i64,
}

impl Profile {
    /// Files: a chunk ends at a pause of 1.5 s, or at ~28 s (one whisper window).
    pub const FILE: Profile = Profile {
        pause_ms: 1_500,
        max_ms: 28_000,
        split_window_ms: 8_000,
        pre_roll_ms: 300,
        hangover_ms: 300,
        start_ms: 90,
    };

    /// Live capture: utterances end at a short pause and last at most 10 s,
    /// so a line appears soon after it was said. Long speech is cut at the
    /// quietest frame of the last second: a wider window left the words
    /// after the cut waiting up to its width (p95 3.4 s in bench/live.py). Silero tells a pause from a
    /// quiet syllable, so it can cut at 0.3 s; the energy gate needs 0.6 s.
    pub fn live(gate: &Gate) -> Profile {
        let pause_ms = if matches!(gate, Gate::Silero(_)) { 320 } else { 600 };
        Profile {
            pause_ms,
            max_ms: 10_000,
            split_window_ms: 1_000,
            pre_roll_ms: 300,
            hangover_ms: 300,
            start_ms: 60,
        }
    }
}

/// The profile in frames of one gate.
#[derive(Debug, Clone, Copy)]
struct Frames {
    pause: usize,
    max: usize,
    split_window: usize,
    pre_roll: usize,
    hangover: usize,
    start: usize,
}

impl Frames {
    fn of(profile: Profile, frame_ms: i64) -> Self {
        let frames = |ms: i64| usize::try_from((ms + frame_ms - 1) / frame_ms).unwrap_or(1).max(1);
        Frames {
            pause: frames(profile.pause_ms),
            max: frames(profile.max_ms) - 1,
            split_window: frames(profile.split_window_ms),
            pre_roll: frames(profile.pre_roll_ms),
            hangover: frames(profile.hangover_ms).min(frames(profile.pause_ms)),
            start: frames(profile.start_ms),
        }
    }
}

/// Turns a sample stream into speech chunks. Holds at most one chunk.
pub struct Chunker {
    gate: Gate,
    frames: Frames,
    frame_len: usize,
    frame_ms: i64,
    frame: Vec<f32>,
    origin_ms: i64,
    frames_seen: i64,
    pre_roll: Vec<Frame>,
    open: Option<OpenChunk>,
    run: usize,
    in_speech: bool,
}

struct OpenChunk {
    start_frame: i64,
    frames: Vec<Frame>,
    last_speech: usize,
}

/// One frame and what the gate made of it.
struct Frame {
    samples: Vec<f32>,
    /// Its loudness in dB: long speech is cut at the quietest frame.
    level: f32,
}

impl Default for Chunker {
    fn default() -> Self {
        Self::starting_at(0)
    }
}

impl Chunker {
    /// A chunker whose first sample is at `origin_ms` in the file.
    pub fn new(gate: Gate, profile: Profile, origin_ms: i64) -> Self {
        let frame_len = gate.frame_len();
        let frame_ms = (frame_len / 16) as i64;
        Chunker {
            gate,
            frames: Frames::of(profile, frame_ms),
            frame_len,
            frame_ms,
            frame: Vec::with_capacity(frame_len),
            origin_ms,
            frames_seen: 0,
            pre_roll: Vec::new(),
            open: None,
            run: 0,
            in_speech: false,
        }
    }

    /// The energy gate for a file, from `offset_ms`.
    pub fn starting_at(offset_ms: i64) -> Self {
        Self::new(Gate::energy(), Profile::FILE, offset_ms)
    }

    fn ms(&self, frame: i64) -> i64 {
        self.origin_ms + frame * self.frame_ms
    }

    /// Where the open utterance (speech started, not yet cut) starts and
    /// where its last speech frame ends, in ms; `None` between utterances.
    pub fn open_span(&self) -> Option<(i64, i64)> {
        let chunk = self.open.as_ref()?;
        Some((self.ms(chunk.start_frame), self.ms(chunk.start_frame + chunk.last_speech as i64)))
    }

    /// The open utterance so far (for a partial transcript), with its start.
    pub fn open_samples(&self) -> Option<SpeechChunk> {
        let chunk = self.open.as_ref()?;
        let keep = (chunk.last_speech + self.frames.hangover).min(chunk.frames.len());
        Some(to_chunk(self.ms(chunk.start_frame), &chunk.frames[..keep], chunk.last_speech))
    }

    /// Where the chunker has read up to, in ms from the start of the file.
    pub fn position_ms(&self) -> i64 {
        self.ms(self.frames_seen)
    }

    /// The point before which everything has been handed out as chunks or
    /// dropped as silence: a safe place to resume from.
    pub fn settled_ms(&self) -> i64 {
        let pending = self.open.as_ref().map(|c| c.start_frame).unwrap_or(self.frames_seen);
        let pre_roll = self.frames_seen - self.pre_roll.len() as i64;
        self.ms(pending.min(pre_roll))
    }

    pub fn push(&mut self, samples: &[f32], out: &mut Vec<SpeechChunk>) {
        for sample in samples {
            self.frame.push(*sample);
            if self.frame.len() == self.frame_len {
                let frame = std::mem::replace(&mut self.frame, Vec::with_capacity(self.frame_len));
                self.push_frame(frame, out);
            }
        }
    }

    pub fn finish(&mut self, out: &mut Vec<SpeechChunk>) {
        if !self.frame.is_empty() {
            let mut frame = std::mem::take(&mut self.frame);
            frame.resize(self.frame_len, 0.0);
            self.push_frame(frame, out);
        }
        if let Some(chunk) = self.open.take() {
            let keep = (chunk.last_speech + self.frames.hangover).min(chunk.frames.len());
            out.push(to_chunk(
                self.ms(chunk.start_frame),
                &chunk.frames[..keep],
                chunk.last_speech,
            ));
        }
        self.pre_roll.clear();
    }

    fn push_frame(&mut self, frame: Vec<f32>, out: &mut Vec<SpeechChunk>) {
        let level = level_db(&frame);
        let speech = self.gate.is_speech(&frame, level, self.in_speech);
        self.in_speech = speech;
        self.run = if speech { self.run + 1 } else { 0 };
        self.frames_seen += 1;
        let frame = Frame { samples: frame, level };
        match self.open.as_mut() {
            Some(chunk) => {
                chunk.frames.push(frame);
                if speech {
                    chunk.last_speech = chunk.frames.len();
                }
                self.close_if_done(out);
            }
            None => {
                self.pre_roll.push(frame);
                if self.run >= self.frames.start {
                    self.open_chunk();
                } else if self.pre_roll.len() > self.frames.pre_roll + self.run {
                    self.pre_roll.remove(0);
                }
            }
        }
    }

    fn open_chunk(&mut self) {
        let frames: Vec<Frame> = self.pre_roll.drain(..).collect();
        let start_frame = self.frames_seen - frames.len() as i64;
        let last_speech = frames.len();
        self.open = Some(OpenChunk { start_frame, frames, last_speech });
    }

    fn close_if_done(&mut self, out: &mut Vec<SpeechChunk>) {
        let limits = self.frames;
        let (origin_ms, frame_ms) = (self.origin_ms, self.frame_ms);
        let Some(chunk) = self.open.as_mut() else { return };
        let start_ms = origin_ms + chunk.start_frame * frame_ms;
        let silent_for = chunk.frames.len() - chunk.last_speech;
        if silent_for >= limits.pause {
            let keep = chunk.last_speech + limits.hangover;
            out.push(to_chunk(start_ms, &chunk.frames[..keep], chunk.last_speech));
            self.open = None;
        } else if chunk.frames.len() >= limits.max {
            let window = limits.split_window.min(chunk.frames.len() - 1);
            let from = chunk.frames.len() - window;
            let split = split_point(&chunk.frames[from..]) + from;
            out.push(to_chunk(start_ms, &chunk.frames[..split], split));
            chunk.frames.drain(..split);
            chunk.start_frame += split as i64;
            chunk.last_speech = chunk.last_speech.saturating_sub(split);
        }
    }
}

/// Where to cut long speech: its quietest frame (measured: cutting inside
/// the longest pause instead gave whisper worse windows on the bench files).
fn split_point(frames: &[Frame]) -> usize {
    let quietest =
        (0..frames.len()).min_by(|a, b| frames[*a].level.total_cmp(&frames[*b].level)).unwrap_or(0);
    quietest.max(1)
}

fn to_chunk(start_ms: i64, frames: &[Frame], speech_frames: usize) -> SpeechChunk {
    let samples: Vec<f32> = frames.iter().flat_map(|f| f.samples.iter().copied()).collect();
    let frame_ms = frames.first().map_or(0, |f| f.samples.len() as i64 / 16);
    let speech_end_ms = start_ms + speech_frames.min(frames.len()) as i64 * frame_ms;
    SpeechChunk { start_ms, samples, speech_end_ms }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(ms: usize, amplitude: f32) -> Vec<f32> {
        (0..ms * 16).map(|i| amplitude * (i as f32 * 0.3).sin()).collect()
    }

    fn chunks(input: &[f32]) -> Vec<SpeechChunk> {
        let mut chunker = Chunker::default();
        let mut out = Vec::new();
        for block in input.chunks(1000) {
            chunker.push(block, &mut out);
        }
        chunker.finish(&mut out);
        out
    }

    #[test]
    fn silence_gives_no_chunks() {
        assert!(chunks(&vec![0.0; 16_000 * 60]).is_empty());
        let hiss: Vec<f32> =
            (0..16_000 * 10).map(|i| 0.001 * ((i * 7919 % 13) as f32 - 6.0)).collect();
        assert!(chunks(&hiss).is_empty(), "low noise is not speech");
    }

    #[test]
    fn speech_between_silences_is_found_with_its_time() {
        let mut input = vec![0.0; 16 * 3000];
        input.extend(tone(2000, 0.3));
        input.extend(vec![0.0; 16 * 4000]);
        input.extend(tone(1000, 0.3));
        input.extend(vec![0.0; 16 * 1000]);
        let found = chunks(&input);
        assert_eq!(found.len(), 2, "a 4 s pause splits the chunks");
        assert!((2600..=3000).contains(&found[0].start_ms), "{}", found[0].start_ms);
        let length_ms = found[0].samples.len() as i64 / 16;
        assert!((2000..=2800).contains(&length_ms), "{length_ms}");
        assert!((8600..=9000).contains(&found[1].start_ms), "{}", found[1].start_ms);
    }

    #[test]
    fn long_speech_is_cut_below_thirty_seconds_without_losing_audio() {
        // Syllable-like: loudness rises and falls four times a second.
        let input: Vec<f32> = tone(70_000, 0.3)
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s * (0.55 + 0.45 * (i as f32 * std::f32::consts::TAU * 4.0 / 16_000.0).sin())
            })
            .collect();
        let found = chunks(&input);
        assert!(found.len() >= 3);
        let mut expected_start = 0;
        for chunk in &found {
            assert!(chunk.samples.len() <= 16 * 28_000);
            assert_eq!(chunk.start_ms, expected_start, "chunks are contiguous");
            expected_start += chunk.samples.len() as i64 / 16;
        }
    }
}
