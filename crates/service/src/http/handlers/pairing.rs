//! Pairing the extension: the person shows a code (`POST /ui/pairing-code`),
//! the extension exchanges it for a token (`POST /v1/pair`), the person lists
//! and revokes paired clients (`/ui/pairings`).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    Empty, ErrorBody, ErrorCode, Event, PairReply, PairRequest, Pairing, PairingCode, Pairings,
};
use recorder_domain::PairingId;

use crate::access::pairing::PairAttempt;
use crate::access::tokens::{generate_token, hash_token};
use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::ApiJson;
use crate::state::AppState;

/// `POST /ui/pairing-code` → a new 6-digit code; the previous one dies.
pub async fn pairing_code(State(state): State<AppState>) -> Json<PairingCode> {
    let (code, expires_at) = state.access.pairing_codes.show(now_ms());
    Json(PairingCode { code, expires_at })
}

/// Exchange the 6-digit code shown in the app for a token of scope `extension`.
/// Needs no bearer token.
#[utoipa::path(post, path = "/v1/pair", tag = "pairing",
    request_body = PairRequest,
    responses(
        (status = 200, body = PairReply),
        (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody, description = "invalid_pairing_code: wrong, expired or used"),
        (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "too_many_attempts: the code is now void"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ))]
pub async fn pair(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PairRequest>,
) -> ApiResult<Json<PairReply>> {
    // One code for all three (the contract's), but words that tell the person
    // what to do: the extension shows them as they are.
    let refused = |message: &str| ApiError::new(ErrorCode::InvalidPairingCode, message);
    match state.access.pairing_codes.attempt(request.code.trim(), now_ms()) {
        PairAttempt::Wrong => {
            return Err(refused("that pairing code is wrong: check the six digits shown in the app"))
        }
        PairAttempt::Expired => {
            return Err(refused("that pairing code has expired: show a new one in the app"))
        }
        PairAttempt::NoCode => {
            return Err(refused(
                "no pairing code is waiting (it was used, expired or never shown): show a new one in the app",
            ))
        }
        PairAttempt::Locked => {
            return Err(ApiError::new(
                ErrorCode::TooManyAttempts,
                "too many wrong codes: this code is void, show a new one in the app",
            ))
        }
        PairAttempt::Accepted => {}
    }
    let token = generate_token();
    let hash = hash_token(&token);
    let id = PairingId::generate();
    let pairing_id = id.clone();
    state
        .db(move |store| {
            store
                .insert_pairing(&pairing_id, &hash, now_ms())
                .map_err(|e| ApiError::internal("saving the pairing", e))
        })
        .await?;
    state.access.tokens.paired.write().unwrap_or_else(|p| p.into_inner()).insert(hash, id);
    state.core.events.emit(Event::PairCompleted(Empty {}));
    Ok(Json(PairReply { token }))
}

/// `GET /ui/pairings` → paired clients.
pub async fn list_pairings(State(state): State<AppState>) -> ApiResult<Json<Pairings>> {
    let records =
        state.db(|store| store.pairings().map_err(|e| ApiError::from_store("pairings", e))).await?;
    let pairings = records
        .into_iter()
        .map(|p| Pairing { id: p.id, created_at: p.created_at, last_used_at: p.last_used_at })
        .collect();
    Ok(Json(Pairings { pairings }))
}

/// `DELETE /ui/pairings/:id` → the token stops working at once.
pub async fn revoke_pairing(
    State(state): State<AppState>,
    Path(id): Path<PairingId>,
) -> ApiResult<StatusCode> {
    let pairing_id = id.clone();
    state
        .db(move |store| {
            store
                .revoke_pairing(&pairing_id, now_ms())
                .map_err(|e| ApiError::from_store("pairing", e))
        })
        .await?;
    state
        .access
        .tokens
        .paired
        .write()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|_, pairing| *pairing != id);
    Ok(StatusCode::NO_CONTENT)
}
