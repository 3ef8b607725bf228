//! The whisper.cpp engine (whisper-rs), behind the `whisper` feature so the
//! audio chain can be built without a C++ toolchain for the target.

use std::path::Path;
use std::sync::Arc;

use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState,
};

use crate::transcriber::{
    fitted_audio_ctx, CallOptions, ChunkResult, Decoding, EngineOptions, RawSegment, SttError,
    Transcriber,
};

/// whisper.cpp through whisper-rs.
pub struct WhisperEngine {
    state: WhisperState,
    options: EngineOptions,
    multilingual: bool,
    call: CallOptions,
    /// The weights, shared with [`WhisperEngine::sibling`]s.
    context: Arc<WhisperContext>,
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
        let context = Arc::new(context);
        Ok(WhisperEngine { state, options, multilingual, call: CallOptions::default(), context })
    }

    /// A second engine on the same weights (loaded once) with its own
    /// working state, so both can transcribe at the same time.
    pub fn sibling(&self) -> Result<WhisperEngine, SttError> {
        let state = self.context.create_state().map_err(|e| SttError::Engine(e.to_string()))?;
        Ok(WhisperEngine {
            state,
            options: self.options.clone(),
            multilingual: self.multilingual,
            call: CallOptions::default(),
            context: self.context.clone(),
        })
    }

    /// How the next calls run. Fitting the window: the encoder is most of the
    /// cost, so a 5 s utterance is transcribed about four times faster; live
    /// lines and file jobs both fit it (WER unchanged on the bench files).
    pub fn set_call(&mut self, call: CallOptions) {
        self.call = call;
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
        let strategy = match self.call.decoding {
            Decoding::Greedy => SamplingStrategy::Greedy { best_of: 1 },
            Decoding::Beam(size) => {
                SamplingStrategy::BeamSearch { beam_size: i32::from(size.max(1)), patience: 1.0 }
            }
        };
        let mut params = FullParams::new(strategy);
        params.set_n_threads(self.call.threads.unwrap_or(self.options.threads).max(1) as i32);
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
        if self.call.fit_window {
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
