//! Notes models on the person's channel (`/ui/notes-models*`): the catalogue and
//! what is installed, a download, a GGUF file added from this computer, and
//! removal. Like transcription models, only the person installs them.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    ModelAdded, ModelInstallReply, ModelRemoval, NotesModelAddRequest, NotesModelInstallRequest,
    NotesModelList,
};

use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::ApiJson;
use crate::models::{install, notes_models};
use crate::state::AppState;

/// `GET /ui/notes-models` → `{ models, active, model_path_env, worker_found }`
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<NotesModelList>> {
    let list = tokio::task::spawn_blocking(move || notes_models::list(&state))
        .await
        .map_err(|error| ApiError::internal("listing notes models", error))?;
    Ok(Json(list))
}

/// `POST /ui/notes-models/install` `{ name }` → 202 (downloading) or 200 (there
/// already) `{ model, file_name, status }`; 409 `download_in_progress`.
pub async fn install(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<NotesModelInstallRequest>,
) -> ApiResult<(StatusCode, Json<ModelInstallReply>)> {
    let (started, reply) = notes_models::start_install(&state, &request.name)?;
    let status = if started { StatusCode::ACCEPTED } else { StatusCode::OK };
    Ok((status, Json(reply)))
}

/// `POST /ui/notes-models/add` `{ path, name? }` → 201 `{ model, file_name }`; 400
/// for a file that is not a whole GGUF model (the reason named), a bad name,
/// or a name installed already.
pub async fn add(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<NotesModelAddRequest>,
) -> ApiResult<(StatusCode, Json<ModelAdded>)> {
    let source = crate::http::handlers::import::resolve_import_path(
        &request.path,
        state.core.environment.home.as_deref(),
    )?;
    let core = state.core.clone();
    let model =
        tokio::task::spawn_blocking(move || notes_models::add_file(&core, &source, request.name))
            .await
            .map_err(|error| ApiError::internal("adding a notes model", error))??;
    tracing::info!(model, "notes model added from a file");
    notes_models::make_default(&state);
    let file_name = format!("{model}.gguf");
    Ok((StatusCode::CREATED, Json(ModelAdded { model, file_name })))
}

/// `DELETE /ui/notes-models/:name` → `{ removed }`; 404 when it is not installed.
pub async fn remove(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> ApiResult<Json<ModelRemoval>> {
    if let Some(entry) = recorder_llm::catalogue::find(&name) {
        if state.models.downloads.is_running(entry.file_name) {
            return Err(install::already_downloading(entry.file_name));
        }
    }
    let files = notes_models::files_of(&state.core, &name);
    if files.is_empty() {
        return Err(ApiError::not_found(&format!("installed notes model \"{name}\"")));
    }
    let mut removed = Vec::new();
    for file in files {
        tokio::fs::remove_file(&file)
            .await
            .map_err(|error| ApiError::internal("removing a notes model", error))?;
        removed.extend(file.file_name().map(|name| name.to_string_lossy().into_owned()));
    }
    tracing::info!(?removed, "notes model removed");
    Ok(Json(ModelRemoval { removed }))
}
