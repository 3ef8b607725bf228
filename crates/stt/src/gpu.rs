//! The GPU whisper.cpp runs on: Vulkan (Intel, AMD and NVIDIA GPUs) in Linux
//! builds; elsewhere the CPU.
//!
//! Looking for one loads the Vulkan loader and every installed driver: tens
//! of megabytes that stay mapped, a tenth of a second or more, and native
//! code that can fail or crash. So a service asks a helper process
//! (`recorder gpus`, named with [`search_with`]) and keeps only the names;
//! its own memory stays as it was until a model is loaded. Without a helper
//! it looks in this process, through ggml's registry, which catches
//! Vulkan's failures (a loader without a driver throws).
#![allow(unsafe_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Once, OnceLock};
use std::time::{Duration, Instant};

use crate::transcriber::{Backend, Device};

/// What looking for a GPU found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GpuSearch {
    /// The GPUs whisper.cpp would use, by name, the one it takes first.
    pub found: Vec<String>,
    /// Why the search itself failed (the helper crashed or hung).
    pub trouble: Option<String>,
}

static HELPER: OnceLock<PathBuf> = OnceLock::new();
static RESULT: OnceLock<GpuSearch> = OnceLock::new();
static STARTED: Once = Once::new();

/// A helper hung in a driver is given up on after this long.
const HELPER_PATIENCE: Duration = Duration::from_secs(20);

/// Looks for GPUs with `program gpus` (one name a line) rather than in this
/// process. The first call wins; call it before anything looks.
pub fn search_with(program: PathBuf) {
    let _ = HELPER.set(program);
}

/// The GPUs whisper.cpp would use (dedicated and integrated GPUs;
/// `GGML_VK_VISIBLE_DEVICES` can name others, such as Mesa's software
/// device). Looked for once; waits for that.
pub fn gpus() -> Vec<String> {
    search().found.clone()
}

/// The search, waiting for it where it is still running.
pub fn search() -> &'static GpuSearch {
    RESULT.get_or_init(|| match HELPER.get() {
        Some(program) => ask_helper(program),
        None => GpuSearch { found: gpus_here(), trouble: None },
    })
}

/// The search if it is done; otherwise `None`, and it is started on a thread
/// of its own (never blocking the caller).
pub fn search_if_done() -> Option<&'static GpuSearch> {
    if let Some(done) = RESULT.get() {
        return Some(done);
    }
    STARTED.call_once(|| {
        let started = std::thread::Builder::new().name("gpu-search".into()).spawn(|| {
            search();
        });
        if let Err(error) = started {
            tracing::warn!(%error, "cannot start looking for a GPU");
        }
    });
    None
}

/// The search in this process: what the helper prints.
#[cfg(target_os = "linux")]
pub fn gpus_here() -> Vec<String> {
    use whisper_rs::whisper_rs_sys as sys;
    // ggml's registry registers Vulkan inside a try/catch and then lists its
    // devices; whisper.cpp takes the first GPU or integrated GPU among them.
    // SAFETY: registry calls with indices below its own count; the strings
    // are ggml's own, NUL-terminated and alive as long as the registry.
    unsafe {
        (0..sys::ggml_backend_dev_count())
            .map(|i| sys::ggml_backend_dev_get(i))
            .filter(|&device| {
                let kind = sys::ggml_backend_dev_type(device);
                kind == sys::ggml_backend_dev_type_GGML_BACKEND_DEVICE_TYPE_GPU
                    || kind == sys::ggml_backend_dev_type_GGML_BACKEND_DEVICE_TYPE_IGPU
            })
            .map(|device| {
                std::ffi::CStr::from_ptr(sys::ggml_backend_dev_description(device))
                    .to_string_lossy()
                    .trim()
                    .to_string()
            })
            .collect()
    }
}

#[cfg(not(target_os = "linux"))]
pub fn gpus_here() -> Vec<String> {
    Vec::new()
}

/// Runs the helper, bounded in time; a failure is no GPU, with the reason.
fn ask_helper(program: &PathBuf) -> GpuSearch {
    let started = Instant::now();
    let result = run_helper(program);
    let elapsed_ms = started.elapsed().as_millis() as u64;
    match result {
        Ok(found) => {
            tracing::info!(?found, elapsed_ms, "looked for a GPU");
            GpuSearch { found, trouble: None }
        }
        Err(trouble) => {
            tracing::warn!(%trouble, elapsed_ms, "looking for a GPU failed");
            GpuSearch { found: Vec::new(), trouble: Some(trouble) }
        }
    }
}

fn run_helper(program: &PathBuf) -> Result<Vec<String>, String> {
    let mut child = Command::new(program)
        .arg("gpus")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let deadline = Instant::now() + HELPER_PATIENCE;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the GPU driver did not answer in {HELPER_PATIENCE:?}"));
            }
            Err(e) => return Err(format!("lost the GPU search: {e}")),
        }
    };
    if !status.success() {
        return Err(format!("the GPU driver failed ({status})"));
    }
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_string(&mut text).map_err(|e| format!("cannot read the GPU search: {e}"))?;
    }
    Ok(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect())
}

/// Where an engine asked to run on `device` runs (unless the GPU then
/// fails to load the model).
pub fn backend_for(device: Device) -> Backend {
    if device == Device::Cpu {
        return Backend::Cpu { reason: "transcription.device is cpu".into() };
    }
    // Built without Vulkan (scripts/install.sh on a machine without a GPU):
    // nothing to look for, and no helper started to find nothing.
    if !cfg!(all(target_os = "linux", feature = "vulkan")) {
        return Backend::Cpu { reason: "this build has no GPU support".into() };
    }
    let search = search();
    match (search.found.first(), &search.trouble) {
        (Some(name), _) => Backend::Gpu { name: name.clone() },
        (None, Some(trouble)) => Backend::Cpu { reason: trouble.clone() },
        (None, None) => Backend::Cpu { reason: "no GPU was found (Vulkan)".into() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_that_fails_is_no_gpu_with_its_reason() {
        let search = ask_helper(&PathBuf::from("/bin/false"));
        assert!(search.found.is_empty());
        let trouble = search.trouble.expect("a reason");
        assert!(trouble.starts_with("the GPU driver failed"), "{trouble}");
    }

    #[test]
    fn a_missing_helper_is_no_gpu_with_its_reason() {
        let search = ask_helper(&PathBuf::from("/nonexistent/recorder"));
        assert!(search.found.is_empty());
        assert!(search.trouble.expect("a reason").contains("cannot run /nonexistent/recorder"));
    }

    #[test]
    fn a_helper_lists_one_gpu_a_line() {
        // `echo gpus` prints "gpus": a helper that found one GPU by that name.
        assert_eq!(run_helper(&PathBuf::from("/bin/echo")), Ok(vec!["gpus".to_string()]));
    }
}
