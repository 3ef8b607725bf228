//! Speech to text: audio decoding to 16 kHz mono, voice activity, the
//! `Transcriber` seam with its whisper.cpp engine, the model catalogue, and the
//! CTranslate2 → ggml model converter.

pub mod audio;
#[cfg(feature = "whisper")]
pub mod bias;
pub mod catalogue;
pub mod convert;
pub mod engine;
pub mod file;
#[cfg(feature = "whisper")]
mod gpu;
pub mod hallucination;
pub mod model_check;
pub mod silero;
pub mod speaker;
pub mod speed;
pub mod spelling;
mod transcriber;
pub mod vad;
#[cfg(feature = "whisper")]
mod whisper;
