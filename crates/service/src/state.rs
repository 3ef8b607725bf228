//! The service's shared state, in five parts, each owning one concern:
//! [`Core`] (the database, events, data folder, egress, shutdown),
//! [`Configuration`] (settings, policy, licence, API keys), [`Access`] (tokens,
//! pairing codes, sessions), [`Models`] (the engine and model weights) and
//! [`Work`] (the recorder, the job queue, sweeps and background builds).
//! Handlers get the whole [`AppState`]; a recording's threads get a
//! `recording::context::RecordingContext`, which reaches only what they use.

use std::sync::Arc;

use recorder_domain::{Plan, PolicyValues};
use recorder_settings::{DataDir, Environment, Settings};
use recorder_store::Store;
use tokio_util::sync::CancellationToken;

use crate::access::pairing::PairingCodes;
use crate::access::sessions::Sessions;
use crate::access::tokens::Tokens;
use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::base::events::EventBus;
use crate::base::wake::Wake;
use crate::config::license::LicenseState;
use crate::config::managed::{PolicyHandle, SettingsHandle};
use crate::models::downloads::Downloads;
use crate::models::engine::SharedEngine;
use crate::models::weights::{SegmentationModel, SpeakerModel, VadModel};
use crate::pipeline::notes_runs::NotesRuns;
use crate::recording::recorder::Recorder;
use crate::upkeep::index_build::IndexBuild;

#[derive(Clone)]
pub struct AppState(pub Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// Everything the service shares, by concern.
pub struct Shared {
    pub core: Arc<Core>,
    pub config: Arc<Configuration>,
    pub access: Access,
    pub models: Arc<Models>,
    pub work: Arc<Work>,
}

/// What every request and task stands on.
pub struct Core {
    pub version: &'static str,
    pub port: u16,
    pub data_dir: DataDir,
    pub environment: Environment,
    pub store: Arc<Store>,
    pub events: EventBus,
    /// The one outbound HTTP client; its requests go to the Privacy Ledger.
    pub egress: recorder_egress::Egress,
    pub shutdown: CancellationToken,
}

/// What the service is told: the person's settings, the managed policy over
/// them, the plan, and the notes providers' API keys.
pub struct Configuration {
    pub settings: SettingsHandle,
    pub policy: PolicyHandle,
    pub license: LicenseState,
    /// Notes-provider API keys (OS credential store, or the 0600 file).
    pub credentials: Arc<recorder_credentials::CredentialStore>,
}

/// Who may ask: the bearer secrets, pairing codes and the person's sessions.
pub struct Access {
    pub tokens: Tokens,
    pub pairing_codes: PairingCodes,
    pub sessions: Sessions,
}

/// The transcription engine and the other model weights.
pub struct Models {
    /// The transcription engine shared by jobs and live recordings.
    pub engine: SharedEngine,
    /// The voice-activity model (Silero VAD when installed).
    pub vad: VadModel,
    pub speakers: SpeakerModel,
    /// Who speaks when within 10 s windows, overlaps included.
    pub segmentation: SegmentationModel,
    /// Transcription-model downloads in progress.
    pub downloads: Downloads,
    /// Search by meaning: the embedding model and the index.
    pub meaning: crate::meaning::Meaning,
}

/// The work in progress and what wakes it.
pub struct Work {
    /// The recording in progress, and the capture backend.
    pub recorder: Recorder,
    /// Wakes the job worker when work is queued.
    pub pipeline: Wake,
    /// Wakes the retention sweeper when retention settings or policy change.
    pub retention: Wake,
    /// Notes regenerations running now (to cancel one).
    pub notes_runs: NotesRuns,
    /// The background build of the search index, while it runs.
    pub search_index: IndexBuild,
    /// Recordings' speakers told apart while they are recorded.
    pub live_speakers: crate::recording::live_speakers::LiveSpeakers,
}

impl Configuration {
    pub fn policy(&self) -> PolicyValues {
        self.policy.current()
    }

    pub fn effective_settings(&self) -> Settings {
        self.settings.effective_typed(&self.policy())
    }

    pub fn plan(&self) -> Plan {
        self.license.plan(now_ms())
    }
}

impl Shared {
    pub fn policy(&self) -> PolicyValues {
        self.config.policy()
    }

    pub fn effective_settings(&self) -> Settings {
        self.config.effective_settings()
    }

    pub fn plan(&self) -> Plan {
        self.config.plan()
    }

    /// Runs blocking store work off the async runtime.
    pub async fn db<T, F>(&self, work: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> ApiResult<T> + Send + 'static,
    {
        let store = self.core.store.clone();
        tokio::task::spawn_blocking(move || work(&store))
            .await
            .map_err(|error| ApiError::internal("running a database task", error))?
    }
}
