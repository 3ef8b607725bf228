//! Live transcription: utterances cut by the capture chain are transcribed
//! one at a time with the shared engine and published as `segment.new` while
//! the call goes on. A microphone utterance never waits for the other side:
//! an echo of the remote audio was already marked when it was cut (judged on
//! the audio), and is dropped here; a remote (`sys`) line overlapping it goes
//! first, so its text can also catch an echo the audio did not. The queue's
//! audio is bounded in memory ([`super::backlog`]): when live transcription
//! falls behind, what waits is read back from the journal.
//! Every line's wait is logged in parts (`live line`, debug level).

use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use recorder_api_types::Event;
use recorder_capture::chain::Utterance;
use recorder_domain::{Channel, MeetingId, MeetingStatus};
use recorder_store::{ChannelRest, NewSegment};
use recorder_stt::engine::CallOptions;
use recorder_stt::file::transcribe_chunk;
use recorder_stt::hallucination;

use super::backlog::{Backlog, Turn};
use super::echo::EchoFilter;
use super::partial::PartialLines;
use crate::base::clock::now_ms;
use crate::models::engine::{configured_threads, EngineUser};
use crate::recording::context::RecordingContext;

/// How far each channel was transcribed live: after a failure the rest is
/// left to the job queue.
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
    context: RecordingContext,
    meeting_id: MeetingId,
    partials: Arc<PartialLines>,
    backlog: Backlog,
    echo: EchoFilter,
    previous: [Option<String>; 2],
    covered: Covered,
    /// After an engine failure live work stops; the job queue redoes the rest.
    failed: bool,
    language: Option<String>,
}

impl LiveTranscriber {
    pub fn new(
        context: RecordingContext,
        meeting_id: MeetingId,
        partials: Arc<PartialLines>,
    ) -> Self {
        let journal = |channel| context.data_dir().audio_file(&meeting_id, channel);
        let backlog = Backlog::new(journal(Channel::Mic), journal(Channel::Sys));
        LiveTranscriber {
            context,
            meeting_id,
            partials,
            backlog,
            echo: EchoFilter::default(),
            previous: [None, None],
            covered: Covered::default(),
            failed: false,
            language: None,
        }
    }

    /// Works while the call goes on, then finishes the queue once capture
    /// has ended (the sender is dropped) and hands the meeting to notes; after
    /// an engine failure the untranscribed rest goes to the job queue instead.
    pub fn run(mut self, utterances: Receiver<Utterance>) {
        let loaded =
            self.context.engine_setup().and_then(|setup| self.context.engine().preload(&setup));
        if let Err(error) = loaded {
            self.fail(&error.to_string());
        }
        let worker = {
            let (context, meeting_id) = (self.context.clone(), self.meeting_id.clone());
            let partials = self.partials.clone();
            std::thread::Builder::new()
                .name("live-partial".into())
                .spawn(move || super::partial::run_worker(context, meeting_id, partials))
        };
        let mut open = true;
        let mut idle = true;
        while open || !self.backlog.is_empty() {
            if open {
                open = self.receive(&utterances, idle);
            }
            if self.context.shutdown().is_cancelled() && !self.failed {
                // The service is ending: what is left is transcribed from the
                // files by the job queue at the next start.
                tracing::info!(meeting_id = %self.meeting_id, "shutting down: the rest of the live transcript is queued");
                self.failed = true;
            }
            if self.failed {
                self.backlog.clear();
                idle = true;
                continue;
            }
            idle = !self.take_turn(open);
        }
        self.partials.close();
        if let Ok(worker) = worker {
            let _ = worker.join();
        }
        self.hand_over();
    }

    /// Moves what the capture side cut into the backlog: waits up to 100 ms
    /// for it only when there is nothing to do. Returns whether capture goes on.
    fn receive(&mut self, utterances: &Receiver<Utterance>, wait: bool) -> bool {
        if wait {
            match utterances.recv_timeout(Duration::from_millis(100)) {
                Ok(utterance) => self.backlog.push(utterance),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
        loop {
            match utterances.try_recv() {
                Ok(utterance) => self.backlog.push(utterance),
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => return false,
            }
        }
    }

    /// Transcribes the next utterance, if one is ready. Returns whether it did
    /// any work.
    fn take_turn(&mut self, capturing: bool) -> bool {
        match self.backlog.next() {
            None => false,
            Some(Turn::Ready(next)) => {
                self.partials.set_final_busy(true);
                self.transcribe(next);
                self.partials.set_final_busy(!self.backlog.is_empty());
                true
            }
            Some(Turn::NotOnDisk) if capturing => false,
            Some(Turn::NotOnDisk) => {
                self.fail("the audio waiting for it was not all on disk");
                true
            }
            Some(Turn::Lost(error)) => {
                self.fail(&format!("reading back the audio waiting for it failed: {error}"));
                true
            }
        }
    }

    fn hand_over(&self) {
        let context = &self.context;
        if self.failed {
            let rest: Vec<ChannelRest> = [Channel::Mic, Channel::Sys]
                .into_iter()
                .map(|channel| ChannelRest {
                    channel,
                    audio_path: self.audio_path(channel),
                    from_ms: self.covered.get(channel),
                })
                .collect();
            if let Err(error) = context.store().queue_rest(&self.meeting_id, &rest, now_ms()) {
                tracing::error!(%error, meeting_id = %self.meeting_id, "cannot queue the rest of a recording");
                context.recorder().strand_rest();
            }
            context.wake_pipeline();
            return;
        }
        let language = self.language.as_deref();
        match context.store().finish_live_transcription(&self.meeting_id, language, now_ms()) {
            Ok(true) => {
                context.events().emit(Event::meeting_status(
                    self.meeting_id.clone(),
                    MeetingStatus::Summarising,
                ));
                context.wake_pipeline();
            }
            Ok(false) => context.wake_pipeline(),
            Err(error) => {
                context.recorder().strand_rest();
                tracing::error!(%error, meeting_id = %self.meeting_id, "cannot finish a live transcript")
            }
        }
    }

    fn audio_path(&self, channel: Channel) -> String {
        self.context.data_dir().audio_file(&self.meeting_id, channel).to_string_lossy().into_owned()
    }

    fn transcribe(&mut self, utterance: Utterance) {
        if utterance.echo {
            tracing::debug!(
                start_ms = utterance.start_ms,
                "dropped a microphone utterance that echoes the remote side's audio"
            );
            self.covered.set(utterance.channel, utterance.end_ms());
            self.partials.finished(utterance.channel, utterance.end_ms(), || {});
            return;
        }
        let settings = self.context.effective_settings();
        let threads = Some(self.context.engine().live_threads(configured_threads(&settings)));
        let call = CallOptions { fit_window: true, threads, ..Default::default() };
        let setup = match self.context.meeting_setup(&self.meeting_id) {
            Ok(setup) => setup,
            Err(error) => return self.fail(&error.to_string()),
        };
        let mut engine = EngineUser { engine: self.context.engine(), setup, call };
        let began = Instant::now();
        let result = match transcribe_chunk(&mut engine, &utterance.samples) {
            Ok(result) => result,
            Err(error) => return self.fail(&error.to_string()),
        };
        let transcribed = Instant::now();
        self.language = self.language.take().or(result.language);
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
                speaker: None,
            });
        }
        let ids = match self.context.store().insert_segments(&self.meeting_id, &segments) {
            Ok(ids) => ids,
            Err(error) => return self.fail(&format!("saving the transcript failed: {error}")),
        };
        self.covered.set(utterance.channel, utterance.end_ms());
        let publish = || self.publish(&segments, &ids);
        self.partials.finished(utterance.channel, utterance.end_ms(), publish);
        log_timing(&utterance, began, transcribed, segments.len());
    }

    fn publish(&self, segments: &[NewSegment], ids: &[i64]) {
        let user_name = self.context.effective_settings().general.user_name;
        for (segment, id) in segments.iter().zip(ids) {
            let speaker = segment.channel.speaker(&user_name);
            self.context.events().emit(crate::base::events::segment_new(
                &self.meeting_id,
                &speaker,
                segment,
                Some(*id),
            ));
        }
    }

    fn fail(&mut self, error: &str) {
        if self.failed {
            return;
        }
        self.failed = true;
        tracing::error!(meeting_id = %self.meeting_id, error, "live transcription stopped");
        self.context.events().emit(Event::error(
            format!(
                "live transcription stopped ({error}); the audio is kept and transcribed from the file"
            ),
            Some(self.meeting_id.clone()),
        ));
    }
}

/// Where a line's time went, from the end of its speech to its event:
/// `gate_ms` the pause the voice-activity gate waited for before cutting (in
/// audio time), `wait_ms` from the cut to the engine starting on it (queue,
/// and the engine busy with another line or a file job), `engine_ms` whisper
/// (encoder and decoder), `save_ms` the database and the event.
fn log_timing(utterance: &Utterance, began: Instant, transcribed: Instant, lines: usize) {
    let ms = |d: Duration| d.as_millis() as u64;
    tracing::debug!(
        channel = utterance.channel.as_str(),
        start_ms = utterance.start_ms,
        speech_end_ms = utterance.speech_end_ms,
        length_ms = utterance.samples.len() / 16,
        gate_ms = utterance.cut_position_ms - utterance.speech_end_ms,
        wait_ms = ms(began - utterance.cut_at),
        engine_ms = ms(transcribed - began),
        save_ms = ms(transcribed.elapsed()),
        lines,
        "live line"
    );
}
