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
    /// Where the session will be used: `app_window` for the desktop app's own
    /// window, `browser` (default) otherwise. Shown in the list of sessions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SessionSource>,
}

/// Where a session signed in from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionSource {
    /// The desktop app's window.
    AppWindow,
    /// A web browser (`recorder open`).
    #[default]
    Browser,
}

/// A signed-in session of the app, as `GET /ui/sessions` lists it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SessionInfo {
    /// A public id (not the session's secret), for `DELETE /ui/sessions/{id}`.
    pub id: String,
    pub source: SessionSource,
    /// The browser's name, from its User-Agent ("Chromium", "Firefox", "WebKit", …).
    pub browser: String,
    pub created_at: i64,
    pub last_used_at: i64,
    /// When it ends unless used again (12 h idle, 7 days at most).
    pub expires_at: i64,
    /// The session this request came with.
    pub current: bool,
}

/// `GET /ui/sessions`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SessionList {
    pub sessions: Vec<SessionInfo>,
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
