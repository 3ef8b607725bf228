//! Transcription models: which one is active (`RECORDER_MODEL_PATH`, else the
//! `transcription.model` setting looked up in the data folder's `models/`), what
//! is installed, and the downloads in progress (see [`install`]).

pub mod downloads;
pub mod engine;
pub mod install;
pub mod learned;
pub mod notes_models;
pub mod plan;
pub mod speed;
pub mod vocabulary;
pub mod weights;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use recorder_api_types::{ActiveModelInfo, ErrorCode, ModelEntry, ModelList};
use recorder_stt::catalogue::{self, CatalogueEntry};
use recorder_stt::engine::SttError;

use crate::base::error::ApiError;
use crate::state::{AppState, Configuration, Core};

/// The model file transcription uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveModel {
    /// The file's name without `ggml-` and `.bin` (e.g. `base.en-q8_0`).
    pub name: String,
    pub path: PathBuf,
}

/// The shared engine's setup for a call now: the active model, the
/// threads and language the settings ask for.
pub fn engine_setup<'a>(
    core: &'a Core,
    config: &Configuration,
) -> Result<crate::models::engine::Setup<'a>, SttError> {
    let model = active_model(core, config).map_err(|error| SttError::Engine(error.message))?;
    let settings = config.effective_settings();
    Ok(crate::models::engine::Setup::new(model.path, model.name, &settings, &core.events))
}

/// The shared engine's setup for a call of `meeting_id`'s transcription: as
/// [`engine_setup`], with the meeting's words to expect ([`vocabulary`]).
pub fn meeting_setup<'a>(
    core: &'a Core,
    config: &Configuration,
    meeting_id: &recorder_domain::MeetingId,
) -> Result<crate::models::engine::Setup<'a>, SttError> {
    let mut setup = engine_setup(core, config)?;
    // A meeting that is gone (deleted meanwhile) gets no words; its job ends
    // on its own.
    let Ok(meeting) = core.store.meeting(meeting_id) else { return Ok(setup) };
    setup.prompt = vocabulary::prompt_of(&core.store, &config.effective_settings(), &meeting);
    // The meeting's own language (pinned when it began, or found by its
    // first transcription) wins over `recording.language`.
    if let Some(language) = meeting.language.filter(|l| !l.is_empty()) {
        setup.language = Some(language);
    }
    Ok(setup)
}

/// The model transcription would use now: the file named by
/// `RECORDER_MODEL_PATH`, else the installed file of the `transcription.model`
/// setting (q8_0 preferred, then f16, then q5; or a custom `ggml-<name>.bin`).
/// Costs a few `stat` calls. Fails with 503 `model_unavailable`.
pub fn active_model(core: &Core, config: &Configuration) -> Result<ActiveModel, ApiError> {
    if let Some(path) = &core.environment.model_path {
        return from_environment(path);
    }
    let configured = config.effective_settings().transcription.model;
    let folder = core.data_dir.models();
    installed_model(&folder, &configured)
        .or_else(|| default_stand_in(&folder, &configured))
        .ok_or_else(|| unavailable(&configured))
}

/// While `transcription.model` is still the default and that model is not
/// installed, the largest catalogue model that is: a first run that installed
/// another model (the README's tiny.en from PyPI) works without choosing it.
/// A model the person chose is never replaced.
fn default_stand_in(folder: &Path, configured: &str) -> Option<ActiveModel> {
    if configured != recorder_settings::DEFAULT_TRANSCRIPTION_MODEL {
        return None;
    }
    let installed = installed_files(folder);
    catalogue::entries().iter().rev().find(|entry| installed.contains_key(entry.file_name)).map(
        |entry| ActiveModel { name: entry.id().to_string(), path: folder.join(entry.file_name) },
    )
}

fn from_environment(path: &Path) -> Result<ActiveModel, ApiError> {
    if path.is_file() {
        return Ok(ActiveModel { name: model_name(path), path: path.to_path_buf() });
    }
    Err(ApiError::new(
        ErrorCode::ModelUnavailable,
        format!("RECORDER_MODEL_PATH names {}, which is not a model file", path.display()),
    ))
}

/// The installed file of model `name` in `folder`, if any.
pub fn installed_model(folder: &Path, name: &str) -> Option<ActiveModel> {
    if !catalogue::is_valid_name(name.trim()) {
        return None;
    }
    catalogue::candidate_files(name)
        .into_iter()
        .map(|file| folder.join(file))
        .find(|path| path.is_file())
        .map(|path| ActiveModel { name: model_name(&path), path })
}

fn unavailable(configured: &str) -> ApiError {
    let message = if catalogue::is_catalogued(configured) {
        format!(
            "no transcription model is installed for transcription.model \"{configured}\": run \
             `recorder models install {configured}` (or `recorder models add FILE`)"
        )
    } else {
        format!(
            "the transcription model \"{configured}\" is not installed: add its file with \
             `recorder models add FILE --name {configured}`, or choose a catalogue model with \
             `recorder models install base.en`"
        )
    };
    ApiError::new(ErrorCode::ModelUnavailable, message)
}

/// `ggml-base.en-q8_0.bin` → `base.en-q8_0`; other files: their stem.
fn model_name(path: &Path) -> String {
    let file = path.file_name().and_then(|name| name.to_str()).unwrap_or_default();
    match catalogue::file_id(file) {
        Some(id) => id.to_string(),
        None => path.file_stem().and_then(|s| s.to_str()).unwrap_or(file).to_string(),
    }
}

/// Installed model files in `folder` (`ggml-*.bin`) with their sizes.
fn installed_files(folder: &Path) -> HashMap<String, u64> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return HashMap::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let metadata = entry.metadata().ok().filter(|m| m.is_file())?;
            catalogue::file_id(&name).filter(|id| catalogue::is_valid_name(id))?;
            Some((name, metadata.len()))
        })
        .collect()
}

/// `GET /ui/models`: the catalogue with what is installed, active and
/// downloading, then installed files that are not in the catalogue. Blocking.
pub fn list(state: &AppState) -> ModelList {
    let folder = state.core.data_dir.models();
    let installed = installed_files(&folder);
    let active = active_model(&state.core, &state.config).ok();
    let is_active = |file: &str| active.as_ref().is_some_and(|a| a.path == folder.join(file));
    let mut models: Vec<ModelEntry> = catalogue::entries()
        .iter()
        .map(|entry| {
            let (downloading, error) = state.models.downloads.status(entry.file_name);
            ModelEntry {
                installed: installed.contains_key(entry.file_name),
                active: is_active(entry.file_name),
                downloading,
                error,
                ..catalogue_entry(entry)
            }
        })
        .collect();
    let mut custom: Vec<(&String, &u64)> = installed
        .iter()
        .filter(|(file, _)| !catalogue::entries().iter().any(|e| e.file_name == file.as_str()))
        .collect();
    custom.sort();
    models.extend(
        custom.into_iter().map(|(file, size)| ModelEntry {
            active: is_active(file),
            ..custom_entry(file, *size)
        }),
    );
    let speeds = speed::stored(&folder);
    let english = state.effective_settings().recording.language == "en";
    let is_installed = |id: &str| installed.contains_key(&format!("ggml-{id}.bin"));
    let recommended = speed::recommend(speeds.as_ref(), english, &is_installed);
    ModelList {
        models,
        active: active
            .map(|a| ActiveModelInfo { name: a.name, path: a.path.display().to_string() }),
        model_path_env: state.core.environment.model_path.is_some(),
        speeds,
        recommended,
    }
}

fn catalogue_entry(entry: &CatalogueEntry) -> ModelEntry {
    ModelEntry {
        name: entry.name.to_string(),
        quantization: Some(entry.quantization.as_str().to_string()),
        file_name: entry.file_name.to_string(),
        size_bytes: entry.size_bytes,
        english_only: entry.english_only,
        custom: false,
        installed: false,
        active: false,
        downloading: None,
        error: None,
    }
}

fn custom_entry(file: &str, size: u64) -> ModelEntry {
    let name = catalogue::file_id(file).unwrap_or(file).to_string();
    ModelEntry {
        english_only: catalogue::is_english_only(&name),
        name,
        quantization: None,
        file_name: file.to_string(),
        size_bytes: Some(size),
        custom: true,
        installed: true,
        active: false,
        downloading: None,
        error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_models_prefer_q8_0_then_f16_and_custom_names_work() {
        let folder = std::env::temp_dir().join(format!("recorder-models-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("folder");
        assert_eq!(installed_model(&folder, "base.en"), None);
        std::fs::write(folder.join("ggml-base.en.bin"), b"lmgg").expect("f16");
        assert_eq!(installed_model(&folder, "base.en").map(|m| m.name), Some("base.en".into()));
        std::fs::write(folder.join("ggml-base.en-q8_0.bin"), b"lmgg").expect("q8");
        assert_eq!(
            installed_model(&folder, "base.en").map(|m| m.name),
            Some("base.en-q8_0".into())
        );
        assert_eq!(installed_model(&folder, "base.en-f16").map(|m| m.name), Some("base.en".into()));
        std::fs::write(folder.join("ggml-my-model.bin"), b"lmgg").expect("custom");
        assert!(installed_model(&folder, "my-model").is_some());
        assert_eq!(installed_model(&folder, "../models/ggml-my-model"), None);
        let files = installed_files(&folder);
        assert_eq!(files.len(), 3);
        std::fs::remove_dir_all(&folder).expect("clean");
    }

    #[test]
    fn the_default_model_missing_gives_way_to_an_installed_one_a_chosen_one_never() {
        let folder = tempfile::tempdir().expect("folder");
        let stand_in =
            |configured: &str| default_stand_in(folder.path(), configured).map(|m| m.name);
        assert_eq!(stand_in("base.en"), None, "nothing installed");
        std::fs::write(folder.path().join("ggml-tiny.en-q8_0.bin"), b"lmgg").expect("tiny");
        std::fs::write(folder.path().join("ggml-my-model.bin"), b"lmgg").expect("custom");
        assert_eq!(stand_in("base.en"), Some("tiny.en-q8_0".into()), "the default gives way");
        assert_eq!(stand_in("small.en"), None, "a chosen model is never replaced");
        std::fs::write(folder.path().join("ggml-small-q8_0.bin"), b"lmgg").expect("small");
        assert_eq!(stand_in("base.en"), Some("small-q8_0".into()), "the largest installed");
    }
}
