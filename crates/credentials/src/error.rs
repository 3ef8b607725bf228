//! The errors of the credential store.

use std::path::PathBuf;

/// What went wrong. No variant holds a key, and no message shows one: OS-store
/// errors are carried as text built from their `Display` (keyring's own
/// `Debug` can hold a key's bytes), and a corrupt file is described by
/// position and kind only (serde_json's messages can quote file contents).
#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("invalid provider name: {rule}")]
    InvalidProvider { rule: &'static str },

    #[error("invalid API key: {rule}")]
    InvalidKey { rule: &'static str },

    #[error(
        "the credential file {} is not a JSON object of provider names to keys \
         ({problem} at line {line}, column {column}); it was left as it is: fix or remove it",
        path.display()
    )]
    CorruptFile { path: PathBuf, problem: &'static str, line: usize, column: usize },

    #[error("could not {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The OS credential store answered, but with an error that falling back
    /// to the file would not fix (say, two entries match, or an entry that is
    /// not text).
    #[error("the OS credential store failed: {reason}")]
    Keyring { reason: String },
}
