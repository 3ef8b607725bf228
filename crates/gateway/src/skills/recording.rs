//! The recording skills: start_recording, stop_recording and add_marker. The
//! service decides (Pro, 'Allow agents to start recordings', DisableAgentRecording);
//! these only ask and explain its answer.

use recorder_api_types as api;
use recorder_client::Client;
use serde_json::json;

use super::args::{AddMarker, StartRecording};
use super::meetings::started;
use super::text::{clock, date_time, quoted};
use super::{Answer, Skill, SkillError, SkillResult, Timestamp, Used};

/// `source_app` of recordings an agent starts without naming the app.
pub const AGENT_SOURCE: &str = "agent";

pub async fn start(client: &Client, args: StartRecording) -> SkillResult {
    let request = api::StartRequest {
        source_app: args.source_app.unwrap_or_else(|| AGENT_SOURCE.into()),
        title: args.title,
    };
    let meeting = client
        .start_recording(&request)
        .await
        .map_err(|e| SkillError::from_client("Cannot start a recording", e))?;
    let mut used = Used::default();
    used.moment(started(&meeting));
    Ok(Answer {
        skill: Skill::StartRecording,
        text: format!(
            "Recording started at {}: {} (meeting_id {}). Call stop_recording to end it; \
             add_marker bookmarks a moment.",
            date_time(meeting.started_at),
            quoted(&meeting.title),
            meeting.id
        ),
        result: json!({ "meeting": meeting }),
        used,
    })
}

pub async fn stop(client: &Client) -> SkillResult {
    let reply = client
        .stop_recording()
        .await
        .map_err(|e| SkillError::from_client("Cannot stop the recording", e))?;
    let title = client.meeting(&reply.meeting_id).await.map(|m| quoted(&m.title)).ok();
    let mut used = Used::default();
    used.meeting(&reply.meeting_id);
    Ok(Answer {
        skill: Skill::StopRecording,
        text: format!(
            "Recording stopped. {} is being transcribed on this machine; its notes follow \
             (get_meeting with meeting_id {}).",
            title.unwrap_or_else(|| "The meeting".into()),
            reply.meeting_id
        ),
        result: json!({ "meeting_id": reply.meeting_id, "status": reply.status }),
        used,
    })
}

pub async fn marker(client: &Client, args: AddMarker) -> SkillResult {
    let marker = client
        .add_marker(&api::MarkerRequest { label: args.label })
        .await
        .map_err(|e| SkillError::from_client("Cannot add a marker", e))?;
    let meeting_id = client.health().await.ok().and_then(|health| health.recording.meeting_id);
    let mut used = Used::default();
    if let Some(id) = &meeting_id {
        used.moment(Timestamp {
            meeting_id: id.to_string(),
            start_ms: Some(marker.at_ms),
            end_ms: None,
            started_at: None,
        });
    }
    Ok(Answer {
        skill: Skill::AddMarker,
        text: format!(
            "Marker {} added at {} into the recording.",
            quoted(&marker.label),
            clock(marker.at_ms)
        ),
        result: json!({ "meeting_id": meeting_id, "marker": marker }),
        used,
    })
}
