//! The person's sign-in: one-time login links and the signed-in sessions.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::SessionId;

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

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LoginLink {
    pub url: String,
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
    pub id: SessionId,
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
