//! `GET /v1/events`: Server-Sent Events with ids, `retry: 2000`, a keep-alive
//! comment every 15 s, and `Last-Event-ID` replay of the last 1024 events.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use std::future::ready;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::Extension;
use futures_util::stream::{self, Stream, StreamExt};
use recorder_api_types::ErrorBody;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_stream::wrappers::BroadcastStream;

use crate::access::guard::Principal;
use crate::base::events::StoredEvent;
use crate::state::AppState;

/// The event stream. Each event: `id:`, `event:` (= type), `data:` `{type, data, at}`.
#[utoipa::path(get, path = "/v1/events", tag = "events",
    params(("Last-Event-ID" = Option<String>, Header, description = "Replay kept events newer than this id")),
    responses(
        (status = 200, description = "Server-Sent Events", content_type = "text/event-stream", body = String),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn events(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let paired = matches!(principal, Principal::Paired { .. });
    let session = match principal {
        Principal::Person { session } => session,
        _ => None,
    };
    let visible = move |event: &StoredEvent| !paired || PAIRED_EVENTS.contains(&event.kind);
    let last_id = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<u64>().ok());
    let subscription = state.core.events.subscribe(last_id);
    let newest_replayed = subscription.replay.last().map(|event| event.id).unwrap_or(0);
    let retry = stream::once(async { Event::default().retry(Duration::from_millis(2000)) });
    let replay = stream::iter(subscription.replay).filter(move |e| ready(visible(e))).map(to_sse);
    // A subscriber that falls more than the channel's capacity (256) behind is
    // closed; it reconnects with Last-Event-ID and catches up from the kept 1024.
    let live = BroadcastStream::new(subscription.live)
        .take_while(|item| ready(!matches!(item, Err(BroadcastStreamRecvError::Lagged(_)))))
        .filter_map(move |item| {
            ready(
                item.ok().filter(|event| event.id > newest_replayed && visible(event)).map(to_sse),
            )
        });
    let (shutdown, sessions) = (state.core.shutdown.clone(), state.clone());
    // The stream ends at shutdown, and when the session that opened it signs out.
    let ended = async move {
        let signed_out = async {
            match &session {
                Some(token) => sessions.access.sessions.signed_out(token).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = shutdown.cancelled() => {}
            _ = signed_out => {}
        }
    };
    let stream = retry.chain(replay).chain(live).map(Ok).take_until(ended);
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)).text("keep-alive"))
}

/// What a paired extension's token may see: recording state (the levels too:
/// they keep its stream, and so Chrome's worker, alive while recording, and say
/// nothing of what is said), prompts, markers and pairing. Never transcript text
/// (`segment.*`), notes or meeting changes.
const PAIRED_EVENTS: [&str; 11] = [
    "recording.started",
    "recording.stopped",
    "recording.paused",
    "recording.muted",
    "recording.ending",
    "recording.levels",
    "recording.channel",
    "prompt.shown",
    "prompt.answered",
    "marker.added",
    "pair.completed",
];

fn to_sse(event: Arc<StoredEvent>) -> Event {
    Event::default().id(event.id.to_string()).event(event.kind).data(event.json.clone())
}
