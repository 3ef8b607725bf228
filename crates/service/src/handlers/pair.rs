//! `POST /v1/pair`: a pairing code for an extension token.

use axum::extract::State;
use axum::Json;
use recorder_api_types::{Empty, ErrorBody, ErrorCode, Event, PairReply, PairRequest};
use recorder_domain::new_id;

use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::pairing::PairAttempt;
use crate::state::AppState;
use crate::tokens::{generate_token, hash_token};

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
    match state.pairing_codes.attempt(request.code.trim(), now_ms()) {
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
    let id = new_id();
    let pairing_id = id.clone();
    state
        .db(move |store| {
            store
                .insert_pairing(&pairing_id, &hash, now_ms())
                .map_err(|e| ApiError::internal("saving the pairing", e))
        })
        .await?;
    state.tokens.paired.write().unwrap_or_else(|p| p.into_inner()).insert(hash, id);
    state.events.emit(Event::PairCompleted(Empty {}));
    Ok(Json(PairReply { token }))
}
