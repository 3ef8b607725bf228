//! all-MiniLM-L6-v2's forward pass: token, position and type embeddings, six
//! encoder layers (12-head self-attention, a GELU feed-forward, post-layer
//! norms), the mean of the token states, L2-normalised. Sentences of a batch
//! are stacked for the dense layers; attention stays within each sentence, so
//! nothing is padded.

use std::ops::Range;

use ndarray::{Array2, ArrayView2, ArrayViewMut2, Axis, Slice};
use safetensors::SafeTensors;
use tokenizers::{Tokenizer, TruncationParams};

use crate::model::{ModelError, ModelFiles};
use crate::{DIMS, MAX_TOKENS};

const HEADS: usize = 12;
const LAYERS: usize = 6;
const NORM_EPS: f32 = 1e-12;

/// The tokenizer and the network, loaded once; `embed` may be called from
/// several threads.
pub struct Embedder {
    tokenizer: Tokenizer,
    net: Bert,
}

impl Embedder {
    pub fn load(files: &ModelFiles) -> Result<Embedder, ModelError> {
        let mut tokenizer = Tokenizer::from_file(files.tokenizer())
            .map_err(|e| ModelError::Invalid(format!("tokenizer.json: {e}")))?;
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| ModelError::Invalid(format!("tokenizer.json: {e}")))?;
        let path = files.weights();
        let bytes = std::fs::read(&path).map_err(|e| ModelError::Io { path, source: e })?;
        Ok(Embedder { tokenizer, net: Bert::read(&bytes)? })
    }

    /// The token ids of `text` as the model sees it ([CLS] … [SEP]).
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        match self.tokenizer.encode(text, true) {
            Ok(encoding) => encoding.get_ids().to_vec(),
            Err(_) => vec![101, 102],
        }
    }

    /// One unit vector per text, in order.
    pub fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        let ids: Vec<Vec<u32>> = texts.iter().map(|text| self.token_ids(text)).collect();
        self.net.forward(&ids)
    }
}

struct Linear {
    /// outputs × inputs, as saved.
    weight: Array2<f32>,
    bias: Vec<f32>,
}

impl Linear {
    fn apply(&self, x: &Array2<f32>) -> Array2<f32> {
        let mut y = x.dot(&self.weight.t());
        for mut row in y.rows_mut() {
            row.iter_mut().zip(&self.bias).for_each(|(v, b)| *v += b);
        }
        y
    }
}

struct Norm {
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Norm {
    fn apply(&self, x: &mut Array2<f32>) {
        for mut row in x.rows_mut() {
            let n = row.len() as f32;
            let mean = row.sum() / n;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
            let scale = 1.0 / (var + NORM_EPS).sqrt();
            for (i, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) * scale * self.weight[i] + self.bias[i];
            }
        }
    }
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    intermediate: Linear,
    output: Linear,
    output_norm: Norm,
}

struct Bert {
    words: Array2<f32>,
    positions: Array2<f32>,
    token_type: Vec<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
}

impl Bert {
    fn read(bytes: &[u8]) -> Result<Bert, ModelError> {
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| ModelError::Invalid(format!("model.safetensors: {e}")))?;
        let get = |name: &str| tensor(&tensors, name);
        let linear = |prefix: &str| -> Result<Linear, ModelError> {
            Ok(Linear {
                weight: get(&format!("{prefix}.weight"))?,
                bias: vector(&tensors, &format!("{prefix}.bias"))?,
            })
        };
        let norm = |prefix: &str| -> Result<Norm, ModelError> {
            Ok(Norm {
                weight: vector(&tensors, &format!("{prefix}.weight"))?,
                bias: vector(&tensors, &format!("{prefix}.bias"))?,
            })
        };
        let layers = (0..LAYERS)
            .map(|i| {
                let p = format!("encoder.layer.{i}");
                Ok(Layer {
                    query: linear(&format!("{p}.attention.self.query"))?,
                    key: linear(&format!("{p}.attention.self.key"))?,
                    value: linear(&format!("{p}.attention.self.value"))?,
                    attention_out: linear(&format!("{p}.attention.output.dense"))?,
                    attention_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                    intermediate: linear(&format!("{p}.intermediate.dense"))?,
                    output: linear(&format!("{p}.output.dense"))?,
                    output_norm: norm(&format!("{p}.output.LayerNorm"))?,
                })
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let token_types = get("embeddings.token_type_embeddings.weight")?;
        Ok(Bert {
            words: get("embeddings.word_embeddings.weight")?,
            positions: get("embeddings.position_embeddings.weight")?,
            token_type: token_types.row(0).to_vec(),
            embedding_norm: norm("embeddings.LayerNorm")?,
            layers,
        })
    }

    fn forward(&self, sentences: &[Vec<u32>]) -> Vec<Vec<f32>> {
        let mut spans: Vec<Range<usize>> = Vec::with_capacity(sentences.len());
        let total: usize = sentences.iter().map(Vec::len).sum();
        let mut x = Array2::<f32>::zeros((total, DIMS));
        let mut row = 0;
        for ids in sentences {
            spans.push(row..row + ids.len());
            for (position, &id) in ids.iter().enumerate() {
                let word = self.words.row((id as usize).min(self.words.nrows() - 1));
                let place = self.positions.row(position.min(self.positions.nrows() - 1));
                let mut out = x.row_mut(row);
                for d in 0..DIMS {
                    out[d] = word[d] + place[d] + self.token_type[d];
                }
                row += 1;
            }
        }
        self.embedding_norm.apply(&mut x);
        for layer in &self.layers {
            x = layer.apply(x, &spans);
        }
        spans
            .iter()
            .map(|span| mean_unit(x.slice_axis(Axis(0), Slice::from(span.clone()))))
            .collect()
    }
}

impl Layer {
    fn apply(&self, x: Array2<f32>, spans: &[Range<usize>]) -> Array2<f32> {
        let (q, k, v) = (self.query.apply(&x), self.key.apply(&x), self.value.apply(&x));
        let mut context = Array2::<f32>::zeros(x.raw_dim());
        let width = DIMS / HEADS;
        let scale = 1.0 / (width as f32).sqrt();
        for span in spans {
            for head in 0..HEADS {
                let cols = head * width..(head + 1) * width;
                let qh = block(&q, span, &cols);
                let kh = block(&k, span, &cols);
                let vh = block(&v, span, &cols);
                let mut scores = qh.dot(&kh.t());
                scores.mapv_inplace(|value| value * scale);
                softmax_rows(&mut scores);
                block_mut(&mut context, span, &cols).assign(&scores.dot(&vh));
            }
        }
        let mut h = self.attention_out.apply(&context);
        h += &x;
        self.attention_norm.apply(&mut h);
        let mut inner = self.intermediate.apply(&h);
        inner.mapv_inplace(gelu);
        let mut out = self.output.apply(&inner);
        out += &h;
        self.output_norm.apply(&mut out);
        out
    }
}

fn block<'a>(x: &'a Array2<f32>, rows: &Range<usize>, cols: &Range<usize>) -> ArrayView2<'a, f32> {
    x.slice_axis(Axis(0), Slice::from(rows.clone()))
        .slice_axis_move(Axis(1), Slice::from(cols.clone()))
}

fn block_mut<'a>(
    x: &'a mut Array2<f32>,
    rows: &Range<usize>,
    cols: &Range<usize>,
) -> ArrayViewMut2<'a, f32> {
    x.slice_axis_mut(Axis(0), Slice::from(rows.clone()))
        .slice_axis_move(Axis(1), Slice::from(cols.clone()))
}

fn softmax_rows(scores: &mut Array2<f32>) {
    for mut row in scores.rows_mut() {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        row.mapv_inplace(|v| (v - max).exp());
        let sum = row.sum();
        row.mapv_inplace(|v| v / sum);
    }
}

/// The exact GELU BERT uses: x · Φ(x).
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf(x / std::f32::consts::SQRT_2))
}

/// erf from the Chebyshev fit of erfc in Numerical Recipes (fractional error
/// below 1.2e-7), in f64.
fn erf(x: f32) -> f32 {
    let x = f64::from(x);
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let y = 1.0
        - t * (-x * x - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    (if x >= 0.0 { y } else { -y }) as f32
}

fn mean_unit(states: ArrayView2<f32>) -> Vec<f32> {
    let mean = states.mean_axis(Axis(0)).map(|m| m.to_vec()).unwrap_or_else(|| vec![0.0; DIMS]);
    let length = mean.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
    mean.into_iter().map(|v| v / length).collect()
}

fn tensor(tensors: &SafeTensors, name: &str) -> Result<Array2<f32>, ModelError> {
    let view = tensors
        .tensor(name)
        .map_err(|_| ModelError::Invalid(format!("model.safetensors has no {name}")))?;
    let shape = view.shape();
    let (rows, cols) = match shape {
        [rows, cols] => (*rows, *cols),
        _ => {
            return Err(ModelError::Invalid(format!("{name}: expected a matrix, found {shape:?}")))
        }
    };
    Array2::from_shape_vec((rows, cols), floats(name, view.data())?)
        .map_err(|e| ModelError::Invalid(format!("{name}: {e}")))
}

fn vector(tensors: &SafeTensors, name: &str) -> Result<Vec<f32>, ModelError> {
    let view = tensors
        .tensor(name)
        .map_err(|_| ModelError::Invalid(format!("model.safetensors has no {name}")))?;
    floats(name, view.data())
}

fn floats(name: &str, data: &[u8]) -> Result<Vec<f32>, ModelError> {
    if !data.len().is_multiple_of(4) {
        return Err(ModelError::Invalid(format!("{name}: not float32")));
    }
    Ok(data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        for (x, expected) in
            [(0.0, 0.0), (0.5, 0.520_499_9), (1.0, 0.842_700_8), (-2.0, -0.995_322_3)]
        {
            assert!((erf(x) - expected).abs() < 1e-6, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn softmax_rows_sum_to_one_and_keep_order() {
        let mut scores = Array2::from_shape_vec((1, 3), vec![1.0, 3.0, 2.0]).expect("shape");
        softmax_rows(&mut scores);
        assert!((scores.sum() - 1.0).abs() < 1e-6);
        assert!(scores[[0, 1]] > scores[[0, 2]] && scores[[0, 2]] > scores[[0, 0]]);
    }
}
