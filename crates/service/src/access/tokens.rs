//! Secrets: generation, hashing, constant-time comparison and the token files.

use std::collections::HashMap;
use std::sync::{Mutex, RwLock};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use recorder_api_types::identity::token_digest;
use recorder_domain::PairingId;
use recorder_settings::DataDir;
use subtle::ConstantTimeEq;

/// 32 random bytes from the OS CSPRNG, base64url without padding.
pub fn generate_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database keeps of a paired token: its SHA-256 (the same digest the
/// identity proof is keyed with).
pub fn hash_token(token: &str) -> [u8; 32] {
    token_digest(token)
}

pub fn same_secret(presented: &str, expected: &str) -> bool {
    // Compare digests so the comparison is constant-time whatever the lengths.
    hash_token(presented).ct_eq(&hash_token(expected)).into()
}

/// Reads the token at `path`, or writes a new one there (mode 0600).
pub fn ensure_token(data_dir: &DataDir, path: &std::path::Path) -> anyhow::Result<String> {
    if let Some(token) = data_dir.read_token(path)? {
        return Ok(token);
    }
    let token = generate_token();
    data_dir.write_private(path, token.as_bytes())?;
    tracing::info!(file = %path.display(), "created a new token file");
    Ok(token)
}

/// The bearer secrets: `api_token`, `ui_token`, and hashes of paired tokens.
pub struct Tokens {
    pub api: String,
    pub ui: String,
    // token hash -> pairing id; changed on pair and revoke, read on every request.
    pub paired: RwLock<HashMap<[u8; 32], PairingId>>,
    // pairing id -> when `last_used_at` was last written, to write it at most once a minute.
    pub last_recorded_use: Mutex<HashMap<PairingId, i64>>,
}

impl Tokens {
    /// Whether a use of this pairing at `now` should be written to the database.
    pub fn should_record_use(&self, pairing_id: &PairingId, now: i64) -> bool {
        let mut recorded = self.last_recorded_use.lock().unwrap_or_else(|p| p.into_inner());
        match recorded.get(pairing_id) {
            Some(at) if now - *at < 60_000 => false,
            _ => {
                recorded.insert(pairing_id.clone(), now);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_url_safe() {
        let first = generate_token();
        assert_eq!(first.len(), 43);
        assert!(first.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(first, generate_token());
        assert!(same_secret(&first, &first.clone()));
        assert!(!same_secret(&first, &generate_token()));
    }
}
