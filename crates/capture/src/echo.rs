//! Echo judged on the audio: without headphones the microphone also hears the
//! other side, a little later and quieter. A microphone utterance is an echo
//! when its loudness follows the remote channel's loudness over the same time
//! (at some delay up to [`MAX_DELAY_MS`]) and it is not louder than the
//! remote side. The person talking over the other side breaks the likeness,
//! so their words are kept. Judging the audio at the moment an utterance is
//! cut means a microphone line never waits for the remote line's transcript.

/// Envelope frames of 10 ms.
const FRAME: usize = 160;
/// The longest delay from the speakers to the microphone considered.
pub const MAX_DELAY_MS: i64 = 500;
/// Frames quieter than this count as this (silence carries no shape).
const FLOOR_DB: f32 = -70.0;
/// How closely the two loudness curves must follow each other.
const LIKENESS: f32 = 0.8;
/// An echo is at most this much louder than its source (a gain on the way).
const MAX_GAIN_DB: f32 = 3.0;

/// `mic` is the utterance; `remote` is the remote channel's audio from
/// `MAX_DELAY_MS` (or less, at the start of a call: `lead` samples) before
/// the utterance up to its end.
pub fn is_echo(mic: &[f32], remote: &[f32], lead: usize) -> bool {
    let mine = envelope(mic);
    let theirs = envelope(remote);
    let lead_frames = lead / FRAME;
    if mine.len() < 10 || theirs.len() < mine.len() {
        return false;
    }
    let mut best = (f32::MIN, 0.0);
    for delay in 0..=lead_frames.min(theirs.len() - mine.len()) {
        let start = lead_frames - delay;
        let Some(aligned) = theirs.get(start..start + mine.len()) else { continue };
        let likeness = correlation(&mine, aligned);
        if likeness > best.0 {
            best = (likeness, mean(&mine) - mean(aligned));
        }
    }
    best.0 >= LIKENESS && best.1 <= MAX_GAIN_DB
}

fn envelope(samples: &[f32]) -> Vec<f32> {
    samples
        .chunks_exact(FRAME)
        .map(|frame| {
            let energy = frame.iter().map(|s| s * s).sum::<f32>() / FRAME as f32;
            (10.0 * (energy + 1e-12).log10()).max(FLOOR_DB)
        })
        .collect()
}

fn mean(values: &[f32]) -> f32 {
    values.iter().sum::<f32>() / values.len().max(1) as f32
}

/// Pearson correlation; 0 when either curve is flat.
fn correlation(a: &[f32], b: &[f32]) -> f32 {
    let (mean_a, mean_b) = (mean(a), mean(b));
    let (mut cross, mut var_a, mut var_b) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        let (dx, dy) = (x - mean_a, y - mean_b);
        cross += dx * dy;
        var_a += dx * dx;
        var_b += dy * dy;
    }
    if var_a < 1.0 || var_b < 1.0 {
        return 0.0;
    }
    cross / (var_a * var_b).sqrt()
}

/// The last seconds of a channel at 16 kHz, to judge the other channel's
/// utterances against.
pub struct History {
    samples: std::collections::VecDeque<f32>,
    /// Samples recorded before the oldest one kept.
    dropped: u64,
    capacity: usize,
}

impl History {
    pub fn new(seconds: usize) -> Self {
        History {
            samples: std::collections::VecDeque::with_capacity(seconds * 16_000),
            dropped: 0,
            capacity: seconds * 16_000,
        }
    }

    pub fn push(&mut self, block: &[f32]) {
        self.samples.extend(block.iter().copied());
        let excess = self.samples.len().saturating_sub(self.capacity);
        self.samples.drain(..excess);
        self.dropped += excess as u64;
    }

    /// The audio from `from_ms` to `to_ms` that is still kept (clipped to
    /// what was recorded), with where it starts, in samples from the start of
    /// the recording.
    pub fn range(&self, from_ms: i64, to_ms: i64) -> (u64, Vec<f32>) {
        let first = self.dropped;
        let last = first + self.samples.len() as u64;
        let clip =
            |ms: i64| u64::try_from(ms.max(0)).unwrap_or(0).saturating_mul(16).clamp(first, last);
        let (from, to) = (clip(from_ms), clip(to_ms));
        let offset = usize::try_from(from - first).unwrap_or(0);
        let count = usize::try_from(to - from).unwrap_or(0);
        (from, self.samples.range(offset..offset + count).copied().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Speech-like: a tone whose loudness rises and falls at random-ish
    /// syllable times.
    fn talk(seconds: f32, seed: u32) -> Vec<f32> {
        let n = (seconds * 16_000.0) as usize;
        let mut state = seed;
        let mut level = 0.0f32;
        (0..n)
            .map(|i| {
                if i % 2_400 == 0 {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    level = if (state >> 16).is_multiple_of(3) {
                        0.0
                    } else {
                        0.2 + ((state >> 8) % 100) as f32 / 300.0
                    };
                }
                level * (i as f32 * 0.07 * (1.0 + (seed % 5) as f32 * 0.1)).sin()
            })
            .collect()
    }

    fn delayed(source: &[f32], delay_ms: usize, gain: f32) -> Vec<f32> {
        let delay = delay_ms * 16;
        (0..source.len()).map(|i| if i < delay { 0.0 } else { source[i - delay] * gain }).collect()
    }

    #[test]
    fn the_remote_side_heard_late_and_quieter_is_an_echo() {
        let remote = talk(6.0, 7);
        // The mic utterance is 1 s to 5 s of the call, heard 120 ms late at -12 dB.
        let heard = delayed(&remote, 120, 0.25);
        let mic = &heard[16_000..80_000];
        let lead = 8_000; // remote from 0.5 s
        assert!(is_echo(mic, &remote[8_000..80_000], lead));
    }

    #[test]
    fn the_person_talking_is_not_an_echo() {
        let remote = talk(6.0, 7);
        let mine = talk(6.0, 11);
        assert!(!is_echo(&mine[16_000..80_000], &remote[8_000..80_000], 8_000));
        // Over the remote side's echo, the person's louder voice is kept.
        let echo = delayed(&remote, 120, 0.1);
        let both: Vec<f32> = mine.iter().zip(&echo).map(|(a, b)| a + b).collect();
        assert!(!is_echo(&both[16_000..80_000], &remote[8_000..80_000], 8_000));
        // Remote silence cannot be the source of anything.
        assert!(!is_echo(&mine[16_000..80_000], &vec![0.0; 72_000], 8_000));
    }

    #[test]
    fn history_keeps_the_last_seconds_on_the_recording_clock() {
        let mut history = History::new(1);
        history.push(&vec![1.0; 16_000]);
        history.push(&vec![2.0; 8_000]);
        let (start, samples) = history.range(900, 1_100);
        assert_eq!((start, samples.len()), (900 * 16, 200 * 16));
        assert_eq!((samples[0], samples[samples.len() - 1]), (1.0, 2.0));
        // Before what is kept, and past the end: clipped.
        let (start, samples) = history.range(0, 5_000);
        assert_eq!((start, samples.len()), (8_000, 16_000));
        let (start, samples) = history.range(-1, i64::MAX);
        assert_eq!((start, samples.len()), (8_000, 16_000), "everything kept");
    }
}
