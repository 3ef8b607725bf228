//! Recording: start (by an agent, or the person's own button), stop, pause
//! and markers.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::{MeetingId, MeetingStatus};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub source_app: String,
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500, pattern = r"\S")]
    pub title: Option<String>,
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

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StopReply {
    pub meeting_id: MeetingId,
    pub status: MeetingStatus,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PauseRequest {
    pub paused: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PauseReply {
    pub meeting_id: MeetingId,
    pub paused: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerRequest {
    #[serde(default)]
    #[schema(min_length = 1, max_length = 200, pattern = r"\S")]
    pub label: Option<String>,
}
