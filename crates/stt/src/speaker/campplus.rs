//! CAM++ (Wang et al., Interspeech 2023; 3D-Speaker's `campplus`), 192-d
//! speaker embeddings from [`super::fbank`] features. The layers follow the
//! upstream model: a 2-D residual head over the 80 mel bins, a TDNN, three
//! densely connected blocks of context-aware masking layers (12, 24 and 16,
//! dilations 1, 2, 2), mean and standard-deviation pooling, a linear layer
//! and a batch norm without affine terms. Batch norms are folded into scale
//! and shift at load.

use std::collections::HashMap;
use std::path::Path;

use super::fbank::BINS;
use super::ops::{conv2d, matmul, norm, relu, Conv1d, Map, Planes};

pub const FILE_NAME: &str = "speaker-campplus.safetensors";
pub const DIMENSIONS: usize = 192;
const SEGMENT: usize = 100;
const BLOCKS: [(usize, usize); 3] = [(12, 1), (24, 2), (16, 2)];

struct Tensor {
    shape: Vec<usize>,
    data: Vec<f32>,
}

pub struct CamPlusPlus {
    tensors: HashMap<String, Tensor>,
    /// Folded batch norms: name → (scale, shift).
    norms: HashMap<String, (Vec<f32>, Vec<f32>)>,
}

impl CamPlusPlus {
    pub fn load(path: &Path) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let file = safetensors::SafeTensors::deserialize(bytes).map_err(|e| e.to_string())?;
        let mut tensors = HashMap::new();
        for (name, view) in file.tensors() {
            if view.dtype() != safetensors::Dtype::F32 {
                continue; // `num_batches_tracked` counters
            }
            let data = view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            tensors.insert(name, Tensor { shape: view.shape().to_vec(), data });
        }
        let mut model = CamPlusPlus { tensors, norms: HashMap::new() };
        model.fold_norms()?;
        model.tensor("xvector.dense.linear.weight")?;
        model.try_once()?;
        Ok(model)
    }

    /// Embeds a second of silence: weights that lack a layer, or whose
    /// shapes do not fit together, are refused here rather than failing a
    /// meeting later.
    fn try_once(&self) -> Result<(), String> {
        let silence = super::fbank::features(&[0.0; 16_000]);
        let embedding =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.embed(&silence)))
                .map_err(|_| {
                    "these are not CAM++ weights (a layer is missing or misshapen)".to_string()
                })?;
        if embedding.len() != DIMENSIONS || embedding.iter().any(|v| !v.is_finite()) {
            return Err(format!("these weights make no {DIMENSIONS}-d speaker embedding"));
        }
        Ok(())
    }

    fn fold_norms(&mut self) -> Result<(), String> {
        let prefixes: Vec<String> = self
            .tensors
            .keys()
            .filter_map(|k| k.strip_suffix(".running_mean").map(str::to_owned))
            .collect();
        for prefix in prefixes {
            let mean = &self.tensor(&format!("{prefix}.running_mean"))?.data;
            let var = &self.tensor(&format!("{prefix}.running_var"))?.data;
            let weight = self.tensors.get(&format!("{prefix}.weight")).map(|t| &t.data);
            let bias = self.tensors.get(&format!("{prefix}.bias")).map(|t| &t.data);
            let mut scale = Vec::with_capacity(mean.len());
            let mut shift = Vec::with_capacity(mean.len());
            for c in 0..mean.len() {
                let s = weight.map_or(1.0, |w| w[c]) / (var[c] + 1e-5).sqrt();
                scale.push(s);
                shift.push(bias.map_or(0.0, |b| b[c]) - mean[c] * s);
            }
            self.norms.insert(prefix, (scale, shift));
        }
        Ok(())
    }

    fn tensor(&self, name: &str) -> Result<&Tensor, String> {
        self.tensors.get(name).ok_or_else(|| format!("no tensor {name}"))
    }

    fn norm(&self, data: &mut [f32], channels: usize, name: &str) {
        if let Some((scale, shift)) = self.norms.get(name) {
            norm(data, channels, scale, shift);
        }
    }

    fn conv1d(
        &self,
        x: &Map,
        name: &str,
        stride: usize,
        pad: usize,
        dilation: usize,
        bias: bool,
    ) -> Map {
        let weight = &self.tensors[&format!("{name}.weight")];
        let bias = bias.then(|| self.tensors[&format!("{name}.bias")].data.as_slice());
        Conv1d {
            weight: &weight.data,
            bias,
            outputs: weight.shape[0],
            kernel: weight.shape[2],
            stride,
            pad,
            dilation,
        }
        .apply(x)
    }

    fn conv2d(&self, x: &Planes, name: &str, stride: usize) -> Planes {
        let weight = &self.tensors[name];
        let kernel = weight.shape[2];
        conv2d(x, &weight.data, weight.shape[0], kernel, stride, kernel / 2)
    }

    fn residual(&self, x: &Planes, prefix: &str, stride: usize) -> Planes {
        let mut out = self.conv2d(x, &format!("{prefix}.conv1.weight"), stride);
        self.norm(&mut out.data, out.channels, &format!("{prefix}.bn1"));
        relu(&mut out.data);
        let mut out = self.conv2d(&out, &format!("{prefix}.conv2.weight"), 1);
        self.norm(&mut out.data, out.channels, &format!("{prefix}.bn2"));
        let shortcut = format!("{prefix}.shortcut.0.weight");
        let skip = if self.tensors.contains_key(&shortcut) {
            let mut skip = self.conv2d(x, &shortcut, stride);
            self.norm(&mut skip.data, skip.channels, &format!("{prefix}.shortcut.1"));
            skip
        } else {
            x.clone()
        };
        out.data.iter_mut().zip(&skip.data).for_each(|(o, s)| *o = (*o + s).max(0.0));
        out
    }

    fn head(&self, features: &[[f32; BINS]]) -> Map {
        let frames = features.len();
        let mut data = vec![0.0f32; BINS * frames];
        for (t, row) in features.iter().enumerate() {
            for (bin, value) in row.iter().enumerate() {
                data[bin * frames + t] = *value;
            }
        }
        let x = Planes { channels: 1, height: BINS, width: frames, data };
        let mut x = self.conv2d(&x, "head.conv1.weight", 1);
        self.norm(&mut x.data, x.channels, "head.bn1");
        relu(&mut x.data);
        for (layer, stride) in
            [("head.layer1.0", 2), ("head.layer1.1", 1), ("head.layer2.0", 2), ("head.layer2.1", 1)]
        {
            x = self.residual(&x, layer, stride);
        }
        let mut x = self.conv2d(&x, "head.conv2.weight", 2);
        self.norm(&mut x.data, x.channels, "head.bn2");
        relu(&mut x.data);
        Map { channels: x.channels * x.height, len: x.width, data: x.data }
    }

    /// One densely connected layer: its output is appended to `x`.
    fn dense_layer(&self, x: &mut Map, prefix: &str, dilation: usize) {
        let mut h = x.clone();
        self.norm(&mut h.data, h.channels, &format!("{prefix}.nonlinear1.batchnorm"));
        relu(&mut h.data);
        let mut h = self.conv1d(&h, &format!("{prefix}.linear1"), 1, 0, 1, false);
        self.norm(&mut h.data, h.channels, &format!("{prefix}.nonlinear2.batchnorm"));
        relu(&mut h.data);
        let cam = format!("{prefix}.cam_layer");
        let local = self.conv1d(&h, &format!("{cam}.linear_local"), 1, dilation, dilation, false);
        let context = segment_context(&h);
        let mut gate = self.conv1d(&context, &format!("{cam}.linear1"), 1, 0, 1, true);
        relu(&mut gate.data);
        let gate = self.conv1d(&gate, &format!("{cam}.linear2"), 1, 0, 1, true);
        x.data.extend(local.data.iter().zip(&gate.data).map(|(y, g)| y / (1.0 + (-g).exp())));
        x.channels += local.channels;
    }

    /// The 192-d embedding of some features (at least a few frames).
    pub fn embed(&self, features: &[[f32; BINS]]) -> Vec<f32> {
        let head = self.head(features);
        let mut x = self.conv1d(&head, "xvector.tdnn.linear", 2, 2, 1, false);
        self.norm(&mut x.data, x.channels, "xvector.tdnn.nonlinear.batchnorm");
        relu(&mut x.data);
        for (number, (layers, dilation)) in BLOCKS.iter().enumerate() {
            for layer in 1..=*layers {
                self.dense_layer(
                    &mut x,
                    &format!("xvector.block{}.tdnnd{layer}", number + 1),
                    *dilation,
                );
            }
            let transit = format!("xvector.transit{}", number + 1);
            self.norm(&mut x.data, x.channels, &format!("{transit}.nonlinear.batchnorm"));
            relu(&mut x.data);
            x = self.conv1d(&x, &format!("{transit}.linear"), 1, 0, 1, false);
        }
        self.norm(&mut x.data, x.channels, "xvector.out_nonlinear.batchnorm");
        relu(&mut x.data);
        let stats = pool(&x);
        let dense = &self.tensors["xvector.dense.linear.weight"];
        let mut embedding = matmul(&dense.data, &stats, dense.shape[0], stats.len(), 1);
        self.norm(&mut embedding, dense.shape[0], "xvector.dense.nonlinear.batchnorm");
        embedding
    }
}

/// Per channel, the mean over all frames plus the mean of the frame's
/// segment of [`SEGMENT`] frames.
fn segment_context(h: &Map) -> Map {
    let mut data = vec![0.0f32; h.data.len()];
    for c in 0..h.channels {
        let row = &h.data[c * h.len..(c + 1) * h.len];
        let mean = row.iter().sum::<f32>() / h.len as f32;
        for (start, chunk) in row.chunks(SEGMENT).enumerate() {
            let local = chunk.iter().sum::<f32>() / chunk.len() as f32;
            let at = c * h.len + start * SEGMENT;
            data[at..at + chunk.len()].iter_mut().for_each(|v| *v = mean + local);
        }
    }
    Map { channels: h.channels, len: h.len, data }
}

/// Mean then unbiased standard deviation of every channel.
fn pool(x: &Map) -> Vec<f32> {
    let mut means = Vec::with_capacity(x.channels);
    let mut deviations = Vec::with_capacity(x.channels);
    for c in 0..x.channels {
        let row = &x.data[c * x.len..(c + 1) * x.len];
        let mean = row.iter().map(|v| f64::from(*v)).sum::<f64>() / x.len as f64;
        let var = row.iter().map(|v| (f64::from(*v) - mean).powi(2)).sum::<f64>()
            / (x.len.max(2) - 1) as f64;
        means.push(mean as f32);
        deviations.push(var.sqrt() as f32);
    }
    means.extend(deviations);
    means
}

/// Cosine similarity of two embeddings.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (norm(a) * norm(b)).max(f32::EPSILON)
}
