//! Settings: the person's `settings.json` (`GET`/`PATCH /ui/settings`, managed
//! keys refused) and the effective settings with policy applied
//! (`/v1/settings`, `/ui/settings/effective`).

use axum::extract::State;
use axum::Json;
use recorder_api_types::{Empty, ErrorBody, ErrorCode, Event};
use serde_json::Value;

use crate::base::error::{ApiError, ApiResult};
use crate::config::managed::SettingsChangeError;
use crate::http::extract::ApiJson;
use crate::state::AppState;

/// Effective settings (read-only): managed values appear as
/// `{ value, managed: true, managed_by }`.
#[utoipa::path(get, path = "/v1/settings", tag = "system",
    responses(
        (status = 200, description = "Settings with the nesting of settings.json", body = Object),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn settings(State(state): State<AppState>) -> Json<Value> {
    Json(state.config.settings.effective(&state.policy()))
}

/// `GET /ui/settings` → settings.json as it is on disk.
pub async fn get_settings(State(state): State<AppState>) -> Json<Value> {
    Json(state.config.settings.document())
}

/// `PATCH /ui/settings` → merge patch; managed settings are refused.
pub async fn patch_settings(
    State(state): State<AppState>,
    ApiJson(patch): ApiJson<Value>,
) -> ApiResult<Json<Value>> {
    let policy = state.policy();
    check_local_server(&state, &patch, &policy).await?;
    match state.config.settings.patch(&patch, &policy) {
        Ok(document) => {
            state.work.retention.wake();
            state.core.events.emit(Event::SettingsChanged(Empty {}));
            Ok(Json(document))
        }
        Err(SettingsChangeError::Invalid(error)) => Err(ApiError::invalid(error.to_string())),
        Err(SettingsChangeError::Policy(refusal)) => {
            Err(ApiError::new(ErrorCode::PolicyDenied, refusal.message))
        }
        Err(SettingsChangeError::Save(error)) => {
            Err(ApiError::internal("saving settings.json", error))
        }
    }
}

/// Under ForceLocalModel, choosing a local notes server (or changing its URL
/// while it is chosen) needs an address that really resolves to loopback only.
/// IP literals were judged by the settings' own policy check.
async fn check_local_server(
    state: &AppState,
    patch: &Value,
    policy: &recorder_domain::PolicyValues,
) -> ApiResult<()> {
    let touches_ai = patch
        .get("ai")
        .is_some_and(|ai| ai.get("provider").is_some() || ai.get("local_url").is_some());
    if !touches_ai || !policy.is_true(recorder_domain::PolicyKey::ForceLocalModel) {
        return Ok(());
    }
    let Some(settings) = state.config.settings.preview(patch) else {
        return Ok(()); // invalid: the patch itself says why
    };
    let url = &settings.ai.local_url;
    if settings.ai.provider != "local" || recorder_settings::literal_loopback(url).is_some() {
        return Ok(());
    }
    let parsed =
        url::Url::parse(url).map_err(|_| ApiError::invalid("field `ai.local_url` is not a URL"))?;
    match recorder_ai::loopback_addrs(&parsed).await {
        Ok(_) => Ok(()),
        Err(reason) => Err(ApiError::policy(
            recorder_domain::PolicyKey::ForceLocalModel,
            &format!("a local model server that is not on this machine ({reason})"),
            &policy.managed_by(),
        )),
    }
}
