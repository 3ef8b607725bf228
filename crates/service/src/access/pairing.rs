//! The pairing code shown in the app: 6 digits from a CSPRNG, valid 120 s (or
//! less, `RECORDER_PAIRING_CODE_SECS`), single use, one live code at a time,
//! void after the sixth wrong try.

use std::sync::Mutex;

use rand::Rng;

use crate::access::tokens::same_secret;

pub const CODE_LIFETIME_MS: i64 = 120_000;
/// Wrong tries a code survives; the next wrong try voids it (429).
pub const WRONG_TRIES: u32 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairAttempt {
    Accepted,
    /// A live code, and this is not it.
    Wrong,
    /// The code expired before this try; it is gone now.
    Expired,
    /// No code is live: used, replaced, voided or never shown.
    NoCode,
    /// Too many wrong tries: the code is now void.
    Locked,
}

struct LiveCode {
    code: String,
    expires_at: i64,
    wrong: u32,
}

pub struct PairingCodes {
    // One live code at a time; the lock is held only to read or replace it.
    live: Mutex<Option<LiveCode>>,
    lifetime_ms: i64,
}

impl Default for PairingCodes {
    fn default() -> Self {
        Self::with_lifetime(std::time::Duration::from_millis(CODE_LIFETIME_MS as u64))
    }
}

impl PairingCodes {
    /// Codes that live `lifetime` (at most [`CODE_LIFETIME_MS`]).
    pub fn with_lifetime(lifetime: std::time::Duration) -> Self {
        let lifetime_ms =
            i64::try_from(lifetime.as_millis()).unwrap_or(CODE_LIFETIME_MS).min(CODE_LIFETIME_MS);
        PairingCodes { live: Mutex::new(None), lifetime_ms }
    }

    /// Shows a new code; an earlier unused code dies. Returns the code and expiry.
    pub fn show(&self, now: i64) -> (String, i64) {
        let code = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000u32));
        let expires_at = now + self.lifetime_ms;
        *self.lock() = Some(LiveCode { code: code.clone(), expires_at, wrong: 0 });
        (code, expires_at)
    }

    pub fn attempt(&self, presented: &str, now: i64) -> PairAttempt {
        let mut live = self.lock();
        let Some(current) = live.as_mut() else {
            return PairAttempt::NoCode;
        };
        if now >= current.expires_at {
            *live = None;
            return PairAttempt::Expired;
        }
        if same_secret(presented, &current.code) {
            *live = None;
            return PairAttempt::Accepted;
        }
        current.wrong += 1;
        if current.wrong > WRONG_TRIES {
            *live = None;
            return PairAttempt::Locked;
        }
        PairAttempt::Wrong
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<LiveCode>> {
        self.live.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrong(code: &str) -> String {
        if code == "000000" {
            "000001".into()
        } else {
            "000000".into()
        }
    }

    #[test]
    fn a_code_works_once() {
        let codes = PairingCodes::default();
        let (code, expires_at) = codes.show(1_000);
        assert_eq!(code.len(), 6);
        assert_eq!(expires_at, 121_000);
        assert_eq!(codes.attempt(&code, 2_000), PairAttempt::Accepted);
        assert_eq!(codes.attempt(&code, 2_000), PairAttempt::NoCode);
    }

    #[test]
    fn codes_expire_and_are_replaced() {
        let codes = PairingCodes::default();
        let (old, _) = codes.show(0);
        let (new, _) = codes.show(10);
        if old != new {
            assert_eq!(codes.attempt(&old, 20), PairAttempt::Wrong);
        }
        assert_eq!(codes.attempt(&new, 10 + CODE_LIFETIME_MS), PairAttempt::Expired);
        assert_eq!(codes.attempt(&new, 11 + CODE_LIFETIME_MS), PairAttempt::NoCode);
    }

    #[test]
    fn the_sixth_wrong_try_voids_the_code() {
        let codes = PairingCodes::default();
        let (code, _) = codes.show(0);
        for _ in 0..WRONG_TRIES {
            assert_eq!(codes.attempt(&wrong(&code), 1), PairAttempt::Wrong);
        }
        assert_eq!(codes.attempt(&wrong(&code), 1), PairAttempt::Locked);
        assert_eq!(codes.attempt(&code, 1), PairAttempt::NoCode, "void after locking");
    }
}
