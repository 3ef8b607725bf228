//! The licence: the signed file, installing it, and the plan in force.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::Plan;

/// A signed licence as stored in `license.json`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LicenseFile {
    /// base64url (no padding) of the JSON `{licensee, plan, issued_at, expires_at?}`.
    pub payload: String,
    /// base64url (no padding) Ed25519 signature over the payload's JSON bytes.
    pub signature: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LicenseRequest {
    pub license: LicenseFile,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlanReply {
    pub plan: Plan,
}

/// `GET /ui/license`: the plan in force and, with Pro, whose licence it is.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LicenseInfo {
    /// `free` or `pro`.
    pub plan: Plan,
    pub licensee: Option<String>,
    pub expires_at: Option<i64>,
}
