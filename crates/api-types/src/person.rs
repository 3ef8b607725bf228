//! Shapes of the person's channel (`/ui/*`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Body of `POST /ui/login-links` (optional): the app page the link opens.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginLinkRequest {
    /// A path of the app, such as `/settings/extension?pair`; default `/`.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 300, pattern = r"^/[^/\\]")]
    pub page: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LoginLink {
    pub url: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptAnswerRequest {
    /// record, decline or always
    pub answer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PromptAnswer {
    pub prompt_id: String,
    pub accepted: bool,
    pub answer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PairingCode {
    pub code: String,
    pub expires_at: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Pairing {
    pub id: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Pairings {
    pub pairings: Vec<Pairing>,
}

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
    pub plan: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseRequest {
    pub paused: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PauseReply {
    pub meeting_id: String,
    pub paused: bool,
}

/// `POST /ui/recording/start`: the person's own button; every field optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PersonStartRequest {
    #[serde(default)]
    pub source_app: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
}

/// `GET /ui/license`: the plan in force and, with Pro, whose licence it is.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LicenseInfo {
    /// `free` or `pro`.
    pub plan: String,
    pub licensee: Option<String>,
    pub expires_at: Option<i64>,
}

/// `GET /ui/prompts`: the record prompts waiting for an answer, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PendingPrompts {
    pub prompts: Vec<crate::Prompt>,
}
