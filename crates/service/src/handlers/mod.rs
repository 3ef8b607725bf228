//! Route handlers, one file per resource. Handlers validate input and state; the
//! guard chain in `crate::guard` has already authenticated and gated the request.

pub mod ai;
pub mod audio;
pub mod diagnostics;
pub mod events;
pub mod export;
pub mod identity;
pub mod import;
pub mod imports;
pub mod meetings;
pub mod models;
pub mod notes;
pub mod pair;
pub mod person;
pub mod recording;
pub mod search;
pub mod sessions;
pub mod speakers;
pub mod system;
pub mod transcript;
