//! Audio capture for live recordings.
//!
//! A [`AudioSource`] opens two streams, `mic` (the local microphone) and `sys`
//! (what the computer plays: everyone else). Each stream hands the recorder
//! [`Feed`]s: a lock-free ring of interleaved samples in a fixed format. The
//! capture callback only copies into the ring; downmix, resampling, writing
//! and voice activity happen on the recorder's thread ([`chain`]). When a
//! backend follows a new default device it opens a new feed, padded with the
//! silence of the switch so both channels stay on the capture clock.

pub mod chain;
#[cfg(any(target_os = "linux", target_os = "macos", target_os = "windows"))]
pub mod devices;
pub mod files;
pub mod journal;
#[cfg(target_os = "linux")]
pub mod pulse;

use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

use recorder_domain::Channel;

/// Samples of a feed: interleaved `f32`, `channels` per frame, at `rate` Hz.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub rate: u32,
    pub channels: u16,
}

/// One opened device stream. A backend replaces it by sending a new feed.
pub struct Feed {
    pub format: Format,
    pub samples: rtrb::Consumer<f32>,
    /// The device it reads, for logs and events.
    pub device: String,
}

/// What a backend reports besides samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The stream moved to another device (the default changed).
    DeviceChanged { channel: Channel, device: String },
    /// The stream cannot go on (the device or the sound server went away).
    Failed { channel: Channel, message: String },
}

/// The two channels of a started capture. Dropping it stops the capture.
pub struct Capture {
    pub mic: Receiver<Feed>,
    pub sys: Receiver<Feed>,
    pub notices: Receiver<Notice>,
    /// Stops the backend's threads and streams when dropped.
    pub guard: Box<dyn Send>,
}

#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error("cannot open the {channel} device: {message}")]
    Open { channel: &'static str, message: String },
    #[error("cannot read the audio file {path}: {message}")]
    File { path: String, message: String },
}

/// A capture backend: the seam between the recorder and the platform.
pub trait AudioSource: Send + Sync {
    /// A short name for logs and health ("pulseaudio", "files", …).
    fn name(&self) -> &'static str;
    /// Starts both streams. Nothing is read before this call.
    fn start(&self) -> Result<Capture, CaptureError>;
}

/// Ring capacity for `seconds` of audio in `format`.
pub fn ring_capacity(format: Format, seconds: f64) -> usize {
    ((format.rate as f64 * format.channels as f64 * seconds) as usize).max(4096)
}

/// A new ring and the feed that reads it.
pub fn new_feed(format: Format, seconds: f64, device: String) -> (rtrb::Producer<f32>, Feed) {
    let (producer, consumer) = rtrb::RingBuffer::new(ring_capacity(format, seconds));
    (producer, Feed { format, samples: consumer, device })
}

/// A backend's threads: dropping it (the [`Capture::guard`]) raises the stop
/// flag and waits for every thread to end.
pub(crate) struct Workers {
    pub stop: Arc<std::sync::atomic::AtomicBool>,
    pub threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Sends a feed; a recorder that has gone away simply stops listening.
pub(crate) fn hand_over(to: &Sender<Feed>, feed: Feed) -> bool {
    to.send(feed).is_ok()
}

/// The capture backends built for this platform, by name.
pub fn backends() -> &'static [&'static str] {
    if cfg!(target_os = "linux") {
        &["pipewire", "pulseaudio"]
    } else if cfg!(target_os = "macos") {
        &["coreaudio"]
    } else if cfg!(target_os = "windows") {
        &["wasapi"]
    } else {
        &[]
    }
}

/// A backend by name (see [`backends`]); `None` picks the platform's default:
/// on Linux PipeWire's native host when a PipeWire server runs, else PulseAudio.
/// `pipewire_dir` is where PipeWire's socket would be (its runtime folder).
pub fn platform_source(
    name: Option<&str>,
    pipewire_dir: Option<&std::path::Path>,
) -> Result<Arc<dyn AudioSource>, String> {
    match name {
        None => Ok(platform::default_source(pipewire_dir)),
        Some(name) => platform::named(name).ok_or_else(|| {
            format!("unknown audio backend {name}; this build has: {}", backends().join(", "))
        }),
    }
}

#[cfg(target_os = "linux")]
mod platform {
    use super::*;

    pub fn default_source(pipewire_dir: Option<&std::path::Path>) -> Arc<dyn AudioSource> {
        if pipewire_dir.is_some_and(|folder| folder.join("pipewire-0").exists()) {
            Arc::new(devices::DeviceSource)
        } else {
            Arc::new(pulse::PulseSource)
        }
    }

    pub fn named(name: &str) -> Option<Arc<dyn AudioSource>> {
        match name {
            "pipewire" => Some(Arc::new(devices::DeviceSource)),
            "pulseaudio" | "pulse" => Some(Arc::new(pulse::PulseSource)),
            _ => None,
        }
    }
}

#[cfg(any(target_os = "macos", target_os = "windows"))]
mod platform {
    use super::*;

    pub fn default_source(_: Option<&std::path::Path>) -> Arc<dyn AudioSource> {
        Arc::new(devices::DeviceSource)
    }

    pub fn named(name: &str) -> Option<Arc<dyn AudioSource>> {
        backends().contains(&name).then(|| default_source(None))
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
mod platform {
    use super::*;

    /// No capture backend exists for this system: recordings are refused.
    struct Unavailable;

    impl AudioSource for Unavailable {
        fn name(&self) -> &'static str {
            "none"
        }
        fn start(&self) -> Result<Capture, CaptureError> {
            Err(CaptureError::Open {
                channel: "mic",
                message: "no capture backend for this system".into(),
            })
        }
    }

    pub fn default_source(_: Option<&std::path::Path>) -> Arc<dyn AudioSource> {
        Arc::new(Unavailable)
    }

    pub fn named(_: &str) -> Option<Arc<dyn AudioSource>> {
        None
    }
}
