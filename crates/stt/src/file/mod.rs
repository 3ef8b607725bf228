//! A whole file through the chain: decode → 16 kHz mono → voice-activity
//! gate → engines → hallucination filter, reported chunk by chunk so a caller
//! can save segments and a resume point as it goes.
//!
//! Several engines (one whisper state each) can work at once: the speech
//! chunks are handed out in order to whichever engine is free
//! ([`workers`]), and their results are put back in order ([`order`]) before
//! they are filtered and reported, so the text is the same as one engine's.

mod chunk;
mod order;
mod workers;

use std::ops::ControlFlow;
use std::sync::mpsc;

pub use chunk::transcribe_chunk;
pub use workers::Workers;

use crate::audio::{self, AudioError, AudioStream, BLOCK};
use crate::transcriber::SttError;
use crate::vad::{Chunker, Gate, Profile, SpeechChunk};
use order::InOrder;
use workers::Finished;

/// Progress is reported at least this often (in audio time) during silence.
const PROGRESS_EVERY_MS: i64 = 10_000;

/// A segment with its time from the start of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedSegment {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

/// One report: the segments found since the last one and how far along it is.
#[derive(Debug, Clone)]
pub struct Report {
    pub segments: Vec<TimedSegment>,
    /// Everything before this point is transcribed: resume from here.
    pub settled_ms: i64,
    /// How much audio has been read.
    pub position_ms: i64,
    pub language: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error(transparent)]
    Audio(#[from] AudioError),
    #[error(transparent)]
    Engine(#[from] SttError),
    #[error("stopped before the end")]
    Stopped,
}

/// Transcribes `stream` from `start_ms` (the part before is skipped), the
/// speech found by `gate`, with `workers`. `report` returns `Break` to stop
/// early (at shutdown, say); the chunks being transcribed then are finished
/// and dropped, and the resume point of the last report is before them.
pub fn transcribe(
    stream: &mut dyn AudioStream,
    workers: Workers<'_>,
    gate: Gate,
    start_ms: i64,
    report: impl FnMut(Report) -> ControlFlow<()>,
) -> Result<(), FileError> {
    audio::skip(stream, (start_ms.max(0) as u64) * 16)?;
    let reader = Reader { stream, chunker: Chunker::new(gate, Profile::FILE, start_ms) };
    workers.run(|jobs, finished, count| drive(reader, jobs, finished, count, start_ms, report))
}

/// The audio and the chunker cutting it into speech chunks.
struct Reader<'a> {
    stream: &'a mut dyn AudioStream,
    chunker: Chunker,
}

impl Reader<'_> {
    /// Reads one block; the chunks it completed go to `out`. `false` at the end.
    fn next(
        &mut self,
        block: &mut Vec<f32>,
        out: &mut Vec<SpeechChunk>,
    ) -> Result<bool, FileError> {
        block.clear();
        let count = self.stream.read(block, BLOCK)?;
        if count == 0 {
            self.chunker.finish(out);
        } else {
            self.chunker.push(block, out);
        }
        Ok(count > 0)
    }
}

/// Reads, hands chunks out, takes results back in order and reports them.
fn drive(
    mut reader: Reader<'_>,
    jobs: mpsc::Sender<(u64, SpeechChunk)>,
    finished: &mpsc::Receiver<Finished>,
    workers: usize,
    start_ms: i64,
    mut report: impl FnMut(Report) -> ControlFlow<()>,
) -> Result<(), FileError> {
    // Two chunks a worker: one being transcribed, one waiting for it.
    let mut order = InOrder::new(workers * 2);
    let mut last_report = start_ms;
    let mut block = Vec::with_capacity(BLOCK);
    let mut chunks = Vec::new();
    loop {
        let more = reader.next(&mut block, &mut chunks)?;
        for chunk in chunks.drain(..) {
            order.hand_out(&jobs, chunk, finished)?;
        }
        if more {
            order.take_ready(finished);
        } else {
            order.wait_all(finished)?;
        }
        let (segments, language) = order.in_order()?;
        let position_ms = reader.chunker.position_ms();
        if !segments.is_empty() || !more || position_ms - last_report >= PROGRESS_EVERY_MS {
            last_report = position_ms;
            let settled_ms = if more {
                order.oldest_start().unwrap_or(i64::MAX).min(reader.chunker.settled_ms())
            } else {
                position_ms
            };
            let flow = report(Report { segments, settled_ms, position_ms, language });
            if flow.is_break() && more {
                return Err(FileError::Stopped);
            }
        }
        if !more {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests;
