//! Transcription models on the person's channel (`/ui/models*`): list the
//! catalogue and what is installed, install a model (a background download), and
//! remove installed files. Downloading is something only the person asks for.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    ModelAddRequest, ModelAdded, ModelInstallReply, ModelInstallRequest, ModelList, ModelRemoval,
    ModelSpeeds,
};
use recorder_stt::{catalogue, model_check};

use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::ApiJson;
use crate::models::{self, install};
use crate::state::AppState;

/// `GET /ui/models` → `{ models, active, model_path_env }`
pub async fn list_models(State(state): State<AppState>) -> ApiResult<Json<ModelList>> {
    let list = tokio::task::spawn_blocking(move || models::list(&state))
        .await
        .map_err(|error| ApiError::internal("listing models", error))?;
    Ok(Json(list))
}

/// `POST /ui/models/measure` → `{ measured_at, threads, results }`: times each
/// installed model on 11 s of built-in speech (seconds to a minute), keeps the
/// result for the recommendation in `GET /ui/models`. 409 `already_recording`
/// while recording.
pub async fn measure_models(State(state): State<AppState>) -> ApiResult<Json<ModelSpeeds>> {
    let speeds = tokio::task::spawn_blocking(move || models::speed::measure(&state))
        .await
        .map_err(|error| ApiError::internal("measuring models", error))??;
    Ok(Json(speeds))
}

/// `POST /ui/models/install` `{ name, quantization? }` → 202 (downloading) or 200
/// (already installed) `{ model, file_name, status }`; 409 `download_in_progress`.
pub async fn install_model(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ModelInstallRequest>,
) -> ApiResult<(StatusCode, Json<ModelInstallReply>)> {
    let (started, reply) = install::start(&state, &request.name, request.quantization.as_deref())?;
    let status = if started { StatusCode::ACCEPTED } else { StatusCode::OK };
    Ok((status, Json(reply)))
}

/// `POST /ui/models/add` `{ path, name? }` → 201 `{ model, file_name }`: copies a
/// whisper.cpp ggml file from this computer into `models/` (what `recorder
/// models add` does). 400 for a path that is not a ggml file, a bad name, or a
/// model of that name already installed (remove it first).
pub async fn add_model(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ModelAddRequest>,
) -> ApiResult<(StatusCode, Json<ModelAdded>)> {
    let source = crate::http::handlers::import::resolve_import_path(
        &request.path,
        state.core.environment.home.as_deref(),
    )?;
    let folder = state.core.data_dir.models();
    let added = tokio::task::spawn_blocking(move || copy_model(&source, request.name, &folder))
        .await
        .map_err(|error| ApiError::internal("adding a model", error))??;
    tracing::info!(model = %added.model, "transcription model added from a file");
    Ok((StatusCode::CREATED, Json(added)))
}

fn copy_model(
    source: &std::path::Path,
    name: Option<String>,
    folder: &std::path::Path,
) -> ApiResult<ModelAdded> {
    // The whole file is walked (recorder_stt::model_check): a damaged or hostile
    // file is refused here, and whisper.cpp never sees it.
    match model_check::inspect_as(source, "the file") {
        Ok(_) => {}
        Err(model_check::ModelError::Io(..)) => {
            return Err(ApiError::invalid("field `path` names no readable file"))
        }
        Err(model_check::ModelError::NotGgml(_, hint)) => {
            let hint = if hint.is_empty() {
                " (a faster-whisper folder converts with `recorder models import-ct2`)"
            } else {
                hint
            };
            return Err(ApiError::invalid(format!(
                "field `path` is not a whisper.cpp ggml model{hint}"
            )));
        }
        Err(error) => return Err(ApiError::invalid(format!("field `path`: {error}"))),
    }
    let stem = source.file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    let model = name.unwrap_or_else(|| catalogue::name_from_stem(stem));
    if !catalogue::is_valid_name(&model) {
        return Err(ApiError::invalid("field `name`: use letters, digits, `.`, `_` and `-`"));
    }
    let file_name = format!("ggml-{model}.bin");
    let target = folder.join(&file_name);
    if target.exists() {
        return Err(ApiError::invalid(format!(
            "a model named \"{model}\" is installed already; remove it first"
        )));
    }
    std::fs::create_dir_all(folder).map_err(|e| ApiError::internal("creating models/", e))?;
    recorder_settings::copy_atomically(source, &target)
        .map_err(|e| ApiError::internal("copying the model file", e))?;
    Ok(ModelAdded { model, file_name })
}

/// `DELETE /ui/models/:name` → `{ removed }`: every installed file of that model
/// (all quantizations of a catalogue name without one); 404 when there is none.
pub async fn remove_model(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<ModelRemoval>> {
    if !catalogue::is_valid_name(&name) {
        return Err(ApiError::not_found("model"));
    }
    let files = catalogue::candidate_files(&name);
    if let Some(busy) = files.iter().find(|file| state.models.downloads.is_running(file)) {
        return Err(install::already_downloading(busy));
    }
    let folder = state.core.data_dir.models();
    let removed = tokio::task::spawn_blocking(move || remove_files(&folder, &files))
        .await
        .map_err(|error| ApiError::internal("removing a model", error))?
        .map_err(|error| ApiError::internal("removing a model", error))?;
    if removed.is_empty() {
        return Err(ApiError::not_found(&format!("installed model \"{name}\"")));
    }
    tracing::info!(?removed, "transcription model removed");
    Ok(Json(ModelRemoval { removed }))
}

/// Removes the files that exist (and their partial downloads); returns their names.
fn remove_files(folder: &std::path::Path, files: &[String]) -> std::io::Result<Vec<String>> {
    let mut removed = Vec::new();
    for file in files {
        let _ = std::fs::remove_file(folder.join(format!("{file}.part")));
        match std::fs::remove_file(folder.join(file)) {
            Ok(()) => removed.push(file.clone()),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    Ok(removed)
}
