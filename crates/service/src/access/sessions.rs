//! The person's browser sessions: one-time login links (60 s, single use) that
//! turn into an HttpOnly, SameSite=Strict session cookie. A session ends when the
//! person signs out (here or from another session), after 12 h without use, or
//! 7 days after it began, whichever comes first; it lives in memory only, so a
//! restart of the service signs everyone out.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::Notify;

use recorder_api_types::{SessionInfo, SessionSource};
use recorder_domain::SessionId;

use crate::access::tokens::{generate_token, hash_token};

pub const LINK_LIFETIME_MS: i64 = 60_000;
/// A session unused for this long ends.
pub const SESSION_IDLE_MS: i64 = 12 * 60 * 60 * 1000;
/// No session lasts longer than this, used or not.
pub const SESSION_LIFETIME_MS: i64 = 7 * 24 * 60 * 60 * 1000;
pub const COOKIE_NAME: &str = "recorder_session";

/// A login link not yet used: when it dies, which app page it opens and whether
/// it is for the desktop app's window.
struct Link {
    expires_at: i64,
    opens: String,
    source: SessionSource,
}

/// What a redeemed link gives: the session token and the page to open.
pub struct Redeemed {
    pub session: String,
    pub opens: String,
}

/// One signed-in session, keyed by its token's hash.
struct Session {
    /// A public id (not the secret) to list and end it by.
    id: SessionId,
    source: SessionSource,
    browser: String,
    created_at: i64,
    last_used_at: i64,
}

impl Session {
    fn is_alive(&self, now: i64) -> bool {
        now < self.created_at + SESSION_LIFETIME_MS && now < self.last_used_at + SESSION_IDLE_MS
    }
}

#[derive(Default)]
pub struct Sessions {
    // Both maps key by token hash, so a memory dump holds no usable secret;
    // each lock is held only for one lookup or change.
    links: Mutex<HashMap<[u8; 32], Link>>,
    sessions: Mutex<HashMap<[u8; 32], Session>>,
    /// Woken whenever a session is signed out, for the event streams it opened.
    ended: Notify,
}

impl Sessions {
    /// A new login code, valid for 60 s, that opens the app page `opens`.
    pub fn new_link(&self, now: i64, opens: &str, source: SessionSource) -> String {
        let code = generate_token();
        let mut links = lock(&self.links);
        links.retain(|_, link| link.expires_at > now);
        let link = Link { expires_at: now + LINK_LIFETIME_MS, opens: opens.to_string(), source };
        links.insert(hash_token(&code), link);
        code
    }

    /// Spends a login code; on success returns a new session token. `user_agent`
    /// names the browser in the list of sessions.
    pub fn redeem_link(&self, code: &str, now: i64, user_agent: &str) -> Option<Redeemed> {
        let link = lock(&self.links).remove(&hash_token(code))?;
        if now >= link.expires_at {
            return None;
        }
        let session = generate_token();
        let record = Session {
            id: SessionId::from(&generate_token()[..12]),
            source: link.source,
            browser: browser_name(user_agent),
            created_at: now,
            last_used_at: now,
        };
        let mut sessions = lock(&self.sessions);
        sessions.retain(|_, session| session.is_alive(now));
        sessions.insert(hash_token(&session), record);
        Some(Redeemed { session, opens: link.opens })
    }

    /// Whether the session token is signed in at `now`; a use keeps it alive.
    pub fn use_session(&self, token: &str, now: i64) -> bool {
        let mut sessions = lock(&self.sessions);
        let key = hash_token(token);
        match sessions.get_mut(&key) {
            Some(session) if session.is_alive(now) => {
                session.last_used_at = now;
                true
            }
            Some(_) => {
                sessions.remove(&key);
                false
            }
            None => false,
        }
    }

    /// Ends the session of this token (signing out); false if there was none.
    pub fn end_by_token(&self, token: &str) -> bool {
        let ended = lock(&self.sessions).remove(&hash_token(token)).is_some();
        self.ended.notify_waiters();
        ended
    }

    /// Ends the session with this public id; false if there is none.
    pub fn end_by_id(&self, id: &str) -> bool {
        let ended = {
            let mut sessions = lock(&self.sessions);
            let before = sessions.len();
            sessions.retain(|_, session| session.id != id);
            sessions.len() != before
        };
        self.ended.notify_waiters();
        ended
    }

    /// Whether the session of this token is signed in at `now` and within its
    /// 7 days. Unlike [`Sessions::use_session`] it does not count as a use: an
    /// open event stream keeps a session open, not alive.
    pub fn is_signed_in(&self, token: &str, now: i64) -> bool {
        lock(&self.sessions)
            .get(&hash_token(token))
            .is_some_and(|session| now < session.created_at + SESSION_LIFETIME_MS)
    }

    /// Resolves once the session of `token` is signed out or past its 7 days
    /// (checked at every sign-out, and every minute), so a stream it opened ends.
    pub async fn signed_out(&self, token: &str) {
        loop {
            let notified = self.ended.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if !self.is_signed_in(token, crate::base::clock::now_ms()) {
                return;
            }
            let _ = tokio::time::timeout(Duration::from_secs(60), notified).await;
        }
    }

    /// Every live session, newest first; `current` marks the caller's own.
    pub fn list(&self, now: i64, current: Option<&str>) -> Vec<SessionInfo> {
        let current = current.map(hash_token);
        let mut sessions = lock(&self.sessions);
        sessions.retain(|_, session| session.is_alive(now));
        let mut list: Vec<SessionInfo> = sessions
            .iter()
            .map(|(key, session)| SessionInfo {
                id: session.id.clone(),
                source: session.source,
                browser: session.browser.clone(),
                created_at: session.created_at,
                last_used_at: session.last_used_at,
                expires_at: (session.created_at + SESSION_LIFETIME_MS)
                    .min(session.last_used_at + SESSION_IDLE_MS),
                current: current.as_ref() == Some(key),
            })
            .collect();
        list.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        list
    }
}

/// A short name for the browser of a User-Agent string ("Firefox", "Chromium", …).
fn browser_name(user_agent: &str) -> String {
    let known = [
        ("Firefox/", "Firefox"),
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Chromium/", "Chromium"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
        ("AppleWebKit/", "WebKit"),
    ];
    known
        .iter()
        .find(|(mark, _)| user_agent.contains(mark))
        .map(|(_, name)| name.to_string())
        .unwrap_or_else(|| "Unknown browser".to_string())
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHROME: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

    #[test]
    fn links_are_single_use_and_expire() {
        let sessions = Sessions::default();
        let code = sessions.new_link(0, "/settings/extension?pair", SessionSource::Browser);
        let redeemed = sessions.redeem_link(&code, 1, CHROME).expect("first use");
        assert_eq!(redeemed.opens, "/settings/extension?pair");
        assert!(sessions.use_session(&redeemed.session, 2));
        assert!(sessions.redeem_link(&code, 2, CHROME).is_none(), "second use");
        let late = sessions.new_link(0, "/", SessionSource::Browser);
        assert!(sessions.redeem_link(&late, LINK_LIFETIME_MS, CHROME).is_none(), "expired");
    }

    #[test]
    fn sessions_end_when_idle_or_too_old() {
        let sessions = Sessions::default();
        let signed_in = |at| {
            let code = sessions.new_link(at, "/", SessionSource::Browser);
            sessions.redeem_link(&code, at, CHROME).expect("redeemed").session
        };
        let idle = signed_in(0);
        assert!(!sessions.use_session(&idle, SESSION_IDLE_MS), "12 h unused");
        let busy = signed_in(0);
        let mut now = 0;
        while now + SESSION_IDLE_MS / 2 < SESSION_LIFETIME_MS {
            now += SESSION_IDLE_MS / 2;
            assert!(sessions.use_session(&busy, now), "used every 6 h, at {now}");
        }
        assert!(!sessions.use_session(&busy, SESSION_LIFETIME_MS), "7 days at most");
    }

    #[tokio::test]
    async fn a_stream_learns_when_its_session_is_signed_out() {
        let sessions = std::sync::Arc::new(Sessions::default());
        let now = crate::base::clock::now_ms();
        let code = sessions.new_link(now, "/", SessionSource::Browser);
        let token = sessions.redeem_link(&code, now, CHROME).expect("signed in").session;
        let waiting = {
            let (sessions, token) = (sessions.clone(), token.clone());
            tokio::spawn(async move { sessions.signed_out(&token).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "still signed in");
        assert!(sessions.end_by_token(&token));
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("woken by the sign-out")
            .expect("task");
    }

    #[test]
    fn signing_out_ends_only_that_session() {
        let sessions = Sessions::default();
        let window = sessions.new_link(0, "/", SessionSource::AppWindow);
        let window = sessions.redeem_link(&window, 1, "WebKitGTK AppleWebKit/605.1.15").expect("w");
        let browser = sessions.new_link(2, "/", SessionSource::Browser);
        let browser = sessions.redeem_link(&browser, 3, CHROME).expect("b");
        let list = sessions.list(4, Some(&browser.session));
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].browser.as_str(), list[0].current), ("Chrome", true));
        assert_eq!(
            (list[1].source, list[1].browser.as_str()),
            (SessionSource::AppWindow, "WebKit")
        );
        assert!(sessions.end_by_id(&list[1].id));
        assert!(!sessions.use_session(&window.session, 5));
        assert!(sessions.use_session(&browser.session, 5));
        assert!(sessions.end_by_token(&browser.session));
        assert!(!sessions.use_session(&browser.session, 6));
        assert!(sessions.list(6, None).is_empty());
    }
}
