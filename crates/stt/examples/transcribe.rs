//! Transcribes one audio file with the whole chain the service uses and
//! prints the segments, the real-time factor and the peak memory. Used by the
//! benchmark (`bench/stt.sh`) and handy by hand:
//! `cargo run --release -p recorder-stt --example transcribe -- MODEL FILE [THREADS] [VAD] [--workers N] [--full-window] [--beam N] [--prompt TEXT] [--bias START,NEXT|off] [--gpu]`
//! (VAD: Silero weights, `silero-vad.safetensors`; without, the energy gate.
//! Like the service's file jobs, each chunk is encoded only as far as it fills
//! whisper's window; `--full-window` encodes all 30 s. `--beam N`: beam search
//! with N candidates instead of greedy decoding; `--prompt`: the words to
//! expect, as the service gives them, e.g. "Siobhan, Krzysztof Kowalczyk.";
//! `--bias`: how much the prompt's rare words are favoured as whisper decodes
//! (logits for a word's first token and for the one carrying it on; `off`:
//! the prompt only);
//! `--workers N`: N whisper states on the same weights transcribing chunks at
//! once, THREADS each; `--gpu`: on the GPU where there is one.)

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use recorder_stt::bias::BiasStrength;
use recorder_stt::engine::{
    CallOptions, Decoding, Device, EngineOptions, Transcriber, WhisperEngine,
};
use recorder_stt::file::Workers;
use recorder_stt::silero::SileroModel;
use recorder_stt::vad::Gate;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut args, flags) = split_flags(std::env::args().skip(1).collect())?;
    let usage = "usage: transcribe MODEL FILE [THREADS] [VAD] [--workers N] [--full-window] [--beam N] [--prompt TEXT] [--bias START,NEXT|off] [--gpu]";
    let model = PathBuf::from(args.next().ok_or(usage)?);
    let file = PathBuf::from(args.next().ok_or(usage)?);
    let threads = args.next().map(|t| t.parse()).transpose()?.unwrap_or(1);
    let vad = args.next().map(|path| SileroModel::load(Path::new(&path))).transpose()?;
    let loading = Instant::now();
    let options = EngineOptions { threads, language: Some("en".into()), device: flags.device };
    let mut engines = vec![WhisperEngine::load(&model, options)?];
    for _ in 1..flags.workers {
        engines.push(engines[0].sibling()?);
    }
    for engine in &mut engines {
        engine.set_call(flags.call);
        if let Some(strength) = flags.bias {
            engine.set_bias_strength(strength);
        }
        engine.set_prompt(&flags.prompt)?;
    }
    let backend = engines[0].backend().to_string();
    let load_ms = loading.elapsed().as_millis();
    let started = Instant::now();
    let ffmpeg = PathBuf::from("/usr/bin/ffmpeg");
    let mut stream = recorder_stt::audio::open(&file, Some(&ffmpeg))?;
    let mut audio_ms = 0;
    let mut text = Vec::new();
    let gate = Gate::best(vad.as_ref());
    let width = || usize::MAX;
    let engines = engines.iter_mut().map(|e| e as &mut dyn Transcriber).collect();
    let workers = Workers::new(engines, &width);
    recorder_stt::file::transcribe(stream.as_mut(), workers, gate, 0, |report| {
        for segment in report.segments {
            eprintln!("[{:>7} → {:>7}] {}", segment.start_ms, segment.end_ms, segment.text);
            text.push(segment.text);
        }
        audio_ms = report.position_ms;
        ControlFlow::Continue(())
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let rtf = seconds / (audio_ms as f64 / 1000.0).max(0.001);
    let peak_kib = peak_rss_kib();
    println!(
        "{{\"audio_s\": {:.1}, \"wall_s\": {seconds:.2}, \"rtf\": {rtf:.4}, \"load_ms\": {load_ms}, \"peak_rss_mib\": {:.1}, \"backend\": {backend:?}, \"text\": {:?}}}",
        audio_ms as f64 / 1000.0,
        peak_kib as f64 / 1024.0,
        text.join(" ")
    );
    Ok(())
}

/// What the flags ask for.
struct Flags {
    call: CallOptions,
    prompt: String,
    workers: usize,
    device: Device,
    /// `None`: the engine's own.
    bias: Option<Option<BiasStrength>>,
}

type Positional = std::vec::IntoIter<String>;

/// Positional arguments and the flags.
fn split_flags(args: Vec<String>) -> Result<(Positional, Flags), Box<dyn std::error::Error>> {
    let call = CallOptions { fit_window: true, ..CallOptions::default() };
    let mut flags =
        Flags { call, prompt: String::new(), workers: 1, device: Device::Cpu, bias: None };
    let mut positional = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--full-window" => flags.call.fit_window = false,
            "--beam" => {
                flags.call.decoding = Decoding::Beam(args.next().ok_or("--beam N")?.parse()?)
            }
            "--prompt" => flags.prompt = args.next().ok_or("--prompt TEXT")?,
            "--workers" => flags.workers = args.next().ok_or("--workers N")?.parse()?,
            "--gpu" => flags.device = Device::Gpu,
            "--bias" => flags.bias = Some(bias_strength(&args.next().ok_or("--bias START,NEXT")?)?),
            _ => positional.push(arg),
        }
    }
    Ok((positional.into_iter(), flags))
}

/// `START,NEXT` in logits, or `off`.
fn bias_strength(text: &str) -> Result<Option<BiasStrength>, Box<dyn std::error::Error>> {
    if text == "off" {
        return Ok(None);
    }
    let (start, next) = text.split_once(',').ok_or("--bias START,NEXT or off")?;
    Ok(Some(BiasStrength { start: start.trim().parse()?, next: next.trim().parse()? }))
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
