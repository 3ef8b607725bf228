//! `POST /v1/meetings/:id/transcribe` (and the app's `/ui` twin): a ready
//! meeting transcribed again from its audio, with another installed model or
//! language, in the background; the transcript is replaced once the new one
//! is whole, then the notes are written again (`store/src/again.rs`).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{ErrorBody, TranscribeAccepted, TranscribeRequest};

use crate::base::error::ApiResult;
use crate::http::extract::parse_json;
use crate::http::handlers::meetings::meeting_id;
use crate::pipeline::again::start_pass;
use crate::state::AppState;

/// Transcribe a meeting again. Pro for agents.
#[utoipa::path(post, path = "/v1/meetings/{id}/transcribe", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = Option<TranscribeRequest>,
    responses(
        (status = 202, body = TranscribeAccepted),
        (status = 400, body = ErrorBody, description = "invalid_request: an unknown language, or a language an English-only model cannot transcribe"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such meeting, or its audio was removed"),
        (status = 409, body = ErrorBody, description = "meeting_busy: not ready"),
        (status = 413, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "model_unavailable: the model is not installed"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn transcribe_again(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Json<TranscribeAccepted>)> {
    // The body is optional: none means the model and language in use.
    let request: TranscribeRequest = if body.iter().all(u8::is_ascii_whitespace) {
        TranscribeRequest::default()
    } else {
        parse_json(&body)?
    };
    let id = meeting_id(&id)?;
    let accepted =
        start_pass(&state, id, request.model.as_deref(), request.language.as_deref()).await?;
    Ok((StatusCode::ACCEPTED, Json(accepted)))
}
