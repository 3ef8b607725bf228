//! Notes-provider API keys on the person's channel: which providers have one
//! and where it is kept (`GET /ui/ai/keys`), and saving one
//! (`PUT /ui/ai/keys/:provider`). The key itself is never sent back.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `PUT /ui/ai/keys/:provider`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyRequest {
    pub key: String,
}

/// One provider that takes a key.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AiKey {
    /// `anthropic`, `openai_compatible` or `local`.
    pub provider: String,
    pub stored: bool,
    /// Where the key is kept (the OS credential store or the file), null when none is.
    #[schema(required = true)]
    pub location: Option<String>,
}

/// `GET /ui/ai/keys`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AiKeyList {
    pub keys: Vec<AiKey>,
}
