//! Converts a CTranslate2 Whisper model to ggml without the service:
//! `cargo run -p recorder-stt --example convert -- OUT.bin f16|q8_0|q5_0|q4_0 DIR...`.

use std::path::PathBuf;

use recorder_stt::convert::{convert_ct2, OutputType};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: convert OUT.bin f16|q8_0|q5_0|q4_0 DIR...";
    let output = PathBuf::from(args.next().ok_or(usage)?);
    let kind = match args.next().as_deref() {
        Some("f16") => OutputType::F16,
        Some("q8_0") => OutputType::Q8_0,
        Some("q5_0") => OutputType::Q5_0,
        Some("q4_0") => OutputType::Q4_0,
        _ => return Err(usage.into()),
    };
    let inputs: Vec<PathBuf> = args.map(PathBuf::from).collect();
    let report = convert_ct2(&inputs, &output, kind)?;
    println!("{} tensors, {} bytes, vocabulary {}", report.tensors, report.bytes, report.n_vocab);
    Ok(())
}
