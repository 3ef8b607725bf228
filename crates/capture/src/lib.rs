//! Audio capture for live recordings.
//!
//! A [`AudioSource`] opens two streams, `mic` (the local microphone) and `sys`
//! (what the computer plays: everyone else). Each stream hands the recorder
//! [`Feed`]s: a lock-free ring of interleaved samples in a fixed format. The
//! capture callback only copies into the ring; downmix, resampling, writing
//! and voice activity happen on the recorder's thread ([`chain`]). When a
//! backend follows a new default device it opens a new feed, padded with the
//! silence of the switch so both channels stay on the capture clock.

pub mod calls;
pub mod chain;
#[cfg(any(target_os = "linux", target_os = "macos", target_os = "windows"))]
pub mod devices;
pub mod echo;
pub mod files;
pub mod journal;
#[cfg(target_os = "linux")]
pub mod pulse;

use std::sync::atomic::{AtomicU64, Ordering};
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
    /// Samples the capture side dropped because the ring was full (the
    /// recorder thread fell behind by more than the ring holds).
    pub overruns: Arc<AtomicU64>,
}

/// The capture side of a feed's ring: what does not fit is dropped, never
/// waited for (a capture callback must not block), and counted.
pub struct RingWriter {
    ring: rtrb::Producer<f32>,
    overruns: Arc<AtomicU64>,
}

impl RingWriter {
    pub fn write(&mut self, samples: &[f32]) {
        let (_, rest) = self.ring.push_partial_slice(samples);
        if !rest.is_empty() {
            self.overruns.fetch_add(rest.len() as u64, Ordering::Relaxed);
        }
    }

    /// Room left in the ring, in samples.
    pub fn slots(&self) -> usize {
        self.ring.slots()
    }
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
pub fn new_feed(format: Format, seconds: f64, device: String) -> (RingWriter, Feed) {
    let (producer, consumer) = rtrb::RingBuffer::new(ring_capacity(format, seconds));
    let overruns = Arc::new(AtomicU64::new(0));
    let writer = RingWriter { ring: producer, overruns: overruns.clone() };
    (writer, Feed { format, samples: consumer, device, overruns })
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

/// Where a service's audio comes from: devices (a backend by name, or the
/// platform's default), or two WAV files played as the microphone and the
/// other side (`--mic-file`, `--sys-file`, `--audio-speed`: demos and tests).
/// With the `clap` feature it is the command-line options of `recorder serve`
/// and `recorder-desktop`.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct SourceChoice {
    /// Capture backend: pipewire or pulseaudio on Linux (default: PipeWire
    /// when it runs, else PulseAudio); env RECORDER_AUDIO_BACKEND
    #[cfg_attr(
        feature = "clap",
        arg(long = "audio-backend", value_name = "NAME", env = "RECORDER_AUDIO_BACKEND")
    )]
    pub backend: Option<String>,
    /// Play this WAV file as the microphone (for demos and tests)
    #[cfg_attr(feature = "clap", arg(long, value_name = "A.wav"))]
    pub mic_file: Option<std::path::PathBuf>,
    /// Play this WAV file as the system audio (the other side of the call)
    #[cfg_attr(feature = "clap", arg(long, value_name = "B.wav"))]
    pub sys_file: Option<std::path::PathBuf>,
    /// Play the files X times faster than real time
    #[cfg_attr(
        feature = "clap",
        arg(long = "audio-speed", value_name = "X", default_value_t = 1.0)
    )]
    pub speed: f64,
}

impl SourceChoice {
    /// The source chosen, or a message for the person who chose it.
    pub fn open(
        &self,
        pipewire_dir: Option<&std::path::Path>,
    ) -> Result<Arc<dyn AudioSource>, String> {
        if self.mic_file.is_none() && self.sys_file.is_none() {
            return platform_source(self.backend.as_deref(), pipewire_dir);
        }
        if !(self.speed.is_finite() && self.speed > 0.0) {
            return Err("--audio-speed must be a number above 0".into());
        }
        for path in [&self.mic_file, &self.sys_file].into_iter().flatten() {
            if !path.is_file() {
                return Err(format!("no audio file at {}", path.display()));
            }
        }
        let absolute = |path: &Option<std::path::PathBuf>| {
            path.as_ref().map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
        };
        Ok(Arc::new(files::FileSource {
            mic: absolute(&self.mic_file),
            sys: absolute(&self.sys_file),
            speed: self.speed,
        }))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_that_do_not_fit_the_ring_are_counted_not_waited_for() {
        let format = Format { rate: 1_000, channels: 1 };
        let (mut writer, feed) = new_feed(format, 1.0, "test".into());
        let capacity = ring_capacity(format, 1.0);
        writer.write(&vec![0.5; capacity - 10]);
        assert_eq!(feed.overruns.load(Ordering::Relaxed), 0);
        writer.write(&[0.5; 25]);
        assert_eq!(feed.overruns.load(Ordering::Relaxed), 15, "10 fitted, 15 were dropped");
        assert_eq!(feed.samples.slots(), capacity, "what fitted is readable");
    }
}
