//! Audio files as a stream of 16 kHz mono f32 samples, read a block at a time
//! so memory stays bounded whatever the file's length: WAV natively (any
//! common layout), everything else through an `ffmpeg` child process.

mod ffmpeg;
mod resample;
mod wav;

use std::path::Path;

pub use ffmpeg::rules as ffmpeg_rules;
pub use resample::Resampler;

/// The sample rate whisper works at.
pub const SAMPLE_RATE: u32 = 16_000;

/// How many samples a block read asks for (about 0.5 s at 16 kHz).
pub const BLOCK: usize = 8_000;

#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    #[error("the audio file could not be read: {0}")]
    Io(#[from] std::io::Error),
    #[error("the audio file is not valid: {0}")]
    Invalid(String),
    #[error("the media converter failed: {0}")]
    Converter(String),
}

/// A source of 16 kHz mono samples.
pub trait AudioStream: Send {
    /// Appends up to `max` samples to `out`; 0 means the end of the audio.
    fn read(&mut self, out: &mut Vec<f32>, max: usize) -> Result<usize, AudioError>;
    /// The length of the audio, when the file says so up front.
    fn duration_ms(&self) -> Option<i64>;
}

/// Opens `path`: WAV files natively, others through `ffmpeg` (when given).
pub fn open(path: &Path, ffmpeg: Option<&Path>) -> Result<Box<dyn AudioStream>, AudioError> {
    let is_wav =
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("wav"));
    if is_wav {
        return Ok(Box::new(wav::WavStream::open(path)?));
    }
    let ffmpeg = ffmpeg.ok_or_else(|| {
        AudioError::Converter("ffmpeg is needed for this format and was not found".into())
    })?;
    Ok(Box::new(ffmpeg::FfmpegStream::spawn(ffmpeg, path)?))
}

/// A float sample within full scale: NaN and infinities (damaged data) are
/// silence and louder values are clipped, as integer samples are by their
/// range. Unchecked, NaN and infinities went on to the transcriber, spread by
/// the resampler's filter to the samples around them, and huge values could
/// sum to infinity in the downmix (found by the property tests,
/// `tests/properties.rs`).
pub(crate) fn full_scale(sample: f32) -> f32 {
    if sample.is_finite() {
        sample.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

/// Reads and throws away the first `samples` samples (to resume a job).
pub fn skip(stream: &mut dyn AudioStream, mut samples: u64) -> Result<(), AudioError> {
    let mut scratch = Vec::with_capacity(BLOCK);
    while samples > 0 {
        scratch.clear();
        let want = BLOCK.min(usize::try_from(samples).unwrap_or(BLOCK));
        let got = stream.read(&mut scratch, want)?;
        if got == 0 {
            break;
        }
        samples -= got as u64;
    }
    Ok(())
}
