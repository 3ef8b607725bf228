//! Route handlers, one file per resource. Handlers validate input and state; the
//! guard chain in `crate::access::guard` has already authenticated and gated the request.

pub mod action_items;
pub mod ai;
pub mod ask;
pub mod audio;
pub mod corrections;
pub mod diagnostics;
pub mod events;
pub mod export;
pub mod history;
pub mod identity;
pub mod import;
pub mod imports;
pub mod ledger;
pub mod license;
pub mod meetings;
pub mod models;
pub mod notes;
pub mod notes_models;
pub mod pairing;
pub mod policy;
pub mod prompts;
pub mod recording;
pub mod search;
pub mod sessions;
pub mod settings;
pub mod speakers;
pub mod system;
pub mod templates;
pub mod transcribe;
pub mod transcript;
