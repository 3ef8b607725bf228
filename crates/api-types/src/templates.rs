//! Note templates (`GET /v1/templates`): the built-in ones and the person's
//! own Markdown prompt files, for `POST /v1/meetings/:id/notes`
//! `{ kind: "custom", template_id }`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TemplateInfo {
    pub id: String,
    pub name: String,
    pub builtin: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TemplateList {
    pub templates: Vec<TemplateInfo>,
}
