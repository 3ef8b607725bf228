//! `GET /v1/ledger`: the Privacy Ledger, every outbound request made or refused.

use axum::extract::State;
use axum::Json;
use recorder_api_types::{ErrorBody, Ledger};

use crate::base::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Every outbound request the app has made or refused, newest first.
#[utoipa::path(get, path = "/v1/ledger", tag = "system",
    responses((status = 200, body = Ledger), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn ledger(State(state): State<AppState>) -> ApiResult<Json<Ledger>> {
    let entries =
        state.db(|store| store.ledger().map_err(|e| ApiError::from_store("ledger", e))).await?;
    Ok(Json(Ledger { entries }))
}
