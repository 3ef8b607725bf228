//! The `Transcriber` seam and its whisper.cpp implementation (whisper-rs),
//! under one path for callers. One engine transcribes one speech chunk
//! (≤ 30 s) at a time.

#[cfg(feature = "whisper")]
pub use crate::gpu::{backend_for, gpus, gpus_here, search_if_done, search_with, GpuSearch};
pub use crate::transcriber::{
    default_threads, fitted_audio_ctx, Backend, CallOptions, ChunkResult, Decoding, Device,
    EngineOptions, RawSegment, SttError, Transcriber,
};
#[cfg(feature = "whisper")]
pub use crate::whisper::{known_language, WhisperEngine};
