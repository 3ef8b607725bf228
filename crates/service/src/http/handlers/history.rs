//! A meeting's history: every change to its record, newest first, and undo.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::{Extension, Json};
use recorder_api_types::{Change, ErrorBody, Event, History};
use recorder_store::ChangeRecord;

use crate::access::guard::Principal;
use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::handlers::corrections::{author, edit_error};
use crate::http::handlers::meetings::meeting_id;
use crate::state::AppState;

/// The most changes one reply lists.
const HISTORY_LIMIT: i64 = 500;

/// Every change to the meeting's record, newest first (at most 500).
#[utoipa::path(get, path = "/v1/meetings/{id}/history", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    responses(
        (status = 200, body = History),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<History>> {
    let id = meeting_id(&id)?;
    let changes = state
        .db(move |store| {
            store.history(&id, HISTORY_LIMIT).map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    Ok(Json(History { changes: changes.into_iter().map(change).collect() }))
}

/// Undo a change: what it replaced is put back (itself a change, so it can
/// be undone in turn).
#[utoipa::path(post, path = "/v1/meetings/{id}/history/{change_id}/undo", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id"), ("change_id" = String, Path, description = "The change's id")),
    responses(
        (status = 200, body = Change, description = "The undo, as a change: its `after` is the earlier `before`"),
        (status = 400, body = ErrorBody, description = "The change cannot be undone (a transcription), or what it changed is gone"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "Unknown meeting or change"),
        (status = 409, body = ErrorBody, description = "meeting_busy: the meeting is being transcribed"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn undo(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path((id, change_id)): Path<(String, String)>,
) -> ApiResult<Json<Change>> {
    let id = meeting_id(&id)?;
    let author = author(&principal, &headers);
    let meeting = id.clone();
    let undone = state
        .db(move |store| {
            store.meeting(&meeting).map_err(|e| ApiError::from_store("meeting", e))?;
            store
                .undo_change(&meeting, &change_id, &author, now_ms())
                .map_err(|e| edit_error("change", e))
        })
        .await?;
    state.core.events.emit(Event::meeting_changed(id));
    Ok(Json(change(undone)))
}

fn change(record: ChangeRecord) -> Change {
    Change {
        id: record.id.into(),
        at: record.at,
        by: record.by,
        target: record.target,
        before: record.before,
        after: record.after,
        summary: record.summary,
    }
}
