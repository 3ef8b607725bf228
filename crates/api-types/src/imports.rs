//! Importing a local audio file (`/v1/import`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// Absolute path, or a path starting with `~/`.
    #[schema(min_length = 1, pattern = "^(/|~/)")]
    pub path: String,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub title: Option<String>,
}
