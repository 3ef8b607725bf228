//! One channel's chain on the recorder thread: feed → downmix → resample to
//! 16 kHz → journal (disk first) → voice activity → utterances.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::time::Instant;

use recorder_domain::Channel;
use recorder_stt::audio::Resampler;
use recorder_stt::vad::{Chunker, Gate, Profile, SpeechChunk};

use crate::echo::History;
use crate::journal::{Journal, JournalError};
use crate::Feed;

/// Audio kept per channel to judge the other channel's utterances against:
/// the longest live utterance plus the longest echo delay, and a margin.
const HISTORY_SECONDS: usize = 12;

/// A stretch of speech cut by the voice-activity gate, ready to transcribe.
#[derive(Debug, Clone)]
pub struct Utterance {
    pub channel: Channel,
    pub start_ms: i64,
    pub samples: Vec<f32>,
    /// Where its last speech ends, in ms of the recording.
    pub speech_end_ms: i64,
    /// How much audio the gate had read when it cut it (ms of the recording):
    /// minus `speech_end_ms`, the pause it waited for.
    pub cut_position_ms: i64,
    /// When the gate cut it: the start of its wait for a transcript.
    pub cut_at: Instant,
    /// A microphone utterance that repeats the remote side's audio (set by
    /// the session, [`crate::echo`]).
    pub echo: bool,
}

impl Utterance {
    pub fn end_ms(&self) -> i64 {
        self.start_ms + self.samples.len() as i64 / 16
    }
}

/// What a channel's tap receives: a copy of the audio as it is recorded
/// (16 kHz, in blocks of about [`TAP_BLOCK`] samples), then `Ended` once the
/// channel is closed whole. A tap whose reader falls behind by
/// [`TAP_BLOCKS`] blocks is dropped without `Ended`: its reader then knows it
/// did not hear the whole channel, and nothing waits for it.
#[derive(Debug)]
pub enum Recorded {
    Samples(Vec<f32>),
    Ended,
}

/// Samples per tapped block (1 s).
pub const TAP_BLOCK: usize = 16_000;
/// Tapped blocks a reader may fall behind: 10 min of audio, 38 MB at most,
/// held only while it is behind (a reader at nice 10 on a machine that is
/// busy with something else catches up once it is not).
pub const TAP_BLOCKS: usize = 600;

struct Tap {
    sender: SyncSender<Recorded>,
    pending: Vec<f32>,
}

/// Moves everything `feed` holds into `out`, downmixed to mono and (with a
/// resampler) at 16 kHz; `scratch` holds the interleaved and mono samples.
pub fn read_mono(
    feed: &mut Feed,
    resampler: Option<&mut Resampler>,
    (interleaved, mono): (&mut Vec<f32>, &mut Vec<f32>),
    out: &mut Vec<f32>,
) -> Result<(), String> {
    let channels = usize::from(feed.format.channels.max(1));
    let available = feed.samples.slots() / channels * channels;
    if available == 0 {
        return Ok(());
    }
    interleaved.clear();
    if let Ok(chunk) = feed.samples.read_chunk(available) {
        let (first, second) = chunk.as_slices();
        interleaved.extend_from_slice(first);
        interleaved.extend_from_slice(second);
        chunk.commit_all();
    }
    mono.clear();
    mono.extend(
        interleaved.chunks_exact(channels).map(|f| f.iter().sum::<f32>() / channels as f32),
    );
    match resampler {
        Some(resampler) => resampler.push(mono, out).map_err(|e| e.to_string()),
        None => Ok(()),
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
    history: History,
    /// The current feed's overrun count already reported.
    overruns_seen: u64,
    /// Silence is recorded in place of the device's audio (the person muted
    /// their microphone in the recording), keeping the channels aligned.
    muted: bool,
    tap: Option<Tap>,
}

impl ChannelChain {
    /// `gate` decides what is speech (Silero or energy), with live cutting.
    pub fn new(channel: Channel, feeds: Receiver<Feed>, journal: Journal, gate: Gate) -> Self {
        let profile = Profile::live(&gate);
        ChannelChain {
            channel,
            feeds,
            feed: None,
            resampler: None,
            journal,
            chunker: Chunker::new(gate, profile, 0),
            interleaved: Vec::new(),
            mono: Vec::new(),
            resampled: Vec::new(),
            chunks: Vec::new(),
            peak: 0.0,
            history: History::new(HISTORY_SECONDS),
            overruns_seen: 0,
            muted: false,
            tap: None,
        }
    }

    /// Sends a copy of everything recorded from now on to `sender`.
    pub fn tap(&mut self, sender: SyncSender<Recorded>) {
        self.tap = Some(Tap { sender, pending: Vec::with_capacity(TAP_BLOCK) });
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
        let samples = self.journal.finish()?;
        if let Some(tap) = self.tap.take() {
            // Blocking: what is left is whole only with all of it.
            let pending = tap.pending;
            let sent = tap.sender.send(Recorded::Samples(pending));
            if sent.is_ok() {
                let _ = tap.sender.send(Recorded::Ended);
            }
        }
        Ok(samples)
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
        self.overruns_seen = 0;
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
        let scratch = (&mut self.interleaved, &mut self.mono);
        self.resampled.clear();
        read_mono(feed, self.resampler.as_mut(), scratch, &mut self.resampled)
            .map_err(|message| ChainError::Resample { channel: self.channel.as_str(), message })?;
        if self.resampled.is_empty() {
            return Ok(());
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
        let silence;
        let block = if self.muted {
            silence = vec![0.0; block.len()];
            &silence
        } else {
            block
        };
        self.journal.append(block)?;
        self.send_to_tap(block);
        self.history.push(block);
        self.peak = block.iter().fold(self.peak, |peak, sample| peak.max(sample.abs()));
        self.chunker.push(block, &mut self.chunks);
        self.emit(out);
        Ok(())
    }

    fn send_to_tap(&mut self, block: &[f32]) {
        let Some(tap) = self.tap.as_mut() else { return };
        tap.pending.extend_from_slice(block);
        if tap.pending.len() < TAP_BLOCK {
            return;
        }
        let full = std::mem::replace(&mut tap.pending, Vec::with_capacity(TAP_BLOCK));
        match tap.sender.try_send(Recorded::Samples(full)) {
            Ok(()) => {}
            // Its reader hears that it was dropped, and why: no `Ended`.
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => self.tap = None,
        }
    }

    fn emit(&mut self, out: &mut Vec<Utterance>) {
        let now = Instant::now();
        let position = self.chunker.position_ms();
        out.extend(self.chunks.drain(..).map(|chunk| Utterance {
            channel: self.channel,
            start_ms: chunk.start_ms,
            samples: chunk.samples,
            speech_end_ms: chunk.speech_end_ms,
            cut_position_ms: position,
            cut_at: now,
            echo: false,
        }));
    }

    /// Samples the capture side dropped since the last call (a full ring),
    /// in ms of this channel's device audio.
    pub fn take_overrun_ms(&mut self) -> i64 {
        let Some(feed) = self.feed.as_ref() else { return 0 };
        let total = feed.overruns.load(std::sync::atomic::Ordering::Relaxed);
        let per_ms =
            (u64::from(feed.format.rate) * u64::from(feed.format.channels.max(1)) / 1000).max(1);
        // Whole ms only; a remainder is told with the next loss.
        let lost_ms = total.saturating_sub(self.overruns_seen) / per_ms;
        self.overruns_seen += lost_ms * per_ms;
        i64::try_from(lost_ms).unwrap_or(i64::MAX)
    }

    /// Records silence instead of the device's audio (or the audio again).
    pub fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
    }

    /// The last seconds recorded, to judge the other channel's echo.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The open utterance's start and speech end, in ms (cheap).
    pub fn open_span(&self) -> Option<(i64, i64)> {
        self.chunker.open_span()
    }

    /// The open utterance so far (speech started, not yet cut): a copy.
    pub fn open_utterance(&self) -> Option<SpeechChunk> {
        self.chunker.open_samples()
    }

    fn resample_error(&self, error: impl std::fmt::Display) -> ChainError {
        ChainError::Resample { channel: self.channel.as_str(), message: error.to_string() }
    }
}
