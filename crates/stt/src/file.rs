//! A whole file through the chain: decode → 16 kHz mono → voice-activity
//! gate → engine → hallucination filter, reported chunk by chunk so a caller
//! can save segments and a resume point as it goes.

use std::ops::ControlFlow;

use crate::audio::{self, AudioError, AudioStream, BLOCK};
use crate::engine::{SttError, Transcriber};
use crate::hallucination;
use crate::vad::{Chunker, SpeechChunk};

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

/// Transcribes `stream` from `start_ms` (the part before is skipped).
/// `report` returns `Break` to stop early (at shutdown, say).
pub fn transcribe(
    stream: &mut dyn AudioStream,
    engine: &mut dyn Transcriber,
    start_ms: i64,
    mut report: impl FnMut(Report) -> ControlFlow<()>,
) -> Result<(), FileError> {
    audio::skip(stream, (start_ms.max(0) as u64) * 16)?;
    let mut chunker = Chunker::starting_at(start_ms);
    let mut last_text: Option<String> = None;
    let mut last_report = start_ms;
    let mut block = Vec::with_capacity(BLOCK);
    let mut chunks: Vec<SpeechChunk> = Vec::new();
    loop {
        block.clear();
        let count = stream.read(&mut block, BLOCK)?;
        if count == 0 {
            chunker.finish(&mut chunks);
        } else {
            chunker.push(&block, &mut chunks);
        }
        let mut found = Vec::new();
        let mut language = None;
        for chunk in chunks.drain(..) {
            let result = engine.transcribe(&chunk.samples)?;
            language = language.or(result.language);
            let cleaned = hallucination::clean(result.segments, last_text.as_deref());
            if let Some(last) = cleaned.last() {
                last_text = Some(last.text.clone());
            }
            found.extend(cleaned.into_iter().map(|s| place(s, &chunk)));
        }
        let position_ms = chunker.position_ms();
        let done = count == 0;
        if !found.is_empty() || done || position_ms - last_report >= PROGRESS_EVERY_MS {
            last_report = position_ms;
            let settled_ms = if done { position_ms } else { chunker.settled_ms() };
            let flow = report(Report { segments: found, settled_ms, position_ms, language });
            if flow.is_break() && !done {
                return Err(FileError::Stopped);
            }
        }
        if done {
            return Ok(());
        }
    }
}

/// Moves a segment from chunk time to file time, inside the chunk's bounds.
fn place(segment: crate::engine::RawSegment, chunk: &SpeechChunk) -> TimedSegment {
    let length_ms = chunk.samples.len() as i64 / 16;
    let start = segment.start_ms.clamp(0, length_ms);
    let end = segment.end_ms.clamp(start, length_ms.max(start));
    TimedSegment {
        start_ms: chunk.start_ms + start,
        end_ms: chunk.start_ms + end,
        text: segment.text,
    }
}
