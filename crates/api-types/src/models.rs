//! Shapes of the transcription-model routes of the person's channel
//! (`/ui/models*`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `GET /ui/models`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ModelList {
    /// The catalogue, then installed files that are not in it.
    pub models: Vec<ModelEntry>,
    /// The model transcription would use now; null when none is installed.
    pub active: Option<ActiveModelInfo>,
    /// Whether `RECORDER_MODEL_PATH` chooses the model (settings are then ignored).
    pub model_path_env: bool,
    /// How fast this computer ran the installed models; null until measured
    /// (`POST /ui/models/measure`).
    #[serde(default)]
    pub speeds: Option<ModelSpeeds>,
    /// The best model this computer can run live.
    pub recommended: RecommendedModel,
}

/// `POST /ui/models/measure`: each installed model timed on 11 s of built-in
/// speech with the threads a live line gets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelSpeeds {
    /// When, ms since the epoch.
    pub measured_at: i64,
    pub threads: usize,
    pub results: Vec<ModelSpeed>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelSpeed {
    /// e.g. `tiny.en-q8_0`
    pub model: String,
    pub speech_ms: i64,
    /// How long transcribing it took; null when the model failed.
    pub took_ms: Option<i64>,
    /// Whether the model wrote the sample's words (a model that does not is broken).
    pub heard: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Why a model is recommended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RecommendationBasis {
    /// This computer ran it fast enough.
    Measured,
    /// Scaled from a smaller model this computer ran (by the models' sizes).
    Estimated,
    /// Nothing measured yet: the default model.
    Default,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecommendedModel {
    /// What to install, e.g. `base.en-q8_0`.
    pub model: String,
    pub size_bytes: Option<u64>,
    pub installed: bool,
    pub basis: RecommendationBasis,
    /// Seconds it takes (measured or estimated) per second of speech, with the
    /// threads of a live line; null when not measured.
    pub real_time_factor: Option<f64>,
    /// The model the estimate was scaled from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_from: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ModelEntry {
    /// The model without quantization (`base.en`); for a custom file, its name.
    pub name: String,
    /// `f16`, `q8_0`, `q5_1` or `q5_0`; null for a custom file.
    pub quantization: Option<String>,
    /// `ggml-<name>[-<quantization>].bin` in the data folder's `models/`.
    pub file_name: String,
    /// Download size for catalogue entries; the file's size for custom files.
    pub size_bytes: Option<u64>,
    pub english_only: bool,
    /// Added by the person (`recorder models add`), not from the catalogue.
    pub custom: bool,
    pub installed: bool,
    pub active: bool,
    /// Set while the file is being downloaded.
    pub downloading: Option<DownloadProgress>,
    /// Why the last download of this file failed, until the next attempt.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DownloadProgress {
    /// Bytes in the file so far (a resumed download counts what it kept).
    pub received: u64,
    pub total: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ActiveModelInfo {
    pub name: String,
    pub path: String,
}

/// `POST /ui/models/install`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelInstallRequest {
    /// `base.en`, or with a quantization: `base.en-q8_0`.
    pub name: String,
    /// `f16`, `q8_0`, `q5_1` or `q5_0`; default q8_0 when published, else f16.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantization: Option<String>,
}

/// Whether a model install started a download or found the model there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum InstallStatus {
    Downloading,
    Installed,
}

/// 202 (download started) or 200 (already installed).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ModelInstallReply {
    /// e.g. `base.en-q8_0`
    pub model: String,
    pub file_name: String,
    pub status: InstallStatus,
}

/// `DELETE /ui/models/:name`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ModelRemoval {
    /// The files removed from `models/`.
    pub removed: Vec<String>,
}

/// `POST /ui/models/add`: install a whisper.cpp ggml file from this computer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelAddRequest {
    /// Absolute, or starting with `~/`.
    pub path: String,
    /// The model's name (default: from the file's name, without `ggml-`).
    #[serde(default)]
    pub name: Option<String>,
}

/// 201: the model was copied into the data folder's `models/`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ModelAdded {
    pub model: String,
    pub file_name: String,
}
