//! Audio fixtures for transcription tests: speech synthesized with espeak-ng
//! and shaped with sox or ffmpeg into the layouts users import, and the
//! Whisper tiny.en test model that `scripts/test-model.sh` converts and caches.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `scripts/test-model.sh` caches the test model and real speech.
pub fn test_models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-models")
}

/// The converted Whisper tiny.en model (q8_0). Panics with the fix if absent.
pub fn test_model() -> PathBuf {
    let path = test_models_dir().join("ggml-tiny.en-q8_0.bin");
    assert!(path.is_file(), "{} is missing: run scripts/test-model.sh first", path.display());
    path
}

/// Where `scripts/vad-model.sh` puts the Silero VAD weights.
pub fn vad_model_path() -> PathBuf {
    test_models_dir().join("silero-vad.safetensors")
}

/// The Silero VAD weights. Panics with the fix if absent.
pub fn vad_model() -> PathBuf {
    let path = vad_model_path();
    assert!(path.is_file(), "{} is missing: run scripts/test-model.sh first", path.display());
    path
}

/// Real human speech with a known transcript (John F. Kennedy, 11 s).
pub fn jfk_wav() -> PathBuf {
    let path = test_models_dir().join("jfk.wav");
    assert!(path.is_file(), "{} is missing: run scripts/test-model.sh first", path.display());
    path
}

/// The layouts tests import.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// 44.1 kHz, stereo, 16-bit PCM WAV.
    Wav44kStereo16,
    /// 48 kHz, mono, 32-bit float WAV.
    Wav48kFloat,
    /// 8 kHz, mono, 8-bit unsigned WAV.
    Wav8kU8,
    /// 22.05 kHz, mono, 24-bit WAV.
    Wav22k24,
    /// MP3 through ffmpeg.
    Mp3,
    /// Ogg Vorbis through ffmpeg.
    Ogg,
}

/// Speaks `text` (espeak-ng, US English) into `path` in `layout`.
pub fn speak(text: &str, path: &Path, layout: Layout) {
    let raw = path.with_extension("espeak.wav");
    run(Command::new("espeak-ng").args(["-v", "en-us", "-s", "150", "-w"]).arg(&raw).arg(text));
    convert(&raw, path, layout);
    let _ = std::fs::remove_file(raw);
}

/// Converts a WAV into `layout` at `path`.
pub fn convert(input: &Path, path: &Path, layout: Layout) {
    let sox = |args: &[&str]| {
        run(Command::new("sox").arg(input).args(args).arg(path));
    };
    match layout {
        Layout::Wav44kStereo16 => {
            sox(&["-r", "44100", "-c", "2", "-b", "16", "-e", "signed-integer"])
        }
        Layout::Wav48kFloat => sox(&["-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point"]),
        Layout::Wav8kU8 => sox(&["-r", "8000", "-c", "1", "-b", "8", "-e", "unsigned-integer"]),
        Layout::Wav22k24 => sox(&["-r", "22050", "-c", "1", "-b", "24", "-e", "signed-integer"]),
        Layout::Mp3 | Layout::Ogg => run(Command::new("ffmpeg")
            .args(["-nostdin", "-loglevel", "error", "-y", "-i"])
            .arg(input)
            .arg(path)),
    }
}

/// Speaks `text` into a 16 kHz mono 16-bit WAV with `before` seconds of
/// silence ahead of it and `after` seconds behind (one side of a call).
pub fn speak_padded(text: &str, path: &Path, before: f32, after: f32) {
    let raw = path.with_extension("espeak.wav");
    run(Command::new("espeak-ng").args(["-v", "en-us", "-s", "150", "-w"]).arg(&raw).arg(text));
    run(Command::new("sox")
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"])
        .arg(path)
        .args(["pad", &before.to_string(), &after.to_string()]));
    let _ = std::fs::remove_file(raw);
}

/// Joins WAV files one after the other (same format) into `path`.
pub fn concatenate(parts: &[&Path], path: &Path) {
    run(Command::new("sox").args(parts).arg(path));
}

/// A silent 16 kHz mono 16-bit WAV of `seconds`, written in blocks.
pub fn silence(path: &Path, seconds: u32) {
    run(Command::new("sox")
        .args(["-n", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"])
        .arg(path)
        .args(["trim", "0", &seconds.to_string()]));
}

fn run(command: &mut Command) {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
