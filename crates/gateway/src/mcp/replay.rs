//! Resumable Streamable HTTP streams: the events the gateway sent, kept for a
//! while, so that a client whose connection dropped gets what it missed.
//!
//! rmcp's `LocalSessionManager` keeps a request's events only while the
//! request runs: once the request answers, its stream is forgotten (rmcp
//! 3.9 to 3.11), so a client that reconnects with `Last-Event-ID` after the
//! answer was sent gets an empty stream and never the answer. Given an
//! [`EventStore`], rmcp's own hook for this, rmcp names every event of every
//! stream (a POST's response stream, the GET stream) by an id from here and
//! answers a GET with `Last-Event-ID` from [`EventStore::replay_events_after`]:
//! [`Replay`] gives the events of that id's stream after it, then follows the
//! stream as it goes on: a request's stream until its answer, the GET stream
//! for as long as the client stays.
//!
//! Retention: an event is kept for 5 minutes ([`KEPT_FOR`], rmcp's idle
//! session timeout), and at most 1 024 events ([`MAX_EVENTS`]) and 16 MiB
//! ([`MAX_BYTES`]) of them are kept across all sessions, the oldest going
//! first. A client that comes back later gets what is left of its stream, and
//! an empty stream once all of it is gone.

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::{
    EventId, EventStore, EventStoreError, EventStream, ServerSseMessage,
};
use tokio::sync::mpsc;

/// How long an event is kept.
pub const KEPT_FOR: Duration = Duration::from_secs(300);
/// How many events are kept, across all sessions.
pub const MAX_EVENTS: usize = 1024;
/// How many bytes of events (their JSON) are kept, across all sessions.
pub const MAX_BYTES: usize = 16 << 20;
/// How far a client following a stream may fall behind before its stream
/// ends (it then resumes from the last event it got).
const FOLLOW_BUFFER: usize = 64;

/// What is kept, and for how long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub kept_for: Duration,
    pub max_events: usize,
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { kept_for: KEPT_FOR, max_events: MAX_EVENTS, max_bytes: MAX_BYTES }
    }
}

/// The events of every stream, in memory, as an rmcp [`EventStore`]. An event's
/// id is `<stream>/<n>`, `n` counting every event the store was given.
#[derive(Default)]
pub struct Replay {
    limits: Limits,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next: u64,
    streams: HashMap<String, Log>,
    /// Every kept event, oldest first.
    kept: VecDeque<Kept>,
    bytes: usize,
}

struct Kept {
    stream: String,
    at: Instant,
    bytes: usize,
}

/// One stream's kept events and the clients following it.
#[derive(Default)]
struct Log {
    events: VecDeque<(u64, ServerSseMessage)>,
    followers: Vec<mpsc::Sender<ServerSseMessage>>,
    /// A request's stream that carried the request's answer: nothing follows.
    answered: bool,
}

impl Replay {
    pub fn new(limits: Limits) -> Replay {
        Replay { limits, state: Mutex::default() }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn store(&self, stream: &str, event: &ServerSseMessage, now: Instant) -> EventId {
        let mut guard = self.state();
        let state = &mut *guard;
        let n = state.next;
        state.next += 1;
        let id = format!("{stream}/{n}");
        let mut event = event.clone();
        event.event_id = Some(id.clone());
        let bytes = size(&event);
        let log = state.streams.entry(stream.to_owned()).or_default();
        log.followers.retain(|follower| follower.try_send(event.clone()).is_ok());
        if is_answer(stream, &event) {
            log.answered = true;
            log.followers.clear();
        }
        log.events.push_back((n, event));
        state.kept.push_back(Kept { stream: stream.to_owned(), at: now, bytes });
        state.bytes += bytes;
        state.evict(&self.limits, now);
        id
    }

    fn replay(&self, last_event_id: &str, now: Instant) -> Result<EventStream, EventStoreError> {
        let unknown =
            || -> EventStoreError { format!("no events kept after {last_event_id}").into() };
        let (stream, last) = last_event_id
            .rsplit_once('/')
            .and_then(|(stream, n)| Some((stream, n.parse::<u64>().ok()?)))
            .ok_or_else(unknown)?;
        let mut state = self.state();
        state.evict(&self.limits, now);
        let log = state.streams.get_mut(stream).ok_or_else(unknown)?;
        let missed: Vec<ServerSseMessage> =
            log.events.iter().filter(|(n, _)| *n > last).map(|(_, event)| event.clone()).collect();
        let follow = (!log.answered).then(|| {
            let (sender, receiver) = mpsc::channel(FOLLOW_BUFFER);
            log.followers.push(sender);
            receiver
        });
        Ok(Box::pin(futures_util::stream::iter(missed).chain(Follow(follow))))
    }
}

impl State {
    /// Forgets the oldest events while there are too many, too many bytes of
    /// them, or they are too old; then the streams nothing is left of.
    fn evict(&mut self, limits: &Limits, now: Instant) {
        while let Some(oldest) = self.kept.front() {
            let expired = now.saturating_duration_since(oldest.at) >= limits.kept_for;
            if !expired && self.kept.len() <= limits.max_events && self.bytes <= limits.max_bytes {
                break;
            }
            self.bytes -= oldest.bytes;
            if let Some(log) = self.streams.get_mut(&oldest.stream) {
                log.events.pop_front();
            }
            self.kept.pop_front();
        }
        self.streams.retain(|_, log| {
            log.followers.retain(|follower| !follower.is_closed());
            !log.events.is_empty() || !log.followers.is_empty()
        });
    }
}

/// Does `event` end its stream? A request's stream ends with the request's
/// answer (a result or an error); rmcp's GET stream (`<session>:common`)
/// carries other requests' late answers too and does not end.
fn is_answer(stream: &str, event: &ServerSseMessage) -> bool {
    !stream.ends_with(":common")
        && matches!(
            event.message.as_deref(),
            Some(ServerJsonRpcMessage::Response(_) | ServerJsonRpcMessage::Error(_))
        )
}

/// The bytes an event takes: its JSON and its id.
fn size(event: &ServerSseMessage) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(event.event_id.as_ref().map_or(0, String::len));
    if let Some(message) = &event.message {
        let _ = serde_json::to_writer(&mut count, message.as_ref());
    }
    count.0
}

/// The events a stream gets after the replayed ones, while it is followed.
struct Follow(Option<mpsc::Receiver<ServerSseMessage>>);

impl Stream for Follow {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.0.as_mut() {
            Some(receiver) => receiver.poll_recv(cx),
            None => Poll::Ready(None),
        }
    }
}

#[async_trait::async_trait]
impl EventStore for Replay {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        Ok(self.store(stream_id, event, Instant::now()))
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        self.replay(last_event_id, Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(value: serde_json::Value) -> ServerSseMessage {
        let message = serde_json::from_value(value).expect("a server message");
        ServerSseMessage::from_message(message)
    }

    fn progress(n: f64) -> ServerSseMessage {
        message(json!({ "jsonrpc": "2.0", "method": "notifications/progress",
            "params": { "progressToken": 1, "progress": n } }))
    }

    fn answer(id: i64) -> ServerSseMessage {
        message(json!({ "jsonrpc": "2.0", "id": id, "result": { "content": [] } }))
    }

    fn priming() -> ServerSseMessage {
        ServerSseMessage::retry(Duration::from_secs(3))
    }

    async fn all(stream: EventStream) -> Vec<ServerSseMessage> {
        tokio::time::timeout(Duration::from_secs(5), stream.collect::<Vec<_>>())
            .await
            .expect("the stream ends")
    }

    fn ids(events: &[ServerSseMessage]) -> Vec<String> {
        events.iter().map(|event| event.event_id.clone().unwrap_or_default()).collect()
    }

    #[tokio::test]
    async fn an_answered_stream_replays_what_followed_the_last_id_and_ends() {
        let replay = Replay::default();
        let now = Instant::now();
        let first = replay.store("r1", &priming(), now);
        let other = replay.store("r2", &priming(), now);
        let second = replay.store("r1", &progress(50.0), now);
        let third = replay.store("r1", &answer(2), now);
        assert_eq!(first, "r1/0");
        assert_ne!(other, second);
        let events = all(replay.replay(&first, now).expect("kept")).await;
        assert_eq!(ids(&events), [second.clone(), third.clone()]);
        assert!(events[1].message.is_some());
        let events = all(replay.replay(&third, now).expect("kept")).await;
        assert!(events.is_empty());
        assert!(replay.replay("r3/0", now).is_err());
        assert!(replay.replay("garbage", now).is_err());
    }

    #[tokio::test]
    async fn a_running_stream_is_followed_until_its_answer() {
        let replay = Replay::default();
        let now = Instant::now();
        let first = replay.store("r1", &priming(), now);
        let stream = replay.replay(&first, now).expect("kept");
        let progressed = replay.store("r1", &progress(10.0), now);
        replay.store("r2", &answer(3), now);
        let answered = replay.store("r1", &answer(2), now);
        replay.store("r1", &progress(99.0), now);
        let events = all(stream).await;
        assert_eq!(ids(&events), [progressed, answered]);
    }

    #[tokio::test]
    async fn the_get_stream_does_not_end_with_a_late_answer() {
        let replay = Replay::default();
        let now = Instant::now();
        let first = replay.store("s:common", &progress(1.0), now);
        let mut stream = replay.replay(&first, now).expect("kept");
        let late = replay.store("s:common", &answer(7), now);
        let after = replay.store("s:common", &progress(2.0), now);
        for id in [late, after] {
            let event = tokio::time::timeout(Duration::from_secs(5), stream.next())
                .await
                .expect("in time")
                .expect("an event");
            assert_eq!(event.event_id.as_deref(), Some(id.as_str()));
        }
    }

    #[tokio::test]
    async fn events_are_kept_for_a_while_and_up_to_a_count_and_a_size() {
        let limits =
            Limits { kept_for: Duration::from_secs(60), max_events: 3, max_bytes: 1 << 20 };
        let replay = Replay::new(limits);
        let start = Instant::now();
        let first = replay.store("r1", &priming(), start);
        let mut sent: Vec<String> =
            (1..=3).map(|n| replay.store("r1", &progress(f64::from(n)), start)).collect();
        sent.push(replay.store("r1", &answer(2), start));
        // Five events, three kept: the oldest are gone, the rest still replay after the first.
        assert_eq!(ids(&all(replay.replay(&first, start).expect("kept")).await), sent[1..]);
        // A minute on, all is gone.
        let later = start + Duration::from_secs(60);
        assert!(replay.replay(&first, later).is_err());
        let state = replay.state();
        assert!(state.kept.is_empty() && state.bytes == 0 && state.streams.is_empty());
        drop(state);

        let small = Replay::new(Limits { max_bytes: size(&answer(2)) * 2, ..Limits::default() });
        let first = small.store("r1", &answer(1), start);
        small.store("r2", &answer(2), start);
        small.store("r3", &answer(3), start);
        assert!(small.replay(&first, start).is_err(), "the oldest went for the bytes");
    }

    #[tokio::test]
    async fn a_follower_that_falls_behind_or_leaves_is_let_go() {
        let replay = Replay::default();
        let now = Instant::now();
        let first = replay.store("s:common", &priming(), now);
        let stream = replay.replay(&first, now).expect("kept");
        drop(stream);
        replay.store("s:common", &progress(1.0), now);
        assert!(replay.state().streams["s:common"].followers.is_empty());

        let stream = replay.replay(&first, now).expect("kept");
        for n in 0..=FOLLOW_BUFFER {
            replay.store("s:common", &progress(n as f64), now);
        }
        assert!(replay.state().streams["s:common"].followers.is_empty());
        // What it was sent before it was let go, then the end.
        assert_eq!(all(stream).await.len(), 1 + FOLLOW_BUFFER);
    }
}
