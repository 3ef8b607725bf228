//! The GPU whisper.cpp runs on: Vulkan (Intel, AMD and NVIDIA GPUs) in Linux
//! builds; elsewhere the CPU.

use crate::transcriber::{Backend, Device};

/// The GPUs whisper.cpp would use, by name: the Vulkan devices ggml accepts
/// (dedicated and integrated GPUs; `GGML_VK_VISIBLE_DEVICES` can name others,
/// such as Mesa's software device). Looked up once.
pub fn gpus() -> Vec<String> {
    static FOUND: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FOUND.get_or_init(vulkan_devices).clone()
}

#[cfg(target_os = "linux")]
fn vulkan_devices() -> Vec<String> {
    whisper_rs::vulkan::list_devices().into_iter().map(|device| device.name).collect()
}

#[cfg(not(target_os = "linux"))]
fn vulkan_devices() -> Vec<String> {
    Vec::new()
}

/// Where an engine asked to run on `device` runs (unless the GPU then
/// fails to load the model).
pub fn backend_for(device: Device) -> Backend {
    if device == Device::Cpu {
        return Backend::Cpu { reason: "transcription.device is cpu".into() };
    }
    if !cfg!(target_os = "linux") {
        return Backend::Cpu { reason: "this build has no GPU support".into() };
    }
    match gpus().into_iter().next() {
        Some(name) => Backend::Gpu { name },
        None => Backend::Cpu { reason: "no GPU was found (Vulkan)".into() },
    }
}
