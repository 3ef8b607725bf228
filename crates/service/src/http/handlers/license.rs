//! The licence: the plan in force (`GET /ui/license`) and installing a Pro
//! licence (`POST /ui/license`, saved to license.json).

use axum::extract::State;
use axum::Json;
use recorder_api_types::{LicenseInfo, LicenseRequest, PlanReply};
use recorder_domain::Plan;

use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::config::license;
use crate::http::extract::ApiJson;
use crate::state::AppState;

/// `GET /ui/license` → the plan in force and whose licence it is.
pub async fn license_info(State(state): State<AppState>) -> Json<LicenseInfo> {
    let now = now_ms();
    let current =
        state.config.license.current().filter(|_| state.config.license.plan(now) == Plan::Pro);
    Json(LicenseInfo {
        plan: if current.is_some() { Plan::Pro } else { Plan::Free },
        licensee: current.as_ref().map(|licence| licence.licensee.clone()),
        expires_at: current.and_then(|licence| licence.expires_at),
    })
}

/// `POST /ui/license` `{ license }` → `{ plan }`; the licence is saved to license.json.
pub async fn install_license(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<LicenseRequest>,
) -> ApiResult<Json<PlanReply>> {
    let payload = license::verify(&request.license, now_ms())
        .map_err(|error| ApiError::invalid(format!("licence refused: {error}")))?;
    let bytes = serde_json::to_vec_pretty(&request.license)
        .map_err(|error| ApiError::internal("encoding the licence", error))?;
    let data_dir = state.core.data_dir.clone();
    tokio::task::spawn_blocking(move || data_dir.write_private(&data_dir.license(), &bytes))
        .await
        .map_err(|error| ApiError::internal("saving the licence", error))?
        .map_err(|error| ApiError::internal("saving the licence", error))?;
    tracing::info!(licensee = %payload.licensee, issued_at = payload.issued_at, "Pro licence installed");
    state.config.license.set(payload);
    Ok(Json(PlanReply { plan: Plan::Pro }))
}
