//! Which programs have a microphone open: the sound server's capture
//! streams, as they open and close, and which of them belong to a known
//! meeting app ([`apps`]). On Linux the watcher follows the sound server's
//! events (PulseAudio, or PipeWire through `pipewire-pulse`), so it costs
//! nothing while nothing changes; on macOS (Core Audio's process objects)
//! and Windows (WASAPI capture sessions) it lists the capturing programs
//! every two seconds. It never reads audio.

pub mod apps;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "linux")]
mod pulse;
#[cfg(target_os = "windows")]
mod windows;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// One program's capture stream on a microphone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CaptureStream {
    /// The sound server's id of the stream (unique while it lives).
    pub id: u64,
    /// The program's file name (`application.process.binary`; on Windows the
    /// executable's name; on macOS the executable's name).
    pub binary: Option<String>,
    /// The name the program gives itself (`application.name`; the bundle id
    /// on macOS).
    pub name: Option<String>,
    pub pid: Option<u32>,
    /// The program's window title, where the platform tells it.
    pub title: Option<String>,
}

/// What the watcher reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamEvent {
    Opened(CaptureStream),
    Closed {
        id: u64,
    },
    /// The watcher lost the sound server: every stream it reported before is
    /// gone; the ones still open are reported again once it is back.
    Reset,
    /// The watcher cannot see the programs (no sound server, an old OS);
    /// said once until it can again.
    Unavailable(String),
}

/// A running watcher; dropping it stops it (within a few seconds).
pub struct CallWatch {
    stop: Arc<AtomicBool>,
}

impl Drop for CallWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// How long a watcher waits before it tries the sound server again: 1 s,
/// doubling to at most 30 s.
#[cfg(any(target_os = "linux", test))]
pub(crate) fn backoff(attempt: u32) -> Duration {
    Duration::from_secs(1u64 << attempt.min(5)).min(Duration::from_secs(30))
}

/// Starts watching on a thread of its own; events go to `events` until the
/// returned handle is dropped or `events` is closed.
pub fn watch(events: Sender<StreamEvent>) -> std::io::Result<CallWatch> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    std::thread::Builder::new().name("call-watch".into()).spawn(move || run(events, &flag))?;
    Ok(CallWatch { stop })
}

#[cfg(target_os = "linux")]
fn run(events: Sender<StreamEvent>, stop: &AtomicBool) {
    pulse::run(events, stop)
}

#[cfg(any(target_os = "macos", target_os = "windows"))]
fn run(events: Sender<StreamEvent>, stop: &AtomicBool) {
    #[cfg(target_os = "macos")]
    let list = macos::capturing;
    #[cfg(target_os = "windows")]
    let list = windows::capturing;
    poll(events, stop, list)
}

#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
fn run(_events: Sender<StreamEvent>, _stop: &AtomicBool) {}

/// How often the platforms without events are asked.
#[cfg(any(target_os = "macos", target_os = "windows", test))]
const POLL_EVERY: Duration = Duration::from_secs(2);

/// Lists the capturing programs every [`POLL_EVERY`] and reports the changes.
#[cfg(any(target_os = "macos", target_os = "windows", test))]
fn poll(
    events: Sender<StreamEvent>,
    stop: &AtomicBool,
    list: impl Fn() -> Result<Vec<CaptureStream>, String>,
) {
    let mut known = Snapshot::default();
    let mut failing = false;
    while !stop.load(Ordering::Relaxed) {
        match list() {
            Ok(streams) => {
                failing = false;
                for event in known.update(streams) {
                    if events.send(event).is_err() {
                        return;
                    }
                }
            }
            Err(error) if !failing => {
                failing = true;
                if events.send(StreamEvent::Unavailable(error)).is_err() {
                    return;
                }
            }
            Err(_) => {}
        }
        std::thread::sleep(POLL_EVERY);
    }
}

/// The streams last listed, to tell what changed.
#[derive(Debug, Default)]
pub struct Snapshot {
    streams: HashMap<u64, CaptureStream>,
}

impl Snapshot {
    /// Takes a new listing; returns what closed, then what opened (in id order).
    pub fn update(&mut self, listed: Vec<CaptureStream>) -> Vec<StreamEvent> {
        let mut now: HashMap<u64, CaptureStream> =
            listed.into_iter().map(|stream| (stream.id, stream)).collect();
        let mut closed: Vec<u64> =
            self.streams.keys().filter(|id| !now.contains_key(id)).copied().collect();
        closed.sort_unstable();
        let mut opened: Vec<CaptureStream> = now
            .iter()
            .filter(|(id, _)| !self.streams.contains_key(id))
            .map(|(_, stream)| stream.clone())
            .collect();
        opened.sort_by_key(|stream| stream.id);
        std::mem::swap(&mut self.streams, &mut now);
        closed
            .into_iter()
            .map(|id| StreamEvent::Closed { id })
            .chain(opened.into_iter().map(StreamEvent::Opened))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(id: u64, binary: &str) -> CaptureStream {
        CaptureStream { id, binary: Some(binary.into()), ..CaptureStream::default() }
    }

    #[test]
    fn a_snapshot_reports_what_opened_and_what_closed() {
        let mut snapshot = Snapshot::default();
        assert_eq!(
            snapshot.update(vec![stream(2, "zoom"), stream(1, "slack")]),
            vec![StreamEvent::Opened(stream(1, "slack")), StreamEvent::Opened(stream(2, "zoom"))]
        );
        assert_eq!(snapshot.update(vec![stream(2, "zoom"), stream(1, "slack")]), vec![]);
        assert_eq!(
            snapshot.update(vec![stream(2, "zoom"), stream(3, "Discord")]),
            vec![StreamEvent::Closed { id: 1 }, StreamEvent::Opened(stream(3, "Discord"))]
        );
        assert_eq!(
            snapshot.update(vec![]),
            vec![StreamEvent::Closed { id: 2 }, StreamEvent::Closed { id: 3 }]
        );
    }

    #[test]
    fn polling_stops_when_nobody_listens() {
        let (events, received) = std::sync::mpsc::channel();
        drop(received);
        let stop = AtomicBool::new(false);
        // Returns at the first event it cannot deliver, instead of listing forever.
        poll(events, &stop, || Ok(vec![stream(7, "zoom")]));
    }

    #[test]
    fn backoff_doubles_up_to_half_a_minute() {
        let waits: Vec<u64> = (0..8).map(|attempt| backoff(attempt).as_secs()).collect();
        assert_eq!(waits, vec![1, 2, 4, 8, 16, 30, 30, 30]);
    }
}
