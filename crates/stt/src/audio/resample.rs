//! Sample-rate conversion to 16 kHz with rubato's FFT resampler, fed in
//! blocks; its start-up delay is trimmed so timestamps stay exact.

use rubato::{FftFixedIn, Resampler as _};

use super::{AudioError, SAMPLE_RATE};

const CHUNK: usize = 1024;

/// Turns mono samples at any rate into 16 kHz mono samples.
pub struct Resampler {
    inner: Option<FftFixedIn<f32>>,
    pending: Vec<f32>,
    delay_left: usize,
    expected_total: Option<u64>,
    produced: u64,
    consumed: u64,
    rate: u32,
}

impl Resampler {
    pub fn new(rate: u32) -> Result<Self, AudioError> {
        let inner = if rate == SAMPLE_RATE {
            None
        } else {
            let resampler = FftFixedIn::new(rate as usize, SAMPLE_RATE as usize, CHUNK, 2, 1)
                .map_err(|e| AudioError::Invalid(format!("cannot resample from {rate} Hz: {e}")))?;
            Some(resampler)
        };
        let delay_left = inner.as_ref().map_or(0, |r| r.output_delay());
        Ok(Resampler {
            inner,
            pending: Vec::new(),
            delay_left,
            expected_total: None,
            produced: 0,
            consumed: 0,
            rate,
        })
    }

    /// Feeds input samples, appending what is ready to `out`.
    pub fn push(&mut self, input: &[f32], out: &mut Vec<f32>) -> Result<(), AudioError> {
        self.consumed += input.len() as u64;
        let Some(inner) = self.inner.as_mut() else {
            out.extend_from_slice(input);
            return Ok(());
        };
        self.pending.extend_from_slice(input);
        let mut start = 0;
        while self.pending.len() - start >= CHUNK {
            let block = &self.pending[start..start + CHUNK];
            let result = inner.process(&[block], None).map_err(resample_error)?;
            start += CHUNK;
            Self::emit(&mut self.delay_left, &mut self.produced, &result[0], out);
        }
        self.pending.drain(..start);
        Ok(())
    }

    /// Flushes the tail at the end of the input.
    pub fn finish(&mut self, out: &mut Vec<f32>) -> Result<(), AudioError> {
        let Some(inner) = self.inner.as_mut() else { return Ok(()) };
        let wanted = self.consumed * u64::from(SAMPLE_RATE) / u64::from(self.rate);
        self.expected_total = Some(wanted);
        let tail = std::mem::take(&mut self.pending);
        let mut rounds = 0;
        while self.produced < wanted && rounds < 8 {
            let input: Option<&[&[f32]]> = None;
            let result = if rounds == 0 && !tail.is_empty() {
                inner.process_partial(Some(&[tail.as_slice()]), None)
            } else {
                inner.process_partial(input, None)
            }
            .map_err(resample_error)?;
            let mut chunk = result[0].clone();
            let room = usize::try_from(wanted - self.produced).unwrap_or(usize::MAX);
            chunk.truncate(room + self.delay_left);
            Self::emit(&mut self.delay_left, &mut self.produced, &chunk, out);
            rounds += 1;
        }
        Ok(())
    }

    fn emit(delay_left: &mut usize, produced: &mut u64, samples: &[f32], out: &mut Vec<f32>) {
        let skip = (*delay_left).min(samples.len());
        *delay_left -= skip;
        out.extend_from_slice(&samples[skip..]);
        *produced += (samples.len() - skip) as u64;
    }
}

fn resample_error(error: rubato::ResampleError) -> AudioError {
    AudioError::Invalid(format!("resampling failed: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(rate: u32, seconds: f32, hz: f32) -> Vec<f32> {
        let count = (rate as f32 * seconds) as usize;
        (0..count).map(|i| (i as f32 * hz * std::f32::consts::TAU / rate as f32).sin()).collect()
    }

    fn run(rate: u32, input: &[f32]) -> Vec<f32> {
        let mut resampler = Resampler::new(rate).expect("resampler");
        let mut out = Vec::new();
        for block in input.chunks(777) {
            resampler.push(block, &mut out).expect("push");
        }
        resampler.finish(&mut out).expect("finish");
        out
    }

    #[test]
    fn keeps_length_and_timing_from_44_1_khz() {
        let out = run(44_100, &tone(44_100, 2.0, 440.0));
        assert_eq!(out.len(), 32_000);
        // A 440 Hz sine at 16 kHz: compare with the ideal after the edges.
        let ideal = tone(16_000, 2.0, 440.0);
        let error: f32 = (4000..28_000).map(|i| (out[i] - ideal[i]).abs()).fold(0.0, f32::max);
        assert!(error < 0.02, "largest error {error}");
    }

    #[test]
    fn passes_16_khz_through() {
        let input = tone(16_000, 0.5, 300.0);
        assert_eq!(run(16_000, &input), input);
    }

    #[test]
    fn downsamples_48_khz() {
        let out = run(48_000, &tone(48_000, 1.0, 1000.0));
        assert_eq!(out.len(), 16_000);
    }
}
