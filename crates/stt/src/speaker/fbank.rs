//! 80-bin log mel filterbank as Kaldi computes it (and 3D-Speaker feeds
//! CAM++): 25 ms frames every 10 ms, `snip_edges`, DC removed, pre-emphasis
//! 0.97, Povey window, 512-point power spectrum, mel bins from 20 Hz to
//! Nyquist, natural log; then the mean over time is subtracted per bin.

use realfft::RealFftPlanner;

pub const BINS: usize = 80;
const FRAME: usize = 400;
const HOP: usize = 160;
const FFT: usize = 512;
const RATE: f64 = 16_000.0;
const LOW_HZ: f64 = 20.0;

/// Features of 16 kHz samples in [-1, 1]: one row of [`BINS`] per frame.
pub fn features(samples: &[f32]) -> Vec<[f32; BINS]> {
    if samples.len() < FRAME {
        return Vec::new();
    }
    let frames = 1 + (samples.len() - FRAME) / HOP;
    let window = povey();
    let bank = mel_bank();
    let fft = RealFftPlanner::<f64>::new().plan_fft_forward(FFT);
    let mut input = fft.make_input_vec();
    let mut spectrum = fft.make_output_vec();
    let mut rows = Vec::with_capacity(frames);
    for f in 0..frames {
        let frame: Vec<f64> =
            samples[f * HOP..f * HOP + FRAME].iter().map(|s| f64::from(*s) * 32768.0).collect();
        let mean = frame.iter().sum::<f64>() / FRAME as f64;
        input.iter_mut().for_each(|v| *v = 0.0);
        for i in (0..FRAME).rev() {
            let centred = frame[i] - mean;
            let previous = if i == 0 { centred } else { frame[i - 1] - mean };
            input[i] = (centred - 0.97 * previous) * window[i];
        }
        if fft.process(&mut input, &mut spectrum).is_err() {
            return Vec::new();
        }
        let power: Vec<f64> = spectrum.iter().map(|c| c.norm_sqr()).collect();
        let mut row = [0.0f32; BINS];
        for (m, weights) in bank.iter().enumerate() {
            let energy: f64 = weights.iter().map(|(bin, w)| power[*bin] * w).sum();
            row[m] = energy.max(f64::from(f32::EPSILON)).ln() as f32;
        }
        rows.push(row);
    }
    subtract_mean(&mut rows);
    rows
}

fn povey() -> Vec<f64> {
    let step = 2.0 * std::f64::consts::PI / (FRAME - 1) as f64;
    (0..FRAME).map(|i| (0.5 - 0.5 * (step * i as f64).cos()).powf(0.85)).collect()
}

fn mel(hz: f64) -> f64 {
    1127.0 * (1.0 + hz / 700.0).ln()
}

/// Per mel bin, the FFT bins it sums and their weights.
fn mel_bank() -> Vec<Vec<(usize, f64)>> {
    let (low, high) = (mel(LOW_HZ), mel(RATE / 2.0));
    let delta = (high - low) / (BINS + 1) as f64;
    let width = RATE / FFT as f64;
    (0..BINS)
        .map(|m| {
            let (left, centre, right) = (
                low + m as f64 * delta,
                low + (m + 1) as f64 * delta,
                low + (m + 2) as f64 * delta,
            );
            (0..FFT / 2)
                .filter_map(|bin| {
                    let at = mel(width * bin as f64);
                    let weight =
                        ((at - left) / (centre - left)).min((right - at) / (right - centre));
                    (weight > 0.0).then_some((bin, weight))
                })
                .collect()
        })
        .collect()
}

fn subtract_mean(rows: &mut [[f32; BINS]]) {
    if rows.is_empty() {
        return;
    }
    for bin in 0..BINS {
        let mean = rows.iter().map(|r| f64::from(r[bin])).sum::<f64>() / rows.len() as f64;
        rows.iter_mut().for_each(|r| r[bin] -= mean as f32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tone_lights_the_bin_of_its_frequency_and_the_mean_is_removed() {
        let tone: Vec<f32> = (0..16_000)
            .map(|i| 0.3 * (2.0 * std::f32::consts::PI * 1000.0 * i as f32 / 16_000.0).sin())
            .collect();
        let noise: Vec<f32> =
            (0..16_000).map(|i| ((i * 7919 % 1000) as f32 / 1000.0 - 0.5) * 0.01).collect();
        let mixed: Vec<f32> = tone.iter().zip(&noise).map(|(a, b)| a + b).collect();
        let rows = features(&[noise.clone(), mixed].concat());
        assert_eq!(rows.len(), 1 + (32_000 - FRAME) / HOP);
        let bin_of_1k =
            (0..BINS).max_by(|a, b| rows[150][*a].total_cmp(&rows[150][*b])).expect("bins");
        let hz = |m: usize| {
            700.0
                * ((mel(LOW_HZ) + (m + 1) as f64 * (mel(8000.0) - mel(LOW_HZ)) / 81.0) / 1127.0)
                    .exp_m1()
        };
        assert!((hz(bin_of_1k) - 1000.0).abs() < 100.0, "bin {bin_of_1k} at {} Hz", hz(bin_of_1k));
        let mean: f32 = rows.iter().map(|r| r[bin_of_1k]).sum::<f32>() / rows.len() as f32;
        assert!(mean.abs() < 1e-3);
    }
}
