//! Health, the Privacy Ledger, effective settings, policy and the API description.

use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use recorder_api_types::{
    ErrorBody, Health, Ledger, PolicyInvalid, PolicyKeyValue, PolicyReport, RecordingState,
};
use recorder_domain::{PolicyKey, PolicyValue};
use serde_json::Value;

use crate::convert;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Health and recording state.
#[utoipa::path(get, path = "/v1/health", tag = "system",
    responses((status = 200, body = Health), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn health(State(state): State<AppState>) -> Json<Health> {
    Json(Health {
        ok: true,
        version: state.version.to_string(),
        recording: match state.recorder.current() {
            Some(current) => RecordingState {
                active: true,
                meeting_id: Some(current.meeting_id),
                paused: Some(current.control.paused()),
            },
            None => RecordingState { active: false, meeting_id: None, paused: None },
        },
        search_index: state.search_index.state(),
    })
}

/// Every outbound request the app has made or refused, newest first.
#[utoipa::path(get, path = "/v1/ledger", tag = "system",
    responses((status = 200, body = Ledger), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn ledger(State(state): State<AppState>) -> ApiResult<Json<Ledger>> {
    let entries =
        state.db(|store| store.ledger().map_err(|e| ApiError::from_store("ledger", e))).await?;
    Ok(Json(Ledger { entries: entries.into_iter().map(convert::ledger_entry).collect() }))
}

/// Effective settings (read-only): managed values appear as
/// `{ value, managed: true, managed_by }`.
#[utoipa::path(get, path = "/v1/settings", tag = "system",
    responses(
        (status = 200, description = "Settings with the nesting of settings.json", body = Object),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn settings(State(state): State<AppState>) -> Json<Value> {
    Json(state.settings.effective(&state.policy()))
}

/// Note templates for `POST /v1/meetings/:id/notes` `{ kind: "custom", template_id }`:
/// the built-in ones and the person's own (`<data>/templates/<id>.md`).
#[utoipa::path(get, path = "/v1/templates", tag = "system",
    responses(
        (status = 200, description = "`{ templates: [ { id, name, builtin } ] }`", body = Object),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn templates(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let folder = state.data_dir.templates();
    let templates = tokio::task::spawn_blocking(move || crate::templates::list(&folder))
        .await
        .map_err(|error| ApiError::internal("listing note templates", error))?;
    let templates: Vec<Value> = templates
        .into_iter()
        .map(|t| serde_json::json!({ "id": t.id, "name": t.name, "builtin": t.builtin }))
        .collect();
    Ok(Json(serde_json::json!({ "templates": templates })))
}

/// The managed policy keys in display order, and values that were ignored.
#[utoipa::path(get, path = "/v1/policy", tag = "system",
    responses((status = 200, body = PolicyReport), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn policy(State(state): State<AppState>) -> Json<PolicyReport> {
    let policy = state.policy();
    let keys = PolicyKey::ALL
        .into_iter()
        .map(|key| PolicyKeyValue {
            key: key.name().to_string(),
            order: key.order(),
            value: match policy.get(key) {
                None => Value::Null,
                Some(PolicyValue::Bool(flag)) => Value::Bool(*flag),
                Some(PolicyValue::Integer(number)) => Value::from(*number),
                Some(PolicyValue::Text(text)) => Value::String(text.clone()),
            },
        })
        .collect();
    let invalid = policy
        .invalid
        .iter()
        .map(|(key, reason)| PolicyInvalid { key: key.clone(), reason: reason.clone() })
        .collect();
    Json(PolicyReport {
        managed_by: policy.organization_name().unwrap_or("your organisation").to_string(),
        keys,
        invalid,
        error: state.policy.error(),
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
