//! Prints the CAM++ embedding of each WAV given (16 kHz mono) and their
//! cosine similarities: `cargo run --release -p recorder-stt --example
//! speaker -- MODEL.safetensors A.wav B.wav ...` (work in progress, issue 18).

use std::time::Instant;

use recorder_stt::speaker::campplus::{cosine, CamPlusPlus};
use recorder_stt::speaker::fbank::features;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let model_path = args.next().ok_or("usage: speaker MODEL WAV...")?;
    let model = CamPlusPlus::load(std::path::Path::new(&model_path))?;
    let mut embeddings = Vec::new();
    for path in args {
        let mut reader = hound::WavReader::open(&path).map_err(|e| format!("{path}: {e}"))?;
        let samples: Vec<f32> = reader
            .samples::<i16>()
            .map(|s| s.map(|v| f32::from(v) / 32768.0))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let began = Instant::now();
        let embedding = model.embed(&features(&samples));
        let took = began.elapsed();
        println!(
            "{path}: {:.1} s of audio in {:.0} ms; first values {:?}",
            samples.len() as f32 / 16_000.0,
            took.as_secs_f64() * 1000.0,
            &embedding[..4]
        );
        embeddings.push((path, embedding));
    }
    for (i, (a, ea)) in embeddings.iter().enumerate() {
        for (b, eb) in &embeddings[i + 1..] {
            println!("{a} ~ {b}: {:.3}", cosine(ea, eb));
        }
    }
    Ok(())
}
