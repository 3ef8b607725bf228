//! `GET /v1/policy`: the managed policy keys in display order, and values that
//! were ignored.

use axum::extract::State;
use axum::Json;
use recorder_api_types::{ErrorBody, PolicyInvalid, PolicyKeyValue, PolicyReport};
use recorder_domain::{PolicyKey, PolicyValue};
use serde_json::Value;

use crate::state::AppState;

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
        error: state.config.policy.error(),
    })
}
