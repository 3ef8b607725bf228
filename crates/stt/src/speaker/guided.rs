//! The segmentation model run over a channel as its audio comes (live while
//! a meeting is recorded, or from a file), its windows kept until the
//! channel's speakers are known: then the speakers the 1.5 s windows found
//! ([`super::diarize`]) name each window's local speakers, and the model adds
//! what the windows miss, the speech the voice-activity model did not keep
//! and a second speaker where two talk at once ([`Segmenter::conclude`]).

use super::campplus::CamPlusPlus;
use super::diarize::{embed_all, read_blocks, Diarization, DiarizeError};
use super::local::{
    frames_of, gather, only_overlapped, runs, Heard, LocalSpeakers, Windower, BATCH, OVERHEARD_RUNS,
};
use super::segmentation::{active, Segmentation, LOCAL};
use crate::audio::AudioStream;

/// The segmentation model over one channel, as its audio is pushed.
pub struct Segmenter<'m> {
    segmentation: &'m Segmentation,
    embedder: &'m CamPlusPlus,
    windower: Windower,
    pending: Vec<(usize, Vec<f32>)>,
    heard: Vec<Heard>,
}

impl<'m> Segmenter<'m> {
    pub fn new(segmentation: &'m Segmentation, embedder: &'m CamPlusPlus) -> Self {
        Self {
            segmentation,
            embedder,
            windower: Windower::default(),
            pending: Vec::new(),
            heard: Vec::new(),
        }
    }

    /// The channel's next samples (16 kHz).
    pub fn push(&mut self, block: &[f32]) -> Result<(), String> {
        let mut whole = Vec::new();
        self.windower.push(block, &mut |start, window, _| {
            whole.push((start, window));
            Ok(())
        })?;
        self.pend(whole)
    }

    /// The channel ended: its last window is run.
    pub fn finish(&mut self) -> Result<(), String> {
        let mut last = Vec::new();
        self.windower.finish(&mut |start, window, _| {
            last.push((start, window));
            Ok(())
        })?;
        self.pend(last)?;
        self.flush()
    }

    fn pend(&mut self, windows: Vec<(usize, Vec<f32>)>) -> Result<(), String> {
        for window in windows {
            self.pending.push(window);
            if self.pending.len() >= BATCH {
                self.flush()?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let views: Vec<&[f32]> = pending.iter().map(|(_, w)| w.as_slice()).collect();
        let outputs = self.segmentation.run(&views)?;
        let (mut audio, mut spans, mut owners) = (Vec::new(), Vec::new(), Vec::new());
        for ((start, window), log_probs) in pending.iter().zip(outputs) {
            let on = active(&log_probs);
            for speaker in 0..LOCAL {
                let (frames, solo) = frames_of(&on, speaker);
                if !only_overlapped(&solo, &frames) {
                    continue;
                }
                let at = audio.len();
                for (from, to) in runs(&frames).into_iter().take(OVERHEARD_RUNS) {
                    audio.extend_from_slice(gather(window, from, to));
                }
                spans.push((at, audio.len()));
                owners.push((self.heard.len(), speaker));
            }
            let overheard = vec![None; LOCAL];
            self.heard.push(Heard { start: *start, on, overheard });
        }
        for ((window, speaker), embedding) in
            owners.into_iter().zip(embed_all(self.embedder, &audio, &spans))
        {
            self.heard[window].overheard[speaker] = Some(embedding);
        }
        Ok(())
    }

    /// The channel's speakers `given` by the windows, with what the model
    /// heard: told apart only within `within` (sorted sample ranges; `None`:
    /// everywhere), from the windows run so far.
    pub fn conclude(&self, given: &Diarization, within: Option<&[(usize, usize)]>) -> Diarization {
        let mut local = LocalSpeakers::new(self.segmentation, self.embedder, within);
        for heard in &self.heard {
            local.add_heard(heard, given);
        }
        local.conclude_given(given)
    }
}

/// As [`super::local::diarize_stream_local`], but the speakers are `given`
/// (found by 1.5 s windows of the voice-activity model's speech,
/// [`super::diarize`]): the segmentation model adds what they miss.
pub fn diarize_stream_guided(
    models: (&Segmentation, &CamPlusPlus),
    stream: &mut dyn AudioStream,
    within: Option<&[(usize, usize)]>,
    given: Diarization,
    stop: &dyn Fn() -> bool,
) -> Result<Diarization, DiarizeError> {
    let mut segmenter = Segmenter::new(models.0, models.1);
    let model = |e: String| DiarizeError::Model(e);
    read_blocks(stream, stop, &mut |block| segmenter.push(block).map_err(model))?;
    segmenter.finish().map_err(model)?;
    Ok(segmenter.conclude(&given, within))
}
