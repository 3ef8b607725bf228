//! Whisper's mel filterbank (Slaney-style mel scale and area normalisation, as
//! librosa computes it), which a ggml model file carries for whisper.cpp.

/// `n_mels` × (`n_fft` / 2 + 1) weights, row by row, for 16 kHz audio.
pub fn filters(n_mels: usize, n_fft: usize) -> Vec<f32> {
    let sample_rate = 16_000.0_f64;
    let bins = n_fft / 2 + 1;
    let fft_freqs: Vec<f64> = (0..bins).map(|i| i as f64 * sample_rate / n_fft as f64).collect();
    let max_mel = hz_to_mel(sample_rate / 2.0);
    let mel_freqs: Vec<f64> =
        (0..n_mels + 2).map(|i| mel_to_hz(max_mel * i as f64 / (n_mels + 1) as f64)).collect();
    let mut weights = Vec::with_capacity(n_mels * bins);
    for m in 0..n_mels {
        let (lower_edge, center, upper_edge) = (mel_freqs[m], mel_freqs[m + 1], mel_freqs[m + 2]);
        let norm = 2.0 / (upper_edge - lower_edge);
        for &freq in &fft_freqs {
            let rising = (freq - lower_edge) / (center - lower_edge);
            let falling = (upper_edge - freq) / (upper_edge - center);
            weights.push((rising.min(falling).max(0.0) * norm) as f32);
        }
    }
    weights
}

const F_SP: f64 = 200.0 / 3.0;
const MIN_LOG_HZ: f64 = 1000.0;
const MIN_LOG_MEL: f64 = MIN_LOG_HZ / F_SP;

fn logstep() -> f64 {
    6.4_f64.ln() / 27.0
}

fn hz_to_mel(hz: f64) -> f64 {
    if hz >= MIN_LOG_HZ {
        MIN_LOG_MEL + (hz / MIN_LOG_HZ).ln() / logstep()
    } else {
        hz / F_SP
    }
}

fn mel_to_hz(mel: f64) -> f64 {
    if mel >= MIN_LOG_MEL {
        MIN_LOG_HZ * (logstep() * (mel - MIN_LOG_MEL)).exp()
    } else {
        F_SP * mel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slaney_scale_and_triangles() {
        assert!((hz_to_mel(8000.0) - 45.245_640_471_924_965).abs() < 1e-9);
        assert!((mel_to_hz(hz_to_mel(3210.0)) - 3210.0).abs() < 1e-9);
        let weights = filters(80, 400);
        assert_eq!(weights.len(), 80 * 201);
        for row in weights.chunks(201) {
            assert!(row.iter().all(|w| *w >= 0.0));
            assert!(row.iter().any(|w| *w > 0.0), "every filter covers at least one bin");
        }
        // The first filter rises from 0 Hz, so bin 0 (0 Hz) has no weight.
        assert_eq!(weights[0], 0.0);
    }
}
