//! A recording session: opened by the API, then run on its own thread until
//! stopped or cut short, and concluded the same way in every case.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use recorder_api_types::{Event, RecordingStarted, RecordingStopped, StopReason};
use recorder_capture::chain::{ChainError, ChannelChain, Utterance};
use recorder_capture::journal::{Journal, JournalError};
use recorder_capture::{echo, AudioSource, Capture, Notice};
use recorder_domain::{Channel, MeetingId};
use recorder_store::{MeetingRecord, RecordingEnd};
use recorder_stt::vad::Gate;
use tokio::sync::watch;

use super::countdown::CallOrigin;
use super::ending::{self, SilenceStop};
use super::levels::ChannelWatch;
use super::live::LiveTranscriber;
use super::partial::{self, PartialLines, Request};
use super::{Control, Current};
use crate::base::clock::now_ms;
use crate::base::error::ApiError;
use crate::recording::context::RecordingContext;

const TICK: Duration = Duration::from_millis(20);

/// What a new recording is about.
#[derive(Debug, Clone)]
pub struct StartSpec {
    pub title: String,
    pub source_app: String,
    pub attendees: Vec<String>,
    /// The call it came from (a prompt), which it follows to its end.
    pub origin: Option<CallOrigin>,
    /// The language pinned for it; `None`: `recording.language`.
    pub language: Option<String>,
}

pub struct Started {
    pub meeting: MeetingRecord,
    pub current: Current,
}

/// Opens the files and devices, creates the meeting and starts the threads.
pub async fn start(
    context: RecordingContext,
    source: Arc<dyn AudioSource>,
    spec: StartSpec,
) -> Result<Started, ApiError> {
    let control = Arc::new(Control::new(spec.origin));
    let meeting = MeetingRecord {
        language: spec.language,
        ..MeetingRecord::new_recording(spec.title, spec.source_app, spec.attendees, now_ms())
    };
    let folder = context.data_dir().meeting(&meeting.id);
    let opening = (context.clone(), meeting.clone(), folder);
    let opened =
        tokio::task::spawn_blocking(move || open(&opening.0, &source, &opening.1, &opening.2))
            .await
            .map_err(|error| ApiError::internal("starting the recording", error))?;
    let (capture, mic, sys) = opened?;
    context.events().emit(Event::RecordingStarted(RecordingStarted {
        meeting_id: meeting.id.clone(),
        source_app: meeting.source_app.clone(),
        title: meeting.title.clone(),
        started_at: meeting.started_at,
    }));
    let (done, concluded) = watch::channel(false);
    let current = Current { meeting_id: meeting.id.clone(), control: control.clone(), concluded };
    let partials = Arc::new(PartialLines::default());
    let parts = Parts {
        context: context.clone(),
        meeting: meeting.clone(),
        control,
        capture,
        mic,
        sys,
        done,
        partials,
    };
    std::thread::Builder::new()
        .name("recorder".into())
        .spawn(move || parts.run())
        .map_err(|error| ApiError::internal("starting the recording thread", error))?;
    Ok(Started { meeting, current })
}

/// Files first (audio reaches disk before anything reads it), then devices,
/// then the meeting row. A failure undoes what was done.
fn open(
    context: &RecordingContext,
    source: &Arc<dyn AudioSource>,
    meeting: &MeetingRecord,
    folder: &Path,
) -> Result<(Devices, ChannelChain, ChannelChain), ApiError> {
    let undo = |error: ApiError| {
        let _ = std::fs::remove_dir_all(folder);
        error
    };
    std::fs::create_dir_all(folder)
        .map_err(|e| ApiError::internal("creating the meeting's audio folder", e))?;
    let journal = |channel: Channel| {
        Journal::create(&context.data_dir().audio_file(&meeting.id, channel))
            .map_err(|e| undo(ApiError::internal("creating the audio file", e)))
    };
    let (mic_journal, sys_journal) = (journal(Channel::Mic)?, journal(Channel::Sys)?);
    let capture = source.start().map_err(|error| {
        undo(ApiError::new(
            recorder_api_types::ErrorCode::RecordingUnavailable,
            format!("cannot record: {error}"),
        ))
    })?;
    context
        .store()
        .insert_meeting(meeting, now_ms())
        .map_err(|e| undo(ApiError::internal("saving the meeting", e)))?;
    let Capture { mic, sys, notices, guard } = capture;
    let vad = context.vad().get();
    let mut mic = ChannelChain::new(Channel::Mic, mic, mic_journal, Gate::best(vad.as_ref()));
    let mut sys = ChannelChain::new(Channel::Sys, sys, sys_journal, Gate::best(vad.as_ref()));
    if let Some(models) = context.speaker_models() {
        hear_speakers(context, &meeting.id, models, [&mut mic, &mut sys]);
    }
    Ok((Devices { notices, _guard: guard }, mic, sys))
}

/// Each channel's speakers told apart as it is recorded, and its live lines
/// given them ([`super::live_cast`]).
fn hear_speakers(
    context: &RecordingContext,
    meeting_id: &MeetingId,
    models: super::live_speakers::SpeakerModels,
    chains: [&mut ChannelChain; 2],
) {
    let vad = context.vad().get();
    for chain in chains {
        let gate = Gate::best(vad.as_ref());
        let live = context.live_speakers().start(meeting_id, chain.channel(), models.clone(), gate);
        if let Some(tap) = live {
            chain.tap(tap);
        }
    }
    let (context, meeting_id) = (context.clone(), meeting_id.clone());
    let started = std::thread::Builder::new()
        .name("live-cast".into())
        .spawn(move || super::live_cast::run(&context, &meeting_id));
    if let Err(error) = started {
        tracing::warn!(%error, "live lines keep their channel's speaker");
    }
}

/// The open capture: its notices, and the guard that stops it when dropped.
struct Devices {
    notices: mpsc::Receiver<Notice>,
    _guard: Box<dyn Send>,
}

struct Parts {
    context: RecordingContext,
    meeting: MeetingRecord,
    control: Arc<Control>,
    capture: Devices,
    mic: ChannelChain,
    sys: ChannelChain,
    done: watch::Sender<bool>,
    partials: Arc<PartialLines>,
}

impl Parts {
    fn run(mut self) {
        let live = self.start_live();
        let error = self.record_until_stopped(&live);
        self.conclude(live, error);
    }

    /// The live transcriber runs on its own thread until it has finished
    /// the queue after capture ends (its sender is dropped).
    fn start_live(&self) -> Sender<Utterance> {
        let (utterances, receiver) = mpsc::channel();
        let transcriber = LiveTranscriber::new(
            self.context.clone(),
            self.meeting.id.clone(),
            self.partials.clone(),
        );
        let turn = self.context.recorder().live_turn();
        let started = std::thread::Builder::new().name("live-transcript".into()).spawn(move || {
            let _turn = turn;
            transcriber.run(receiver)
        });
        if let Err(error) = started {
            tracing::error!(%error, "cannot start live transcription");
        }
        utterances
    }

    /// Pumps both channels every tick. Returns why it ended early, if it did.
    fn record_until_stopped(&mut self, live: &Sender<Utterance>) -> Option<String> {
        let mut utterances = Vec::new();
        let mut watch = ChannelWatch::new(self.meeting.id.clone());
        let mut reported_ms = [0; 2];
        let mut asked = [None, None];
        let mut silence = SilenceStop::default();
        let mut muted = false;
        loop {
            if self.control.call_countdown_over(now_ms()) {
                self.control.stop_because(StopReason::CallEnded);
            }
            let stopping = self.control.stop.load(Ordering::Relaxed);
            let paused = self.control.paused();
            if self.control.muted() != muted {
                muted = !muted;
                self.mic.set_muted(muted);
                ending::mark_muted(&self.context, &self.meeting.id, muted, self.mic.recorded_ms());
            }
            for chain in [&mut self.mic, &mut self.sys] {
                if let Err(error) = chain.pump(paused, &mut utterances) {
                    return Some(describe(&error));
                }
            }
            if let Some(message) = self.read_notices(&mut watch) {
                return Some(message);
            }
            let recorded = self.mic.recorded_ms().max(self.sys.recorded_ms());
            self.control.recorded_ms.store(recorded, Ordering::Relaxed);
            if watch.due() {
                self.report_overruns(&watch);
                let peaks = [self.mic.take_peak(), self.sys.take_peak()];
                let now_ms = [self.mic.recorded_ms(), self.sys.recorded_ms()];
                let new_ms = [now_ms[0] - reported_ms[0], now_ms[1] - reported_ms[1]];
                for event in watch.observe(new_ms, peaks) {
                    self.context.events().emit(event);
                }
                reported_ms = now_ms;
                let quiet_ms = watch.quiet_both_ms();
                if silence.check(&self.context, &self.control, &self.meeting.id, quiet_ms) {
                    self.control.stop_because(StopReason::Silence);
                }
            }
            judge_echo(&self.sys, &mut utterances);
            send_remote_first(live, &mut utterances);
            if !paused {
                self.request_partials(&mut asked);
            }
            if stopping {
                return None;
            }
            std::thread::sleep(TICK);
        }
    }

    /// Asks for a partial line of each utterance being spoken, once it is
    /// long enough and then about every second (not for an echo).
    fn request_partials(&self, asked: &mut [Option<(i64, Instant)>; 2]) {
        for (at, chain) in [&self.mic, &self.sys].into_iter().enumerate() {
            let Some((start_ms, speech_end_ms)) = chain.open_span() else { continue };
            let recent = asked[at]
                .is_some_and(|(start, when)| start == start_ms && when.elapsed() < partial::EVERY);
            if speech_end_ms - start_ms < partial::FIRST_AFTER_MS || recent {
                continue;
            }
            let Some(open) = chain.open_utterance() else { continue };
            if chain.channel() == Channel::Mic {
                let (from, audio) = self.sys.history().range(
                    open.start_ms - echo::MAX_DELAY_MS,
                    open.start_ms + open.samples.len() as i64 / 16,
                );
                if echo_in(open.start_ms, &open.samples, from, &audio) {
                    continue;
                }
            }
            asked[at] = Some((start_ms, Instant::now()));
            let (channel, samples) = (chain.channel(), open.samples);
            self.partials.request(Request { channel, start_ms: open.start_ms, samples });
        }
    }

    /// Audio the capture side had to drop (the ring was full) is logged and
    /// told to the person; it is never dropped silently.
    fn report_overruns(&mut self, watch: &ChannelWatch) {
        for chain in [&mut self.mic, &mut self.sys] {
            let lost_ms = chain.take_overrun_ms();
            if lost_ms > 0 {
                let channel = chain.channel();
                tracing::warn!(
                    channel = channel.as_str(),
                    lost_ms,
                    "capture ring overrun: audio lost"
                );
                self.context.events().emit(watch.overrun(channel, lost_ms));
            }
        }
    }

    fn read_notices(&self, watch: &mut ChannelWatch) -> Option<String> {
        for notice in self.capture.notices.try_iter() {
            match notice {
                Notice::DeviceChanged { channel, device } => {
                    tracing::info!(
                        channel = channel.as_str(),
                        device,
                        "now recording from another device"
                    );
                }
                Notice::Failed { channel, message } => {
                    if let Some(event) = watch.failed(channel, message.clone()) {
                        self.context.events().emit(event);
                    }
                    return Some(format!(
                        "the {} stream stopped: {message}",
                        channel_name(channel)
                    ));
                }
            }
        }
        None
    }

    /// Closes the files (their last utterances go to the live transcriber),
    /// moves the meeting to `transcribing`, then lets the transcriber finish
    /// its queue.
    fn conclude(self, live: Sender<Utterance>, mut error: Option<String>) {
        let Parts { context, meeting, control, capture, mic, sys, done, .. } = self;
        drop(capture); // devices stop; what they captured is still in the rings
        let paused = control.paused();
        let mut tail = Vec::new();
        let mut longest = 0u64;
        let remote_history = sys.history().range(0, i64::MAX);
        for chain in [mic, sys] {
            match chain.finish(paused, &mut tail) {
                Ok(samples) => longest = longest.max(samples),
                Err(failure) => error = error.or(Some(describe(&failure))),
            }
        }
        let (from, remote) = remote_history;
        for utterance in tail.iter_mut().filter(|u| u.channel == Channel::Mic) {
            utterance.echo = echo_in(utterance.start_ms, &utterance.samples, from, &remote);
        }
        send_remote_first(&live, &mut tail);
        let message = error.map(|e| {
            format!("The recording stopped early: {e}. The audio captured until then was kept.")
        });
        let end = RecordingEnd {
            ended_at: now_ms(),
            duration_ms: (longest / 16) as i64,
            error: message.clone(),
        };
        let reason = if message.is_some() { StopReason::Error } else { control.stop_reason() };
        if !hand_over(&context, &meeting.id, &end, message.as_deref(), reason) {
            // Finished by `Recorder::finish_stranded` once the database takes it.
            context.recorder().strand(&meeting.id, end);
        }
        // Only now may the live transcriber finish its queue: were it to finish
        // first, the meeting would reach `summarising` before `transcribing` and
        // `recording.stopped` would come after `meeting.updated`.
        drop(live);
        context.recorder().concluded(&meeting.id);
        let _ = done.send(true);
    }
}

/// Marks the microphone utterances that only repeat the remote side's audio.
fn judge_echo(remote: &ChannelChain, utterances: &mut [Utterance]) {
    for utterance in utterances.iter_mut().filter(|u| u.channel == Channel::Mic) {
        let (from, audio) =
            remote.history().range(utterance.start_ms - echo::MAX_DELAY_MS, utterance.end_ms());
        utterance.echo = echo_in(utterance.start_ms, &utterance.samples, from, &audio);
    }
}

/// Whether mic audio `samples` from `start_ms` echoes `remote`, audio of
/// the remote channel that starts `from` samples into the recording.
fn echo_in(start_ms: i64, samples: &[f32], from: u64, remote: &[f32]) -> bool {
    let start = u64::try_from(start_ms.max(0)).unwrap_or(0) * 16;
    let Some(lead) = start.checked_sub(from).and_then(|lead| usize::try_from(lead).ok()) else {
        return false;
    };
    let Some(window) = remote.get(..(lead + samples.len()).min(remote.len())) else {
        return false;
    };
    echo::is_echo(samples, window, lead)
}

/// Hands a tick's utterances to the live transcriber, the remote side's first:
/// the transcriber may wake at the first one, and a microphone line cut in the
/// same tick as the remote line it echoes must not be transcribed before it.
fn send_remote_first(live: &Sender<Utterance>, utterances: &mut Vec<Utterance>) {
    utterances.sort_by_key(|utterance| utterance.channel == Channel::Mic);
    for utterance in utterances.drain(..) {
        let _ = live.send(utterance);
    }
}

/// Moves the meeting to `transcribing` and tells listeners; shared with
/// crash recovery. False when the database refused (a full disk, say): the
/// person is told, and the caller leaves it to be finished later.
pub fn hand_over(
    context: &RecordingContext,
    meeting_id: &MeetingId,
    end: &RecordingEnd,
    error: Option<&str>,
    reason: StopReason,
) -> bool {
    match context.store().end_recording(meeting_id, end, now_ms()) {
        Ok(meeting) => {
            if let Some(message) = error {
                context.events().emit(Event::error(message, Some(meeting_id.to_owned())));
            }
            context.events().emit(Event::RecordingStopped(RecordingStopped {
                meeting_id: meeting_id.to_owned(),
                status: meeting.status,
                reason,
            }));
            true
        }
        Err(failure) => {
            tracing::error!(%meeting_id, error = %failure, "could not end the recording in the database");
            let message = if crate::base::error::is_storage_full(&failure.to_string()) {
                "The disk is full: the recording stopped, and its end could not be saved yet. \
                 The audio captured until then is kept; the meeting is finished as soon as \
                 there is space again."
                    .to_string()
            } else {
                format!("could not save the end of the recording ({failure}); it is tried again")
            };
            context.events().emit(Event::error(message, Some(meeting_id.to_owned())));
            false
        }
    }
}

fn describe(error: &ChainError) -> String {
    match error {
        ChainError::Journal(JournalError::DiskFull { .. }) => "the disk is full".into(),
        other => other.to_string(),
    }
}

fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Mic => "microphone",
        Channel::Sys => "system audio",
    }
}
