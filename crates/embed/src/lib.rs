//! Sentence embeddings for search by meaning: all-MiniLM-L6-v2 (BERT, 6
//! layers, 384 dimensions) in plain Rust over ndarray's matrix products, as
//! CAM++ and Silero are in `recorder-stt`, with the model's own WordPiece
//! tokenizer (`tokenizers`).
//!
//! `model` finds and checks the files, `bert` runs the network, `quantize`
//! turns a vector into the int8 and binary forms the store and the index keep,
//! `passages` cuts a meeting into what is embedded, `fusion` merges a word
//! ranking with a meaning ranking, and `index` is the in-memory binary index
//! with its int8 re-rank.

mod bert;
pub mod fusion;
pub mod index;
pub mod model;
pub mod passages;
pub mod quantize;

pub use bert::Embedder;
pub use model::{ModelError, ModelFiles};

/// Dimensions of every vector.
pub const DIMS: usize = 384;
/// Tokens a passage is cut to (the model's `max_seq_length`).
pub const MAX_TOKENS: usize = 256;
