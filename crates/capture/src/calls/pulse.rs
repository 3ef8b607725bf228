//! The call watcher on Linux: PulseAudio's source-output events (also
//! PipeWire's, through `pipewire-pulse`, which shows native PipeWire streams
//! too). It subscribes to source outputs, lists the open ones once, then
//! sleeps in the sound server's main loop until one opens or closes; when
//! the server goes away it tries again after [`super::backoff`].

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use libpulse_binding as pa;
use pa::callbacks::ListResult;
use pa::context::introspect::SourceOutputInfo;
use pa::context::subscribe::{Facility, InterestMaskSet, Operation};
use pa::context::{Context, FlagSet, State};
use pa::mainloop::standard::{IterateResult, Mainloop};
use pa::proplist::Proplist;

use super::{backoff, CaptureStream, StreamEvent};

/// The main loop wakes at least this often to see whether to stop.
const WAKE_EVERY_US: u64 = 5_000_000;

/// Runs until `stop` is raised or nobody listens to `events`.
pub fn run(events: Sender<StreamEvent>, stop: &AtomicBool) {
    let mut attempt = 0;
    let mut told = false;
    while !stop.load(Ordering::Relaxed) {
        match Session::connect() {
            Ok(mut session) => {
                attempt = 0;
                told = false;
                if !session.follow(&events, stop) {
                    return;
                }
                if events.send(StreamEvent::Reset).is_err() {
                    return;
                }
            }
            Err(error) if !told => {
                told = true;
                if events.send(StreamEvent::Unavailable(error)).is_err() {
                    return;
                }
            }
            Err(_) => {}
        }
        std::thread::sleep(backoff(attempt));
        attempt += 1;
    }
}

/// A change the subscription reported, handled after the callback returns.
type Changes = Rc<RefCell<VecDeque<(Operation, u32)>>>;

/// A connection and its main loop. The context is declared (so dropped)
/// before the main loop it runs on.
struct Session {
    context: Context,
    mainloop: Mainloop,
    changes: Changes,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.context.set_subscribe_callback(None);
        self.context.disconnect();
    }
}

impl Session {
    fn connect() -> Result<Session, String> {
        let mut mainloop = Mainloop::new().ok_or("cannot create a main loop")?;
        let mut properties = Proplist::new().ok_or("cannot create a property list")?;
        let _ = properties.set_str(pa::proplist::properties::APPLICATION_NAME, "recorder");
        let mut context = Context::new_with_proplist(&mainloop, "recorder call watch", &properties)
            .ok_or("cannot create a sound-server context")?;
        context
            .connect(None, FlagSet::NOAUTOSPAWN, None)
            .map_err(|e| e.to_string().unwrap_or_else(|| "cannot connect".into()))?;
        loop {
            match context.get_state() {
                State::Ready => break,
                State::Failed | State::Terminated => {
                    return Err("the sound server refused the connection".into())
                }
                _ => {}
            }
            if let IterateResult::Quit(_) | IterateResult::Err(_) = mainloop.iterate(true) {
                return Err("the sound server's main loop ended".into());
            }
        }
        Ok(Session { context, mainloop, changes: Rc::default() })
    }

    /// Reports the open streams, then every change, until the server goes
    /// away (true) or `stop` is raised or nobody listens (false).
    fn follow(&mut self, events: &Sender<StreamEvent>, stop: &AtomicBool) -> bool {
        let changes = self.changes.clone();
        self.context.set_subscribe_callback(Some(Box::new(move |facility, operation, index| {
            if let (Some(Facility::SourceOutput), Some(operation)) = (facility, operation) {
                changes.borrow_mut().push_back((operation, index));
            }
        })));
        self.context.subscribe(InterestMaskSet::SOURCE_OUTPUT, |_| {});
        let listing = events.clone();
        self.context.introspect().get_source_output_info_list(move |item| {
            if let ListResult::Item(info) = item {
                let _ = listing.send(StreamEvent::Opened(stream_of(info)));
            }
        });
        loop {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            if !self.wait() {
                return true;
            }
            if !self.report(events) {
                return false;
            }
        }
    }

    /// Sleeps in the main loop until something happens (or a few seconds
    /// pass); false once the connection is gone.
    fn wait(&mut self) -> bool {
        let timeout = pa::time::MicroSeconds(WAKE_EVERY_US);
        let ran = self.mainloop.prepare(Some(timeout)).is_ok()
            && self.mainloop.poll().is_ok()
            && self.mainloop.dispatch().is_ok();
        ran && self.context.get_state() == State::Ready
    }

    /// Hands on what changed: closed streams at once, opened ones once the
    /// server has said whose they are.
    fn report(&mut self, events: &Sender<StreamEvent>) -> bool {
        let pending: Vec<(Operation, u32)> = self.changes.borrow_mut().drain(..).collect();
        for (operation, index) in pending {
            match operation {
                Operation::Removed => {
                    if events.send(StreamEvent::Closed { id: u64::from(index) }).is_err() {
                        return false;
                    }
                }
                Operation::New => {
                    let opened = events.clone();
                    self.context.introspect().get_source_output_info(index, move |item| {
                        if let ListResult::Item(info) = item {
                            let _ = opened.send(StreamEvent::Opened(stream_of(info)));
                        }
                    });
                }
                Operation::Changed => {}
            }
        }
        true
    }
}

fn stream_of(info: &SourceOutputInfo) -> CaptureStream {
    let property = |key: &str| info.proplist.get_str(key).filter(|value| !value.is_empty());
    CaptureStream {
        id: u64::from(info.index),
        binary: property(pa::proplist::properties::APPLICATION_PROCESS_BINARY),
        name: property(pa::proplist::properties::APPLICATION_NAME),
        pid: property(pa::proplist::properties::APPLICATION_PROCESS_ID)
            .and_then(|pid| pid.parse().ok()),
        title: None,
    }
}
