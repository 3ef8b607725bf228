//! One channel's chain on the recorder thread: feed → downmix → resample to
//! 16 kHz → journal (disk first) → voice activity → utterances.

use std::sync::mpsc::Receiver;
use std::time::Instant;

use recorder_domain::Channel;
use recorder_stt::audio::Resampler;
use recorder_stt::vad::{Chunker, SpeechChunk};

use crate::journal::{Journal, JournalError};
use crate::Feed;

/// A stretch of speech cut by the voice-activity gate, ready to transcribe.
#[derive(Debug, Clone)]
pub struct Utterance {
    pub channel: Channel,
    pub start_ms: i64,
    pub samples: Vec<f32>,
    /// When the gate cut it: the start of its wait for a transcript.
    pub cut_at: Instant,
}

impl Utterance {
    pub fn end_ms(&self) -> i64 {
        self.start_ms + self.samples.len() as i64 / 16
    }
}

/// Why a channel stopped.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("cannot resample the {channel} stream: {message}")]
    Resample { channel: &'static str, message: String },
}

pub struct ChannelChain {
    channel: Channel,
    feeds: Receiver<Feed>,
    feed: Option<Feed>,
    resampler: Option<Resampler>,
    journal: Journal,
    chunker: Chunker,
    interleaved: Vec<f32>,
    mono: Vec<f32>,
    resampled: Vec<f32>,
    chunks: Vec<SpeechChunk>,
    /// Highest absolute sample recorded since [`ChannelChain::take_peak`].
    peak: f32,
}

impl ChannelChain {
    pub fn new(channel: Channel, feeds: Receiver<Feed>, journal: Journal) -> Self {
        ChannelChain {
            channel,
            feeds,
            feed: None,
            resampler: None,
            journal,
            chunker: Chunker::live(),
            interleaved: Vec::new(),
            mono: Vec::new(),
            resampled: Vec::new(),
            chunks: Vec::new(),
            peak: 0.0,
        }
    }

    pub fn channel(&self) -> Channel {
        self.channel
    }

    /// Length of the channel's recorded audio, in ms.
    pub fn recorded_ms(&self) -> i64 {
        (self.journal.samples() / 16) as i64
    }

    /// The loudest sample recorded since the last call (0 while paused).
    pub fn take_peak(&mut self) -> f32 {
        std::mem::take(&mut self.peak)
    }

    /// Where the utterance not cut yet began, in ms; `None` between utterances.
    pub fn speech_since_ms(&self) -> Option<i64> {
        self.chunker.speech_since_ms()
    }

    /// Moves everything the feed holds along the chain. While `paused`, the
    /// audio is read and dropped: paused time is not recorded at all.
    pub fn pump(&mut self, paused: bool, out: &mut Vec<Utterance>) -> Result<(), ChainError> {
        while let Ok(next) = self.feeds.try_recv() {
            // The old stream's last samples come first.
            self.drain(paused, out)?;
            self.switch(next, paused, out)?;
        }
        self.drain(paused, out)
    }

    /// Cuts the last utterance and closes the file; returns its samples.
    pub fn finish(mut self, paused: bool, out: &mut Vec<Utterance>) -> Result<u64, ChainError> {
        self.pump(paused, out)?;
        self.flush_resampler(paused, out)?;
        self.chunker.finish(&mut self.chunks);
        self.emit(out);
        Ok(self.journal.finish()?)
    }

    fn switch(
        &mut self,
        next: Feed,
        paused: bool,
        out: &mut Vec<Utterance>,
    ) -> Result<(), ChainError> {
        self.flush_resampler(paused, out)?;
        let resampler = Resampler::new(next.format.rate).map_err(|e| self.resample_error(e))?;
        self.resampler = Some(resampler);
        self.feed = Some(next);
        Ok(())
    }

    /// Records what the resampler still holds (at a switch or the end).
    fn flush_resampler(
        &mut self,
        paused: bool,
        out: &mut Vec<Utterance>,
    ) -> Result<(), ChainError> {
        let Some(mut resampler) = self.resampler.take() else { return Ok(()) };
        let mut tail = Vec::new();
        resampler.finish(&mut tail).map_err(|e| self.resample_error(e))?;
        self.record(&tail, paused, out)
    }

    fn drain(&mut self, paused: bool, out: &mut Vec<Utterance>) -> Result<(), ChainError> {
        let Some(feed) = self.feed.as_mut() else { return Ok(()) };
        let channels = usize::from(feed.format.channels.max(1));
        let available = feed.samples.slots() / channels * channels;
        if available == 0 {
            return Ok(());
        }
        self.interleaved.clear();
        if let Ok(chunk) = feed.samples.read_chunk(available) {
            let (first, second) = chunk.as_slices();
            self.interleaved.extend_from_slice(first);
            self.interleaved.extend_from_slice(second);
            chunk.commit_all();
        }
        self.mono.clear();
        self.mono.extend(
            self.interleaved
                .chunks_exact(channels)
                .map(|f| f.iter().sum::<f32>() / channels as f32),
        );
        self.resampled.clear();
        if let Some(resampler) = self.resampler.as_mut() {
            resampler.push(&self.mono, &mut self.resampled).map_err(|e| ChainError::Resample {
                channel: self.channel.as_str(),
                message: e.to_string(),
            })?;
        }
        let block = std::mem::take(&mut self.resampled);
        let result = self.record(&block, paused, out);
        self.resampled = block;
        result
    }

    fn record(
        &mut self,
        block: &[f32],
        paused: bool,
        out: &mut Vec<Utterance>,
    ) -> Result<(), ChainError> {
        if paused || block.is_empty() {
            return Ok(());
        }
        self.journal.append(block)?;
        self.peak = block.iter().fold(self.peak, |peak, sample| peak.max(sample.abs()));
        self.chunker.push(block, &mut self.chunks);
        self.emit(out);
        Ok(())
    }

    fn emit(&mut self, out: &mut Vec<Utterance>) {
        let now = Instant::now();
        out.extend(self.chunks.drain(..).map(|chunk| Utterance {
            channel: self.channel,
            start_ms: chunk.start_ms,
            samples: chunk.samples,
            cut_at: now,
        }));
    }

    fn resample_error(&self, error: impl std::fmt::Display) -> ChainError {
        ChainError::Resample { channel: self.channel.as_str(), message: error.to_string() }
    }
}
