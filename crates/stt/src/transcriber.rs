//! The `Transcriber` seam every speech-to-text engine implements: the
//! segments and results of one chunk (≤ 30 s), the errors, and how an engine
//! and one call run.

/// A piece of text with its time inside the chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct RawSegment {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    pub no_speech_probability: f32,
}

/// What a transcription of one chunk found.
#[derive(Debug, Clone, Default)]
pub struct ChunkResult {
    pub segments: Vec<RawSegment>,
    /// The language spoken, when the engine detected it.
    pub language: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SttError {
    #[error("the model could not be loaded from {path}: {reason}")]
    Load { path: String, reason: String },
    #[error("transcription failed: {0}")]
    Engine(String),
}

/// A speech-to-text engine.
pub trait Transcriber: Send {
    fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError>;

    /// The words calls are told to expect (empty for none), so that
    /// [`Transcriber::transcribe_plain`] differs from `transcribe`.
    fn prompt(&self) -> &str {
        ""
    }

    /// One call without the prompt.
    fn transcribe_plain(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.transcribe(samples)
    }
}

/// How the engine runs.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub threads: usize,
    /// A language code, or `None`/"auto" to detect it.
    pub language: Option<String>,
    /// Where it should run (`transcription.device`).
    pub device: Device,
}

/// Where transcription should run: the `transcription.device` setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Device {
    /// On a GPU where there is one, else on the CPU.
    #[default]
    Auto,
    Cpu,
    /// On a GPU; on the CPU, with the reason said, where there is none.
    Gpu,
}

impl Device {
    /// The setting's value: `auto`, `cpu` or `gpu` (anything else is `auto`).
    pub fn from_setting(value: Option<&str>) -> Self {
        match value {
            Some("cpu") => Device::Cpu,
            Some("gpu") => Device::Gpu,
            _ => Device::Auto,
        }
    }
}

/// Where a loaded engine runs, and why not on a GPU when it does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// A GPU through Vulkan, by its name.
    Gpu { name: String },
    /// The CPU: because it was asked for, or because no GPU could be used.
    Cpu { reason: String },
}

impl Backend {
    pub fn is_gpu(&self) -> bool {
        matches!(self, Backend::Gpu { .. })
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backend::Gpu { name } => write!(f, "GPU ({name})"),
            Backend::Cpu { .. } => write!(f, "CPU"),
        }
    }
}

/// How one call runs, beyond the engine's own options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CallOptions {
    /// Encode only the part of whisper's 30 s window the audio fills (plus a
    /// margin).
    pub fit_window: bool,
    /// Threads for this call instead of the engine's.
    pub threads: Option<usize>,
    pub decoding: Decoding,
}

/// How the decoder picks tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Decoding {
    /// The likeliest token each step: fastest.
    #[default]
    Greedy,
    /// Keeps this many candidate texts (whisper.cpp's beam search, patience
    /// 1): slower, fewer dropped and misheard words.
    Beam(u8),
}

/// Physical cores minus one (at least one): both engines we measured
/// spin-wait, so taking every core is much slower when a call runs beside us.
pub fn default_threads() -> usize {
    num_cpus::get_physical().saturating_sub(1).max(1)
}

/// Encoder frames (1500 per 30 s window) covering `samples` at 16 kHz,
/// plus 2 s of margin, in steps of 64.
pub fn fitted_audio_ctx(samples: usize) -> i32 {
    let frames = (samples + 32_000) * 1500 / 480_000;
    (frames.div_ceil(64) * 64).clamp(256, 1500) as i32
}

#[cfg(test)]
mod tests {
    use super::fitted_audio_ctx;

    #[test]
    fn the_fitted_window_covers_the_audio_with_a_margin() {
        assert_eq!(fitted_audio_ctx(0), 256, "never below 256 frames");
        // 5 s + 2 s margin = 350 frames, rounded up to 384.
        assert_eq!(fitted_audio_ctx(5 * 16_000), 384);
        assert_eq!(fitted_audio_ctx(28 * 16_000), 1500, "never above the window");
    }
}
