//! Native WAV decoding with hound: 8/16/24/32-bit integer or 32-bit float,
//! any rate, any channel count; downmixed to mono, then resampled.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use hound::{SampleFormat, WavReader};

use super::{AudioError, AudioStream, Resampler, SAMPLE_RATE};

/// Sample rates a WAV file may have.
const RATES: std::ops::RangeInclusive<u32> = 1_000..=768_000;
/// Channels a WAV file may have.
const MAX_CHANNELS: u16 = 64;
/// Frames read from the file at a time, whatever the rate.
const MAX_FRAMES: usize = 65_536;

pub struct WavStream {
    reader: WavReader<BufReader<File>>,
    channels: usize,
    format: SampleFormat,
    scale: f32,
    resampler: Resampler,
    ready: Vec<f32>,
    interleaved: Vec<f32>,
    mono: Vec<f32>,
    finished: bool,
    duration_ms: i64,
}

impl WavStream {
    pub fn open(path: &Path) -> Result<Self, AudioError> {
        let reader = WavReader::open(path).map_err(wav_error)?;
        let spec = reader.spec();
        if spec.channels == 0 || spec.sample_rate == 0 {
            return Err(AudioError::Invalid("the WAV header has no channels or no rate".into()));
        }
        // Beyond these no recording exists, and the resampler's tables (sized
        // by the rate) or a frame (by the channels) would grow without bound.
        if !RATES.contains(&spec.sample_rate) || spec.channels > MAX_CHANNELS {
            return Err(AudioError::Invalid(format!(
                "a WAV file of {} Hz and {} channels is not supported (1 to 768 kHz, up to {MAX_CHANNELS} channels)",
                spec.sample_rate, spec.channels
            )));
        }
        let supported = matches!(
            (spec.sample_format, spec.bits_per_sample),
            (SampleFormat::Int, 8 | 16 | 24 | 32) | (SampleFormat::Float, 32)
        );
        if !supported {
            return Err(AudioError::Invalid(format!(
                "{}-bit {:?} WAV samples are not supported",
                spec.bits_per_sample, spec.sample_format
            )));
        }
        let duration_ms = i64::from(reader.duration()) * 1000 / i64::from(spec.sample_rate);
        Ok(WavStream {
            channels: usize::from(spec.channels),
            format: spec.sample_format,
            scale: 1.0 / (1u64 << (spec.bits_per_sample - 1)) as f32,
            resampler: Resampler::new(spec.sample_rate)?,
            reader,
            ready: Vec::new(),
            interleaved: Vec::new(),
            mono: Vec::new(),
            finished: false,
            duration_ms,
        })
    }

    /// Reads about `frames` frames from the file into `self.ready` at 16 kHz.
    fn fill(&mut self, frames: usize) -> Result<(), AudioError> {
        self.interleaved.clear();
        let wanted = frames * self.channels;
        match self.format {
            SampleFormat::Float => {
                for sample in self.reader.samples::<f32>().take(wanted) {
                    self.interleaved.push(super::full_scale(sample.map_err(sample_error)?));
                }
            }
            SampleFormat::Int => {
                for sample in self.reader.samples::<i32>().take(wanted) {
                    self.interleaved.push(sample.map_err(sample_error)? as f32 * self.scale);
                }
            }
        }
        if !self.interleaved.len().is_multiple_of(self.channels) {
            return Err(AudioError::Invalid("the WAV data ends in the middle of a frame".into()));
        }
        self.mono.clear();
        let channels = self.channels as f32;
        self.mono.extend(
            self.interleaved.chunks_exact(self.channels).map(|f| f.iter().sum::<f32>() / channels),
        );
        self.resampler.push(&self.mono, &mut self.ready)?;
        if self.interleaved.len() < wanted {
            self.resampler.finish(&mut self.ready)?;
            self.finished = true;
        }
        Ok(())
    }
}

impl AudioStream for WavStream {
    fn read(&mut self, out: &mut Vec<f32>, max: usize) -> Result<usize, AudioError> {
        while self.ready.len() < max && !self.finished {
            let rate = self.reader.spec().sample_rate as usize;
            let frames = (max * rate / SAMPLE_RATE as usize).clamp(256, MAX_FRAMES);
            self.fill(frames)?;
        }
        let count = max.min(self.ready.len());
        out.extend(self.ready.drain(..count));
        Ok(count)
    }

    fn duration_ms(&self) -> Option<i64> {
        Some(self.duration_ms)
    }
}

/// The header was read, so a read error among the samples means the data
/// stops before the header says it does.
fn sample_error(error: hound::Error) -> AudioError {
    match error {
        hound::Error::IoError(e) => AudioError::Invalid(format!(
            "the WAV file is truncated: it ends before its header says ({e})"
        )),
        other => wav_error(other),
    }
}

/// Errors while reading the header: the file is not a usable WAV.
fn wav_error(error: hound::Error) -> AudioError {
    match error {
        hound::Error::IoError(e) => {
            AudioError::Invalid(format!("the WAV header is incomplete or damaged ({e})"))
        }
        other => AudioError::Invalid(other.to_string()),
    }
}
