//! Plans: a licence is `{ payload, signature }`, both base64url without padding; the
//! payload is the JSON `{licensee, plan: "pro", issued_at, expires_at?}` and the
//! signature an Ed25519 signature over those JSON bytes. Release builds trust only
//! the embedded vendor key; debug builds also trust the development key whose seed
//! is committed at `tests/fixtures/dev-license.seed`.

use std::sync::RwLock;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use recorder_api_types::LicenseFile;
use recorder_domain::Plan;
use serde::Deserialize;

/// The vendor's public key (hex). Its secret half is held by the vendor only.
const VENDOR_KEY_HEX: &str = "0664218ecf13a7c050e09d97251e82da63cdbd32485af8b03e63c0224133dd67";

#[cfg(debug_assertions)]
const DEV_SEED_HEX: &str = include_str!("../../../../tests/fixtures/dev-license.seed");

#[derive(Debug, Clone, Deserialize)]
pub struct LicensePayload {
    pub licensee: String,
    pub plan: String,
    pub issued_at: i64,
    #[serde(default)]
    pub expires_at: Option<i64>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LicenseError {
    #[error("licence is not base64url: {0}")]
    Encoding(&'static str),
    #[error("licence signature does not verify")]
    Signature,
    #[error("licence payload is malformed: {0}")]
    Payload(String),
    #[error("licence is for plan {0:?}; only \"pro\" is known")]
    UnknownPlan(String),
    #[error("licence expired")]
    Expired,
}

/// Verifies a licence against the trusted keys and checks it has not expired.
pub fn verify(license: &LicenseFile, now: i64) -> Result<LicensePayload, LicenseError> {
    let payload = URL_SAFE_NO_PAD
        .decode(license.payload.trim())
        .map_err(|_| LicenseError::Encoding("payload"))?;
    let signature = URL_SAFE_NO_PAD
        .decode(license.signature.trim())
        .map_err(|_| LicenseError::Encoding("signature"))?;
    let signature = Signature::from_slice(&signature).map_err(|_| LicenseError::Signature)?;
    if !trusted_keys().iter().any(|key| key.verify(&payload, &signature).is_ok()) {
        return Err(LicenseError::Signature);
    }
    let parsed: LicensePayload = serde_json::from_slice(&payload)
        .map_err(|error| LicenseError::Payload(error.to_string()))?;
    if parsed.plan != "pro" {
        return Err(LicenseError::UnknownPlan(parsed.plan));
    }
    if parsed.expires_at.is_some_and(|expires_at| expires_at <= now) {
        return Err(LicenseError::Expired);
    }
    Ok(parsed)
}

fn trusted_keys() -> Vec<VerifyingKey> {
    let mut keys = Vec::new();
    if let Some(key) = key_from_hex(VENDOR_KEY_HEX) {
        keys.push(key);
    }
    #[cfg(debug_assertions)]
    if let Ok(seed) = <[u8; 32]>::try_from(hex::decode(DEV_SEED_HEX.trim()).unwrap_or_default()) {
        keys.push(ed25519_dalek::SigningKey::from_bytes(&seed).verifying_key());
    }
    keys
}

fn key_from_hex(text: &str) -> Option<VerifyingKey> {
    let bytes: [u8; 32] = hex::decode(text).ok()?.try_into().ok()?;
    VerifyingKey::from_bytes(&bytes).ok()
}

/// The licence in force, if any.
#[derive(Default)]
pub struct LicenseState {
    // Replaced whole when a licence is installed; read on every gated request.
    current: RwLock<Option<LicensePayload>>,
}

impl LicenseState {
    pub fn set(&self, payload: LicensePayload) {
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(payload);
    }

    /// The installed licence, expired or not.
    pub fn current(&self) -> Option<LicensePayload> {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    pub fn plan(&self, now: i64) -> Plan {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        match current.as_ref() {
            Some(licence) if licence.expires_at.is_none_or(|at| at > now) => Plan::Pro,
            _ => Plan::Free,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    fn sign(key: &SigningKey, payload: &str) -> LicenseFile {
        LicenseFile {
            payload: URL_SAFE_NO_PAD.encode(payload),
            signature: URL_SAFE_NO_PAD.encode(key.sign(payload.as_bytes()).to_bytes()),
        }
    }

    fn dev_key() -> SigningKey {
        let seed: [u8; 32] = hex::decode(DEV_SEED_HEX.trim()).expect("hex").try_into().expect("32");
        SigningKey::from_bytes(&seed)
    }

    #[test]
    fn dev_licences_verify_in_debug_builds() {
        let licence = sign(&dev_key(), r#"{"licensee":"Ada","plan":"pro","issued_at":1}"#);
        assert_eq!(verify(&licence, 10).expect("valid").licensee, "Ada");
    }

    #[test]
    fn forged_expired_and_odd_licences_are_refused() {
        let stranger = SigningKey::from_bytes(&[7u8; 32]);
        let forged = sign(&stranger, r#"{"licensee":"Eve","plan":"pro","issued_at":1}"#);
        assert_eq!(verify(&forged, 10).map(|_| ()), Err(LicenseError::Signature));
        let expired =
            sign(&dev_key(), r#"{"licensee":"Ada","plan":"pro","issued_at":1,"expires_at":5}"#);
        assert_eq!(verify(&expired, 10).map(|_| ()), Err(LicenseError::Expired));
        let other = sign(&dev_key(), r#"{"licensee":"Ada","plan":"team","issued_at":1}"#);
        assert!(matches!(verify(&other, 10), Err(LicenseError::UnknownPlan(_))));
        let mut tampered = sign(&dev_key(), r#"{"licensee":"Ada","plan":"pro","issued_at":1}"#);
        tampered.payload =
            URL_SAFE_NO_PAD.encode(r#"{"licensee":"Bob","plan":"pro","issued_at":1}"#);
        assert_eq!(verify(&tampered, 10).map(|_| ()), Err(LicenseError::Signature));
    }

    #[test]
    fn plan_follows_expiry() {
        let state = LicenseState::default();
        assert_eq!(state.plan(0), Plan::Free);
        state.set(LicensePayload {
            licensee: "A".into(),
            plan: "pro".into(),
            issued_at: 0,
            expires_at: Some(100),
        });
        assert_eq!(state.plan(50), Plan::Pro);
        assert_eq!(state.plan(100), Plan::Free);
    }
}
