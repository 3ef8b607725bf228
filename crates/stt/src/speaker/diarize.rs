//! Speakers of one channel: speech regions are cut into 1.5 s windows every
//! 0.75 s, each window gets a CAM++ embedding (shared among the cores), the
//! windows are grouped into speakers whose number is found, not given
//! ([`super::cluster`]), and each window speaks for the 0.75 s around its
//! centre. Overlapping speech: a window goes to the voice that dominates it,
//! so the louder speaker keeps the stretch rather than a third label appearing.

use super::campplus::CamPlusPlus;
use super::cluster::speakers;
use super::fbank::features;
use crate::audio::{AudioError, AudioStream, BLOCK};
use crate::vad::SpeechChunk;

const WINDOW: usize = 24_000;
const SHIFT: usize = 12_000;
const SHORTEST: usize = 8_000;
/// Threads that embed windows (the machine's cores, at most this many).
const THREADS: usize = 4;

/// A channel's speakers: who spoke when, and each one's voice (the mean of
/// their windows' unit embeddings, for recognising them later).
#[derive(Debug, Clone, PartialEq)]
pub struct Diarization {
    pub turns: Vec<Turn>,
    pub voices: Vec<Vec<f32>>,
}

/// One speaker's stretch, in samples (16 kHz).
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub start: usize,
    pub end: usize,
    pub speaker: usize,
}

/// Windows (start, end) in samples over speech `regions` (start, end).
pub fn windows(regions: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &(start, end) in regions {
        if end - start < SHORTEST {
            continue;
        }
        if end - start <= WINDOW {
            out.push((start, end));
            continue;
        }
        let mut at = start;
        while at + WINDOW < end {
            out.push((at, at + WINDOW));
            at += SHIFT;
        }
        out.push((end - WINDOW, end));
    }
    out
}

/// Every window's embedding, the windows shared among a few threads.
pub fn embed_all(model: &CamPlusPlus, samples: &[f32], spans: &[(usize, usize)]) -> Vec<Vec<f32>> {
    let threads = num_cpus::get().clamp(1, THREADS);
    let per_thread = spans.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = spans
            .chunks(per_thread)
            .map(|part| {
                scope.spawn(move || -> Vec<Vec<f32>> {
                    part.iter().map(|(s, e)| model.embed(&features(&samples[*s..*e]))).collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// Turns of `samples` (16 kHz) within speech `regions` (in samples).
pub fn diarize(model: &CamPlusPlus, samples: &[f32], regions: &[(usize, usize)]) -> Diarization {
    let spans = windows(regions);
    let embeddings = embed_all(model, samples, &spans);
    conclude(&spans, &embeddings)
}

/// Why a stream was not diarized.
#[derive(Debug, thiserror::Error)]
pub enum DiarizeError {
    #[error(transparent)]
    Audio(#[from] AudioError),
    #[error("stopped")]
    Stopped,
    /// The segmentation model could not run (wrong weights).
    #[error("{0}")]
    Model(String),
}

/// Hands each block of `stream` to `push` until it ends; `stop` is asked
/// before every block is read (a long silence costs time too).
pub(super) fn read_blocks(
    stream: &mut dyn AudioStream,
    stop: &dyn Fn() -> bool,
    push: &mut dyn FnMut(&[f32]) -> Result<(), DiarizeError>,
) -> Result<(), DiarizeError> {
    let mut block = Vec::with_capacity(BLOCK);
    loop {
        if stop() {
            return Err(DiarizeError::Stopped);
        }
        block.clear();
        if stream.read(&mut block, BLOCK)? == 0 {
            return Ok(());
        }
        push(&block)?;
    }
}

/// Speech chunks embedded at once (a few threads' worth of windows).
pub(super) const BATCH: usize = 16;

pub(super) fn embed_chunks(
    model: &CamPlusPlus,
    chunks: &[SpeechChunk],
    (spans, embeddings): (&mut Vec<(usize, usize)>, &mut Vec<Vec<f32>>),
) {
    let mut samples = Vec::new();
    let mut local = Vec::new();
    let mut origins = Vec::new();
    for chunk in chunks {
        let start = ms_to_samples(chunk.start_ms);
        let speech =
            ms_to_samples(chunk.speech_end_ms).saturating_sub(start).min(chunk.samples.len());
        let base = samples.len();
        samples.extend_from_slice(&chunk.samples[..speech]);
        for (from, to) in windows(&[(0, speech)]) {
            local.push((base + from, base + to));
            origins.push((start + from, start + to));
        }
    }
    embeddings.extend(embed_all(model, &samples, &local));
    spans.extend(origins);
}

/// Whether at least half of `start..end` lies within the ranges `kept`.
pub(super) fn mostly_within(kept: &[(usize, usize)], start: usize, end: usize) -> bool {
    let covered: usize =
        kept.iter().map(|&(from, to)| to.min(end).saturating_sub(from.max(start))).sum();
    covered * 2 >= end - start
}

fn ms_to_samples(ms: i64) -> usize {
    usize::try_from(ms.max(0)).unwrap_or(0) * 16
}

/// Labels the windows and joins them into turns, with each speaker's voice.
pub(super) fn conclude(spans: &[(usize, usize)], embeddings: &[Vec<f32>]) -> Diarization {
    let labels = speakers(embeddings);
    let count = labels.iter().max().map_or(0, |m| m + 1);
    Diarization { turns: turns(spans, &labels), voices: mean_voices(embeddings, &labels, count) }
}

/// Each of `count` speakers' voice: the unit mean of their unit embeddings.
pub(super) fn mean_voices(
    embeddings: &[Vec<f32>],
    labels: &[usize],
    count: usize,
) -> Vec<Vec<f32>> {
    let mut voices = vec![vec![0.0f32; embeddings.first().map_or(0, Vec::len)]; count];
    for (embedding, label) in embeddings.iter().zip(labels) {
        voices[*label].iter_mut().zip(unit(embedding)).for_each(|(v, x)| *v += x);
    }
    voices.iter().map(|v| unit(v)).collect()
}

/// `v` scaled to length one.
pub fn unit(v: &[f32]) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::EPSILON);
    v.iter().map(|x| x / norm).collect()
}

/// Each window owns the middle of its overlap with its neighbours;
/// neighbouring pieces of one speaker are joined.
fn turns(spans: &[(usize, usize)], labels: &[usize]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for (index, (&(start, end), &speaker)) in spans.iter().zip(labels).enumerate() {
        let from = if index > 0 && spans[index - 1].1 > start {
            (start + spans[index - 1].1) / 2
        } else {
            start
        };
        let to = match spans.get(index + 1) {
            Some(next) if next.0 < end => (next.0 + end) / 2,
            _ => end,
        };
        match turns.last_mut() {
            Some(last) if last.speaker == speaker && last.end >= from => last.end = to,
            _ => turns.push(Turn { start: from, end: to, speaker }),
        }
    }
    turns
}

/// The speaker of the span `start..end` (samples): the one who talks most of
/// it, else the one whose turn is nearest; `None` without turns. Where two
/// talk about as much of it (one over the other: turns may overlap), it is
/// the one whose turns lie most within it: a word said over a long turn is
/// the speaker of that word.
pub fn speaker_of(turns: &[Turn], start: usize, end: usize) -> Option<usize> {
    // Per speaker: talk within the span, and the length of those turns.
    let mut talk = std::collections::BTreeMap::<usize, (usize, usize)>::new();
    for turn in turns {
        let overlap = turn.end.min(end).saturating_sub(turn.start.max(start));
        if overlap > 0 {
            let entry = talk.entry(turn.speaker).or_default();
            entry.0 += overlap;
            entry.1 += turn.end - turn.start;
        }
    }
    let top = talk.values().map(|t| t.0).max().unwrap_or(0);
    let within = |(said, length): (usize, usize)| said as f64 / length.max(1) as f64;
    let most = talk
        .iter()
        .filter(|(_, t)| t.0 * 5 >= top * 4 && top > 0)
        .max_by(|a, b| within(*a.1).total_cmp(&within(*b.1)).then(a.1 .0.cmp(&b.1 .0)))
        .map(|(s, _)| *s);
    most.or_else(|| {
        let distance = |t: &Turn| t.start.saturating_sub(end).max(start.saturating_sub(t.end));
        turns.iter().min_by_key(|t| distance(t)).map(|t| t.speaker)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(start: usize, end: usize, speaker: usize) -> Turn {
        Turn { start, end, speaker }
    }

    #[test]
    fn a_span_belongs_to_who_talks_most_of_it_else_to_the_nearest_turn() {
        let turns = [turn(0, 100, 0), turn(100, 400, 1), turn(900, 1_000, 0)];
        assert_eq!(speaker_of(&turns, 50, 300), Some(1));
        assert_eq!(speaker_of(&turns, 0, 120), Some(0));
        assert_eq!(speaker_of(&turns, 500, 600), Some(1));
        assert_eq!(speaker_of(&turns, 800, 850), Some(0));
        assert_eq!(speaker_of(&[], 0, 10), None);
    }

    #[test]
    fn a_word_said_over_a_long_turn_is_its_speakers_and_a_longer_talk_still_wins() {
        let turns = [turn(0, 10_000, 0), turn(4_000, 4_800, 1)];
        assert_eq!(speaker_of(&turns, 4_000, 4_800), Some(1));
        assert_eq!(speaker_of(&turns, 3_000, 5_000), Some(0));
        let handover = [turn(0, 6_000, 0), turn(6_000, 10_000, 1)];
        assert_eq!(speaker_of(&handover, 0, 10_000), Some(0));
    }

    #[test]
    fn windows_of_one_speaker_make_one_turn_each_owning_half_the_overlap() {
        let spans = [(0, 24_000), (12_000, 36_000), (24_000, 48_000), (60_000, 70_000)];
        let made = turns(&spans, &[0, 0, 1, 1]);
        assert_eq!(
            made,
            vec![turn(0, 30_000, 0), turn(30_000, 48_000, 1), turn(60_000, 70_000, 1)]
        );
    }

    #[test]
    fn long_regions_are_windowed_to_their_end_and_short_ones_skipped() {
        let spans = windows(&[(0, 4_000), (10_000, 30_000), (40_000, 80_000)]);
        assert_eq!(spans[0], (10_000, 30_000));
        assert_eq!(spans[1], (40_000, 64_000));
        assert_eq!(spans.last(), Some(&(56_000, 80_000)));
    }
}
