//! Notes models (the notes model inside, `ai.provider: "embedded"`): GGUF files
//! in the data folder's `models/notes/`, from the catalogue (`recorder_llm::
//! catalogue`) or added from a file; which one is used (`RECORDER_NOTES_MODEL_PATH`,
//! else `ai.embedded_model`, else the first installed); installing one makes
//! the model inside the notes provider when the built-in engine was chosen.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use recorder_api_types::{
    ActiveModelInfo, InstallStatus, ModelInstallReply, NotesModelEntry, NotesModelList,
};
use recorder_llm::catalogue::{self, NotesModelEntry as Catalogued};
use recorder_llm::gguf;

use crate::base::error::ApiError;
use crate::models::install::{self, Target};
use crate::state::{AppState, Configuration, Core};

/// An installed notes model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotesModel {
    pub name: String,
    pub path: PathBuf,
    pub entry: Option<&'static Catalogued>,
}

pub fn folder(core: &Core) -> PathBuf {
    core.data_dir.models().join("notes")
}

/// The installed models: catalogue ones in catalogue order, then added files by name.
pub fn installed(core: &Core) -> Vec<NotesModel> {
    let folder = folder(core);
    let mut models: Vec<NotesModel> = catalogue::CATALOGUE
        .iter()
        .filter(|entry| folder.join(entry.file_name).is_file())
        .map(|entry| NotesModel {
            name: entry.id.to_string(),
            path: folder.join(entry.file_name),
            entry: Some(entry),
        })
        .collect();
    let mut added: Vec<NotesModel> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|item| {
            let file_name = item.file_name().to_str()?.to_string();
            let name = file_name.strip_suffix(".gguf")?.to_string();
            let custom = catalogue::find(&file_name).is_none() && item.path().is_file();
            custom.then(|| NotesModel { name, path: item.path(), entry: None })
        })
        .collect();
    added.sort_by(|a, b| a.name.cmp(&b.name));
    models.extend(added);
    models
}

/// The model notes use now, if any.
pub fn active(core: &Core, config: &Configuration) -> Option<NotesModel> {
    if let Some(path) = &core.environment.notes_model_path {
        let name = path.file_stem().map(|stem| stem.to_string_lossy().into_owned());
        return Some(NotesModel {
            name: name.unwrap_or_default(),
            path: path.clone(),
            entry: None,
        });
    }
    let chosen = config.effective_settings().ai.embedded_model;
    let models = installed(core);
    let named = chosen.and_then(|name| models.iter().find(|model| model.name == name).cloned());
    named.or_else(|| models.into_iter().next())
}

/// `GET /ui/notes-models`. Blocking (reads the folder and the files' headers).
pub fn list(state: &AppState) -> NotesModelList {
    let active = active(&state.core, &state.config);
    let installed = installed(&state.core);
    let is_active = |name: &str| active.as_ref().is_some_and(|model| model.name == name);
    let mut models: Vec<NotesModelEntry> = catalogue::CATALOGUE
        .iter()
        .map(|entry| {
            let (downloading, error) = state.models.downloads.status(entry.file_name);
            let installed = installed.iter().any(|model| model.name == entry.id);
            NotesModelEntry {
                installed,
                active: installed && is_active(entry.id),
                downloading,
                error,
                ..catalogued(entry)
            }
        })
        .collect();
    for model in installed.iter().filter(|model| model.entry.is_none()) {
        models.push(NotesModelEntry { active: is_active(&model.name), ..added(model) });
    }
    let worker = recorder_llm::worker::find_program();
    NotesModelList {
        models,
        active: active.map(|model| ActiveModelInfo {
            name: model.name,
            path: model.path.display().to_string(),
        }),
        model_path_env: state.core.environment.notes_model_path.is_some(),
        worker_found: worker.is_absolute()
            || state.core.environment.find_program(worker.to_str().unwrap_or_default()).is_some(),
    }
}

fn catalogued(entry: &Catalogued) -> NotesModelEntry {
    NotesModelEntry {
        name: entry.id.to_string(),
        title: entry.name.to_string(),
        file_name: entry.file_name.to_string(),
        size_bytes: Some(entry.size_bytes),
        licence: Some(entry.licence.to_string()),
        parameters: Some(entry.parameters.to_string()),
        quantization: Some(entry.quantization.to_string()),
        context: Some(u64::from(entry.context)),
        memory_bytes: Some(entry.memory_bytes),
        custom: false,
        installed: false,
        active: false,
        downloading: None,
        error: None,
    }
}

fn added(model: &NotesModel) -> NotesModelEntry {
    let info = gguf::inspect(&model.path).ok();
    let file_name = model.path.file_name().map(|name| name.to_string_lossy().into_owned());
    NotesModelEntry {
        name: model.name.clone(),
        title: info.as_ref().and_then(|info| info.name.clone()).unwrap_or(model.name.clone()),
        file_name: file_name.unwrap_or_default(),
        size_bytes: std::fs::metadata(&model.path).ok().map(|meta| meta.len()),
        licence: info.as_ref().and_then(|info| info.license.clone()),
        parameters: None,
        quantization: None,
        context: info.as_ref().and_then(|info| info.context_length),
        memory_bytes: None,
        custom: true,
        installed: true,
        active: false,
        downloading: None,
        error: None,
    }
}

/// Starts downloading catalogue model `name`: 202, or 200 when it is there.
pub fn start_install(state: &AppState, name: &str) -> Result<(bool, ModelInstallReply), ApiError> {
    let entry = catalogue::find(name).ok_or_else(|| {
        ApiError::invalid(format!(
            "field `name`: the catalogue has no notes model \"{name}\" (see `recorder models \
             notes`)"
        ))
    })?;
    let reply = |status| ModelInstallReply {
        model: entry.id.to_string(),
        file_name: entry.file_name.to_string(),
        status,
    };
    let folder = folder(&state.core);
    if folder.join(entry.file_name).is_file() {
        return Ok((false, reply(InstallStatus::Installed)));
    }
    let base = state.core.environment.model_base_url.as_deref();
    let url = url::Url::parse(&catalogue::url_with_base(entry, base))
        .map_err(|error| ApiError::internal("reading RECORDER_MODEL_BASE_URL", error))?;
    if !state.models.downloads.try_begin(entry.file_name) {
        return Err(install::already_downloading(entry.file_name));
    }
    let target = Target {
        model: entry.id.to_string(),
        file_name: entry.file_name.to_string(),
        folder,
        size_bytes: Some(entry.size_bytes),
        what: "notes model",
        check: Arc::new(move |path| {
            catalogue::verify_file(entry, path)?;
            gguf::inspect(path).map(|_| ()).map_err(|error| error.to_string())
        }),
    };
    let state = state.clone();
    tokio::spawn(async move {
        let url_done = install::run(state.clone(), target, url).await;
        if url_done.is_some() {
            make_default(&state);
        }
    });
    Ok((true, reply(InstallStatus::Downloading)))
}

/// Copies a GGUF file into `models/notes/` (checked first); returns its name.
pub fn add_file(core: &Core, source: &Path, name: Option<String>) -> Result<String, ApiError> {
    gguf::inspect(source).map_err(|error| ApiError::invalid(format!("field `path`: {error}")))?;
    let stem = source.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let name = name.unwrap_or_else(|| recorder_stt::catalogue::name_from_stem(stem));
    if !recorder_stt::catalogue::is_valid_name(&name) || catalogue::find(&name).is_some() {
        return Err(ApiError::invalid(
            "field `name`: use letters, digits, `.`, `_` and `-`, and not a catalogue name",
        ));
    }
    let folder = folder(core);
    let target = folder.join(format!("{name}.gguf"));
    if target.exists() {
        return Err(ApiError::invalid(format!(
            "a notes model named \"{name}\" is installed already; remove it first"
        )));
    }
    std::fs::create_dir_all(&folder)
        .map_err(|e| ApiError::internal("creating models/notes/", e))?;
    recorder_settings::copy_atomically(source, &target)
        .map_err(|e| ApiError::internal("copying the notes model", e))?;
    Ok(name)
}

/// The installed file(s) of `name`, for removal.
pub fn files_of(core: &Core, name: &str) -> Vec<PathBuf> {
    installed(core).into_iter().filter(|model| model.name == name).map(|m| m.path).collect()
}

/// Once a notes model is installed, the model inside writes the notes, unless
/// the person chose a provider other than the built-in engine.
pub fn make_default(state: &AppState) {
    let own = state.config.settings.typed();
    if own.ai.provider != "builtin" {
        return;
    }
    let patch = serde_json::json!({ "ai": { "provider": "embedded" } });
    match state.config.settings.patch(&patch, &state.policy()) {
        Ok(_) => {
            tracing::info!("a notes model is installed: the model inside writes notes from now on");
            state
                .core
                .events
                .emit(recorder_api_types::Event::SettingsChanged(recorder_api_types::Empty {}));
        }
        Err(_) => {
            tracing::warn!("the notes provider stays the built-in engine: the settings refused it")
        }
    }
}
