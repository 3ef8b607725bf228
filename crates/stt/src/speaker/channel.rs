//! A channel's speakers found as its audio is read, the same way live (a
//! recording's audio pushed as it is captured, so that little is left to do
//! once it ends) and from a file: the voice-activity model's utterances cut
//! into 1.5 s windows, each embedded ([`super::diarize`]), and with the
//! segmentation model, its 10 s windows run ([`super::guided`]). Nothing is
//! told apart until [`ChannelSpeakers::conclude`]: only then is it known
//! where the channel's kept lines are.

use super::campplus::CamPlusPlus;
use super::diarize::{
    conclude, embed_chunks, mostly_within, read_blocks, Diarization, DiarizeError, BATCH,
};
use super::guided::Segmenter;
use super::segmentation::Segmentation;
use crate::audio::AudioStream;
use crate::vad::{Chunker, Gate, Profile, SpeechChunk};

pub struct ChannelSpeakers<'m> {
    embedder: &'m CamPlusPlus,
    chunker: Chunker,
    chunks: Vec<SpeechChunk>,
    /// Every window of speech (samples of the channel) and its embedding.
    spans: Vec<(usize, usize)>,
    embeddings: Vec<Vec<f32>>,
    segmenter: Option<Segmenter<'m>>,
    /// Samples pushed.
    read: usize,
    /// Utterances embedded at once.
    batch: usize,
}

impl<'m> ChannelSpeakers<'m> {
    /// `gate` decides what is speech, cut as live lines are cut.
    pub fn new(
        embedder: &'m CamPlusPlus,
        segmentation: Option<&'m Segmentation>,
        gate: Gate,
    ) -> Self {
        let profile = Profile::live(&gate);
        Self {
            embedder,
            chunker: Chunker::new(gate, profile, 0),
            chunks: Vec::new(),
            spans: Vec::new(),
            embeddings: Vec::new(),
            segmenter: segmentation.map(|model| Segmenter::new(model, embedder)),
            read: 0,
            batch: BATCH,
        }
    }

    /// Embeds each utterance as soon as it is cut (live: its speaker can be
    /// shown within seconds), rather than a batch of them at a time.
    pub fn embedding_each_utterance(mut self) -> Self {
        self.batch = 1;
        self
    }

    /// Windows embedded so far.
    pub fn windows(&self) -> usize {
        self.spans.len()
    }

    /// The channel's next samples (16 kHz).
    pub fn push(&mut self, block: &[f32]) -> Result<(), DiarizeError> {
        self.read += block.len();
        self.chunker.push(block, &mut self.chunks);
        if self.chunks.len() >= self.batch {
            self.embed();
        }
        match &mut self.segmenter {
            Some(segmenter) => segmenter.push(block).map_err(DiarizeError::Model),
            None => Ok(()),
        }
    }

    /// The channel ended: its last utterance and window are run.
    pub fn finish(&mut self) -> Result<(), DiarizeError> {
        self.chunker.finish(&mut self.chunks);
        self.embed();
        match &mut self.segmenter {
            Some(segmenter) => segmenter.finish().map_err(DiarizeError::Model),
            None => Ok(()),
        }
    }

    /// Pushes all of `stream` and finishes; `stop` is asked before every
    /// block is read.
    pub fn read_all(
        &mut self,
        stream: &mut dyn AudioStream,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), DiarizeError> {
        read_blocks(stream, stop, &mut |block| self.push(block))?;
        self.finish()
    }

    /// Samples pushed so far.
    pub fn samples(&self) -> usize {
        self.read
    }

    /// The speakers, told apart only within `within` (sorted sample ranges;
    /// `None`: everywhere): the windows' speakers, and with the segmentation
    /// model what they miss.
    pub fn conclude(&self, within: Option<&[(usize, usize)]>) -> Diarization {
        let given = self.windows_only(within);
        match &self.segmenter {
            Some(segmenter) if !given.voices.is_empty() => segmenter.conclude(&given, within),
            _ => given,
        }
    }

    /// The speakers the windows embedded so far find (quick: for live lines).
    pub fn windows_only(&self, within: Option<&[(usize, usize)]>) -> Diarization {
        let kept: Vec<usize> = (0..self.spans.len())
            .filter(|&i| {
                within.is_none_or(|kept| mostly_within(kept, self.spans[i].0, self.spans[i].1))
            })
            .collect();
        let spans: Vec<(usize, usize)> = kept.iter().map(|&i| self.spans[i]).collect();
        let embeddings: Vec<Vec<f32>> = kept.iter().map(|&i| self.embeddings[i].clone()).collect();
        conclude(&spans, &embeddings)
    }

    fn embed(&mut self) {
        let chunks = std::mem::take(&mut self.chunks);
        if !chunks.is_empty() {
            embed_chunks(self.embedder, &chunks, (&mut self.spans, &mut self.embeddings));
        }
    }
}

/// Diarizes a whole 16 kHz stream, holding only a batch of speech windows in
/// memory at a time: speech regions are the utterances of the live VAD
/// profile (cut at short pauses, at most 10 s), so a region is seldom two
/// people. `stop` is asked before every block is read.
pub fn diarize_stream(
    model: &CamPlusPlus,
    stream: &mut dyn AudioStream,
    gate: Gate,
    stop: &dyn Fn() -> bool,
) -> Result<Diarization, DiarizeError> {
    diarize_stream_within(model, stream, gate, None, stop)
}

/// As [`diarize_stream`], but only windows lying mostly within `within`
/// (sorted sample ranges; `None`: everywhere) are grouped: the microphone's
/// speakers are told apart only where its kept lines are, not where it
/// heard the other side's echo.
pub fn diarize_stream_within(
    model: &CamPlusPlus,
    stream: &mut dyn AudioStream,
    gate: Gate,
    within: Option<&[(usize, usize)]>,
    stop: &dyn Fn() -> bool,
) -> Result<Diarization, DiarizeError> {
    let mut channel = ChannelSpeakers::new(model, None, gate);
    channel.read_all(stream, stop)?;
    Ok(channel.conclude(within))
}
