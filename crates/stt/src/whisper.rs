//! The whisper.cpp engine (whisper-rs), behind the `whisper` feature so the
//! audio chain can be built without a C++ toolchain for the target.

use std::path::Path;
use std::sync::Arc;

use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState,
};

use crate::bias::{Bias, BiasStrength};
use crate::spelling::{letters, Lexicon};
use crate::transcriber::{
    fitted_audio_ctx, Backend, CallOptions, ChunkResult, Decoding, EngineOptions, RawSegment,
    SttError, Transcriber,
};

/// whisper.cpp through whisper-rs.
pub struct WhisperEngine {
    state: WhisperState,
    options: EngineOptions,
    multilingual: bool,
    call: CallOptions,
    /// Words the next calls should expect, as text and as whisper's tokens.
    prompt: (String, Vec<std::ffi::c_int>),
    /// The prompt's names and terms, put right where heard one slip off
    /// (with or without the prompt given to whisper).
    lexicon: Lexicon,
    /// The prompt's rare words, favoured as whisper decodes.
    bias: Bias,
    /// How strongly ([`crate::bias::DEFAULT_STRENGTH`] unless set).
    bias_strength: Option<BiasStrength>,
    /// The weights, shared with [`WhisperEngine::sibling`]s.
    context: Arc<WhisperContext>,
    /// Where it runs.
    backend: Backend,
}

/// The most prompt tokens a call carries. whisper.cpp takes up to half its
/// text context (224); each token lengthens every decoding step, and a long
/// prompt pulls the text towards itself, so the prompt is kept short and its
/// most important words go last (they are the ones kept).
pub const MAX_PROMPT_TOKENS: usize = 96;
/// The prompt is given as earlier text spoken from 0 s to this many of
/// whisper's 20 ms time steps (2.74 s). Not a whole second: after a prompt
/// ending on one, tiny.en rounded every later time to whole seconds.
const PROMPT_SPAN: std::ffi::c_int = 137;

impl WhisperEngine {
    pub fn load(path: &Path, options: EngineOptions) -> Result<Self, SttError> {
        route_logs_once();
        let load_error =
            |reason: String| SttError::Load { path: path.display().to_string(), reason };
        let path_text = path.to_str().ok_or_else(|| load_error("the path is not UTF-8".into()))?;
        // whisper.cpp trusts the file it loads (a damaged one can abort the
        // process): it gets only a file that our own reader walked whole.
        check_model(path).map_err(load_error)?;
        let (context, state, backend) = match crate::gpu::backend_for(options.device) {
            Backend::Gpu { name } => match load_on(path_text, true) {
                Ok((context, state)) => (context, state, Backend::Gpu { name }),
                Err(error) => {
                    let reason = format!("the GPU ({name}) could not load the model: {error}");
                    let (context, state) = load_on(path_text, false).map_err(load_error)?;
                    (context, state, Backend::Cpu { reason })
                }
            },
            cpu => {
                let (context, state) = load_on(path_text, false).map_err(load_error)?;
                (context, state, cpu)
            }
        };
        let multilingual = context.is_multilingual();
        let context = Arc::new(context);
        Ok(WhisperEngine {
            state,
            options,
            multilingual,
            call: CallOptions::default(),
            prompt: Default::default(),
            lexicon: Lexicon::default(),
            bias: Bias::default(),
            bias_strength: Some(crate::bias::DEFAULT_STRENGTH),
            context,
            backend,
        })
    }

    /// Where it runs.
    pub fn backend(&self) -> &Backend {
        &self.backend
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
            prompt: Default::default(),
            lexicon: Lexicon::default(),
            bias: Bias::default(),
            bias_strength: self.bias_strength,
            context: self.context.clone(),
            backend: self.backend.clone(),
        })
    }

    /// How the next calls run. Fitting the window: the encoder is most of the
    /// cost, so a 5 s utterance is transcribed about four times faster; live
    /// lines and file jobs both fit it (WER unchanged on the bench files).
    pub fn set_call(&mut self, call: CallOptions) {
        self.call = call;
    }

    /// The language of the next calls: a code, or `None`/"auto" to detect it
    /// (an English-only model always transcribes English).
    pub fn set_language(&mut self, language: Option<String>) {
        self.options.language = language;
    }

    /// Text the next calls continue from, so the names and terms in it are
    /// spelled as given (whisper's initial prompt). Empty for none. Only its
    /// last [`MAX_PROMPT_TOKENS`] tokens are kept.
    pub fn set_prompt(&mut self, prompt: &str) -> Result<(), SttError> {
        if self.prompt.0 == prompt {
            return Ok(());
        }
        let mut tokens = if prompt.trim().is_empty() || prompt.contains('\0') {
            Vec::new()
        } else {
            // Tokenizing never yields more tokens than bytes, plus one.
            let room = prompt.len() + 1;
            self.context.tokenize(prompt, room).map_err(|e| SttError::Engine(e.to_string()))?
        };
        let extra = tokens.len().saturating_sub(MAX_PROMPT_TOKENS);
        tokens.drain(..extra);
        if !tokens.is_empty() {
            // As a timed segment of earlier text: a prompt of bare text makes
            // whisper write the whole window as one segment, without times.
            let begin = self.context.token_beg();
            tokens.insert(0, begin);
            tokens.push(begin + PROMPT_SPAN);
        }
        self.lexicon =
            if tokens.is_empty() { Lexicon::default() } else { Lexicon::from_prompt(prompt) };
        self.bias = if tokens.is_empty() { Bias::default() } else { self.bias_of(prompt) };
        self.prompt = (prompt.to_owned(), tokens);
        Ok(())
    }

    /// How strongly the prompt's rare words are favoured as whisper decodes;
    /// `None`: not at all (the prompt only). For measuring (bench/names.py).
    pub fn set_bias_strength(&mut self, strength: Option<BiasStrength>) {
        self.bias_strength = strength;
        self.bias.set_strength(strength);
    }

    /// The prompt's words of three letters or more as whisper's tokens, each
    /// after a space; [`Bias::new`] keeps those of several tokens.
    fn bias_of(&self, prompt: &str) -> Bias {
        let mut words = Vec::new();
        for word in crate::spelling::words_of(prompt).filter(|word| letters(word) >= 3) {
            let spaced = format!(" {word}");
            if let Ok(tokens) = self.context.tokenize(&spaced, spaced.len() + 1) {
                words.push(tokens);
            }
        }
        let n_vocab = usize::try_from(self.context.n_vocab()).unwrap_or(0);
        let mut bias = Bias::new(words, n_vocab, self.context.token_eot());
        bias.set_strength(self.bias_strength);
        bias
    }

    /// Whether whisper's tokenizer has no single token for `word` (after a
    /// space, as inside a sentence): a name or a rare term, not an everyday
    /// word.
    fn is_rare(&self, word: &str) -> bool {
        let spaced = format!(" {word}");
        self.context.tokenize(&spaced, spaced.len() + 1).is_ok_and(|tokens| tokens.len() > 1)
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
    fn prompt(&self) -> &str {
        if self.prompt.1.is_empty() {
            ""
        } else {
            &self.prompt.0
        }
    }

    fn transcribe_plain(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        let prompt = std::mem::take(&mut self.prompt);
        let bias = std::mem::take(&mut self.bias);
        let result = self.transcribe(samples);
        self.prompt = prompt;
        self.bias = bias;
        result
    }

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
        if !self.prompt.1.is_empty() {
            params.set_tokens(&self.prompt.1);
        }
        crate::bias::full_with(&mut self.state, params, samples, &self.bias)
            .map_err(|e| SttError::Engine(e.to_string()))?;
        let mut segments = Vec::new();
        for segment in self.state.as_iter() {
            let text = segment.to_str_lossy().map_err(|e| SttError::Engine(e.to_string()))?;
            if crate::hallucination::echoes_prompt(&text, &self.prompt.0) {
                continue;
            }
            let text = self.lexicon.respell(text.trim(), &mut |word| self.is_rare(word));
            segments.push(RawSegment {
                start_ms: segment.start_timestamp() * 10,
                end_ms: segment.end_timestamp() * 10,
                text,
                no_speech_probability: segment.no_speech_probability(),
            });
        }
        let detected = whisper_rs::get_lang_str(self.state.full_lang_id_from_state());
        Ok(ChunkResult { segments, language: language.or(detected.map(str::to_owned)) })
    }
}

/// The weights and a working state, on a GPU or not.
fn load_on(path: &str, gpu: bool) -> Result<(WhisperContext, WhisperState), String> {
    // Flash attention stays off: on the CPUs we measured it saves ~70 MiB for
    // tiny.en but is 8–24 % slower (bench/results/stt-2026-11-22.md), and
    // memory is already far below faster-whisper's.
    let mut parameters = WhisperContextParameters::default();
    parameters.use_gpu(gpu);
    let context = WhisperContext::new_with_params(path, parameters).map_err(|e| e.to_string())?;
    let state = context.create_state().map_err(|e| e.to_string())?;
    Ok((context, state))
}

/// [`crate::model_check`] on `path`, in words fit for [`SttError::Load`] (which
/// names the path already).
fn check_model(path: &Path) -> Result<(), String> {
    crate::model_check::inspect_as(path, "the file").map(|_| ()).map_err(|error| error.to_string())
}

/// Whether whisper knows `code` as a language (`en`, `de`, …).
pub fn known_language(code: &str) -> bool {
    !code.contains('\0') && whisper_rs::get_lang_id(code).is_some()
}

fn route_logs_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(whisper_rs::install_logging_hooks);
}
