//! What a recording follows and how it may end by itself, as plain data:
//! the call it came from and a countdown to stopping. Kept apart from
//! `ending.rs` (which needs the whole recording context) so the recorder's
//! `Control` can hold them.

use recorder_api_types::{Ending, EndingReason};

/// The call a recording came from: the prompt's app and page (no page for a
/// desktop app).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOrigin {
    pub source_app: String,
    pub url: Option<String>,
}

/// A countdown to stopping by itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Countdown {
    pub reason: EndingReason,
    /// When it stops, ms since the epoch.
    pub stops_at: i64,
    pub source_app: Option<String>,
}

impl Countdown {
    pub fn view(&self) -> Ending {
        Ending { reason: self.reason, stops_at: self.stops_at, source_app: self.source_app.clone() }
    }
}
