//! The `Transcriber` seam and its whisper.cpp implementation (whisper-rs).
//! One engine transcribes one speech chunk (≤ 30 s) at a time.

use std::path::Path;

use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState,
};

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
}

/// How the engine runs.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub threads: usize,
    /// A language code, or `None`/"auto" to detect it.
    pub language: Option<String>,
}

/// Physical cores minus one (at least one): both engines we measured
/// spin-wait, so taking every core is much slower when a call runs beside us.
pub fn default_threads() -> usize {
    num_cpus::get_physical().saturating_sub(1).max(1)
}

/// whisper.cpp through whisper-rs.
pub struct WhisperEngine {
    state: WhisperState,
    options: EngineOptions,
    multilingual: bool,
    // The state borrows nothing, but keep the context alive with it.
    fit_window: bool,
    _context: WhisperContext,
}

/// Encoder frames (1500 per 30 s window) covering `samples` at 16 kHz,
/// plus 2 s of margin, in steps of 64.
pub fn fitted_audio_ctx(samples: usize) -> i32 {
    let frames = (samples + 32_000) * 1500 / 480_000;
    (frames.div_ceil(64) * 64).clamp(256, 1500) as i32
}

impl WhisperEngine {
    pub fn load(path: &Path, options: EngineOptions) -> Result<Self, SttError> {
        route_logs_once();
        let load_error =
            |reason: String| SttError::Load { path: path.display().to_string(), reason };
        let path_text = path.to_str().ok_or_else(|| load_error("the path is not UTF-8".into()))?;
        // Flash attention stays off (whisper-rs's default): on the CPUs we
        // measured it saves ~70 MiB for tiny.en but is 8–24 % slower
        // (bench/results/stt-2026-11-22.md), and memory is already far below
        // faster-whisper's.
        let parameters = WhisperContextParameters::default();
        let context = WhisperContext::new_with_params(path_text, parameters)
            .map_err(|e| load_error(e.to_string()))?;
        let state = context.create_state().map_err(|e| load_error(e.to_string()))?;
        let multilingual = context.is_multilingual();
        Ok(WhisperEngine { state, options, multilingual, fit_window: false, _context: context })
    }

    /// Encode only as much of whisper's 30 s window as the audio fills (plus
    /// a margin), instead of the whole window. The encoder is most of the
    /// cost, so a 5 s utterance is transcribed about four times faster; used
    /// for live utterances, where latency matters more than the last bit of
    /// accuracy. File jobs keep the full window.
    pub fn set_fit_window(&mut self, fit: bool) {
        self.fit_window = fit;
    }

    fn language(&self) -> Option<&str> {
        if !self.multilingual {
            return Some("en");
        }
        // An unknown code would fail every chunk: detect the language instead.
        match self.options.language.as_deref() {
            Some(code) if !code.contains('\0') && whisper_rs::get_lang_id(code).is_some() => {
                Some(code)
            }
            _ => None,
        }
    }
}

impl Transcriber for WhisperEngine {
    fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        let language = self.language().map(str::to_owned);
        let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
        params.set_n_threads(self.options.threads.max(1) as i32);
        params.set_language(Some(language.as_deref().unwrap_or("auto")));
        params.set_detect_language(false);
        // Each chunk stands alone: carrying text over lets one hallucination
        // repeat through the rest of a meeting.
        params.set_no_context(true);
        params.set_suppress_blank(true);
        params.set_suppress_nst(true);
        params.set_print_special(false);
        params.set_print_progress(false);
        params.set_print_realtime(false);
        params.set_print_timestamps(false);
        if self.fit_window {
            params.set_audio_ctx(fitted_audio_ctx(samples.len()));
        }
        self.state.full(params, samples).map_err(|e| SttError::Engine(e.to_string()))?;
        let mut segments = Vec::new();
        for segment in self.state.as_iter() {
            let text = segment.to_str_lossy().map_err(|e| SttError::Engine(e.to_string()))?;
            segments.push(RawSegment {
                start_ms: segment.start_timestamp() * 10,
                end_ms: segment.end_timestamp() * 10,
                text: text.trim().to_owned(),
                no_speech_probability: segment.no_speech_probability(),
            });
        }
        let detected = whisper_rs::get_lang_str(self.state.full_lang_id_from_state());
        Ok(ChunkResult { segments, language: language.or(detected.map(str::to_owned)) })
    }
}

fn route_logs_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(whisper_rs::install_logging_hooks);
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
