//! The vector index chosen by measurement: exact search over every int8
//! vector against the binary index (Hamming scan over the cores, then the
//! best 256 re-ranked by their int8 vectors), on N vectors made from real
//! embeddings (the `passages` of a data folder the service has embedded,
//! each copied with Gaussian noise and normalised again, so they spread as
//! real passages do). Prints a Markdown table: time per query and recall@10
//! of the binary index against the exact search.
//!
//!     cargo run --profile dist -p recorder-embed --example index_bench -- POOL.tsv N...
//!
//! POOL.tsv: one vector per line, `scale<TAB>hex of the int8 values`
//! (`bench/meaning.py` writes it from its pool folder).

use std::time::Instant;

use recorder_embed::index::{Entry, Index, Scope};
use recorder_embed::quantize::{self, Quantized};
use recorder_embed::DIMS;

const QUERIES: usize = 50;
const CANDIDATES: usize = 256;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((pool_path, sizes)) = args.split_first() else {
        eprintln!("usage: index_bench POOL.tsv N...");
        std::process::exit(2);
    };
    let pool = read_pool(pool_path);
    println!("| vectors | exact int8 scan, ms/query | binary scan + int8 re-rank of {CANDIDATES}, ms/query | recall@10 | memory: int8 / codes MB |");
    println!("|---|---|---|---|---|");
    for size in sizes.iter().filter_map(|s| s.parse::<usize>().ok()) {
        row(&pool, size);
    }
}

fn row(pool: &[Vec<f32>], size: usize) {
    let mut rng = Noise(0x9e37_79b9_7f4a_7c15 ^ size as u64);
    let stored: Vec<Quantized> =
        (0..size).map(|i| Quantized::of(&rng.near(&pool[i % pool.len()], 0.35))).collect();
    let mut index = Index::default();
    index.extend(stored.iter().enumerate().map(|(i, q)| Entry {
        passage: i as i64,
        meeting: (i / 120) as i64,
        started_at: 0,
        code: q.code(),
    }));
    let queries: Vec<Vec<f32>> =
        (0..QUERIES).map(|i| rng.near(&pool[(i * 7919) % pool.len()], 0.5)).collect();
    let (mut exact_ms, mut binary_ms, mut found) = (0.0, 0.0, 0usize);
    for query in &queries {
        let began = Instant::now();
        let exact = top(stored.iter().enumerate().map(|(i, q)| (i, q.dot(query))), 10);
        exact_ms += began.elapsed().as_secs_f64() * 1000.0;
        let began = Instant::now();
        let candidates = index.nearest(&quantize::code(query), Scope::default(), CANDIDATES);
        let reranked =
            top(candidates.iter().map(|&p| (p as usize, stored[p as usize].dot(query))), 10);
        binary_ms += began.elapsed().as_secs_f64() * 1000.0;
        found += reranked.iter().filter(|p| exact.contains(p)).count();
    }
    let n = QUERIES as f64;
    println!(
        "| {size} | {:.1} | {:.1} | {:.3} | {:.0} / {:.0} |",
        exact_ms / n,
        binary_ms / n,
        found as f64 / (n * 10.0),
        (size * DIMS) as f64 / 1e6,
        index.memory() as f64 / 1e6,
    );
}

fn top(scored: impl Iterator<Item = (usize, f32)>, k: usize) -> Vec<usize> {
    let mut all: Vec<(usize, f32)> = scored.collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    all.into_iter().take(k).map(|(i, _)| i).collect()
}

fn read_pool(path: &str) -> Vec<Vec<f32>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|line| {
            let (scale, hex) = line.split_once('\t')?;
            let bytes = hex::decode(hex.trim()).ok()?;
            let q = Quantized::from_bytes(scale.parse().ok()?, &bytes);
            Some(q.values.iter().map(|v| f32::from(*v) * q.scale).collect())
        })
        .collect()
}

/// A small deterministic Gaussian source (xorshift and Box–Muller).
struct Noise(u64);

impl Noise {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn gaussian(&mut self) -> f32 {
        let (u, v) = (self.uniform().max(1e-12), self.uniform());
        ((-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()) as f32
    }

    /// `v` plus noise of about `amount` of its length, as a unit vector.
    fn near(&mut self, v: &[f32], amount: f32) -> Vec<f32> {
        let spread = amount / (DIMS as f32).sqrt();
        let moved: Vec<f32> = v.iter().map(|x| x + spread * self.gaussian()).collect();
        let length = moved.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
        moved.into_iter().map(|x| x / length).collect()
    }
}
