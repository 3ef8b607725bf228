//! Following the service's event stream for MCP resource subscriptions: every
//! event that names a meeting (`meeting.updated`, `meeting.ready`,
//! `meeting.deleted`, `marker.added`, `segment.new`, …) becomes that meeting's
//! id. Opening the stream goes through the same local API checks as every
//! skill (Host, token, the gateway's client header).

use recorder_client::Client;
use tokio::sync::mpsc;

use super::Changes;

/// Room for changes not yet read; beyond it, later ones wait.
const BACKLOG: usize = 64;

/// Kinds of events that do not change what a resource reads (levels tick
/// ten times a second while recording).
const IGNORED: [&str; 3] = ["recording.levels", "segment.partial", "transcription.progress"];

/// Opens the event stream; `None` when the service does not answer.
pub async fn follow(client: Client) -> Option<Changes> {
    let mut events = match client.events().await {
        Ok(events) => events,
        Err(error) => {
            tracing::warn!(%error, "cannot follow the service's events; no resource updates");
            return None;
        }
    };
    let (sender, receiver) = mpsc::channel(BACKLOG);
    tokio::spawn(async move {
        loop {
            let event = match events.next().await {
                Ok(Some(event)) => event,
                Ok(None) => return,
                Err(error) => {
                    tracing::warn!(%error, "the service's event stream broke");
                    return;
                }
            };
            if IGNORED.contains(&event.kind.as_str()) {
                continue;
            }
            let Some(id) = event.data["meeting_id"].as_str() else { continue };
            if sender.send(id.to_string()).await.is_err() {
                return;
            }
        }
    });
    Some(receiver)
}
