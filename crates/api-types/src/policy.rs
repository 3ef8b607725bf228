//! `/v1/policy`: the managed policy keys and values that were ignored.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PolicyKeyValue {
    pub key: String,
    pub order: u32,
    /// Null when Not Configured.
    #[schema(value_type = Option<Object>)]
    pub value: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PolicyInvalid {
    pub key: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PolicyReport {
    /// The organisation name, or `your organisation`.
    pub managed_by: String,
    pub keys: Vec<PolicyKeyValue>,
    pub invalid: Vec<PolicyInvalid>,
    /// Present when the machine's policy could not be read or parsed the last
    /// time: the policy in force is then the last good one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
