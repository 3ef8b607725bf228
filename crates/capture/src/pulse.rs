//! PulseAudio (also PipeWire through `pipewire-pulse`) with libpulse-simple:
//! `mic` records the default source, `sys` the monitor of the default sink
//! (what the computer plays). Each channel has a thread that reads 20 ms
//! fragments (the blocking read is this backend's "callback": it only copies
//! into the ring) and asks the server twice a second which devices are the
//! defaults: when one changes (headphones plugged in), the stream is opened
//! again on the new device, padded with the silence of the switch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use libpulse_binding as pa;
use libpulse_simple_binding::Simple;
use recorder_domain::Channel;

use crate::{
    new_feed, AudioSource, Capture, CaptureError, Feed, Format, Notice, RingWriter, Workers,
};

const FORMAT: Format = Format { rate: 48_000, channels: 2 };
const FRAGMENT_MS: u64 = 20;
const CHECK_DEFAULTS_EVERY: Duration = Duration::from_millis(500);
/// A stream that cannot be opened again for this long ends the recording.
const GIVE_UP_AFTER: Duration = Duration::from_secs(3);

pub struct PulseSource;

impl AudioSource for PulseSource {
    fn name(&self) -> &'static str {
        "pulseaudio"
    }

    fn start(&self) -> Result<Capture, CaptureError> {
        let (mic_tx, mic) = mpsc::channel();
        let (sys_tx, sys) = mpsc::channel();
        let (notice_tx, notices) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Workers { stop: stop.clone(), threads: Vec::new() };
        for (channel, feeds) in [(Channel::Mic, mic_tx), (Channel::Sys, sys_tx)] {
            let (opened_tx, opened) = mpsc::channel();
            let reader = Reader { channel, feeds, notices: notice_tx.clone(), stop: stop.clone() };
            let thread = std::thread::Builder::new()
                .name(format!("pulse-{}", channel.as_str()))
                .spawn(move || reader.run(opened_tx))
                .map_err(|e| open_error(channel, e.to_string()))?;
            threads.threads.push(thread);
            let first = opened.recv_timeout(Duration::from_secs(5));
            match first {
                Ok(Ok(())) => {}
                Ok(Err(message)) => return Err(open_error(channel, message)),
                Err(_) => {
                    return Err(open_error(channel, "the sound server did not answer".into()))
                }
            }
        }
        Ok(Capture { mic, sys, notices, guard: Box::new(threads) })
    }
}

fn open_error(channel: Channel, message: String) -> CaptureError {
    CaptureError::Open { channel: channel.as_str(), message }
}

struct Reader {
    channel: Channel,
    feeds: Sender<Feed>,
    notices: Sender<Notice>,
    stop: Arc<AtomicBool>,
}

struct Open {
    device: String,
    stream: Simple,
    ring: RingWriter,
}

impl Reader {
    fn run(self, opened: Sender<Result<(), String>>) {
        let mut server = ServerWatch::connect();
        let mut current = match self.open(server.as_mut(), None) {
            Ok(open) => {
                let _ = opened.send(Ok(()));
                open
            }
            Err(message) => {
                let _ = opened.send(Err(message));
                return;
            }
        };
        let mut last_check = Instant::now();
        let mut fragment = vec![0u8; bytes_per_fragment()];
        let mut samples = Vec::with_capacity(fragment.len() / 4);
        while !self.stop.load(Ordering::Relaxed) {
            if last_check.elapsed() >= CHECK_DEFAULTS_EVERY {
                last_check = Instant::now();
                let wanted = self.device(server.as_mut());
                if wanted != current.device {
                    match self.reopen(&mut server, Instant::now()) {
                        Ok(next) => current = self.switched(next),
                        Err(message) => return self.failed(message),
                    }
                }
            }
            if current.stream.read(&mut fragment).is_ok() {
                push(&mut current.ring, &fragment, &mut samples);
                continue;
            }
            // The device or the server went away: try again, then give up.
            match self.reopen(&mut server, Instant::now()) {
                Ok(next) => current = self.switched(next),
                Err(message) => return self.failed(message),
            }
        }
    }

    fn switched(&self, next: Open) -> Open {
        let _ = self
            .notices
            .send(Notice::DeviceChanged { channel: self.channel, device: next.device.clone() });
        next
    }

    fn failed(&self, message: String) {
        if self.stop.load(Ordering::Relaxed) {
            return; // stopping on purpose is not a failure
        }
        let _ = self.notices.send(Notice::Failed { channel: self.channel, message });
    }

    /// Opens the current default again, for up to [`GIVE_UP_AFTER`]; the time
    /// it took is recorded as silence so the channels stay aligned.
    fn reopen(&self, server: &mut Option<ServerWatch>, since: Instant) -> Result<Open, String> {
        loop {
            if server.is_none() {
                *server = ServerWatch::connect();
            }
            match self.open(server.as_mut(), Some(since)) {
                Ok(open) => return Ok(open),
                Err(message) if since.elapsed() >= GIVE_UP_AFTER => return Err(message),
                Err(_) => {
                    *server = None;
                    std::thread::sleep(Duration::from_millis(200));
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                return Err("stopped".into());
            }
        }
    }

    fn open(
        &self,
        server: Option<&mut ServerWatch>,
        gap_since: Option<Instant>,
    ) -> Result<Open, String> {
        let device = self.device(server);
        let spec =
            pa::sample::Spec { format: pa::sample::Format::F32le, channels: 2, rate: FORMAT.rate };
        let fragsize = spec.usec_to_bytes(pa::time::MicroSeconds(FRAGMENT_MS * 1000)) as u32;
        let attr = pa::def::BufferAttr {
            maxlength: u32::MAX,
            tlength: u32::MAX,
            prebuf: u32::MAX,
            minreq: u32::MAX,
            fragsize,
        };
        let stream_name = match self.channel {
            Channel::Mic => "microphone",
            Channel::Sys => "system audio",
        };
        let stream = Simple::new(
            None,
            "recorder",
            pa::stream::Direction::Record,
            Some(&device),
            stream_name,
            &spec,
            None,
            Some(&attr),
        )
        .map_err(|error| format!("{device}: {error}"))?;
        let (mut ring, feed) = new_feed(FORMAT, 4.0, device.clone());
        if let Some(since) = gap_since {
            let missing = (since.elapsed().as_secs_f64() * FORMAT.rate as f64) as usize * 2;
            ring.write(&vec![0.0; missing.min(ring.slots())]);
        }
        if !crate::hand_over(&self.feeds, feed) {
            return Err("the recorder stopped listening".into());
        }
        Ok(Open { device, stream, ring })
    }

    /// The device this channel should read now.
    fn device(&self, server: Option<&mut ServerWatch>) -> String {
        let defaults = server.and_then(|s| s.defaults());
        match (self.channel, defaults) {
            (Channel::Mic, Some((_, source))) => source,
            (Channel::Sys, Some((sink, _))) => format!("{sink}.monitor"),
            (Channel::Mic, None) => "@DEFAULT_SOURCE@".into(),
            (Channel::Sys, None) => "@DEFAULT_MONITOR@".into(),
        }
    }
}

fn bytes_per_fragment() -> usize {
    (FORMAT.rate as usize * FRAGMENT_MS as usize / 1000) * FORMAT.channels as usize * 4
}

/// Copies little-endian f32 samples into the ring (what does not fit is
/// dropped and counted).
fn push(ring: &mut RingWriter, bytes: &[u8], samples: &mut Vec<f32>) {
    samples.clear();
    samples.extend(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    ring.write(samples);
}

/// A connection for asking the server which devices are the defaults.
/// Fields drop in order: the context before its main loop.
struct ServerWatch {
    context: pa::context::Context,
    mainloop: pa::mainloop::standard::Mainloop,
}

impl ServerWatch {
    fn connect() -> Option<ServerWatch> {
        use pa::context::{Context, FlagSet, State};
        let mut mainloop = pa::mainloop::standard::Mainloop::new()?;
        let mut context = Context::new(&mainloop, "recorder")?;
        context.connect(None, FlagSet::NOAUTOSPAWN, None).ok()?;
        loop {
            if !iterate(&mut mainloop) {
                return None;
            }
            match context.get_state() {
                State::Ready => return Some(ServerWatch { context, mainloop }),
                State::Failed | State::Terminated => return None,
                _ => {}
            }
        }
    }

    /// (default sink, default source) names.
    fn defaults(&mut self) -> Option<(String, String)> {
        use std::cell::RefCell;
        use std::rc::Rc;
        let found = Rc::new(RefCell::new(None));
        let answer = found.clone();
        let operation = self.context.introspect().get_server_info(move |info| {
            let name = |n: &Option<std::borrow::Cow<'_, str>>| n.as_ref().map(|s| s.to_string());
            *answer.borrow_mut() =
                name(&info.default_sink_name).zip(name(&info.default_source_name));
        });
        while operation.get_state() == pa::operation::State::Running {
            if !iterate(&mut self.mainloop) {
                return None;
            }
        }
        let defaults = found.borrow_mut().take();
        defaults
    }
}

impl Drop for ServerWatch {
    fn drop(&mut self) {
        self.context.disconnect();
    }
}

fn iterate(mainloop: &mut pa::mainloop::standard::Mainloop) -> bool {
    matches!(mainloop.iterate(true), pa::mainloop::standard::IterateResult::Success(_))
}
