//! The transcription engine shared by file jobs and live recordings. It is
//! given what it needs for each call (a [`Setup`]: the model file, threads,
//! language, and the event bus to say a model is loading), not the service's
//! state, so the recording side and the job pipeline both use it without
//! knowing each other.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use recorder_api_types::{Event, ModelRef};
use recorder_settings::Settings;
use recorder_stt::engine::{
    default_threads, Backend, CallOptions, ChunkResult, Device, EngineOptions, SttError,
    Transcriber, WhisperEngine,
};

use crate::base::events::EventBus;

/// What a call needs besides the audio.
pub struct Setup<'a> {
    /// The model file, and its name for `models.loading`/`models.loaded`.
    pub model_path: PathBuf,
    pub model_name: String,
    pub threads: usize,
    /// `None` lets whisper detect it.
    pub language: Option<String>,
    /// `transcription.device`.
    pub device: Device,
    /// The words this meeting's transcription should expect
    /// ([`super::vocabulary`]); empty for none.
    pub prompt: String,
    /// Hears `models.loading` and `models.loaded`.
    pub events: &'a EventBus,
}

impl<'a> Setup<'a> {
    /// The setup `settings` ask for, with the model at `model_path`.
    pub fn new(
        model_path: PathBuf,
        model_name: String,
        settings: &Settings,
        events: &'a EventBus,
    ) -> Self {
        let language = Some(settings.recording.language.clone()).filter(|l| !l.is_empty());
        let threads = configured_threads(settings);
        let device = Device::from_setting(settings.transcription.device.as_deref());
        let prompt = String::new();
        Setup { model_path, model_name, threads, language, device, prompt, events }
    }
}

/// The one loaded engine, shared by file jobs and live recordings: each call
/// holds it for one chunk, so a live call is never stuck behind a long
/// import. The model is loaded when first needed and unloaded after a quiet
/// period ([`SharedEngine::unload_if_idle`]). Partial lines of a live
/// recording use a second working state on the same weights
/// ([`SharedEngine::transcribe_partial`]), so they never hold up a final line.
/// File jobs add more working states on the same weights, one per worker
/// ([`SharedEngine::file_workers`]).
pub struct SharedEngine {
    loaded: Mutex<Option<(EngineKey, WhisperEngine)>>,
    partial: Mutex<Option<(EngineKey, WhisperEngine)>>,
    /// The file workers' states, each used by one worker at a time.
    workers: Mutex<Vec<WorkerState>>,
    /// Where the loaded model runs: a copy of its engine's backend kept
    /// beside it, because `loaded` is held for a whole chunk and health must
    /// not wait for it. Set and cleared with `loaded`.
    backend: Mutex<Option<Backend>>,
    last_used: Mutex<Instant>,
    /// The language of the last call, which partial lines follow.
    language: Mutex<Option<String>>,
    /// File jobs transcribing now: live lines take two threads only without.
    jobs: AtomicUsize,
}

impl Default for SharedEngine {
    fn default() -> Self {
        SharedEngine {
            loaded: Mutex::new(None),
            partial: Mutex::new(None),
            workers: Mutex::new(Vec::new()),
            backend: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
            language: Mutex::new(None),
            jobs: AtomicUsize::new(0),
        }
    }
}

impl SharedEngine {
    /// Transcribes one chunk with the configured model, loading it if needed.
    pub fn transcribe(
        &self,
        setup: &Setup<'_>,
        samples: &[f32],
        call: CallOptions,
    ) -> Result<ChunkResult, SttError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        let (_, engine) = load_engine(setup, &mut loaded, &self.backend)?;
        engine.set_call(call);
        engine.set_prompt(&setup.prompt)?;
        engine.set_language(setup.language.clone());
        *self.language.lock().unwrap_or_else(|p| p.into_inner()) = setup.language.clone();
        let result = engine.transcribe(samples);
        *self.last_used.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        result
    }

    /// A partial line: the open utterance on the second state, one thread,
    /// the window fitted. `None` when the model is not loaded yet or is
    /// being loaded (a partial never waits for that). `prompt` as in [`Setup`].
    pub fn transcribe_partial(
        &self,
        samples: &[f32],
        prompt: &str,
    ) -> Option<Result<ChunkResult, SttError>> {
        let mut partial = self.partial.lock().unwrap_or_else(|p| p.into_inner());
        {
            let loaded = self.loaded.try_lock().ok()?;
            let (key, engine) = loaded.as_ref()?;
            if partial.as_ref().is_none_or(|(current, _)| current != key) {
                *partial = Some((key.clone(), engine.sibling().ok()?));
            }
        }
        let (_, engine) = partial.as_mut()?;
        engine.set_call(CallOptions { fit_window: true, threads: Some(1), ..Default::default() });
        engine.set_language(self.language.lock().unwrap_or_else(|p| p.into_inner()).clone());
        if let Err(error) = engine.set_prompt(prompt) {
            return Some(Err(error));
        }
        Some(engine.transcribe(samples))
    }

    /// Threads for a live line: two (where there are two cores) while no
    /// file job is transcribing, else the configured number.
    pub fn live_threads(&self, configured: usize) -> usize {
        if self.jobs.load(Ordering::Relaxed) > 0 {
            return configured;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        configured.max(cores.min(2))
    }

    /// Loads the configured model now (at the start of a recording).
    pub fn preload(&self, setup: &Setup<'_>) -> Result<(), SttError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        load_engine(setup, &mut loaded, &self.backend)?;
        *self.last_used.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
        Ok(())
    }

    /// Frees the model when nothing used it for `quiet`. Returns whether it did.
    pub fn unload_if_idle(&self, quiet: Duration) -> bool {
        let idle = self.last_used.lock().unwrap_or_else(|p| p.into_inner()).elapsed() >= quiet;
        // A busy engine is locked by its user: never wait for it here.
        let Ok(mut loaded) = self.loaded.try_lock() else { return false };
        let Ok(mut partial) = self.partial.try_lock() else { return false };
        let Ok(mut workers) = self.workers.try_lock() else { return false };
        // A worker's state still held by a job means the engine is in use.
        if workers.iter().any(|worker| Arc::strong_count(worker) > 1) {
            return false;
        }
        if idle && loaded.is_some() {
            *loaded = None;
            *partial = None;
            workers.clear();
            *self.backend.lock().unwrap_or_else(|p| p.into_inner()) = None;
            return true;
        }
        false
    }

    /// Where the loaded model runs; `None` while none is loaded (health then
    /// says where the setting would put it).
    pub fn backend(&self) -> Option<Backend> {
        self.backend.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// `count` more working states on the loaded model (which `setup`
    /// loads if needed), for a file job's workers besides the shared one.
    pub fn file_workers(
        &self,
        setup: &Setup<'_>,
        count: usize,
    ) -> Result<Vec<WorkerState>, SttError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        let (key, engine) = load_engine(setup, &mut loaded, &self.backend)?;
        let mut workers = self.workers.lock().unwrap_or_else(|p| p.into_inner());
        workers.retain(|worker| worker.lock().unwrap_or_else(|p| p.into_inner()).0 == *key);
        while workers.len() < count {
            workers.push(Arc::new(Mutex::new((key.clone(), engine.sibling()?))));
        }
        Ok(workers.iter().take(count).cloned().collect())
    }
}

/// Counts a file job as transcribing while it lives.
pub struct JobRunning<'a>(&'a AtomicUsize);

impl<'a> JobRunning<'a> {
    pub fn new(engine: &'a SharedEngine) -> Self {
        engine.jobs.fetch_add(1, Ordering::Relaxed);
        JobRunning(&engine.jobs)
    }
}

impl Drop for JobRunning<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The shared engine seen as a [`Transcriber`] by the file chain.
pub struct EngineUser<'a> {
    pub engine: &'a SharedEngine,
    pub setup: Setup<'a>,
    pub call: CallOptions,
}

impl Transcriber for EngineUser<'_> {
    fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.engine.transcribe(&self.setup, samples, self.call)
    }

    fn prompt(&self) -> &str {
        &self.setup.prompt
    }

    fn transcribe_plain(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        let prompt = std::mem::take(&mut self.setup.prompt);
        let result = self.engine.transcribe(&self.setup, samples, self.call);
        self.setup.prompt = prompt;
        result
    }
}

/// A file worker's working state on the loaded weights, and what they are.
pub type WorkerState = Arc<Mutex<(EngineKey, WhisperEngine)>>;

/// One of a file job's extra working states seen as a [`Transcriber`].
pub struct WorkerUser {
    pub state: WorkerState,
    pub prompt: String,
    pub language: Option<String>,
    pub call: CallOptions,
}

impl WorkerUser {
    fn run(&self, samples: &[f32], prompt: &str) -> Result<ChunkResult, SttError> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let engine = &mut state.1;
        engine.set_call(self.call);
        engine.set_prompt(prompt)?;
        engine.set_language(self.language.clone());
        engine.transcribe(samples)
    }
}

impl Transcriber for WorkerUser {
    fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.run(samples, &self.prompt)
    }

    fn prompt(&self) -> &str {
        &self.prompt
    }

    fn transcribe_plain(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
        self.run(samples, "")
    }
}

/// What a loaded engine is for; the language is set per call.
#[derive(Clone, PartialEq)]
pub struct EngineKey {
    path: PathBuf,
    threads: usize,
    device: Device,
}

/// Loads the configured model unless the same one is already loaded, and
/// says where it runs (logged when that is the CPU for want of a GPU).
fn load_engine<'a>(
    setup: &Setup<'_>,
    loaded: &'a mut Option<(EngineKey, WhisperEngine)>,
    backend: &Mutex<Option<Backend>>,
) -> Result<(&'a EngineKey, &'a mut WhisperEngine), SttError> {
    let threads = setup.threads;
    let key = EngineKey { path: setup.model_path.clone(), threads, device: setup.device };
    if loaded.as_ref().is_none_or(|(current, _)| *current != key) {
        *loaded = None;
        *backend.lock().unwrap_or_else(|p| p.into_inner()) = None;
        let model = setup.model_name.clone();
        setup.events.emit(Event::ModelsLoading(ModelRef { model: model.clone() }));
        let language = setup.language.clone();
        let options = EngineOptions { threads, language, device: setup.device };
        let engine = WhisperEngine::load(&setup.model_path, options)?;
        log_backend(&model, setup.device, engine.backend());
        *backend.lock().unwrap_or_else(|p| p.into_inner()) = Some(engine.backend().clone());
        setup.events.emit(Event::ModelsLoaded(ModelRef { model }));
        *loaded = Some((key, engine));
    }
    match loaded.as_mut() {
        Some((key, engine)) => Ok((key, engine)),
        None => Err(SttError::Engine("no engine is loaded".into())),
    }
}

fn log_backend(model: &str, device: Device, backend: &Backend) {
    match backend {
        Backend::Gpu { name } => tracing::info!(model, gpu = %name, "transcribing on the GPU"),
        Backend::Cpu { reason } if device == Device::Gpu => {
            tracing::warn!(model, reason = %reason, "transcribing on the CPU instead of the GPU")
        }
        Backend::Cpu { reason } => {
            tracing::info!(model, reason = %reason, "transcribing on the CPU")
        }
    }
}

/// `transcription.threads`, else physical cores minus one.
pub fn configured_threads(settings: &Settings) -> usize {
    settings.transcription.threads.map_or_else(default_threads, |t| t as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup_for(model_path: PathBuf, events: &EventBus) -> Setup<'_> {
        Setup {
            model_path,
            model_name: "tiny.en".into(),
            threads: 1,
            language: None,
            device: Device::Cpu,
            prompt: String::new(),
            events,
        }
    }

    /// Health reports the loaded model's place while there is one, else the
    /// setting's: the kept copy must never outlive the model it describes.
    #[test]
    fn the_backend_is_known_only_while_a_model_is_loaded() {
        let events = EventBus::new();
        let engine = SharedEngine::default();
        let model = setup_for(recorder_test_support::speech::test_model(), &events);
        assert_eq!(engine.backend(), None, "nothing loaded yet");
        engine.preload(&model).expect("loads");
        assert!(matches!(engine.backend(), Some(Backend::Cpu { .. })), "{:?}", engine.backend());
        assert!(engine.unload_if_idle(Duration::ZERO));
        assert_eq!(engine.backend(), None, "forgotten with the unloaded model");

        engine.preload(&model).expect("loads again");
        let temp = tempfile::tempdir().expect("temp");
        let broken_path = temp.path().join("broken.bin");
        std::fs::write(&broken_path, b"not a model").expect("write");
        let broken = setup_for(broken_path, &events);
        assert!(engine.preload(&broken).is_err(), "a broken model does not load");
        assert_eq!(engine.backend(), None, "the replaced model's place is forgotten");
    }
}
