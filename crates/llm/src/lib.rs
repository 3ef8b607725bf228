//! The notes model inside: llama.cpp runs in `recorder-llm` (crates/llm-worker), a
//! process of its own; this crate is what the service needs to use it: the
//! protocol both speak, the GGUF check a model file passes before it is used,
//! the catalogue of models, and the client that starts, asks and ends the worker.

pub mod catalogue;
pub mod gguf;
pub mod protocol;
pub mod worker;
