//! Regenerating a meeting's notes of one kind (`POST /v1/meetings/:id/notes`):
//! queued for the pipeline, answered 202 at once; and canceling a
//! regeneration (`DELETE`).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{ErrorBody, ErrorCode, Event, NotesAccepted, NotesRequest};
use recorder_domain::{MeetingStatus, NoteKind};
use recorder_store::StoreError;

use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::ApiJson;
use crate::http::handlers::meetings::meeting_id;
use crate::state::AppState;

/// Regenerate notes of a kind. Pro.
#[utoipa::path(post, path = "/v1/meetings/{id}/notes", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = NotesRequest,
    responses(
        (status = 202, body = NotesAccepted),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "meeting_busy"),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn regenerate_notes(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<NotesRequest>,
) -> ApiResult<(StatusCode, Json<NotesAccepted>)> {
    let kind = NoteKind::parse(&request.kind).ok_or_else(|| {
        ApiError::invalid(
            "field `kind` must be summary, action_items, decisions, key_points or custom",
        )
    })?;
    if kind == NoteKind::Custom
        && request.template_id.as_deref().is_none_or(|t| t.trim().is_empty())
    {
        return Err(ApiError::invalid("field `template_id` is required for custom notes"));
    }
    let id = meeting_id(&id)?;
    let template_id = request.template_id.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    if let Some(template_id) = &template_id {
        // An unknown meeting is reported as such before an unknown template.
        let meeting = id.clone();
        state
            .db(move |store| {
                store.meeting(&meeting).map_err(|e| ApiError::from_store("meeting", e))
            })
            .await?;
        if crate::pipeline::templates::find(&state.core.data_dir.templates(), template_id).is_none()
        {
            return Err(ApiError::not_found("note template"));
        }
    }
    let queued = id.clone();
    state
        .db(move |store| {
            let template = template_id.as_deref();
            store.enqueue_notes(&queued, kind.as_str(), template, now_ms()).map_err(|e| match e {
                StoreError::Busy(status) => ApiError::new(
                    ErrorCode::MeetingBusy,
                    format!(
                        "the meeting is {}; notes can be made when it is ready",
                        status.as_str()
                    ),
                ),
                other => ApiError::from_store("meeting", other),
            })
        })
        .await?;
    state.work.pipeline.wake();
    state.core.events.emit(Event::meeting_status(id.clone(), MeetingStatus::Summarising));
    Ok((
        StatusCode::ACCEPTED,
        Json(NotesAccepted { meeting_id: id, status: MeetingStatus::Summarising }),
    ))
}

/// Cancel a notes regeneration. Pro.
///
/// A regeneration still queued is dropped at once (`status: "ready"`); one a
/// provider is writing is told to stop (`status: "summarising"`: it ends within
/// moments, announced by `notes.progress` `canceled` and `meeting.updated`).
/// Either way the meeting keeps its earlier notes. The notes a transcription
/// writes are not a regeneration and cannot be canceled.
#[utoipa::path(delete, path = "/v1/meetings/{id}/notes", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    responses(
        (status = 200, body = NotesAccepted),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such meeting, or no regeneration to cancel"),
    ),
    security(("bearer" = [])))]
pub async fn cancel_notes(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<NotesAccepted>> {
    let id = meeting_id(&id)?;
    if state.work.notes_runs.cancel(&id) {
        return Ok(Json(NotesAccepted { meeting_id: id, status: MeetingStatus::Summarising }));
    }
    let queued = id.clone();
    let dropped = state
        .db(move |store| {
            store
                .drop_notes_regeneration(&queued, now_ms())
                .map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    if !dropped {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            "no notes are being regenerated for this meeting",
        ));
    }
    crate::pipeline::announce_notes_canceled(&state.core, &id);
    Ok(Json(NotesAccepted { meeting_id: id, status: MeetingStatus::Ready }))
}
