//! The engines a file is transcribed with, each on its own thread taking the
//! next chunk when it is free.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use super::chunk::transcribe_chunk;
use crate::transcriber::{ChunkResult, SttError, Transcriber};
use crate::vad::SpeechChunk;

/// How often a worker told to wait looks again.
const WAIT: Duration = Duration::from_millis(50);

/// One engine a worker, and how many may work right now.
pub struct Workers<'a> {
    engines: Vec<&'a mut dyn Transcriber>,
    width: &'a (dyn Fn() -> usize + Sync),
}

/// A chunk a worker finished, with its number in the file.
pub(super) struct Finished {
    pub seq: u64,
    pub chunk: SpeechChunk,
    pub result: Result<ChunkResult, SttError>,
}

type Jobs = Mutex<mpsc::Receiver<(u64, SpeechChunk)>>;

impl<'a> Workers<'a> {
    /// `engines` work at once; `width` is asked before each chunk how many
    /// may (the first always does): fewer while a live recording needs the
    /// CPU, say.
    pub fn new(
        engines: Vec<&'a mut dyn Transcriber>,
        width: &'a (dyn Fn() -> usize + Sync),
    ) -> Self {
        Workers { engines, width }
    }

    /// One engine.
    pub fn one(engine: &'a mut dyn Transcriber) -> Self {
        Workers { engines: vec![engine], width: &|| 1 }
    }

    /// Starts a thread for each engine and runs `drive` with the chunk queue,
    /// the results and the number of workers; every worker has stopped when
    /// this returns.
    pub(super) fn run<T>(
        self,
        drive: impl FnOnce(mpsc::Sender<(u64, SpeechChunk)>, &mpsc::Receiver<Finished>, usize) -> T,
    ) -> T {
        let count = self.engines.len();
        let (jobs, queue) = mpsc::channel();
        let queue: Jobs = Mutex::new(queue);
        let (done, finished) = mpsc::channel();
        let closed = AtomicBool::new(false);
        std::thread::scope(|scope| {
            for (index, engine) in self.engines.into_iter().enumerate() {
                let worker = Worker { index, queue: &queue, width: self.width, closed: &closed };
                let done = done.clone();
                // A worker that cannot start leaves its chunks to the others;
                // with none, the driver sees the results' channel closed.
                let _ = std::thread::Builder::new()
                    .name(format!("transcribe-{index}"))
                    .spawn_scoped(scope, move || worker.work(engine, done));
            }
            drop(done);
            let outcome = drive(jobs, &finished, count.max(1));
            // Chunks still queued (after an error or a stop) are not started.
            closed.store(true, Ordering::Relaxed);
            outcome
        })
    }
}

struct Worker<'s> {
    index: usize,
    queue: &'s Jobs,
    width: &'s (dyn Fn() -> usize + Sync),
    closed: &'s AtomicBool,
}

impl Worker<'_> {
    fn work(self, engine: &mut dyn Transcriber, done: mpsc::Sender<Finished>) {
        loop {
            if self.closed.load(Ordering::Relaxed) {
                return;
            }
            if self.index > 0 && self.index >= (self.width)() {
                std::thread::sleep(WAIT);
                continue;
            }
            let next = self.queue.lock().unwrap_or_else(|p| p.into_inner()).recv_timeout(WAIT);
            let (seq, chunk) = match next {
                Ok(job) => job,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            };
            let result = transcribe_chunk(engine, &chunk.samples);
            if done.send(Finished { seq, chunk, result }).is_err() {
                return;
            }
        }
    }
}
