//! Markdown export of a meeting by the person (`POST /ui/meetings/:id/export`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The body is optional: without a folder, the configured one.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    pub folder: Option<String>,
}

/// 201: the file written.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ExportReply {
    pub path: String,
}
