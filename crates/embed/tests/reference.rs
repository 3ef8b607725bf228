//! The embedder against a reference computed here from the same weights: a
//! plain f64 BERT written from the paper's equations (loops, no ndarray, no
//! batching), mean-pooled and normalised as sentence-transformers does.

use std::collections::HashMap;
use std::sync::OnceLock;

use recorder_embed::{model, quantize, Embedder};
use safetensors::SafeTensors;

/// The pinned model, installed once for the tests of this file.
fn installed() -> &'static model::ModelFiles {
    static INSTALLED: OnceLock<(tempfile::TempDir, model::ModelFiles)> = OnceLock::new();
    let (_, files) = INSTALLED.get_or_init(|| {
        let dir = tempfile::tempdir().expect("dir");
        let zip = recorder_test_support::speech::embedding_model();
        let files = model::install(&zip, dir.path()).expect("the pinned model installs");
        (dir, files)
    });
    files
}

struct Weights(HashMap<String, (Vec<usize>, Vec<f64>)>);

impl Weights {
    fn read(bytes: &[u8]) -> Weights {
        let tensors = SafeTensors::deserialize(bytes).expect("safetensors");
        let mut map = HashMap::new();
        for (name, view) in tensors.tensors() {
            if view.dtype() != safetensors::Dtype::F32 {
                continue;
            }
            let values = view
                .data()
                .chunks_exact(4)
                .map(|b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
                .collect();
            map.insert(name, (view.shape().to_vec(), values));
        }
        Weights(map)
    }

    fn get(&self, name: &str) -> &[f64] {
        &self.0.get(name).unwrap_or_else(|| panic!("no {name}")).1
    }

    /// y = x W^T + b for every row of x (n × in).
    fn dense(&self, prefix: &str, x: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let (shape, w) = &self.0[&format!("{prefix}.weight")];
        let (outputs, inputs) = (shape[0], shape[1]);
        let b = self.get(&format!("{prefix}.bias"));
        x.iter()
            .map(|row| {
                (0..outputs)
                    .map(|o| b[o] + (0..inputs).map(|i| row[i] * w[o * inputs + i]).sum::<f64>())
                    .collect()
            })
            .collect()
    }

    fn norm(&self, prefix: &str, x: &mut [Vec<f64>]) {
        let (g, b) = (self.get(&format!("{prefix}.weight")), self.get(&format!("{prefix}.bias")));
        for row in x {
            let n = row.len() as f64;
            let mean = row.iter().sum::<f64>() / n;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
            for (i, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) / (var + 1e-12).sqrt() * g[i] + b[i];
            }
        }
    }
}

/// erf by its Maclaurin series (|x| small) or continued fraction, in f64.
fn erf(x: f64) -> f64 {
    if x.abs() > 4.0 {
        return x.signum();
    }
    let mut sum = 0.0;
    let mut term = x;
    for n in 0..200 {
        sum += term / (2 * n + 1) as f64;
        term *= -x * x / (n + 1) as f64;
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

fn reference(weights: &Weights, ids: &[u32]) -> Vec<f64> {
    let dims = 384;
    let words = weights.get("embeddings.word_embeddings.weight");
    let positions = weights.get("embeddings.position_embeddings.weight");
    let types = weights.get("embeddings.token_type_embeddings.weight");
    let mut x: Vec<Vec<f64>> = ids
        .iter()
        .enumerate()
        .map(|(p, &id)| {
            (0..dims)
                .map(|d| words[id as usize * dims + d] + positions[p * dims + d] + types[d])
                .collect()
        })
        .collect();
    weights.norm("embeddings.LayerNorm", &mut x);
    for layer in 0..6 {
        let p = format!("encoder.layer.{layer}");
        let q = weights.dense(&format!("{p}.attention.self.query"), &x);
        let k = weights.dense(&format!("{p}.attention.self.key"), &x);
        let v = weights.dense(&format!("{p}.attention.self.value"), &x);
        let n = x.len();
        let mut context = vec![vec![0.0; dims]; n];
        for head in 0..12 {
            let cols = head * 32..(head + 1) * 32;
            for i in 0..n {
                let scores: Vec<f64> = (0..n)
                    .map(|j| cols.clone().map(|c| q[i][c] * k[j][c]).sum::<f64>() / 32f64.sqrt())
                    .collect();
                let max = scores.iter().copied().fold(f64::MIN, f64::max);
                let exps: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
                let total: f64 = exps.iter().sum();
                for c in cols.clone() {
                    context[i][c] = (0..n).map(|j| exps[j] / total * v[j][c]).sum();
                }
            }
        }
        let mut h = weights.dense(&format!("{p}.attention.output.dense"), &context);
        h.iter_mut().zip(&x).for_each(|(a, b)| a.iter_mut().zip(b).for_each(|(a, b)| *a += b));
        weights.norm(&format!("{p}.attention.output.LayerNorm"), &mut h);
        let mut inner = weights.dense(&format!("{p}.intermediate.dense"), &h);
        inner.iter_mut().flatten().for_each(|v| *v = 0.5 * *v * (1.0 + erf(*v / 2f64.sqrt())));
        let mut out = weights.dense(&format!("{p}.output.dense"), &inner);
        out.iter_mut().zip(&h).for_each(|(a, b)| a.iter_mut().zip(b).for_each(|(a, b)| *a += b));
        weights.norm(&format!("{p}.output.LayerNorm"), &mut out);
        x = out;
    }
    let mean: Vec<f64> =
        (0..dims).map(|d| x.iter().map(|row| row[d]).sum::<f64>() / x.len() as f64).collect();
    let length = mean.iter().map(|v| v * v).sum::<f64>().sqrt();
    mean.into_iter().map(|v| v / length).collect()
}

#[test]
fn a_fixed_sentence_embeds_as_the_reference_computes_it_from_the_same_weights() {
    let files = installed();
    let embedder = Embedder::load(files).expect("loads");
    assert_eq!(embedder.token_ids("Hello, world!"), [101, 7592, 1010, 2088, 999, 102]);
    let sentence = "We are relocating to the new building in May.";
    let weights = Weights::read(&std::fs::read(files.weights()).expect("weights"));
    let expected = reference(&weights, &embedder.token_ids(sentence));
    let batch =
        embedder.embed(&["a shorter one first", sentence, "and one after it, longer still"]);
    let got = &batch[1];
    let worst =
        got.iter().zip(&expected).map(|(g, e)| (f64::from(*g) - e).abs()).fold(0.0, f64::max);
    assert!(worst < 1e-4, "largest difference {worst}");
    let alone = &embedder.embed(&[sentence])[0];
    assert!(quantize::dot(alone, got) > 0.99999, "a batch changes nothing");
    let length: f32 = got.iter().map(|v| v * v).sum::<f32>().sqrt();
    assert!((length - 1.0).abs() < 1e-5);
}

#[test]
fn a_paraphrase_is_nearer_than_a_sentence_on_another_subject() {
    let files = installed();
    let embedder = Embedder::load(files).expect("loads");
    let v = embedder.embed(&[
        "moving offices",
        "we are relocating to the new building",
        "the marketing budget for next quarter",
    ]);
    let (near, far) = (quantize::dot(&v[0], &v[1]), quantize::dot(&v[0], &v[2]));
    assert!(near > far + 0.1, "paraphrase {near}, other subject {far}");
}
