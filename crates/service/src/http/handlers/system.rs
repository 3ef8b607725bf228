//! The service itself: health and recording state (`/v1/health`) and the API
//! description (`/v1/openapi.json`).

use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use recorder_api_types::{ErrorBody, Health, RecordingState};
use serde_json::Value;

use crate::state::AppState;

/// Health and recording state.
#[utoipa::path(get, path = "/v1/health", tag = "system",
    responses((status = 200, body = Health), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn health(State(state): State<AppState>) -> Json<Health> {
    Json(Health {
        ok: true,
        version: state.core.version.to_string(),
        recording: match state.work.recorder.current() {
            Some(current) => RecordingState {
                active: true,
                meeting_id: Some(current.meeting_id),
                paused: Some(current.control.paused()),
                muted: Some(current.control.muted()),
                ending: current.control.countdown().map(|countdown| countdown.view()),
            },
            None => RecordingState {
                active: false,
                meeting_id: None,
                paused: None,
                muted: None,
                ending: None,
            },
        },
        search_index: state.work.search_index.state(),
    })
}

/// This document: OpenAPI 3 for every `/v1` route.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "system",
    responses(
        (status = 200, description = "OpenAPI 3.1 document", body = Object),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn openapi(Extension(document): Extension<Arc<Value>>) -> Json<Value> {
    Json(document.as_ref().clone())
}
