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
    /// The language spoken (a code, or `auto`); default `recording.language`.
    #[serde(default)]
    pub language: Option<String>,
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

/// `POST /v1/recording/ended`: a call ended (a paired extension saw it end).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CallEndedRequest {
    #[schema(min_length = 1, max_length = 100, pattern = r"\S")]
    pub source_app: String,
    /// The call's page, as its prompt gave it.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 2048, pattern = r"\S")]
    pub url: Option<String>,
}

/// Whether the report concerned the recording in progress, which then stops
/// at `stops_at` (ms since the epoch) unless the person keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CallEndedReply {
    pub stopping: bool,
    pub meeting_id: Option<MeetingId>,
    pub stops_at: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    pub muted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MuteReply {
    pub meeting_id: MeetingId,
    pub muted: bool,
}

/// `POST /ui/recording/keep`: the countdown was called off.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct KeepReply {
    pub meeting_id: MeetingId,
}
