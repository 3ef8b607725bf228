//! Prints Silero VAD's speech probability for every 32 ms frame of a file
//! (one per line) and, on stderr, how long the model took. Used by the test
//! that checks our implementation against the published ONNX model, and by
//! hand: `cargo run --release -p recorder-stt --example vad -- WEIGHTS FILE`.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use recorder_stt::silero::{SileroModel, SileroVad, FRAME};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: vad WEIGHTS FILE";
    let weights = PathBuf::from(args.next().ok_or(usage)?);
    let file = PathBuf::from(args.next().ok_or(usage)?);
    let mut vad = SileroVad::new(SileroModel::load(&weights)?);
    let mut stream = recorder_stt::audio::open(&file, None)?;
    let mut samples = Vec::new();
    while stream.read(&mut samples, recorder_stt::audio::BLOCK)? > 0 {}
    samples.resize(samples.len().div_ceil(FRAME) * FRAME, 0.0);
    let started = Instant::now();
    let probabilities: Vec<f32> = samples.chunks(FRAME).map(|f| vad.probability(f)).collect();
    let took = started.elapsed();
    let mut out = std::io::stdout().lock();
    for p in &probabilities {
        writeln!(out, "{p:.6}")?;
    }
    let audio_s = samples.len() as f64 / 16_000.0;
    eprintln!(
        "{} frames, {audio_s:.1} s of audio in {:.1} ms",
        probabilities.len(),
        took.as_secs_f64() * 1000.0
    );
    Ok(())
}
