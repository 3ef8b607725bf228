//! whisper.cpp's Vulkan backend, on Mesa's software Vulkan device
//! (lavapipe) where it is installed: the same text as on the CPU. And a GPU
//! asked for where none can be used: the CPU, with the reason said.
//!
//! Which Vulkan devices ggml takes is decided once a process, from
//! `GGML_VK_VISIBLE_DEVICES`, so each case runs this test binary again as a
//! child with its own environment (`RECORDER_GPU_CASE` names the case).

use std::process::Command;

use recorder_stt::engine::{
    Backend, CallOptions, Device, EngineOptions, Transcriber, WhisperEngine,
};
use recorder_test_support::speech;

/// JFK's first 8 s: "And so my fellow Americans, ask not what your country
/// can do for you" (lavapipe takes about three times the audio's length).
fn transcribe(device: Device) -> (Backend, String) {
    let options = EngineOptions { threads: 2, language: Some("en".into()), device };
    let mut engine = WhisperEngine::load(&speech::test_model(), options).expect("model");
    engine.set_call(CallOptions { fit_window: true, ..CallOptions::default() });
    let mut reader = hound::WavReader::open(speech::jfk_wav()).expect("jfk.wav");
    let samples: Vec<f32> = reader
        .samples::<i16>()
        .take(8 * 16_000)
        .map(|s| f32::from(s.expect("sample")) / 32_768.0)
        .collect();
    let result = engine.transcribe(&samples).expect("transcribed");
    let text = result.segments.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join(" ");
    (engine.backend().clone(), text)
}

/// Runs `case` in a child with `env` added (`GGML_VK_VISIBLE_DEVICES`, the
/// Vulkan loader's drivers), which must pass.
fn in_child(case: &str, env: &[(&str, &str)]) {
    let output = Command::new(std::env::current_exe().expect("this test binary"))
        .args([case, "--exact", "--nocapture", "--test-threads=1"])
        .env("RECORDER_GPU_CASE", case)
        .envs(env.iter().copied())
        .output()
        .expect("the child ran");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{case} failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "the case ran in the child:\n{stdout}");
    println!("{stdout}");
}

fn is_child(case: &str) -> bool {
    std::env::var("RECORDER_GPU_CASE").as_deref() == Ok(case)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

#[test]
fn lavapipe_writes_what_the_cpu_writes() {
    if !is_child("lavapipe_writes_what_the_cpu_writes") {
        let lavapipe = std::fs::read_dir("/usr/share/vulkan/icd.d")
            .map(|d| d.flatten().any(|f| f.file_name().to_string_lossy().starts_with("lvp_")))
            .unwrap_or(false);
        assert!(lavapipe, "Mesa's lavapipe is not installed (apt-get install mesa-vulkan-drivers)");
        // Device 0 is lavapipe when it is the only Vulkan driver; a machine
        // with a real GPU may list it first, which is as good a test.
        in_child("lavapipe_writes_what_the_cpu_writes", &[("GGML_VK_VISIBLE_DEVICES", "0")]);
        return;
    }
    let devices = recorder_stt::engine::gpus();
    println!("Vulkan devices: {devices:?}");
    let (gpu, on_gpu) = transcribe(Device::Gpu);
    assert!(gpu.is_gpu(), "the model was loaded on {gpu:?}");
    let (cpu, on_cpu) = transcribe(Device::Cpu);
    assert_eq!(cpu, Backend::Cpu { reason: "transcription.device is cpu".into() });
    println!("{gpu}: {on_gpu}\nCPU: {on_cpu}");
    let (a, b) = (words(&on_gpu), words(&on_cpu));
    assert!(b.len() >= 10, "the CPU heard the sentence: {on_cpu}");
    // Floating point sums in another order may change a word, no more.
    let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
    assert!(a.len().abs_diff(b.len()) <= 1 && same + 1 >= b.len(), "GPU: {on_gpu}\nCPU: {on_cpu}");
}

#[test]
fn a_gpu_asked_for_where_none_can_be_used_is_the_cpu_with_the_reason() {
    if !is_child("a_gpu_asked_for_where_none_can_be_used_is_the_cpu_with_the_reason") {
        // No device visible to ggml, as on a machine without a GPU.
        let case = "a_gpu_asked_for_where_none_can_be_used_is_the_cpu_with_the_reason";
        in_child(case, &[("GGML_VK_VISIBLE_DEVICES", "")]);
        return;
    }
    assert_eq!(recorder_stt::engine::gpus(), Vec::<String>::new());
    let reason = "no GPU was found (Vulkan)".to_string();
    assert_eq!(
        recorder_stt::engine::backend_for(Device::Auto),
        Backend::Cpu { reason: reason.clone() }
    );
    let (backend, text) = transcribe(Device::Gpu);
    assert_eq!(backend, Backend::Cpu { reason });
    assert!(words(&text).contains(&"americans".to_string()), "{text}");
}

#[test]
fn a_vulkan_loader_without_a_driver_is_no_gpu_and_no_crash() {
    let case = "a_vulkan_loader_without_a_driver_is_no_gpu_and_no_crash";
    if !is_child(case) {
        // libvulkan1 with no driver at all: creating an instance fails and
        // ggml throws a C++ exception, which must not reach Rust (it aborts).
        let none = "/nonexistent/icd.json";
        in_child(case, &[("VK_DRIVER_FILES", none), ("VK_ICD_FILENAMES", none)]);
        return;
    }
    assert_eq!(recorder_stt::engine::gpus_here(), Vec::<String>::new());
    let (backend, text) = transcribe(Device::Auto);
    assert_eq!(backend, Backend::Cpu { reason: "no GPU was found (Vulkan)".into() });
    assert!(words(&text).contains(&"americans".to_string()), "{text}");
}
