//! The service's proof of identity: a client sends a fresh nonce and the id of
//! the token it holds, the service answers with an HMAC of the nonce (and its
//! port) under that token, and the client checks it before it sends the token.
//! A program that merely holds the port while the service is down learns
//! nothing it could use: the key id is a hash of a hash of the token.
//!
//! `GET /.well-known/recorder-identity?nonce=N&key=K` →
//! `{service: "recorder", version, proof}`, where
//! `K = hex(SHA-256(SHA-256(token))[..16])` and
//! `proof = base64url(HMAC-SHA256(SHA-256(token), "recorder-identity-v1:<port>:<nonce>"))`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The path of the challenge, outside `/v1` and `/ui` (it needs no token).
pub const IDENTITY_PATH: &str = "/.well-known/recorder-identity";
/// What the `service` field of a genuine answer says.
pub const SERVICE_NAME: &str = "recorder";

/// The service's answer to a challenge.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct IdentityProof {
    pub service: String,
    pub version: String,
    pub proof: String,
}

/// SHA-256 of a token: what the service keeps of paired tokens, and the HMAC key.
pub fn token_digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The key id a client names its token by: the first 16 bytes of the SHA-256 of
/// the token's digest, in lowercase hex.
pub fn key_id(digest: &[u8; 32]) -> String {
    let outer: [u8; 32] = Sha256::digest(digest).into();
    outer[..16].iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The proof for `nonce` on `port` under the token whose digest is given.
pub fn proof(digest: &[u8; 32], port: u16, nonce: &str) -> String {
    // HMAC takes a key of any length; a 32-byte key cannot fail.
    let mut mac = match Hmac::<Sha256>::new_from_slice(digest) {
        Ok(mac) => mac,
        Err(_) => return String::new(),
    };
    mac.update(format!("recorder-identity-v1:{port}:{nonce}").as_bytes());
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

/// A nonce the service accepts: 16 to 128 characters of base64url.
pub fn is_valid_nonce(nonce: &str) -> bool {
    (16..=128).contains(&nonce.len())
        && nonce.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A key id the service accepts: 32 lowercase hex digits.
pub fn is_valid_key_id(key: &str) -> bool {
    key.len() == 32 && key.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proof_depends_on_token_port_and_nonce() {
        let digest = token_digest("secret");
        let nonce = "abcdefghijklmnopqrstuv";
        let base = proof(&digest, 47321, nonce);
        assert_eq!(base.len(), 43);
        assert_ne!(base, proof(&token_digest("other"), 47321, nonce));
        assert_ne!(base, proof(&digest, 47322, nonce));
        assert_ne!(base, proof(&digest, 47321, "abcdefghijklmnopqrstuw"));
        assert_eq!(base, proof(&digest, 47321, nonce));
        // The same HMAC from openssl (key: the digest's hex; see the extension's test).
        assert_eq!(base, "y2-by6MF4PO85aagfnvUJsdHspE4KiT4mQhiZaSgvwM");
    }

    #[test]
    fn key_ids_are_hashes_of_the_digest() {
        let digest = token_digest("secret");
        let id = key_id(&digest);
        assert!(is_valid_key_id(&id));
        // sha256(sha256("secret")) starts with these bytes (computed with coreutils:
        // printf secret | sha256sum | xxd -r -p | sha256sum).
        assert_eq!(id, REFERENCE_KEY_ID);
        assert!(!is_valid_key_id("ABCDEF"));
    }

    #[test]
    fn nonces_are_bounded_base64url() {
        assert!(is_valid_nonce("abcdefghijklmnop"));
        assert!(!is_valid_nonce("short"));
        assert!(!is_valid_nonce("abcdefghijklmnop+/"));
        assert!(!is_valid_nonce(&"a".repeat(129)));
    }

    const REFERENCE_KEY_ID: &str = "3881219d087dd9c634373fd33dfa33a2";
}
