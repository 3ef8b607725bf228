//! Notes-provider API keys on the person's channel. Keys go to the OS
//! credential store (or the 0600 fallback file) and never into settings.json,
//! logs, events or the ledger. Saving a cloud provider's key is refused under
//! ForceLocalModel and DisableCloudAIKeys; clearing is always allowed.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{AiKey, AiKeyList, KeyRequest};

use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::{parse_json, BodyBytes};
use crate::state::AppState;

/// Providers that take a key. `local` servers may sit behind a key too (vLLM,
/// LM Studio with authentication); it is not a cloud kind.
const KEYED_PROVIDERS: [&str; 3] = ["anthropic", "openai_compatible", "local"];

/// `GET /ui/ai/keys` → which providers have a key, and where it is kept.
pub async fn list_keys(State(state): State<AppState>) -> ApiResult<Json<AiKeyList>> {
    let credentials = state.config.credentials.clone();
    let keys = tokio::task::spawn_blocking(move || {
        KEYED_PROVIDERS
            .iter()
            .map(|provider| {
                let location =
                    credentials.location(provider).map(|place| place.as_str().to_owned());
                AiKey { provider: (*provider).to_owned(), stored: location.is_some(), location }
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|error| ApiError::internal("reading API keys", error))?;
    Ok(Json(AiKeyList { keys }))
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
    let credentials = state.config.credentials.clone();
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
    let credentials = state.config.credentials.clone();
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
