//! `GET /v1/templates`: note templates, built-in and the person's own.

use axum::extract::State;
use axum::Json;
use recorder_api_types::{ErrorBody, TemplateInfo, TemplateList};

use crate::base::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Note templates for `POST /v1/meetings/:id/notes` `{ kind: "custom", template_id }`:
/// the built-in ones and the person's own (`<data>/templates/<id>.md`).
#[utoipa::path(get, path = "/v1/templates", tag = "system",
    responses(
        (status = 200, body = TemplateList, description = "The built-in templates and the person's own"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn templates(State(state): State<AppState>) -> ApiResult<Json<TemplateList>> {
    let folder = state.core.data_dir.templates();
    let templates = tokio::task::spawn_blocking(move || crate::pipeline::templates::list(&folder))
        .await
        .map_err(|error| ApiError::internal("listing note templates", error))?;
    let templates = templates
        .into_iter()
        .map(|t| TemplateInfo { id: t.id, name: t.name, builtin: t.builtin })
        .collect();
    Ok(Json(TemplateList { templates }))
}
