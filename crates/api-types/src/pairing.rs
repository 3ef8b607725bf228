//! Pairing the extension: the code the person shows, the exchange for a
//! token, and the paired clients.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::PairingId;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PairingCode {
    pub code: String,
    pub expires_at: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    /// The 6-digit code shown in the app.
    pub code: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PairReply {
    pub token: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Pairing {
    pub id: PairingId,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Pairings {
    pub pairings: Vec<Pairing>,
}
