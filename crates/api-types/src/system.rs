//! `/v1/health`: the service's version, the recording state and the search
//! index build.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::MeetingId;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub ok: bool,
    pub version: String,
    pub recording: RecordingState,
    /// Present while meetings saved before this version are being added to
    /// the search index in the background (search works meanwhile, slower).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_index: Option<SearchIndexBuild>,
    /// Search by meaning: whether the embedding model is installed, and how
    /// many ready meetings still wait to be embedded (in the background).
    /// (Absent from services older than this field: read as unavailable.)
    #[serde(default)]
    pub meaning: MeaningIndex,
    /// Where transcription runs. Absent for the moment after start while
    /// the service looks for a GPU, and from services older than this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcription: Option<TranscriptionDevice>,
    /// How the processes that parse files from outside (ffmpeg for imports,
    /// the notes model's worker) are confined on this machine (shown in
    /// Diagnostics). Absent from services older than this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confinement: Option<ProcessConfinement>,
}

/// What this machine's kernel lets the service confine (Linux: Landlock,
/// seccomp, no new privileges).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ProcessConfinement {
    /// Every part applies.
    pub whole: bool,
    /// In words: what is confined, and what is not and why (e.g. "confined:
    /// files (Landlock ABI 6), network (seccomp), privileges (no_new_privs)").
    pub summary: String,
}

/// Where transcription runs: the `transcription.device` setting, what it
/// came to on this machine, and how a file job spreads over it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct TranscriptionDevice {
    /// The setting: `auto`, `cpu` or `gpu`.
    pub device: String,
    /// Where the model runs (or will, once loaded): `gpu` or `cpu`.
    pub runs_on: String,
    /// The GPU used, or found and not used (the setting is `cpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// Why it runs on the CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whisper states a file job uses at once (while no recording runs).
    pub file_workers: u32,
    /// Threads each of them uses.
    pub threads_per_worker: u32,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct MeaningIndex {
    /// The embedding model is installed (`recorder models add-embeddings`).
    pub available: bool,
    /// Ready meetings whose passages are not embedded yet.
    pub remaining: i64,
    /// Ready meetings in all.
    pub meetings: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SearchIndexBuild {
    /// Meetings still to be indexed.
    pub remaining: i64,
    /// Meetings in all.
    pub meetings: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RecordingState {
    pub active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<MeetingId>,
    /// While recording: whether it is paused (an extension of the spec).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// While recording: whether the microphone channel is muted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub muted: Option<bool>,
    /// While a countdown to stopping by itself runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
}

/// A countdown to stopping by itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Ending {
    pub reason: crate::EndingReason,
    /// When the recording stops, ms since the epoch.
    pub stops_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_app: Option<String>,
}
