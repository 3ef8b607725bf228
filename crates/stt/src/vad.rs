//! Voice-activity gate: frames of 30 ms classified by energy against an
//! adaptive noise floor, then grouped into speech chunks of at most ~28 s for
//! whisper, cut at pauses. Silence is never sent to the model, so it produces
//! no text there and long quiet stretches cost almost nothing.

/// Samples per frame (30 ms at 16 kHz).
pub const FRAME: usize = 480;
const FRAME_MS: i64 = 30;
/// Frames below this level are silence whatever the noise floor.
const ABSOLUTE_FLOOR_DB: f32 = -50.0;
/// Speech must stand this far above the noise floor.
const ABOVE_FLOOR_DB: f32 = 10.0;
const START_FRAMES: usize = 3;
const PRE_ROLL_FRAMES: usize = 10;
const HANGOVER_FRAMES: usize = 10;
/// Files: a chunk ends at a pause of 1.5 s, or at ~28 s (one whisper window).
const FILE_PAUSE_FRAMES: usize = 50;
const FILE_CHUNK_FRAMES: usize = 28_000 / FRAME_MS as usize;
/// Live capture: utterances end at a pause of 0.6 s and are at most 15 s, so
/// a line appears soon after it was said.
const LIVE_PAUSE_FRAMES: usize = 20;
const LIVE_CHUNK_FRAMES: usize = 15_000 / FRAME_MS as usize;
const SPLIT_WINDOW_FRAMES: usize = 8_000 / FRAME_MS as usize;

/// A stretch of audio that holds speech, with its place in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeechChunk {
    pub start_ms: i64,
    pub samples: Vec<f32>,
}

/// Adaptive energy classifier.
struct Detector {
    floor_db: f32,
}

impl Detector {
    fn is_speech(&mut self, frame: &[f32]) -> (bool, f32) {
        let energy = frame.iter().map(|s| s * s).sum::<f32>() / frame.len().max(1) as f32;
        let level = 10.0 * (energy + 1e-12).log10();
        // The floor falls at once to quieter frames and rises slowly, so
        // speech (loud, brief) does not lift it but a noisier room does.
        self.floor_db = if level < self.floor_db { level } else { self.floor_db + 0.02 };
        let speech = level > ABSOLUTE_FLOOR_DB && level > self.floor_db + ABOVE_FLOOR_DB;
        (speech, level)
    }
}

/// Turns a sample stream into speech chunks. Holds at most one chunk.
pub struct Chunker {
    detector: Detector,
    frame: Vec<f32>,
    frames_seen: i64,
    pre_roll: Vec<Vec<f32>>,
    open: Option<OpenChunk>,
    run: usize,
    max_pause_frames: usize,
    max_chunk_frames: usize,
}

struct OpenChunk {
    start_frame: i64,
    frames: Vec<(Vec<f32>, f32)>,
    last_speech: usize,
}

impl Default for Chunker {
    fn default() -> Self {
        Self::starting_at(0)
    }
}

impl Chunker {
    /// A chunker whose first sample is at `offset_ms` in the file.
    pub fn starting_at(offset_ms: i64) -> Self {
        Chunker {
            detector: Detector { floor_db: ABSOLUTE_FLOOR_DB },
            frame: Vec::with_capacity(FRAME),
            frames_seen: offset_ms / FRAME_MS,
            pre_roll: Vec::new(),
            open: None,
            run: 0,
            max_pause_frames: FILE_PAUSE_FRAMES,
            max_chunk_frames: FILE_CHUNK_FRAMES,
        }
    }

    /// A chunker for live capture: shorter pauses end an utterance, and
    /// utterances are shorter, so the transcript keeps up with the call.
    pub fn live() -> Self {
        Chunker {
            max_pause_frames: LIVE_PAUSE_FRAMES,
            max_chunk_frames: LIVE_CHUNK_FRAMES,
            ..Self::starting_at(0)
        }
    }

    /// Where the utterance being collected (speech started, not yet cut)
    /// began, in ms; `None` between utterances.
    pub fn speech_since_ms(&self) -> Option<i64> {
        self.open.as_ref().map(|chunk| chunk.start_frame * FRAME_MS)
    }

    /// Where the chunker has read up to, in ms from the start of the file.
    pub fn position_ms(&self) -> i64 {
        self.frames_seen * FRAME_MS
    }

    /// The point before which everything has been handed out as chunks or
    /// dropped as silence: a safe place to resume from.
    pub fn settled_ms(&self) -> i64 {
        let pending = self.open.as_ref().map(|c| c.start_frame).unwrap_or(self.frames_seen);
        let pre_roll = self.frames_seen - self.pre_roll.len() as i64;
        pending.min(pre_roll) * FRAME_MS
    }

    pub fn push(&mut self, samples: &[f32], out: &mut Vec<SpeechChunk>) {
        for sample in samples {
            self.frame.push(*sample);
            if self.frame.len() == FRAME {
                let frame = std::mem::replace(&mut self.frame, Vec::with_capacity(FRAME));
                self.push_frame(frame, out);
            }
        }
    }

    pub fn finish(&mut self, out: &mut Vec<SpeechChunk>) {
        if !self.frame.is_empty() {
            let mut frame = std::mem::take(&mut self.frame);
            frame.resize(FRAME, 0.0);
            self.push_frame(frame, out);
        }
        if let Some(chunk) = self.open.take() {
            let keep = (chunk.last_speech + HANGOVER_FRAMES).min(chunk.frames.len());
            out.push(to_chunk(chunk.start_frame, &chunk.frames[..keep]));
        }
        self.pre_roll.clear();
    }

    fn push_frame(&mut self, frame: Vec<f32>, out: &mut Vec<SpeechChunk>) {
        let (speech, level) = self.detector.is_speech(&frame);
        self.run = if speech { self.run + 1 } else { 0 };
        self.frames_seen += 1;
        match self.open.as_mut() {
            Some(chunk) => {
                chunk.frames.push((frame, level));
                if speech {
                    chunk.last_speech = chunk.frames.len();
                }
                self.close_if_done(out);
            }
            None => {
                self.pre_roll.push(frame);
                if self.run >= START_FRAMES {
                    self.open_chunk();
                } else if self.pre_roll.len() > PRE_ROLL_FRAMES {
                    self.pre_roll.remove(0);
                }
            }
        }
    }

    fn open_chunk(&mut self) {
        let frames: Vec<(Vec<f32>, f32)> =
            self.pre_roll.drain(..).map(|f| (f, ABSOLUTE_FLOOR_DB)).collect();
        let start_frame = self.frames_seen - frames.len() as i64;
        let last_speech = frames.len();
        self.open = Some(OpenChunk { start_frame, frames, last_speech });
    }

    fn close_if_done(&mut self, out: &mut Vec<SpeechChunk>) {
        let Some(chunk) = self.open.as_mut() else { return };
        let silent_for = chunk.frames.len() - chunk.last_speech;
        if silent_for >= self.max_pause_frames {
            let keep = chunk.last_speech + HANGOVER_FRAMES;
            out.push(to_chunk(chunk.start_frame, &chunk.frames[..keep]));
            self.open = None;
        } else if chunk.frames.len() >= self.max_chunk_frames {
            let split = quietest_frame(&chunk.frames[chunk.frames.len() - SPLIT_WINDOW_FRAMES..])
                + chunk.frames.len()
                - SPLIT_WINDOW_FRAMES;
            out.push(to_chunk(chunk.start_frame, &chunk.frames[..split]));
            chunk.frames.drain(..split);
            chunk.start_frame += split as i64;
            chunk.last_speech = chunk.last_speech.saturating_sub(split);
        }
    }
}

fn quietest_frame(frames: &[(Vec<f32>, f32)]) -> usize {
    let mut best = 0;
    for (index, (_, level)) in frames.iter().enumerate() {
        if *level < frames[best].1 {
            best = index;
        }
    }
    best.max(1)
}

fn to_chunk(start_frame: i64, frames: &[(Vec<f32>, f32)]) -> SpeechChunk {
    let samples = frames.iter().flat_map(|(f, _)| f.iter().copied()).collect();
    SpeechChunk { start_ms: start_frame * FRAME_MS, samples }
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
