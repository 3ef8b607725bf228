//! The event bus: every event gets an increasing id, the last 1024 are kept for
//! `Last-Event-ID` replay, and live subscribers receive them through a broadcast
//! channel of 256. A subscriber that falls further behind than that is closed
//! while the events it missed are still kept, so its reconnect with
//! `Last-Event-ID` replays them without a gap (unless 768 more came meanwhile).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use recorder_api_types::Event;
use recorder_domain::MeetingId;
use serde::Serialize;
use tokio::sync::broadcast;

use crate::base::clock::now_ms;

const KEPT: usize = 1024;
/// Smaller than [`KEPT`]: a lagging subscriber can still catch up by replay.
const LIVE_BUFFER: usize = 256;

/// One emitted event, already serialized once for every subscriber.
#[derive(Debug)]
pub struct StoredEvent {
    pub id: u64,
    pub kind: &'static str,
    pub json: String,
}

/// `{type, data, at}`: the event's own two fields, then when it happened.
#[derive(Serialize)]
struct Envelope<'a> {
    #[serde(flatten)]
    event: &'a Event,
    at: i64,
}

pub struct EventBus {
    // Held while an event is numbered, stored and broadcast, and while a
    // subscriber takes its replay and subscribes, so no event is missed or doubled.
    inner: Mutex<Ring>,
    sender: broadcast::Sender<Arc<StoredEvent>>,
}

struct Ring {
    next_id: u64,
    kept: VecDeque<Arc<StoredEvent>>,
}

/// What a new subscriber gets: the events to replay, then the live feed.
pub struct Subscription {
    pub replay: Vec<Arc<StoredEvent>>,
    pub live: broadcast::Receiver<Arc<StoredEvent>>,
}

impl EventBus {
    /// Ids start at the current time in ms so they keep increasing across restarts
    /// and a `Last-Event-ID` from an earlier run never replays unrelated events.
    pub fn new() -> Self {
        let (sender, _) = broadcast::channel(LIVE_BUFFER);
        EventBus {
            inner: Mutex::new(Ring { next_id: now_ms().max(1) as u64, kept: VecDeque::new() }),
            sender,
        }
    }

    pub fn emit(&self, event: Event) {
        let kind = event.kind();
        let json = match serde_json::to_string(&Envelope { event: &event, at: now_ms() }) {
            Ok(json) => json,
            Err(error) => {
                tracing::error!(%error, kind, "event could not be serialized");
                return;
            }
        };
        let mut ring = self.lock();
        let event = Arc::new(StoredEvent { id: ring.next_id, kind, json });
        ring.next_id += 1;
        if ring.kept.len() == KEPT {
            ring.kept.pop_front();
        }
        ring.kept.push_back(event.clone());
        // No receivers is normal when nobody listens.
        let _ = self.sender.send(event);
    }

    /// Subscribes; with `last_id`, first replays the kept events newer than it.
    pub fn subscribe(&self, last_id: Option<u64>) -> Subscription {
        let ring = self.lock();
        let replay = match last_id {
            Some(last) => ring.kept.iter().filter(|event| event.id > last).cloned().collect(),
            None => Vec::new(),
        };
        let live = self.sender.subscribe();
        Subscription { replay, live }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ring> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `segment.new` for a segment just saved as line `id`.
pub fn segment_new(
    meeting_id: &MeetingId,
    speaker: &str,
    segment: &recorder_store::NewSegment,
    id: Option<i64>,
) -> Event {
    Event::SegmentNew(recorder_api_types::LiveSegment {
        meeting_id: meeting_id.to_owned(),
        id: id.map(|id| id.to_string()),
        speaker: speaker.to_owned(),
        channel: segment.channel,
        start_ms: segment.start_ms,
        end_ms: segment.end_ms,
        text: segment.text.clone(),
    })
}

impl Default for EventBus {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_api_types::{Empty, ModelRef};

    fn model(name: &str) -> Event {
        Event::ModelsLoaded(ModelRef { model: name.into() })
    }

    #[test]
    fn replay_returns_newer_events_and_live_follows() {
        let bus = EventBus::new();
        bus.emit(model("a"));
        bus.emit(Event::PairCompleted(Empty {}));
        let first = bus.subscribe(None).replay.len();
        assert_eq!(first, 0, "no Last-Event-ID: nothing replayed");
        let all = bus.subscribe(Some(0));
        assert_eq!(all.replay.len(), 2);
        let after_a = bus.subscribe(Some(all.replay[0].id));
        assert_eq!(after_a.replay.iter().map(|e| e.kind).collect::<Vec<_>>(), ["pair.completed"]);
        let mut live = after_a.live;
        bus.emit(model("c"));
        let received = live.try_recv().expect("live event");
        assert_eq!(received.kind, "models.loaded");
        assert!(received.json.contains(r#""data":{"model":"c"}"#), "{}", received.json);
        assert!(received.json.contains(r#""at":"#), "{}", received.json);
        assert!(received.id > all.replay[1].id);
    }

    #[test]
    fn a_subscriber_too_far_behind_is_told_while_what_it_missed_is_still_kept() {
        let bus = EventBus::new();
        let mut slow = bus.subscribe(None).live;
        bus.emit(model("first"));
        let last_seen = slow.try_recv().expect("the first event").id;
        for _ in 0..LIVE_BUFFER + 10 {
            bus.emit(model("x"));
        }
        assert!(
            matches!(slow.try_recv(), Err(broadcast::error::TryRecvError::Lagged(_))),
            "the live feed says it fell behind (the stream then closes)"
        );
        let again = bus.subscribe(Some(last_seen));
        let ids: Vec<u64> = again.replay.iter().map(|e| e.id).collect();
        assert_eq!(ids.len(), LIVE_BUFFER + 10, "everything it missed is replayed");
        assert_eq!(ids[0], last_seen + 1, "from the next one, no gap");
    }

    #[test]
    fn only_the_last_1024_are_kept() {
        let bus = EventBus::new();
        for _ in 0..1100 {
            bus.emit(model("x"));
        }
        assert_eq!(bus.subscribe(Some(0)).replay.len(), KEPT);
    }
}
