//! `POST /ui/meetings/:id/export` `{ folder? }` → 201 `{ path }`: the meeting as
//! Markdown, written into the folder (AllowedExportFolder applies first).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{ExportReply, ExportRequest};

use crate::base::error::ApiResult;
use crate::http::extract::{parse_json, BodyBytes};
use crate::http::handlers::meetings::meeting_id;
use crate::state::AppState;

pub async fn export_meeting(
    State(state): State<AppState>,
    Path(id): Path<String>,
    BodyBytes(body): BodyBytes,
) -> ApiResult<(StatusCode, Json<ExportReply>)> {
    // An empty body means "to the configured folder".
    let request: ExportRequest = if body.iter().all(u8::is_ascii_whitespace) {
        ExportRequest::default()
    } else {
        parse_json(&body)?
    };
    let policy = state.policy();
    let settings = state.config.settings.effective_typed(&policy);
    let folder = crate::pipeline::export::target_folder(
        &state.core,
        &settings,
        request.folder.as_deref(),
        &policy,
    )?;
    let id = meeting_id(&id)?;
    let user_name = settings.general.user_name;
    let path = state
        .db(move |store| crate::pipeline::export::write(store, &user_name, &id, &folder))
        .await?;
    tracing::info!(path = %path.display(), "exported a meeting as Markdown");
    Ok((StatusCode::CREATED, Json(ExportReply { path: path.to_string_lossy().into_owned() })))
}
