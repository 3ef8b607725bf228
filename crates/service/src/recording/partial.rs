//! Partial lines: while someone speaks, the utterance not yet cut is
//! transcribed again about every second and published as `segment.partial`
//! (same fields as `segment.new`); the final `segment.new` replaces it.
//!
//! The session asks ([`PartialLines::request`]); one worker thread decodes on
//! the engine's second state, one thread, window fitted, so it never holds
//! the final lines' engine. Only one request per channel waits (a newer one
//! replaces it), only one decode runs at a time, and none starts while a
//! final line is being transcribed. A partial older than the final line of
//! its channel is never published: both are published under one lock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use recorder_api_types::{Event, LiveSegment};
use recorder_domain::{Channel, MeetingId};
use recorder_stt::hallucination;

use crate::recording::context::RecordingContext;

/// A channel's open utterance is decoded again this often.
pub const EVERY: Duration = Duration::from_millis(1_000);
/// The first partial of an utterance, once it holds this much audio (its
/// 0.3 s of lead-in included).
pub const FIRST_AFTER_MS: i64 = 900;

/// The open utterance of one channel, to decode.
pub struct Request {
    pub channel: Channel,
    pub start_ms: i64,
    pub samples: Vec<f32>,
}

#[derive(Default)]
struct Slot {
    requests: [Option<Request>; 2],
    /// Per channel, where its last final line ended.
    finished_until: [i64; 2],
    closed: bool,
}

/// Shared by the session (asks), the live transcriber (finals) and the
/// partial worker (decodes).
#[derive(Default)]
pub struct PartialLines {
    slot: Mutex<Slot>,
    wake: Condvar,
    /// A final line is being transcribed: no partial starts meanwhile.
    final_busy: AtomicBool,
}

fn index(channel: Channel) -> usize {
    usize::from(channel == Channel::Sys)
}

impl PartialLines {
    fn lock(&self) -> MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Asks for a partial of `request`'s channel, replacing one not started.
    pub fn request(&self, request: Request) {
        let mut slot = self.lock();
        let at = index(request.channel);
        slot.requests[at] = Some(request);
        self.wake.notify_one();
    }

    /// Marks the final line(s) of `channel` up to `until_ms` and publishes
    /// them with `publish`, so that no older partial can come after them.
    pub fn finished(&self, channel: Channel, until_ms: i64, publish: impl FnOnce()) {
        let mut slot = self.lock();
        let at = index(channel);
        slot.finished_until[at] = slot.finished_until[at].max(until_ms);
        if slot.requests[at].as_ref().is_some_and(|r| r.start_ms < until_ms) {
            slot.requests[at] = None;
        }
        publish();
    }

    pub fn set_final_busy(&self, busy: bool) {
        self.final_busy.store(busy, Ordering::Relaxed);
    }

    /// Ends the worker.
    pub fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_all();
    }

    /// The next request (the channel waiting longest first), or `None` once closed.
    fn next(&self) -> Option<Request> {
        let mut slot = self.lock();
        let mut turn = 0;
        loop {
            if slot.closed {
                return None;
            }
            if !self.final_busy.load(Ordering::Relaxed) {
                for offset in 0..2 {
                    if let Some(request) = slot.requests[(turn + offset) % 2].take() {
                        return Some(request);
                    }
                }
            }
            turn += 1;
            slot = self
                .wake
                .wait_timeout(slot, Duration::from_millis(100))
                .map(|(slot, _)| slot)
                .unwrap_or_else(|p| p.into_inner().0);
        }
    }

    /// Publishes a partial unless a final line of its channel came since.
    fn publish(
        &self,
        event_of: impl FnOnce() -> Event,
        context: &RecordingContext,
        request: &Request,
    ) {
        let slot = self.lock();
        if request.start_ms < slot.finished_until[index(request.channel)] {
            return;
        }
        context.events().emit(event_of());
    }
}

/// The meeting's words to expect, read again every [`PROMPT_EVERY`] (the
/// title and attendees may change while it is recorded).
#[derive(Default)]
struct Prompt {
    text: String,
    read_at: Option<Instant>,
}

/// How long partial lines keep the words they read.
const PROMPT_EVERY: Duration = Duration::from_secs(10);

impl Prompt {
    fn now(&mut self, context: &RecordingContext, meeting_id: &MeetingId) -> &str {
        if self.read_at.is_none_or(|at| at.elapsed() >= PROMPT_EVERY) {
            self.text = context.prompt_for(meeting_id);
            self.read_at = Some(Instant::now());
        }
        &self.text
    }
}

/// Decodes requests until the recording's live transcription ends.
pub fn run_worker(context: RecordingContext, meeting_id: MeetingId, lines: Arc<PartialLines>) {
    let mut prompt = Prompt::default();
    while let Some(request) = lines.next() {
        let began = Instant::now();
        let words = prompt.now(&context, &meeting_id);
        let Some(result) = context.engine().transcribe_partial(&request.samples, words) else {
            continue;
        };
        let segments = match result {
            Ok(result) => hallucination::clean(result.segments, None),
            Err(error) => {
                tracing::debug!(%error, "a partial line failed; the final line is unaffected");
                continue;
            }
        };
        let length_ms = request.samples.len() as i64 / 16;
        let text: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
        let (Some(first), Some(last)) = (segments.first(), segments.last()) else { continue };
        let start_ms = request.start_ms + first.start_ms.clamp(0, length_ms);
        let end_ms =
            request.start_ms + last.end_ms.clamp(first.start_ms.clamp(0, length_ms), length_ms);
        let speaker = request.channel.speaker(&context.effective_settings().general.user_name);
        let event = || {
            Event::SegmentPartial(LiveSegment {
                meeting_id: meeting_id.clone(),
                id: None,
                speaker,
                channel: request.channel,
                start_ms,
                end_ms,
                text: text.join(" "),
            })
        };
        lines.publish(event, &context, &request);
        tracing::debug!(
            channel = request.channel.as_str(),
            start_ms = request.start_ms,
            length_ms,
            took_ms = began.elapsed().as_millis() as u64,
            "partial line"
        );
    }
}
