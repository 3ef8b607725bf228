//! A recording's speakers told apart while it is recorded. Each channel's
//! audio, tapped from the recorder ([`Recorded`]), goes through
//! [`ChannelSpeakers`] on a thread of its own, below live transcription's
//! priority: the 1.5 s windows are embedded and the segmentation model runs
//! as the meeting goes. Once it ends, the notes job
//! ([`crate::pipeline::speakers`]) only concludes (groups what was embedded)
//! instead of reading an hour of audio again. A worker that fell behind,
//! failed, or did not hear the whole channel answers nothing, and the job
//! reads the file as it does for an import.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use recorder_capture::chain::{Recorded, TAP_BLOCKS};
use recorder_domain::{Channel, MeetingId};
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::channel::ChannelSpeakers;
use recorder_stt::speaker::diarize::Diarization;
use recorder_stt::speaker::segmentation::Segmentation;
use recorder_stt::vad::Gate;

/// The speaker model, and the segmentation model when installed.
pub type SpeakerModels = (Arc<CamPlusPlus>, Option<Arc<Segmentation>>);

/// Workers of ended recordings wait this many at most for their notes job;
/// an older one is let go (its job reads the file).
const KEPT: usize = 4;
/// How often a wait for a worker asks whether the service is stopping.
const STOP_CHECK: Duration = Duration::from_millis(200);
/// A worker groups the windows it has at most this often while recording,
/// for the live lines (`recording/live_cast.rs`).
const SO_FAR_EVERY: Duration = Duration::from_secs(2);

/// The speakers a worker found so far, and how many times it said so.
#[derive(Default)]
pub struct SoFar {
    pub version: u64,
    pub found: Option<Arc<Diarization>>,
}

type Shared = Arc<Mutex<SoFar>>;

#[derive(Default)]
pub struct LiveSpeakers {
    workers: Mutex<VecDeque<Worker>>,
}

struct Worker {
    meeting_id: MeetingId,
    channel: Channel,
    asks: Sender<Ask>,
    so_far: Shared,
}

/// Where the channel's kept lines are, and where to answer.
struct Ask {
    within: Option<Vec<(usize, usize)>>,
    reply: Sender<Option<Diarization>>,
}

impl LiveSpeakers {
    /// Starts `channel`'s worker; returns the tap the recorder feeds.
    pub fn start(
        &self,
        meeting_id: &MeetingId,
        channel: Channel,
        models: SpeakerModels,
        gate: Gate,
    ) -> Option<SyncSender<Recorded>> {
        let (taps, tapped) = mpsc::sync_channel(TAP_BLOCKS);
        let (asks, asked) = mpsc::channel();
        let owner = (meeting_id.clone(), channel);
        let so_far = Shared::default();
        let told = so_far.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("speakers-{}", channel.as_str()))
            .spawn(move || work(models, gate, (tapped, asked, told), owner));
        if let Err(error) = spawned {
            tracing::warn!(%error, "cannot tell speakers apart live; the file will be read");
            return None;
        }
        let mut workers = self.workers();
        workers.push_back(Worker { meeting_id: meeting_id.clone(), channel, asks, so_far });
        while workers.len() > KEPT {
            workers.pop_front();
        }
        Some(taps)
    }

    /// What `channel`'s worker found within `within` once it has heard all
    /// of it (waiting for what it still holds); `None` without a worker
    /// that heard the whole channel, or when `stop` says so.
    pub fn conclude(
        &self,
        meeting_id: &MeetingId,
        channel: Channel,
        within: Option<Vec<(usize, usize)>>,
        stop: &dyn Fn() -> bool,
    ) -> Option<Diarization> {
        let worker = {
            let mut workers = self.workers();
            let at =
                workers.iter().position(|w| w.meeting_id == *meeting_id && w.channel == channel)?;
            workers.remove(at)?
        };
        let (reply, answer) = mpsc::channel();
        worker.asks.send(Ask { within, reply }).ok()?;
        loop {
            match answer.recv_timeout(STOP_CHECK) {
                Ok(found) => return found,
                Err(RecvTimeoutError::Timeout) if !stop() => {}
                Err(_) => return None,
            }
        }
    }

    /// What `channel`'s worker found so far: its version, and the speakers.
    pub fn so_far(
        &self,
        meeting_id: &MeetingId,
        channel: Channel,
    ) -> (u64, Option<Arc<Diarization>>) {
        let workers = self.workers();
        let worker = workers.iter().find(|w| w.meeting_id == *meeting_id && w.channel == channel);
        worker.map_or((0, None), |w| {
            let so_far = lock(&w.so_far);
            (so_far.version, so_far.found.clone())
        })
    }

    fn workers(&self) -> MutexGuard<'_, VecDeque<Worker>> {
        self.workers.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn lock(so_far: &Shared) -> MutexGuard<'_, SoFar> {
    so_far.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

type Inbox = (Receiver<Recorded>, Receiver<Ask>, Shared);

fn work(models: SpeakerModels, gate: Gate, inbox: Inbox, owner: (MeetingId, Channel)) {
    lower_priority();
    let (tapped, asked, so_far) = inbox;
    let (embedder, segmentation) = models;
    let mut speakers =
        ChannelSpeakers::new(&embedder, segmentation.as_deref(), gate).embedding_each_utterance();
    let heard = hear(&mut speakers, &tapped, &so_far);
    let (meeting_id, channel) = (owner.0, owner.1.as_str());
    match &heard {
        Ok(()) => tracing::debug!(%meeting_id, channel, "speakers heard live"),
        Err(why) => tracing::info!(%meeting_id, channel, why, "speakers: the file will be read"),
    }
    // Until the notes job asks (or this worker is let go).
    for ask in asked {
        let found = heard.is_ok().then(|| speakers.conclude(ask.within.as_deref()));
        let _ = ask.reply.send(found);
    }
}

/// Pushes the channel's audio until it ends, telling `so_far` the speakers
/// of the windows every [`SO_FAR_EVERY`] when there are new ones; `Err`
/// says why it is not whole.
fn hear(
    speakers: &mut ChannelSpeakers,
    tapped: &Receiver<Recorded>,
    so_far: &Shared,
) -> Result<(), String> {
    let mut failed = None;
    let (mut told, mut windows) = (Instant::now(), 0);
    for recorded in tapped {
        match recorded {
            Recorded::Samples(block) if failed.is_none() => {
                failed = speakers.push(&block).err().map(|e| e.to_string());
                if speakers.windows() > windows && told.elapsed() >= SO_FAR_EVERY {
                    (told, windows) = (Instant::now(), speakers.windows());
                    let found = Arc::new(speakers.windows_only(None));
                    let mut shared = lock(so_far);
                    shared.version += 1;
                    shared.found = Some(found);
                }
            }
            Recorded::Samples(_) => {}
            Recorded::Ended => {
                return match failed {
                    Some(error) => Err(error),
                    None => speakers.finish().map_err(|e| e.to_string()),
                };
            }
        }
    }
    Err("it fell behind, or the recording did not end whole".to_owned())
}

/// Live transcription goes first: this thread (and the threads it starts)
/// run at nice 10 (25 of thread-priority's 0–99 scale).
#[cfg(target_os = "linux")]
fn lower_priority() {
    use thread_priority::{NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy};
    let other = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other);
    let id = thread_priority::thread_native_id();
    let lower = 25u8.try_into().map(ThreadPriority::Crossplatform);
    let set = |p| {
        thread_priority::set_thread_priority_and_policy(id, p, other).map_err(|e| format!("{e:?}"))
    };
    if let Err(error) = lower.and_then(set) {
        tracing::warn!(?error, "live speakers run at normal priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}
