//! Speakers of one channel by pyannote 3.1's recipe (Bredin, Interspeech
//! 2023): the overlap-aware segmentation model ([`super::segmentation`])
//! finds up to three local speakers in each 10 s window, every local speaker
//! gets one CAM++ embedding from the frames where they speak alone, the
//! embeddings of all windows are grouped into speakers ([`super::cluster`]),
//! and each frame is given back to as many speakers as the windows over it
//! heard at once, so a line said over another keeps its own speaker.

use super::campplus::CamPlusPlus;
use super::cluster::speakers;
use super::diarize::{embed_all, mean_voices, read_blocks, unit, Diarization, DiarizeError, Turn};
use super::segmentation::{active, Segmentation, FRAMES, FRAME_STEP, LOCAL, WINDOW};
use crate::audio::AudioStream;

/// Windows start every this many frames (5.0 s: each sample is heard by
/// two windows; 3 s and 1.7 s were no better on the dev set's other side,
/// `bench/results/voices-2026-12-07.md`).
pub const STEP_FRAMES: usize = 296;
pub(super) const STEP: usize = STEP_FRAMES * FRAME_STEP;
/// Windows run through the model at once: one at a time is as fast as four
/// on 2 cores and holds half the memory (a channel's peak 118 MB, not 222;
/// `bench/results/speakers-after-2026-12-07.md`).
pub(super) const BATCH: usize = 1;
/// A local speaker's solo speech is embedded in pieces of this many frames
/// (1.5 s, what [`super::cluster`] was measured on) every [`PIECE_SHIFT`]
/// (0.75 s: with pieces end to end, a speaker had half the units and the
/// four-speaker calls of the dev set came out as three); a rest of at least
/// [`SHORTEST_PIECE`] frames (0.5 s) is a piece too.
const PIECE: usize = 89;
const PIECE_SHIFT: usize = 44;
const SHORTEST_PIECE: usize = 30;
/// At most this many runs of one heard only over someone else are embedded.
pub(super) const OVERHEARD_RUNS: usize = 4;
/// The first frame's centre, in samples from the window's start.
const CENTRE: usize = 495;

/// One local speaker of one window: where they speak, and the pieces of
/// their solo speech that were embedded (indices into `pieces`).
struct Local {
    window: usize,
    frames: Vec<bool>,
    solo: Vec<bool>,
    pieces: Vec<usize>,
    /// For one heard only over someone else: an embedding of all their
    /// frames, which takes no part in the grouping.
    overheard: Option<Vec<f32>>,
}

/// An embedded piece of one local speaker's solo speech: its frames
/// `from..to` of its window.
struct Piece {
    embedding: Vec<f32>,
    from: usize,
    to: usize,
}

impl Piece {
    fn frames(&self) -> usize {
        self.to - self.from
    }
}

/// Gathers windows as they are read, and concludes once all are in.
pub struct LocalSpeakers<'m> {
    segmentation: &'m Segmentation,
    embedder: &'m CamPlusPlus,
    starts: Vec<usize>,
    locals: Vec<Local>,
    pieces: Vec<Piece>,
    /// Active local speakers per frame of each window.
    counts: Vec<Vec<u8>>,
    pending: Vec<(usize, Vec<f32>, bool)>,
    /// Where speakers are told apart (sorted sample ranges; `None`: all).
    within: Option<Vec<(usize, usize)>>,
    /// Solo speech before this sample has been embedded already (each
    /// sample is embedded once, by the window whose middle holds it).
    embedded_to: usize,
    /// Seconds spent in the segmentation model and in CAM++.
    timing: (f64, f64),
}

impl<'m> LocalSpeakers<'m> {
    pub fn new(
        segmentation: &'m Segmentation,
        embedder: &'m CamPlusPlus,
        within: Option<&[(usize, usize)]>,
    ) -> Self {
        Self {
            segmentation,
            embedder,
            starts: Vec::new(),
            locals: Vec::new(),
            pieces: Vec::new(),
            counts: Vec::new(),
            pending: Vec::new(),
            within: within.map(<[_]>::to_vec),
            embedded_to: 0,
            timing: (0.0, 0.0),
        }
    }

    /// The window starting at sample `start` (exactly [`WINDOW`] samples;
    /// `last`: the stream ends with it); one wholly outside `within` is
    /// skipped.
    pub fn push(&mut self, start: usize, window: Vec<f32>, last: bool) -> Result<(), String> {
        let outside = |kept: &Vec<(usize, usize)>| {
            !kept.iter().any(|&(from, to)| from < start + WINDOW && to > start)
        };
        if self.within.as_ref().is_some_and(outside) {
            return Ok(());
        }
        self.pending.push((start, window, last));
        if self.pending.len() >= BATCH || last {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        let pending = std::mem::take(&mut self.pending);
        let views: Vec<&[f32]> = pending.iter().map(|(_, w, _)| w.as_slice()).collect();
        let began = std::time::Instant::now();
        let outputs = self.segmentation.run(&views)?;
        self.timing.0 += began.elapsed().as_secs_f64();
        let (mut audio, mut spans, mut owners) = (Vec::new(), Vec::new(), Vec::new());
        let (mut overheard_audio, mut overheard_spans, mut overheard_owners) =
            (Vec::new(), Vec::new(), Vec::new());
        for ((start, window, last), log_probs) in pending.iter().zip(outputs) {
            let index = self.starts.len();
            self.starts.push(*start);
            let mut on = active(&log_probs);
            if let Some(kept) = &self.within {
                mask(&mut on, *start, kept);
            }
            self.counts.push(on.iter().map(|f| f.iter().filter(|s| **s).count() as u8).collect());
            let owned = self.owned(*start, *last);
            for speaker in 0..LOCAL {
                let (frames, solo) = frames_of(&on, speaker);
                if !frames.iter().any(|f| *f) {
                    continue;
                }
                for (from, to) in pieces(&solo, owned.clone()) {
                    let at = audio.len();
                    audio.extend_from_slice(gather(window, from, to));
                    spans.push((at, audio.len()));
                    owners.push((self.locals.len(), from, to));
                }
                if only_overlapped(&solo, &frames) {
                    let at = overheard_audio.len();
                    for (from, to) in runs(&frames).into_iter().take(OVERHEARD_RUNS) {
                        overheard_audio.extend_from_slice(gather(window, from, to));
                    }
                    overheard_spans.push((at, overheard_audio.len()));
                    overheard_owners.push(self.locals.len());
                }
                self.locals.push(Local {
                    window: index,
                    frames,
                    solo,
                    pieces: Vec::new(),
                    overheard: None,
                });
            }
        }
        let began = std::time::Instant::now();
        let embeddings = embed_all(self.embedder, &audio, &spans);
        let overheard = embed_all(self.embedder, &overheard_audio, &overheard_spans);
        for (owner, embedding) in overheard_owners.into_iter().zip(overheard) {
            self.locals[owner].overheard = Some(embedding);
        }
        self.timing.1 += began.elapsed().as_secs_f64();
        for ((owner, from, to), embedding) in owners.into_iter().zip(embeddings) {
            self.locals[owner].pieces.push(self.pieces.len());
            self.pieces.push(Piece { embedding, from, to });
        }
        Ok(())
    }

    /// The frames of the window at `start` whose solo speech it embeds: from
    /// where the window before stopped to the middle of its overlap with the
    /// next one (or to its end, the last).
    fn owned(&mut self, start: usize, last: bool) -> std::ops::Range<usize> {
        let frame = |sample: usize| sample.saturating_sub(start + CENTRE) / FRAME_STEP;
        let to = if last { start + WINDOW } else { start + (WINDOW + STEP) / 2 };
        let range = frame(self.embedded_to.max(start))..frame(to).min(FRAMES);
        self.embedded_to = self.embedded_to.max(to);
        range
    }

    /// A window the model ran over already ([`super::guided`]), guided by
    /// the channel's speakers `given`: one wholly outside `within`, or where
    /// the voice-activity model heard no one, is left out.
    pub(super) fn add_heard(&mut self, heard: &Heard, given: &Diarization) {
        let start = heard.start;
        let outside = |kept: &Vec<(usize, usize)>| {
            !kept.iter().any(|&(from, to)| from < start + WINDOW && to > start)
        };
        let unheard = !given.turns.iter().any(|t| t.start < start + WINDOW && t.end > start);
        if unheard || self.within.as_ref().is_some_and(outside) {
            return;
        }
        let index = self.starts.len();
        self.starts.push(start);
        let mut on = heard.on.clone();
        if let Some(kept) = &self.within {
            mask(&mut on, start, kept);
        }
        self.counts.push(on.iter().map(|f| f.iter().filter(|s| **s).count() as u8).collect());
        for (speaker, overheard) in heard.overheard.iter().enumerate() {
            let (frames, solo) = frames_of(&on, speaker);
            if !frames.iter().any(|f| *f) {
                continue;
            }
            let overheard = overheard.clone().filter(|_| only_overlapped(&solo, &frames));
            self.locals.push(Local { window: index, frames, solo, pieces: Vec::new(), overheard });
        }
    }

    /// Groups the pieces and gives each frame its speakers.
    pub fn conclude(mut self) -> Result<Diarization, String> {
        if let Some(last) = self.pending.last_mut() {
            last.2 = true;
        }
        if !self.pending.is_empty() {
            self.flush()?;
        }
        tracing::debug!(
            segmentation_s = self.timing.0,
            embedding_s = self.timing.1,
            "local speakers"
        );
        let embeddings: Vec<Vec<f32>> = self.pieces.iter().map(|p| p.embedding.clone()).collect();
        let labels = speakers(&embeddings);
        let count = labels.iter().max().map_or(0, |m| m + 1);
        let voices = mean_voices(&embeddings, &labels, count);
        let of_locals = self.local_labels(&labels, &voices);
        let turns = self.reconstruct((&labels, &of_locals), count);
        Ok(kept_speakers(turns, &voices))
    }

    /// With speakers given: each local speaker is the given speaker of most
    /// of their solo frames; every solo frame votes for the given speaker
    /// there, the other frames for the local speaker's.
    pub(super) fn conclude_given(&self, given: &Diarization) -> Diarization {
        let count = given.voices.len();
        let at = |window: usize, f: usize| {
            let centre = self.starts[window] + CENTRE + f * FRAME_STEP;
            let next = given.turns.partition_point(|t| t.start <= centre);
            given.turns[..next].last().filter(|t| centre < t.end).map(|t| t.speaker)
        };
        let mut of: Vec<Option<usize>> = self
            .locals
            .iter()
            .map(|local| {
                let mut votes = vec![0usize; count];
                let solo = local.solo.iter().any(|s| *s);
                let frames = if solo { &local.solo } else { &local.frames };
                for (f, on) in frames.iter().enumerate() {
                    if let (true, Some(l)) = (*on, at(local.window, f)) {
                        votes[l] += 1;
                    }
                }
                (0..count).filter(|&l| votes[l] > 0).max_by_key(|&l| votes[l])
            })
            .collect();
        self.overheard_labels(&mut of, &given.voices);
        let frame_labels: Vec<Vec<Option<usize>>> = self
            .locals
            .iter()
            .map(|local| {
                (0..local.solo.len())
                    .map(|f| local.solo[f].then(|| at(local.window, f)).flatten())
                    .collect()
            })
            .collect();
        let turns = self.reconstruct_with(&of, &frame_labels, count);
        kept_speakers(turns, &given.voices)
    }

    /// Each local speaker is the speaker most of their embedded speech was
    /// taken for; `None` when none of it was embedded.
    /// One heard only over someone else is the nearest voice that is not
    /// another speaker of the same window.
    fn local_labels(&self, labels: &[usize], voices: &[Vec<f32>]) -> Vec<Option<usize>> {
        let count = voices.len();
        let mut of: Vec<Option<usize>> = self
            .locals
            .iter()
            .map(|local| {
                let mut votes = vec![0usize; count];
                local.pieces.iter().for_each(|&p| votes[labels[p]] += self.pieces[p].frames());
                (0..count).filter(|&l| votes[l] > 0).max_by_key(|&l| votes[l])
            })
            .collect();
        self.overheard_labels(&mut of, voices);
        of
    }

    fn overheard_labels(&self, of: &mut [Option<usize>], voices: &[Vec<f32>]) {
        let count = voices.len();
        for (i, local) in self.locals.iter().enumerate() {
            let Some(embedding) = local.overheard.as_ref().filter(|_| of[i].is_none()) else {
                continue;
            };
            let taken: Vec<usize> = (0..self.locals.len())
                .filter(|&j| j != i && self.locals[j].window == local.window)
                .filter_map(|j| of[j])
                .collect();
            let unit = unit(embedding);
            let alike = |l: usize| voices[l].iter().zip(&unit).map(|(a, b)| a * b).sum::<f32>();
            of[i] = (0..count)
                .filter(|l| !taken.contains(l))
                .max_by(|a, b| alike(*a).total_cmp(&alike(*b)));
        }
    }

    /// A piece's frames are heard as the piece's speaker.
    fn reconstruct(
        &self,
        (pieces, locals): (&[usize], &[Option<usize>]),
        count: usize,
    ) -> Vec<Turn> {
        let frame_labels: Vec<Vec<Option<usize>>> = self
            .locals
            .iter()
            .map(|local| {
                let mut of = vec![None; local.frames.len()];
                for &p in &local.pieces {
                    let piece = &self.pieces[p];
                    of[piece.from..piece.to].iter_mut().for_each(|v| *v = Some(pieces[p]));
                }
                of
            })
            .collect();
        self.reconstruct_with(locals, &frame_labels, count)
    }

    /// Each frame of the whole stream goes to the speakers most heard there,
    /// as many as the windows over it heard at once on average. A frame
    /// whose own speaker is known (`frame_labels`) votes for them twice;
    /// any other frame of a local speaker for the local speaker's.
    fn reconstruct_with(
        &self,
        locals: &[Option<usize>],
        frame_labels: &[Vec<Option<usize>>],
        count: usize,
    ) -> Vec<Turn> {
        let Some(last) = self.starts.last() else { return Vec::new() };
        let frames = last / FRAME_STEP + FRAMES;
        let mut score = vec![vec![0.0f32; count]; frames];
        let (mut heard, mut covered) = (vec![0.0f32; frames], vec![0.0f32; frames]);
        for (window, start) in self.starts.iter().enumerate() {
            let offset = start / FRAME_STEP;
            for (f, n) in self.counts[window].iter().enumerate() {
                heard[offset + f] += f32::from(*n);
                covered[offset + f] += 1.0;
            }
        }
        for ((local, label), known) in self.locals.iter().zip(locals).zip(frame_labels) {
            let offset = self.starts[local.window] / FRAME_STEP;
            for (f, on) in local.frames.iter().enumerate() {
                let vote = known[f].map(|l| (l, 2.0)).or_else(|| label.map(|l| (l, 1.0)));
                if let (true, Some((l, weight))) = (*on, vote) {
                    score[offset + f][l] += weight;
                }
            }
        }
        let chosen: Vec<Vec<usize>> = (0..frames)
            .map(|g| top(&score[g], (heard[g] / covered[g].max(1.0)).round() as usize))
            .collect();
        turns_of(&chosen, count)
    }
}

/// The speakers that have turns, numbered by first turn, with their voices.
fn kept_speakers(mut turns: Vec<Turn>, voices: &[Vec<f32>]) -> Diarization {
    let mut order: Vec<usize> = Vec::new();
    for turn in &turns {
        if !order.contains(&turn.speaker) {
            order.push(turn.speaker);
        }
    }
    for turn in &mut turns {
        turn.speaker = order.iter().position(|s| *s == turn.speaker).unwrap_or(0);
    }
    Diarization { turns, voices: order.iter().map(|s| voices[*s].clone()).collect() }
}

/// The frames where local `speaker` speaks, and where they speak alone.
pub(super) fn frames_of(on: &[[bool; LOCAL]], speaker: usize) -> (Vec<bool>, Vec<bool>) {
    let frames = on.iter().map(|f| f[speaker]).collect();
    let solo = on.iter().map(|f| f[speaker] && f.iter().filter(|s| **s).count() == 1).collect();
    (frames, solo)
}

/// Frames whose centre lies outside the ranges `kept` hear no one.
fn mask(on: &mut [[bool; LOCAL]], start: usize, kept: &[(usize, usize)]) {
    for (f, frame) in on.iter_mut().enumerate() {
        let centre = start + CENTRE + f * FRAME_STEP;
        let before = kept.partition_point(|&(from, _)| from <= centre);
        if !kept[..before].iter().rev().take(4).any(|&(_, to)| centre < to) {
            *frame = [false; LOCAL];
        }
    }
}

/// The samples of frames `from..to` of a window, each frame its 270
/// samples around its centre.
pub(super) fn gather(window: &[f32], from: usize, to: usize) -> &[f32] {
    let at = |f: usize| frame_start(f).min(window.len());
    &window[at(from)..at(to)]
}

/// The first of the 270 samples around frame `f`'s centre.
fn frame_start(f: usize) -> usize {
    (CENTRE + f * FRAME_STEP).saturating_sub(FRAME_STEP / 2)
}

/// Runs of `solo` frames within `owned`, cut into pieces of [`PIECE`]
/// frames every [`PIECE_SHIFT`]; a run's last piece runs to its end, and a
/// run shorter than [`SHORTEST_PIECE`] is dropped.
fn pieces(solo: &[bool], owned: std::ops::Range<usize>) -> Vec<(usize, usize)> {
    let (from, to) = (owned.start.min(solo.len()), owned.end.min(solo.len()));
    let mut out = Vec::new();
    for (start, end) in runs(&solo[from..to]) {
        cut_run(from + start, from + end, &mut out);
    }
    out
}

/// Whether a local speaker speaks (at least half a second) but hardly ever
/// alone.
pub(super) fn only_overlapped(solo: &[bool], frames: &[bool]) -> bool {
    let count = |v: &[bool]| v.iter().filter(|s| **s).count();
    count(solo) < SHORTEST_PIECE && count(frames) >= SHORTEST_PIECE
}

/// The runs of frames that are on, as `from..to`.
pub(super) fn runs(frames: &[bool]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = None;
    for (f, on) in frames.iter().chain([&false]).enumerate() {
        match (on, from) {
            (true, None) => from = Some(f),
            (false, Some(start)) => {
                out.push((start, f));
                from = None;
            }
            _ => {}
        }
    }
    out
}

fn cut_run(from: usize, to: usize, out: &mut Vec<(usize, usize)>) {
    let mut at = from;
    while to - at >= PIECE + SHORTEST_PIECE {
        out.push((at, at + PIECE));
        at += PIECE_SHIFT;
    }
    if to - at >= SHORTEST_PIECE {
        out.push((at, to));
    }
}

/// The `wanted` labels with the highest scores above zero.
fn top(scores: &[f32], wanted: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).filter(|&l| scores[l] > 0.0).collect();
    order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
    order.truncate(wanted);
    order
}

/// Runs of frames per speaker as turns (in samples), sorted by start.
fn turns_of(chosen: &[Vec<usize>], count: usize) -> Vec<Turn> {
    let mut turns = Vec::new();
    for speaker in 0..count {
        let on: Vec<bool> = chosen.iter().map(|labels| labels.contains(&speaker)).collect();
        for (from, to) in runs(&on) {
            turns.push(Turn { start: frame_start(from), end: frame_start(to), speaker });
        }
    }
    turns.sort_by_key(|t| (t.start, t.speaker));
    turns
}

/// Window starts over `len` samples: every [`STEP`], the last one ending at
/// the end (or one window from 0 when shorter than a window, padded).
pub fn window_starts(len: usize) -> Vec<usize> {
    if len <= WINDOW {
        return vec![0];
    }
    let mut starts: Vec<usize> = (0..).map(|i| i * STEP).take_while(|s| s + WINDOW < len).collect();
    // The last window ends at the end, on the frame grid.
    let last = (len - WINDOW).div_ceil(FRAME_STEP) * FRAME_STEP;
    if starts.last() != Some(&last) {
        starts.push(last);
    }
    starts
}

/// The speakers of a whole 16 kHz channel held in memory.
pub fn diarize_samples(
    segmentation: &Segmentation,
    embedder: &CamPlusPlus,
    samples: &[f32],
) -> Result<Diarization, String> {
    let mut local = LocalSpeakers::new(segmentation, embedder, None);
    let starts = window_starts(samples.len());
    for (n, &start) in starts.iter().enumerate() {
        let mut window =
            samples[start.min(samples.len())..(start + WINDOW).min(samples.len())].to_vec();
        window.resize(WINDOW, 0.0);
        local.push(start, window, n + 1 == starts.len())?;
    }
    local.conclude()
}

/// The speakers of a 16 kHz stream, told apart only within `within` (sorted
/// sample ranges; `None`: everywhere), holding about one window of audio at
/// a time. `stop` is asked before every block is read.
pub fn diarize_stream_local(
    models: (&Segmentation, &CamPlusPlus),
    stream: &mut dyn AudioStream,
    within: Option<&[(usize, usize)]>,
    stop: &dyn Fn() -> bool,
) -> Result<Diarization, DiarizeError> {
    let mut local = LocalSpeakers::new(models.0, models.1, within);
    let mut windower = Windower::default();
    let mut take = |start, window, last| local.push(start, window, last);
    let model = |e: String| DiarizeError::Model(e);
    read_blocks(stream, stop, &mut |block| windower.push(block, &mut take).map_err(model))?;
    windower.finish(&mut take).map_err(model)?;
    local.conclude().map_err(model)
}

/// Cuts a stream into the model's windows as it is read: one every
/// [`STEP`], and at the end one that ends at the end (padded when the
/// stream is shorter than a window). Holds about one window of audio.
#[derive(Default)]
pub(super) struct Windower {
    buffer: Vec<f32>,
    /// The stream's sample at `buffer[0]`.
    base: usize,
    next: usize,
    taken_to: usize,
}

/// Takes a window: its first sample, its audio, whether it is the last.
type Take<'a> = dyn FnMut(usize, Vec<f32>, bool) -> Result<(), String> + 'a;

impl Windower {
    pub(super) fn push(&mut self, block: &[f32], take: &mut Take) -> Result<(), String> {
        self.buffer.extend_from_slice(block);
        let total = self.base + self.buffer.len();
        while self.next + WINDOW <= total {
            let from = self.next - self.base;
            take(self.next, self.buffer[from..from + WINDOW].to_vec(), false)?;
            self.taken_to = self.next + WINDOW;
            self.next += STEP;
        }
        // Keep what the next window and a last one ending at the end need.
        let keep_from = self.next.min(total.saturating_sub(WINDOW)) / FRAME_STEP * FRAME_STEP;
        self.buffer.drain(..keep_from.saturating_sub(self.base));
        self.base = self.base.max(keep_from);
        Ok(())
    }

    pub(super) fn finish(&mut self, take: &mut Take) -> Result<(), String> {
        let total = self.base + self.buffer.len();
        if total > self.taken_to {
            let start = total.saturating_sub(WINDOW).div_ceil(FRAME_STEP) * FRAME_STEP;
            let mut window = self.buffer[start - self.base..].to_vec();
            window.resize(WINDOW, 0.0);
            take(start, window, true)?;
        }
        self.taken_to = total;
        Ok(())
    }
}

/// One window as the model heard it.
pub(super) struct Heard {
    pub(super) start: usize,
    /// Which local speakers speak in each frame.
    pub(super) on: Vec<[bool; LOCAL]>,
    /// For a local speaker heard (almost) only over someone else: an
    /// embedding of their frames, to name them by the nearest voice.
    pub(super) overheard: Vec<Option<Vec<f32>>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_the_stream_on_the_frame_grid() {
        assert_eq!(window_starts(1_000), vec![0]);
        let starts = window_starts(WINDOW + 3 * STEP + 5);
        assert_eq!(&starts[..4], &[0, STEP, 2 * STEP, 3 * STEP]);
        let last = *starts.last().expect("a window");
        assert!(last + WINDOW >= WINDOW + 3 * STEP + 5);
        assert_eq!(last % FRAME_STEP, 0);
    }

    #[test]
    fn frames_go_to_the_most_heard_speakers_as_many_as_were_heard() {
        assert_eq!(top(&[3.0, 0.0, 5.0], 1), vec![2]);
        assert_eq!(top(&[3.0, 0.0, 5.0], 3), vec![2, 0]);
        assert!(top(&[1.0, 2.0], 0).is_empty());
    }

    #[test]
    fn runs_of_frames_make_turns_that_may_overlap() {
        let chosen = vec![vec![0], vec![0, 1], vec![1], vec![]];
        let turns = turns_of(&chosen, 2);
        assert_eq!(turns.len(), 2);
        assert_eq!((turns[0].speaker, turns[1].speaker), (0, 1));
        assert!(turns[0].end > turns[1].start, "the overlap keeps both");
    }
}
