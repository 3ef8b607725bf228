//! The chunks handed out and not yet reported, and their results put back in
//! the order the chunks were cut, however the workers finished them.

use std::collections::BTreeMap;
use std::sync::mpsc;

use super::workers::Finished;
use super::{FileError, TimedSegment};
use crate::hallucination;
use crate::transcriber::{RawSegment, SttError};
use crate::vad::SpeechChunk;

pub(super) struct InOrder {
    /// The most chunks handed out and not yet reported (bounds memory).
    limit: usize,
    next_seq: u64,
    /// The start of each chunk handed out and not yet reported, by number.
    out: BTreeMap<u64, i64>,
    /// Results that came back before an earlier chunk's.
    back: BTreeMap<u64, Finished>,
    /// The last text reported, for the filter of repeated lines.
    last_text: Option<String>,
}

impl InOrder {
    pub fn new(limit: usize) -> Self {
        InOrder {
            limit: limit.max(1),
            next_seq: 0,
            out: BTreeMap::new(),
            back: BTreeMap::new(),
            last_text: None,
        }
    }

    /// Hands `chunk` to the workers, first waiting for a result while as
    /// many chunks as the limit are out.
    pub fn hand_out(
        &mut self,
        jobs: &mpsc::Sender<(u64, SpeechChunk)>,
        chunk: SpeechChunk,
        finished: &mpsc::Receiver<Finished>,
    ) -> Result<(), FileError> {
        while self.out.len() - self.back.len() >= self.limit {
            self.wait_one(finished)?;
        }
        self.out.insert(self.next_seq, chunk.start_ms);
        jobs.send((self.next_seq, chunk)).map_err(|_| stopped_worker())?;
        self.next_seq += 1;
        Ok(())
    }

    /// Takes every result that is back, without waiting.
    pub fn take_ready(&mut self, finished: &mpsc::Receiver<Finished>) {
        while let Ok(result) = finished.try_recv() {
            self.back.insert(result.seq, result);
        }
    }

    /// Waits until every chunk handed out is back.
    pub fn wait_all(&mut self, finished: &mpsc::Receiver<Finished>) -> Result<(), FileError> {
        while self.back.len() < self.out.len() {
            self.wait_one(finished)?;
        }
        Ok(())
    }

    fn wait_one(&mut self, finished: &mpsc::Receiver<Finished>) -> Result<(), FileError> {
        let result = finished.recv().map_err(|_| stopped_worker())?;
        self.back.insert(result.seq, result);
        Ok(())
    }

    /// The segments of the chunks back in an unbroken run from the oldest,
    /// filtered and in file time, and the language they were heard in. The
    /// first chunk that failed fails the file.
    pub fn in_order(&mut self) -> Result<(Vec<TimedSegment>, Option<String>), FileError> {
        let mut found = Vec::new();
        let mut language = None;
        while let Some(first) = self.out.keys().next().copied() {
            let Some(done) = self.back.remove(&first) else { break };
            self.out.remove(&first);
            let result = done.result?;
            language = language.or(result.language);
            let cleaned = hallucination::clean(result.segments, self.last_text.as_deref());
            if let Some(last) = cleaned.last() {
                self.last_text = Some(last.text.clone());
            }
            found.extend(cleaned.into_iter().map(|s| place(s, &done.chunk)));
        }
        Ok((found, language))
    }

    /// Where the oldest chunk not yet reported starts: nothing from there on
    /// is saved yet.
    pub fn oldest_start(&self) -> Option<i64> {
        self.out.values().next().copied()
    }
}

fn stopped_worker() -> FileError {
    FileError::Engine(SttError::Engine("a transcription worker stopped".into()))
}

/// Moves a segment from chunk time to file time, inside the chunk's bounds.
fn place(segment: RawSegment, chunk: &SpeechChunk) -> TimedSegment {
    let length_ms = chunk.samples.len() as i64 / 16;
    let start = segment.start_ms.clamp(0, length_ms);
    let end = segment.end_ms.clamp(start, length_ms.max(start));
    TimedSegment {
        start_ms: chunk.start_ms + start,
        end_ms: chunk.start_ms + end,
        text: segment.text,
    }
}
