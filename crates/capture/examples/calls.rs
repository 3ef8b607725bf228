//! Prints what the call watcher sees: every capture stream that opens or
//! closes, with the meeting app it belongs to, and when it was seen (ms
//! since the watcher started). `bench/calls.sh` measures it with this.
//!
//!     cargo run -p recorder-capture --example calls

use std::time::Instant;

use recorder_capture::calls::{self, apps, StreamEvent};

fn main() {
    let (events, received) = std::sync::mpsc::channel();
    let _watch = calls::watch(events).expect("start the call watcher");
    let started = Instant::now();
    let own = std::process::id();
    for event in received {
        let at = started.elapsed().as_millis();
        match event {
            StreamEvent::Opened(stream) => {
                let app = apps::meeting_app(&stream, own).map_or("-", |app| app.source_app);
                println!(
                    "{at} opened {} binary={:?} name={:?} pid={:?} app={app}",
                    stream.id, stream.binary, stream.name, stream.pid
                );
            }
            StreamEvent::Closed { id } => println!("{at} closed {id}"),
            StreamEvent::Reset => println!("{at} reset"),
            StreamEvent::Unavailable(reason) => println!("{at} unavailable: {reason}"),
        }
    }
}
