//! The service's shared state: a handful of components, each owning one concern.

use std::sync::{Arc, Mutex, RwLock};

use recorder_domain::{Plan, PolicyValues};
use recorder_settings::{DataDir, Environment, Settings};
use recorder_store::Store;
use tokio_util::sync::CancellationToken;

use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::events::EventBus;
use crate::license::LicenseState;
use crate::managed::{PolicyHandle, SettingsHandle};
use crate::pairing::PairingCodes;
use crate::sessions::Sessions;
use std::collections::HashMap;

#[derive(Clone)]
pub struct AppState(pub Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

pub struct Shared {
    pub version: &'static str,
    pub port: u16,
    pub data_dir: DataDir,
    pub environment: Environment,
    pub store: Arc<Store>,
    pub settings: SettingsHandle,
    pub policy: PolicyHandle,
    pub events: EventBus,
    pub tokens: Tokens,
    pub pairing_codes: PairingCodes,
    pub sessions: Sessions,
    pub license: LicenseState,
    /// Notes-provider API keys (OS credential store, or the 0600 file).
    pub credentials: Arc<recorder_credentials::CredentialStore>,
    /// The one outbound HTTP client; its requests go to the Privacy Ledger.
    pub egress: recorder_egress::Egress,
    /// Transcription-model downloads in progress.
    pub model_downloads: crate::models::downloads::Downloads,
    /// Wakes the job worker when work is queued.
    pub pipeline: crate::wake::Wake,
    /// Wakes the retention sweeper when retention settings or policy change.
    pub retention: crate::wake::Wake,
    /// The transcription engine shared by jobs and live recordings.
    pub engine: crate::engine::SharedEngine,
    /// The voice-activity model (Silero VAD when installed).
    pub vad: crate::models::weights::VadModel,
    pub speakers: crate::models::weights::SpeakerModel,
    /// The recording in progress, and the capture backend.
    pub recorder: crate::recording::recorder::Recorder,
    pub shutdown: CancellationToken,
    /// Notes regenerations running now (to cancel one).
    pub notes_runs: crate::pipeline::notes_runs::NotesRuns,
    /// The background build of the search index, while it runs.
    pub search_index: crate::index_build::IndexBuild,
}

/// The bearer secrets: `api_token`, `ui_token`, and hashes of paired tokens.
pub struct Tokens {
    pub api: String,
    pub ui: String,
    // token hash -> pairing id; changed on pair and revoke, read on every request.
    pub paired: RwLock<HashMap<[u8; 32], String>>,
    // pairing id -> when `last_used_at` was last written, to write it at most once a minute.
    pub last_recorded_use: Mutex<HashMap<String, i64>>,
}

impl Tokens {
    /// Whether a use of this pairing at `now` should be written to the database.
    pub fn should_record_use(&self, pairing_id: &str, now: i64) -> bool {
        let mut recorded = self.last_recorded_use.lock().unwrap_or_else(|p| p.into_inner());
        match recorded.get(pairing_id) {
            Some(at) if now - *at < 60_000 => false,
            _ => {
                recorded.insert(pairing_id.to_string(), now);
                true
            }
        }
    }
}

impl Shared {
    pub fn policy(&self) -> PolicyValues {
        self.policy.current()
    }

    pub fn effective_settings(&self) -> Settings {
        self.settings.effective_typed(&self.policy())
    }

    pub fn plan(&self) -> Plan {
        self.license.plan(now_ms())
    }

    /// Runs blocking store work off the async runtime.
    pub async fn db<T, F>(&self, work: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> ApiResult<T> + Send + 'static,
    {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || work(&store))
            .await
            .map_err(|error| ApiError::internal("running a database task", error))?
    }
}
