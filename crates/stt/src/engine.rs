//! The `Transcriber` seam and its whisper.cpp implementation (whisper-rs),
//! under one path for callers. One engine transcribes one speech chunk
//! (≤ 30 s) at a time.

pub use crate::transcriber::{
    default_threads, fitted_audio_ctx, CallOptions, ChunkResult, Decoding, EngineOptions,
    RawSegment, SttError, Transcriber,
};
#[cfg(feature = "whisper")]
pub use crate::whisper::{known_language, WhisperEngine};
