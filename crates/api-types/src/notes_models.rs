//! Shapes of the notes-model routes of the person's channel (`/ui/notes-models*`):
//! the models the notes model inside (`ai.provider: "embedded"`) can run.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{ActiveModelInfo, DownloadProgress};

/// `GET /ui/notes-models`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NotesModelList {
    /// The catalogue, then installed files that are not in it.
    pub models: Vec<NotesModelEntry>,
    /// The model notes would use now; null when none is installed.
    pub active: Option<ActiveModelInfo>,
    /// Whether `RECORDER_NOTES_MODEL_PATH` chooses the model.
    pub model_path_env: bool,
    /// Whether `recorder-llm` (the program that runs the model) was found.
    pub worker_found: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NotesModelEntry {
    /// What it is installed and chosen by (`qwen3-1.7b`; a file's name without `.gguf`).
    pub name: String,
    /// For people: `Qwen3 1.7B`.
    pub title: String,
    /// In the data folder's `models/notes/`.
    pub file_name: String,
    pub size_bytes: Option<u64>,
    /// `Apache-2.0`, `Llama 3.2 Community License`, …; from the file's own
    /// metadata for an added file, when it says.
    pub licence: Option<String>,
    /// `1.7B`; null for an added file.
    pub parameters: Option<String>,
    pub quantization: Option<String>,
    /// Tokens of context the model was trained for.
    pub context: Option<u64>,
    /// Memory a notes run takes, estimated (catalogue models).
    pub memory_bytes: Option<u64>,
    /// Added from a file (`recorder models add-notes`), not from the catalogue.
    pub custom: bool,
    pub installed: bool,
    pub active: bool,
    pub downloading: Option<DownloadProgress>,
    /// Why the last download of this file failed, until the next attempt.
    pub error: Option<String>,
}

/// `POST /ui/notes-models/install`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotesModelInstallRequest {
    /// A catalogue name, e.g. `qwen3-1.7b`.
    pub name: String,
}

/// `POST /ui/notes-models/add`: install a GGUF file from this computer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotesModelAddRequest {
    /// Absolute, or starting with `~/`.
    pub path: String,
    /// The model's name (default: the file's name without `.gguf`).
    #[serde(default)]
    pub name: Option<String>,
}
