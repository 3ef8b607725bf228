//! Live transcription: utterances cut by the capture chain are transcribed
//! one at a time with the shared engine and published as `segment.new` while
//! the call goes on. Remote (`sys`) lines go first, so a microphone line can
//! be checked against what the other side said at the same time (echo).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use recorder_capture::chain::Utterance;
use recorder_domain::Channel;
use recorder_store::NewSegment;
use recorder_stt::file::transcribe_chunk;
use recorder_stt::hallucination;
use serde_json::json;

use super::echo::EchoFilter;
use super::Control;
use crate::pipeline::EngineUser;
use crate::state::AppState;

/// How far each channel was transcribed live: the rest is left to the job
/// queue when the recording ends.
#[derive(Debug, Clone, Copy, Default)]
pub struct Covered {
    pub mic_ms: i64,
    pub sys_ms: i64,
}

impl Covered {
    pub fn get(&self, channel: Channel) -> i64 {
        match channel {
            Channel::Mic => self.mic_ms,
            Channel::Sys => self.sys_ms,
        }
    }

    fn set(&mut self, channel: Channel, ms: i64) {
        match channel {
            Channel::Mic => self.mic_ms = ms,
            Channel::Sys => self.sys_ms = ms,
        }
    }
}

pub struct LiveTranscriber {
    state: AppState,
    meeting_id: String,
    control: Arc<Control>,
    queue: VecDeque<Utterance>,
    echo: EchoFilter,
    previous: [Option<String>; 2],
    covered: Covered,
    /// After an engine failure live work stops; the job queue redoes the rest.
    failed: bool,
}

impl LiveTranscriber {
    pub fn new(state: AppState, meeting_id: String, control: Arc<Control>) -> Self {
        LiveTranscriber {
            state,
            meeting_id,
            control,
            queue: VecDeque::new(),
            echo: EchoFilter::default(),
            previous: [None, None],
            covered: Covered::default(),
            failed: false,
        }
    }

    /// Works until `stop` is set: finishes the utterance in hand, leaves the
    /// rest queued, and says how far each channel got.
    pub fn run(mut self, utterances: Receiver<Utterance>, stop: &AtomicBool) -> Covered {
        if let Err(error) = self.state.engine.preload(&self.state) {
            self.fail(&error.to_string());
        }
        while !stop.load(Ordering::Relaxed) {
            match utterances.recv_timeout(Duration::from_millis(100)) {
                Ok(utterance) => self.queue.push_back(utterance),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            while let Ok(utterance) = utterances.try_recv() {
                self.queue.push_back(utterance);
            }
            if let Some(next) = self.next_ready() {
                self.transcribe(next);
            }
        }
        self.covered
    }

    /// The next utterance to transcribe: remote lines first; a microphone line
    /// waits while the remote side is still speaking over it (until its line
    /// is cut), so an echo can be recognised.
    fn next_ready(&mut self) -> Option<Utterance> {
        if self.failed {
            return None;
        }
        if let Some(index) = self.queue.iter().position(|u| u.channel == Channel::Sys) {
            return self.queue.remove(index);
        }
        let front = self.queue.front()?;
        let remote_since = self.control.remote_speech_since();
        if remote_since.is_some_and(|since| since <= front.end_ms()) {
            return None;
        }
        self.queue.pop_front()
    }

    fn transcribe(&mut self, utterance: Utterance) {
        let mut engine = EngineUser { state: &self.state };
        let result = match transcribe_chunk(&mut engine, &utterance.samples) {
            Ok(result) => result,
            Err(error) => return self.fail(&error.to_string()),
        };
        let slot = usize::from(utterance.channel == Channel::Sys);
        let cleaned = hallucination::clean(result.segments, self.previous[slot].as_deref());
        let length_ms = utterance.samples.len() as i64 / 16;
        let mut segments = Vec::new();
        for raw in cleaned {
            let start = raw.start_ms.clamp(0, length_ms);
            let end = raw.end_ms.clamp(start, length_ms);
            let (start_ms, end_ms) = (utterance.start_ms + start, utterance.start_ms + end);
            if utterance.channel == Channel::Sys {
                self.echo.heard_remote(start_ms, end_ms, &raw.text);
            } else if self.echo.is_echo(start_ms, end_ms, &raw.text) {
                tracing::debug!(start_ms, "dropped a microphone line that echoes the remote side");
                continue;
            }
            self.previous[slot] = Some(raw.text.clone());
            segments.push(NewSegment {
                channel: utterance.channel,
                start_ms,
                end_ms,
                text: raw.text,
            });
        }
        if let Err(error) = self.state.store.insert_segments(&self.meeting_id, &segments) {
            return self.fail(&format!("saving the transcript failed: {error}"));
        }
        self.covered.set(utterance.channel, utterance.end_ms());
        self.publish(&segments);
    }

    fn publish(&self, segments: &[NewSegment]) {
        let user_name = self.state.effective_settings().general.user_name;
        for segment in segments {
            self.state.events.emit(
                "segment.new",
                json!({
                    "meeting_id": self.meeting_id,
                    "speaker": segment.channel.speaker(&user_name),
                    "channel": segment.channel.as_str(),
                    "start_ms": segment.start_ms,
                    "end_ms": segment.end_ms,
                    "text": segment.text,
                }),
            );
        }
    }

    fn fail(&mut self, error: &str) {
        if self.failed {
            return;
        }
        self.failed = true;
        tracing::error!(meeting_id = %self.meeting_id, error, "live transcription stopped");
        self.state.events.emit(
            "error",
            json!({
                "message": format!(
                    "live transcription stopped ({error}); the recording goes on and is transcribed when it ends"
                ),
                "meeting_id": self.meeting_id,
            }),
        );
    }
}
