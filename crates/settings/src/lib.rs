//! Settings of `recorder`: where the data folder is, `settings.json` (defaults,
//! validation, merge patches, unknown keys kept), managed policy sources, and the
//! effective settings that result when policy overrides the person's choices.
//!
//! This is the only crate that reads environment variables; see [`Environment`].

mod data_dir;
mod document;
mod effective;
mod environment;
mod policy_source;

pub use data_dir::{copy_atomically, DataDir, DataDirError};
pub use document::{
    configured_api_port, defaults, is_vocabulary_word, literal_loopback, InvalidSetting, Settings,
    SettingsDocument, SettingsError, DEFAULT_TRANSCRIPTION_MODEL, MAX_SETTINGS_BYTES, MAX_WORDS,
    MAX_WORD_CHARS,
};
pub use effective::{
    check_patch_against_policy, cloud_refusal, effective_settings, effective_typed,
    provider_refusal, PolicyRefusal,
};
pub use environment::Environment;
pub use policy_source::{
    default_policy_source, entries_to_json, may_override_policy, JsonFilePolicy, PolicySource,
    PolicySourceError, MAX_POLICY_BYTES,
};
