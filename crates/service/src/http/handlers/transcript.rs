//! `GET /v1/meetings/:id/transcript` in json, md, srt, vtt or txt.

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::{ErrorBody, Transcript};

use crate::base::error::{ApiError, ApiResult};
use crate::http::convert;
use crate::http::extract::QueryMap;
use crate::http::handlers::meetings::meeting_id;
use crate::http::render::{render, Format};
use crate::state::AppState;

/// The transcript; `format=json` (default) gives the Transcript shape, the others
/// text renderings.
#[utoipa::path(get, path = "/v1/meetings/{id}/transcript", tag = "meetings",
    params(
        ("id" = String, Path, description = "Meeting id"),
        ("format" = Option<recorder_api_types::TranscriptFormat>, Query, description = "json (default), md, srt, vtt or txt"),
    ),
    responses(
        (status = 200, description = "The transcript",
            content(
                (Transcript = "application/json"),
                (String = "text/markdown"), (String = "application/x-subrip"),
                (String = "text/vtt"), (String = "text/plain"),
            )),
        (status = 400, body = ErrorBody, description = "Unknown format"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn get_transcript(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: QueryMap,
) -> ApiResult<Response> {
    let format = match query.text("format") {
        None => Format::Json,
        Some(text) => Format::parse(text).ok_or_else(|| {
            ApiError::invalid("query parameter `format` must be json, md, srt, vtt or txt")
        })?,
    };
    let id = meeting_id(&id)?;
    let user_name = state.effective_settings().general.user_name;
    let meeting_id = id.clone();
    let segments = state
        .db(move |store| {
            store.segments(&meeting_id).map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    let segments: Vec<_> = segments.into_iter().map(|s| convert::segment(s, &user_name)).collect();
    if format == Format::Json {
        return Ok(Json(Transcript { meeting_id: id, segments }).into_response());
    }
    Ok(([(CONTENT_TYPE, format.content_type())], render(format, &segments)).into_response())
}
