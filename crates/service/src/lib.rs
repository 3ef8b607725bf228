//! The `recorder` service: owns the database, serves the loopback API (`/v1`) and
//! the person's channel (`/ui`), and runs the background components (policy
//! refresh, prompt expiry). `recorder serve` calls [`Service::bind`] then
//! [`Service::serve`].

mod access;
mod base;
mod config;
mod http;
mod meaning;
mod models;
mod pipeline;
mod recording;
mod state;
mod upkeep;

use std::collections::HashMap;
use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use anyhow::Context;
use recorder_egress::Egress;
use recorder_settings::{default_policy_source, DataDir, Environment, SettingsDocument};
use recorder_store::Store;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::access::pairing::PairingCodes;
use crate::access::sessions::Sessions;
use crate::access::tokens::{self, Tokens};
use crate::base::events::EventBus;
use crate::base::wake::Wake;
use crate::base::{clock, ledger, tasks};
use crate::config::license;
use crate::config::managed::{PolicyHandle, SettingsHandle, LAST_GOOD_POLICY};
use crate::http::router;
use crate::models::downloads::Downloads;
use crate::models::engine::SharedEngine;
use crate::models::weights::{self, SegmentationModel, SpeakerModel, VadModel};
use crate::recording::Recorder;
use crate::state::{Access, AppState, Configuration, Core, Models, Shared, Work};
use crate::upkeep::{database, index_build, leftovers, retention, search_index};

pub use crate::base::error::is_storage_full;
pub use crate::base::folder_lock::FolderInUse;
use crate::base::folder_lock::FolderLock;
pub use crate::base::logging::init_logging;
pub use crate::http::router::BODY_LIMIT;

/// How to start the service.
pub struct Config {
    pub data_dir: DataDir,
    /// `--port`; otherwise `general.api_port` from settings.json.
    pub port: Option<u16>,
    pub environment: Environment,
    /// Where audio comes from (devices or files).
    pub audio: Arc<dyn recorder_capture::AudioSource>,
}

/// A service bound to its port, ready to serve.
pub struct Service {
    listener: TcpListener,
    state: AppState,
    /// Held until `serve` returns: one service per data folder.
    lock: FolderLock,
}

/// The port is taken: the message the contract asks for.
#[derive(Debug, thiserror::Error)]
#[error("address in use: 127.0.0.1:{0} is taken by another program (change general.api_port or use --port)")]
pub struct AddressInUse(pub u16);

impl Service {
    /// Prepares the data folder, tokens, settings, database and policy, and binds
    /// 127.0.0.1. Fails with [`AddressInUse`] when the port is taken, and with
    /// [`FolderInUse`] when another service holds the data folder.
    pub async fn bind(config: Config, shutdown: CancellationToken) -> anyhow::Result<Service> {
        let data_dir = config.data_dir;
        data_dir.prepare()?;
        if let Some(helper) = gpu_helper() {
            recorder_stt::engine::search_with(helper);
        }
        let api = tokens::ensure_token(&data_dir, &data_dir.api_token())?;
        let ui = tokens::ensure_token(&data_dir, &data_dir.ui_token())?;
        let settings = SettingsDocument::load_or_create(&data_dir.settings())?;
        let port = config.port.unwrap_or(settings.typed().general.api_port);
        let listener = match TcpListener::bind(("127.0.0.1", port)).await {
            Ok(listener) => listener,
            Err(error) if error.kind() == std::io::ErrorKind::AddrInUse => {
                tracing::error!(port, "address in use");
                return Err(AddressInUse(port).into());
            }
            Err(error) => return Err(error).context(format!("cannot listen on 127.0.0.1:{port}")),
        };
        // After the port (a second service on the same port is told `address
        // in use`, as the contract says), before anything else is opened.
        let mut lock = FolderLock::acquire(&data_dir)?;
        lock.record_port(listener.local_addr()?.port())
            .with_context(|| format!("cannot write {}", data_dir.service_lock().display()))?;
        tracing::info!(backend = config.audio.name(), "audio capture");
        recorder_sandbox::log("files from outside are read", &recorder_sandbox::support());
        let store = Arc::new(Store::open(&data_dir.database()).with_context(|| {
            format!("cannot open the database {}", data_dir.database().display())
        })?);
        let paired = store
            .live_pairing_hashes()?
            .into_iter()
            .filter_map(|(id, hash)| <[u8; 32]>::try_from(hash).ok().map(|hash| (hash, id)));
        let egress = Egress::new(Arc::new(ledger::StoreLedger::new(store.clone())))?;
        let search_index = index_build::IndexBuild::new(store.search_index_progress()?);
        let pairing_lifetime = config.environment.pairing_code_lifetime();
        let core = Core {
            version: env!("CARGO_PKG_VERSION"),
            port: listener.local_addr()?.port(),
            events: EventBus::new(),
            egress,
            store,
            data_dir,
            environment: config.environment,
            shutdown,
        };
        let state = AppState(Arc::new(Shared {
            config: Arc::new(configuration(&core, settings)),
            access: Access {
                tokens: Tokens {
                    api,
                    ui,
                    paired: RwLock::new(paired.collect::<HashMap<_, _>>()),
                    last_recorded_use: Default::default(),
                },
                pairing_codes: PairingCodes::with_lifetime(pairing_lifetime),
                sessions: Sessions::default(),
            },
            models: Arc::new(models_of(&core)),
            work: Arc::new(Work {
                recorder: Recorder::new(config.audio),
                pipeline: Wake::default(),
                retention: Wake::default(),
                notes_runs: Default::default(),
                search_index,
                live_speakers: Default::default(),
            }),
            core: Arc::new(core),
        }));
        if !recording::recover::recover_interrupted(&state) {
            // Tried again (by `tasks::finish_stranded_recordings`) until it works.
            state.work.recorder.strand_rest();
        }
        Ok(Service { listener, state, lock })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the shutdown token is cancelled, then finishes open requests.
    pub async fn serve(self) -> anyhow::Result<()> {
        let state = self.state;
        let _lock = self.lock;
        let shutdown = state.core.shutdown.clone();
        let refresh = state.core.environment.policy_refresh();
        let started = std::time::SystemTime::now();
        let sweeper = state.clone();
        tokio::task::spawn_blocking(move || leftovers::remove(&sweeper, started));
        let tasks = [
            tokio::spawn(tasks::refresh_policy(state.clone(), refresh)),
            tokio::spawn(tasks::expire_prompts(state.core.clone())),
            tokio::spawn(pipeline::run(state.clone())),
            tokio::spawn(tasks::unload_idle_model(state.clone())),
            tokio::spawn(tasks::finish_stranded_recordings(state.clone())),
            tokio::spawn(recording::calls::run(state.clone())),
            tokio::spawn(search_index::run(state.clone())),
            tokio::spawn(database::run(state.clone())),
            tokio::spawn(meaning::background::run(state.clone())),
            tokio::spawn(retention::run(state.clone(), state.core.environment.retention_sweep())),
        ];
        // A recording in progress is concluded at once (files closed, the rest
        // queued for transcription at the next start), while requests drain.
        let conclude = tokio::spawn(conclude_recording(state.clone()));
        let state_for_stop = state.clone();
        let server = axum::serve(self.listener, router::app(state))
            .with_graceful_shutdown(shutdown.clone().cancelled_owned());
        let drain_limit = async {
            shutdown.cancelled().await;
            tokio::time::sleep(DRAIN_LIMIT).await;
        };
        tokio::select! {
            served = server.into_future() => served.context("the API server stopped")?,
            _ = drain_limit => tracing::warn!(
                "requests still open {} s after the shutdown were dropped",
                DRAIN_LIMIT.as_secs()
            ),
        }
        shutdown.cancel();
        if let Err(error) = conclude.await {
            tracing::error!(%error, "stopping the recording ended abnormally");
        }
        for task in tasks {
            if let Err(error) = task.await {
                tracing::error!(%error, "a background task ended abnormally");
            }
        }
        // Whisper's threads must be done before the process exits: its
        // globals are torn down at exit, under a computation still running.
        if !state_for_stop.work.recorder.live_finished(std::time::Duration::from_secs(30)).await {
            tracing::error!("live transcription did not end within 30 s of the shutdown");
        }
        tracing::info!("service stopped");
        Ok(())
    }
}

/// The configuration part: settings, policy, licence and API keys.
fn configuration(core: &Core, settings: SettingsDocument) -> Configuration {
    Configuration {
        settings: SettingsHandle::new(core.data_dir.settings(), settings),
        policy: PolicyHandle::load(
            default_policy_source(&core.environment),
            core.data_dir.root().join(LAST_GOOD_POLICY),
        ),
        license: load_license(&core.data_dir),
        credentials: Arc::new(credential_store(&core.data_dir, &core.environment)),
    }
}

/// The models part: the engine (loaded on first use) and the other weights.
fn models_of(core: &Core) -> Models {
    let models = core.data_dir.models();
    Models {
        engine: SharedEngine::default(),
        vad: VadModel::new(
            &weights::VAD,
            core.environment.vad_path.clone(),
            &models,
            recorder_stt::silero::FILE_NAME,
        ),
        speakers: SpeakerModel::new(
            &weights::SPEAKERS,
            core.environment.speaker_model_path.clone(),
            &models,
            recorder_stt::speaker::campplus::FILE_NAME,
        ),
        segmentation: SegmentationModel::new(
            &weights::SEGMENTATION,
            core.environment.segmentation_model_path.clone(),
            &models,
            recorder_stt::speaker::segmentation::FILE_NAME,
        ),
        downloads: Downloads::default(),
        meaning: crate::meaning::Meaning::new(models),
    }
}

/// The program that looks for a GPU for the service (`recorder gpus`):
/// `recorder serve` names itself first; in the desktop app it is the
/// `recorder` beside it. Loading GPU drivers to look would keep tens of
/// megabytes mapped in the service and let a failing driver take it down.
/// Without one (tests run from `deps/`), the service looks itself.
fn gpu_helper() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let name = format!("recorder{}", std::env::consts::EXE_SUFFIX);
    let helper = exe.with_file_name(name);
    helper.is_file().then_some(helper)
}

/// How long open requests may go on after a shutdown is asked for.
const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

/// At shutdown, stops a recording in progress properly.
async fn conclude_recording(state: AppState) {
    state.core.shutdown.cancelled().await;
    if state.work.recorder.current().is_none() {
        return;
    }
    match state.work.recorder.stop().await {
        Ok(meeting_id) => tracing::info!(%meeting_id, "recording stopped at shutdown"),
        Err(error) => tracing::error!(error = %error.message, "could not stop the recording"),
    }
}

/// The OS credential store with the file as fallback, or the file alone when
/// `RECORDER_CREDENTIAL_STORE=file`.
fn credential_store(
    data_dir: &DataDir,
    environment: &Environment,
) -> recorder_credentials::CredentialStore {
    let backend = match environment.credential_store.as_deref() {
        Some("file") => recorder_credentials::Backend::File,
        Some(other) if other != "auto" => {
            tracing::warn!(value = other, "RECORDER_CREDENTIAL_STORE is auto or file; using auto");
            recorder_credentials::Backend::Auto
        }
        _ => recorder_credentials::Backend::Auto,
    };
    recorder_credentials::CredentialStore::new(data_dir.root(), backend)
}

fn load_license(data_dir: &DataDir) -> license::LicenseState {
    let state = license::LicenseState::default();
    let Ok(bytes) = std::fs::read(data_dir.license()) else {
        return state;
    };
    match serde_json::from_slice(&bytes)
        .map_err(|e| e.to_string())
        .and_then(|file| license::verify(&file, clock::now_ms()).map_err(|e| e.to_string()))
    {
        Ok(payload) => state.set(payload),
        Err(error) => {
            tracing::warn!(%error, "license.json is not a valid licence; the Free plan applies")
        }
    }
    state
}
