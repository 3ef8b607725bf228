//! A meeting's audio on the person's channel (`GET /ui/meetings/:id/audio`):
//! the channels on disk, where to play each, and what the person may do.

use recorder_domain::{Channel, MeetingId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One channel's file.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AudioChannel {
    pub channel: Channel,
    /// `/ui/meetings/:id/audio/:channel`: `audio/wav` with HTTP Range.
    pub url: String,
    pub bytes: u64,
}

/// What the person may do with the audio: play it always, show it in the
/// file manager unless DisableAudioExport is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AudioAction {
    Play,
    Reveal,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AudioInfo {
    pub meeting_id: MeetingId,
    pub channels: Vec<AudioChannel>,
    /// When retention removed the audio, null while it is kept.
    #[schema(required = true)]
    pub audio_removed_at: Option<i64>,
    pub actions: Vec<AudioAction>,
}
