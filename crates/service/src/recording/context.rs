//! What a recording's threads (capture, live transcription, partial lines)
//! see of the service: the database, events, data folder, settings, the
//! engine and VAD, the recorder and the job queue's wake-up. Not the tokens,
//! sessions, egress or API keys.

use std::sync::Arc;

use recorder_domain::MeetingId;
use recorder_settings::{DataDir, Settings};
use recorder_store::Store;
use recorder_stt::engine::SttError;
use tokio_util::sync::CancellationToken;

use crate::base::events::EventBus;
use crate::models::engine::{Setup, SharedEngine};
use crate::models::weights::VadModel;
use crate::recording::live_speakers::{LiveSpeakers, SpeakerModels};
use crate::recording::recorder::Recorder;
use crate::state::{AppState, Configuration, Core, Models, Work};

/// What a recording's threads (capture, live transcription, partial lines)
/// use, and nothing else: no tokens, sessions, egress or API keys.
#[derive(Clone)]
pub struct RecordingContext {
    core: Arc<Core>,
    config: Arc<Configuration>,
    models: Arc<Models>,
    work: Arc<Work>,
}

impl RecordingContext {
    /// The parts of the service's state a recording uses.
    pub fn of(state: &AppState) -> Self {
        RecordingContext {
            core: state.core.clone(),
            config: state.config.clone(),
            models: state.models.clone(),
            work: state.work.clone(),
        }
    }

    pub fn store(&self) -> &Store {
        &self.core.store
    }

    pub fn events(&self) -> &EventBus {
        &self.core.events
    }

    pub fn data_dir(&self) -> &DataDir {
        &self.core.data_dir
    }

    pub fn shutdown(&self) -> &CancellationToken {
        &self.core.shutdown
    }

    pub fn effective_settings(&self) -> Settings {
        self.config.effective_settings()
    }

    /// The active model and the settings to run it with.
    pub fn engine_setup(&self) -> Result<Setup<'_>, SttError> {
        crate::models::engine_setup(&self.core, &self.config)
    }

    /// As [`Self::engine_setup`], with `meeting_id`'s words to expect.
    pub fn meeting_setup(&self, meeting_id: &MeetingId) -> Result<Setup<'_>, SttError> {
        crate::models::meeting_setup(&self.core, &self.config, meeting_id)
    }

    /// The words `meeting_id`'s transcription should expect now.
    pub fn prompt_for(&self, meeting_id: &MeetingId) -> String {
        let settings = self.effective_settings();
        crate::models::vocabulary::prompt_for(&self.core.store, &settings, meeting_id)
    }

    pub fn engine(&self) -> &SharedEngine {
        &self.models.engine
    }

    pub fn vad(&self) -> &VadModel {
        &self.models.vad
    }

    /// The speaker models, when the speaker model is installed.
    pub fn speaker_models(&self) -> Option<SpeakerModels> {
        Some((self.models.speakers.get()?, self.models.segmentation.get()))
    }

    pub fn live_speakers(&self) -> &LiveSpeakers {
        &self.work.live_speakers
    }

    pub fn recorder(&self) -> &Recorder {
        &self.work.recorder
    }

    /// Wakes the job worker (the rest of a recording is queued).
    pub fn wake_pipeline(&self) {
        self.work.pipeline.wake()
    }
}
