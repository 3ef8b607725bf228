//! `recorder-llm`: the notes model inside. Loads one GGUF model with llama.cpp and
//! answers chat completions, one JSON line in, JSON lines out (see
//! `recorder_llm::protocol`), until its stdin closes. The service starts it for a
//! notes run and ends it afterwards. A GGUF is parsed by llama.cpp's C++, so
//! before the model is opened the worker confines itself (`recorder_sandbox`):
//! it may read the model and the system's libraries and nothing else, write no
//! file, make no socket, and is held to limits of memory and CPU time.
//!
//! Usage: `recorder-llm --model FILE [--threads N] [--context TOKENS]` (or `--version`)

mod complete;

use std::io::{BufRead, Write};
use std::num::NonZeroU32;
use std::path::PathBuf;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::LlamaModel;
use recorder_llm::protocol::{ModelInfo, Reply, Request};

/// The context made when the model allows it: a long meeting goes in chunks.
const DEFAULT_CONTEXT: u32 = 8192;
/// Address space beside the mapped model: the KV cache of a long context,
/// compute buffers, and every thread's stack and allocator arena.
const MEMORY_BESIDE_THE_MODEL: u64 = 8 << 30;
/// CPU time of all threads together before the kernel stops the worker.
const CPU_SECONDS: u64 = 8 * 3600;

struct Options {
    model: PathBuf,
    threads: u32,
    context: Option<u32>,
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("recorder-llm {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    end_with_the_service();
    let options = match options(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            say(&Reply::Error(message));
            std::process::exit(2);
        }
    };
    let confinement = recorder_sandbox::confine_self(&rules(&options));
    if let Err(message) = serve(&options, &confinement) {
        say(&Reply::Error(message));
        std::process::exit(1);
    }
}

fn options(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get() as u32);
    let mut options = Options { model: PathBuf::new(), threads, context: None };
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u32>().map_err(|_| format!("{flag} takes a number"));
        match flag.as_str() {
            "--model" => options.model = PathBuf::from(&value),
            "--threads" => options.threads = number()?.max(1),
            "--context" => options.context = Some(number()?.max(512)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if options.model.as_os_str().is_empty() {
        return Err("usage: recorder-llm --model FILE [--threads N] [--context TOKENS]".into());
    }
    Ok(options)
}

/// The model may be read; memory is bounded by the model's size (mapped),
/// its context and the compute buffers, with room to spare; CPU time by a
/// day's notes runs.
fn rules(options: &Options) -> recorder_sandbox::Rules {
    let model_bytes = std::fs::metadata(&options.model).map_or(0, |m| m.len());
    recorder_sandbox::Rules::new()
        .read(&options.model)
        .memory(model_bytes.saturating_add(MEMORY_BESIDE_THE_MODEL))
        .cpu_time(CPU_SECONDS)
}

fn serve(options: &Options, confinement: &recorder_sandbox::Confinement) -> Result<(), String> {
    let mut backend = LlamaBackend::init().map_err(|error| error.to_string())?;
    backend.void_logs();
    let model = LlamaModel::load_from_file(&backend, &options.model, &LlamaModelParams::default())
        .map_err(|error| format!("the notes model could not be loaded: {error}"))?;
    let trained_context = model.n_ctx_train();
    let context = options.context.unwrap_or(DEFAULT_CONTEXT).min(trained_context.max(512));
    let info = ModelInfo {
        context,
        trained_context,
        parameters: model.n_params(),
        size_bytes: model.size(),
        threads: options.threads,
        confinement: confinement.to_string(),
    };
    say(&Reply::Ready(info));
    let params = LlamaContextParams::default()
        .with_n_ctx(NonZeroU32::new(context))
        .with_n_batch(complete::BATCH)
        .with_n_threads(options.threads as i32)
        .with_n_threads_batch(options.threads as i32);
    let engine = complete::Engine { backend: &backend, model: &model, params };
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|error| format!("reading a request: {error}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Request>(&line) {
            Ok(request) => engine.complete(&request, &mut say),
            Err(error) => Err(format!("the request could not be read: {error}")),
        };
        say(&reply.map_or_else(Reply::Error, Reply::Done));
    }
    Ok(())
}

/// The worker must not outlive the service that started it (a kill -9, a
/// crash): Linux ends it when its parent goes.
#[cfg(target_os = "linux")]
fn end_with_the_service() {
    use nix::sys::signal::Signal;
    let parent = nix::unistd::getppid();
    if nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).is_err() || parent.as_raw() == 1 {
        return;
    }
    if nix::unistd::getppid() != parent {
        std::process::exit(0);
    }
}

/// Elsewhere the worker ends when its stdin closes (after the current answer).
#[cfg(not(target_os = "linux"))]
fn end_with_the_service() {}

/// Writes one reply line; a closed stdout means the service is gone.
fn say(reply: &Reply) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{}", reply.to_line()).and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}
