//! `GET /.well-known/recorder-identity?nonce=…&key=…`: the service proves it
//! holds the token a client names (by its key id) without either side sending
//! the token, so clients never hand a token to another program on the port.
//! Needs no credentials; see `recorder_api_types::identity` for the formulas.

use axum::extract::State;
use axum::Json;
use recorder_api_types::identity::{
    is_valid_key_id, is_valid_nonce, key_id, proof, IdentityProof, SERVICE_NAME,
};

use crate::access::tokens::hash_token;
use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::QueryMap;
use crate::state::AppState;

pub async fn prove_identity(
    State(state): State<AppState>,
    query: QueryMap,
) -> ApiResult<Json<IdentityProof>> {
    let nonce = query.text("nonce").unwrap_or_default();
    if !is_valid_nonce(nonce) {
        return Err(ApiError::invalid("`nonce` must be 16 to 128 base64url characters"));
    }
    let key = query.text("key").unwrap_or_default();
    if !is_valid_key_id(key) {
        return Err(ApiError::invalid("`key` must be 32 lowercase hex digits"));
    }
    let digest = known_digests(&state)
        .into_iter()
        .find(|digest| key_id(digest) == key)
        .ok_or_else(|| ApiError::unauthorized("no token of this service has that key id"))?;
    Ok(Json(IdentityProof {
        service: SERVICE_NAME.to_string(),
        version: state.core.version.to_string(),
        proof: proof(&digest, state.core.port, nonce),
    }))
}

/// The digests of every token this service accepts: `api_token`, `ui_token`
/// and the paired tokens (kept only as digests).
fn known_digests(state: &AppState) -> Vec<[u8; 32]> {
    let mut digests =
        vec![hash_token(&state.access.tokens.api), hash_token(&state.access.tokens.ui)];
    let paired = state.access.tokens.paired.read().unwrap_or_else(|p| p.into_inner());
    digests.extend(paired.keys().copied());
    digests
}
