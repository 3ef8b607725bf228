//! Notes-provider API keys on the person's channel. Keys go to the OS
//! credential store (or the 0600 fallback file) and never into settings.json,
//! logs, events or the ledger. Saving a cloud provider's key is refused under
//! ForceLocalModel and DisableCloudAIKeys; clearing is always allowed.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::extract::{parse_json, BodyBytes};
use crate::state::AppState;

/// Providers that take a key. `local` servers may sit behind a key too (vLLM,
/// LM Studio with authentication); it is not a cloud kind.
const KEYED_PROVIDERS: [&str; 3] = ["anthropic", "openai_compatible", "local"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyRequest {
    key: String,
}

/// `GET /ui/ai/keys` → which providers have a key, and where it is kept.
pub async fn list_keys(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let credentials = state.credentials.clone();
    let keys = tokio::task::spawn_blocking(move || {
        KEYED_PROVIDERS
            .iter()
            .map(|provider| {
                let location = credentials.location(provider).map(|place| place.as_str());
                json!({ "provider": provider, "stored": location.is_some(), "location": location })
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|error| ApiError::internal("reading API keys", error))?;
    Ok(Json(json!({ "keys": keys })))
}

/// `PUT /ui/ai/keys/:provider` `{ key }` → 204.
pub async fn save_key(
    State(state): State<AppState>,
    Path(provider): Path<String>,
    BodyBytes(body): BodyBytes,
) -> ApiResult<StatusCode> {
    let policy = state.policy();
    if let Some(key) = recorder_settings::cloud_refusal(&provider, &policy) {
        return Err(ApiError::policy(key, "saving cloud AI provider keys", &policy.managed_by()));
    }
    let provider = keyed_provider(&provider)?;
    let request: KeyRequest = parse_json(&body)?;
    let credentials = state.credentials.clone();
    let saved = tokio::task::spawn_blocking(move || credentials.set(provider, &request.key))
        .await
        .map_err(|error| ApiError::internal("saving the API key", error))?;
    match saved {
        Ok(location) => {
            tracing::info!(provider, location = location.as_str(), "API key saved");
            Ok(StatusCode::NO_CONTENT)
        }
        Err(error @ recorder_credentials::CredentialError::InvalidKey { .. }) => {
            Err(ApiError::invalid(format!("field `key`: {error}")))
        }
        Err(error) => Err(ApiError::internal("saving the API key", error)),
    }
}

/// `DELETE /ui/ai/keys/:provider` → 204, or 404 when no key was stored.
pub async fn clear_key(
    State(state): State<AppState>,
    Path(provider): Path<String>,
) -> ApiResult<StatusCode> {
    let provider = keyed_provider(&provider)?;
    let credentials = state.credentials.clone();
    let removed = tokio::task::spawn_blocking(move || credentials.delete(provider))
        .await
        .map_err(|error| ApiError::internal("clearing the API key", error))?
        .map_err(|error| ApiError::internal("clearing the API key", error))?;
    if !removed {
        return Err(ApiError::not_found("API key"));
    }
    tracing::info!(provider, "API key cleared");
    Ok(StatusCode::NO_CONTENT)
}

fn keyed_provider(provider: &str) -> ApiResult<&'static str> {
    KEYED_PROVIDERS
        .into_iter()
        .find(|known| *known == provider)
        .ok_or_else(|| ApiError::not_found("provider (one of anthropic, openai_compatible, local)"))
}
