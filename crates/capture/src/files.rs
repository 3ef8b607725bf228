//! Files in place of devices (`recorder serve --mic-file A.wav --sys-file
//! B.wav`): each file plays from its beginning when a recording starts, at
//! real-time pace times `speed`, then silence. For demos and deterministic
//! tests; the rest of the chain is the same as with real devices.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use recorder_domain::Channel;
use recorder_stt::audio::{self, AudioStream, SAMPLE_RATE};

use crate::{new_feed, AudioSource, Capture, CaptureError, Feed, Format, Notice, Workers};

const TICK: Duration = Duration::from_millis(20);
const FORMAT: Format = Format { rate: SAMPLE_RATE, channels: 1 };

/// Plays two WAV files as if they were the two devices.
pub struct FileSource {
    pub mic: Option<PathBuf>,
    pub sys: Option<PathBuf>,
    /// 1.0 is real time; 4.0 plays four times faster.
    pub speed: f64,
}

impl AudioSource for FileSource {
    fn name(&self) -> &'static str {
        "files"
    }

    fn start(&self) -> Result<Capture, CaptureError> {
        let (mic_tx, mic) = mpsc::channel();
        let (sys_tx, sys) = mpsc::channel();
        let (_notice_tx, notices) = mpsc::channel::<Notice>();
        let stop = Arc::new(AtomicBool::new(false));
        let players = [(Channel::Mic, &self.mic, mic_tx), (Channel::Sys, &self.sys, sys_tx)]
            .into_iter()
            .map(|(channel, path, feeds)| {
                let stream = open(path.as_ref())?;
                spawn_player(channel, stream, self.speed, feeds, stop.clone())
            })
            .collect::<Result<Vec<_>, CaptureError>>()?;
        Ok(Capture { mic, sys, notices, guard: Box::new(Workers { stop, threads: players }) })
    }
}

fn open(path: Option<&PathBuf>) -> Result<Option<Box<dyn AudioStream>>, CaptureError> {
    path.map(|path| {
        audio::open(path, None).map_err(|error| CaptureError::File {
            path: path.display().to_string(),
            message: error.to_string(),
        })
    })
    .transpose()
}

fn spawn_player(
    channel: Channel,
    stream: Option<Box<dyn AudioStream>>,
    speed: f64,
    feeds: Sender<Feed>,
    stop: Arc<AtomicBool>,
) -> Result<JoinHandle<()>, CaptureError> {
    let speed = if speed.is_finite() && speed > 0.0 { speed } else { 1.0 };
    std::thread::Builder::new()
        .name(format!("file-{}", channel.as_str()))
        .spawn(move || play(stream, speed, feeds, &stop))
        .map_err(|error| CaptureError::Open {
            channel: channel.as_str(),
            message: format!("cannot start a player thread: {error}"),
        })
}

/// Pushes the samples due by the clock every tick: the file, then zeros.
fn play(
    mut stream: Option<Box<dyn AudioStream>>,
    speed: f64,
    feeds: Sender<Feed>,
    stop: &AtomicBool,
) {
    let (mut ring, feed) = new_feed(FORMAT, 2.0 * speed.max(1.0), "file".into());
    if !crate::hand_over(&feeds, feed) {
        return;
    }
    let started = Instant::now();
    let mut pushed: u64 = 0;
    let mut block = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        let due = (started.elapsed().as_secs_f64() * SAMPLE_RATE as f64 * speed) as u64;
        let wanted = usize::try_from(due.saturating_sub(pushed)).unwrap_or(0).min(ring.slots());
        block.clear();
        if let Some(file) = stream.as_mut() {
            while block.len() < wanted {
                let missing = wanted - block.len();
                match file.read(&mut block, missing) {
                    Ok(0) | Err(_) => {
                        stream = None;
                        break;
                    }
                    Ok(_) => {}
                }
            }
        }
        block.resize(wanted, 0.0);
        ring.write(&block);
        pushed += wanted as u64;
    }
}
