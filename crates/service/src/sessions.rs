//! The person's browser session: one-time login links (60 s, single use) that
//! turn into an HttpOnly, SameSite=Strict session cookie.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::tokens::{generate_token, hash_token};

pub const LINK_LIFETIME_MS: i64 = 60_000;
pub const SESSION_LIFETIME_MS: i64 = 12 * 60 * 60 * 1000;
pub const COOKIE_NAME: &str = "recorder_session";

/// A login link not yet used: when it dies and which app page it opens.
struct Link {
    expires_at: i64,
    opens: String,
}

/// What a redeemed link gives: the session token and the page to open.
pub struct Redeemed {
    pub session: String,
    pub opens: String,
}

#[derive(Default)]
pub struct Sessions {
    // Both maps key by token hash, so a memory dump holds no usable secret;
    // each lock is held only for one lookup or insert.
    links: Mutex<HashMap<[u8; 32], Link>>,
    sessions: Mutex<HashMap<[u8; 32], i64>>,
}

impl Sessions {
    /// A new login code, valid for 60 s, that opens the app page `opens`.
    pub fn new_link(&self, now: i64, opens: &str) -> String {
        let code = generate_token();
        let mut links = lock(&self.links);
        links.retain(|_, link| link.expires_at > now);
        let link = Link { expires_at: now + LINK_LIFETIME_MS, opens: opens.to_string() };
        links.insert(hash_token(&code), link);
        code
    }

    /// Spends a login code; on success returns a new session token.
    pub fn redeem_link(&self, code: &str, now: i64) -> Option<Redeemed> {
        let link = lock(&self.links).remove(&hash_token(code))?;
        if now >= link.expires_at {
            return None;
        }
        let session = generate_token();
        let mut sessions = lock(&self.sessions);
        sessions.retain(|_, expires_at| *expires_at > now);
        sessions.insert(hash_token(&session), now + SESSION_LIFETIME_MS);
        Some(Redeemed { session, opens: link.opens })
    }

    pub fn is_valid_session(&self, token: &str, now: i64) -> bool {
        lock(&self.sessions).get(&hash_token(token)).is_some_and(|expires_at| *expires_at > now)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_single_use_and_expire() {
        let sessions = Sessions::default();
        let code = sessions.new_link(0, "/settings/extension?pair");
        let redeemed = sessions.redeem_link(&code, 1).expect("first use");
        assert_eq!(redeemed.opens, "/settings/extension?pair");
        let session = redeemed.session;
        assert!(sessions.is_valid_session(&session, 2));
        assert!(sessions.redeem_link(&code, 2).is_none(), "second use");
        let late = sessions.new_link(0, "/");
        assert!(sessions.redeem_link(&late, LINK_LIFETIME_MS).is_none(), "expired");
        assert!(!sessions.is_valid_session(&session, SESSION_LIFETIME_MS + 1));
    }
}
