//! MCP `logging`: the gateway's own tracing events, forwarded to each MCP
//! client that asked for them with `logging/setLevel`, at or above the level
//! it chose. The gateway's log filter (`RECORDER_LOG`) still decides what is
//! recorded at all. Tokens never reach a log line (the guard does not log them).
#![allow(deprecated)] // MCP logging is deprecated by SEP-2577, still in 2025-11-25.

use std::fmt::Write as _;
use std::sync::LazyLock;

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::{Peer, RoleServer};
use serde_json::json;
use tokio::sync::broadcast;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::Layer;

/// One log line as MCP clients get it.
#[derive(Debug, Clone)]
pub struct Line {
    pub level: Level,
    pub target: String,
    pub message: String,
}

/// Lines not yet forwarded to a slow client; past this, it misses the oldest.
const BACKLOG: usize = 256;

static FEED: LazyLock<broadcast::Sender<Line>> = LazyLock::new(|| broadcast::channel(BACKLOG).0);

/// The tracing layer that feeds MCP clients (installed by the binary).
pub struct Forward;

impl<S: Subscriber> Layer<S> for Forward {
    fn on_event(&self, event: &Event<'_>, _context: Context<'_, S>) {
        let target = event.metadata().target();
        // The SDK's own lines describe the sending itself.
        if target.starts_with("rmcp") || FEED.receiver_count() == 0 {
            return;
        }
        let mut text = Text::default();
        event.record(&mut text);
        let line = Line {
            level: *event.metadata().level(),
            target: target.to_string(),
            message: text.line(),
        };
        // Nobody listening is fine.
        let _ = FEED.send(line);
    }
}

/// The event's message, then its other fields as `name=value`.
#[derive(Default)]
struct Text {
    message: String,
    fields: String,
}

impl Text {
    fn line(self) -> String {
        format!("{}{}", self.message, self.fields)
    }
}

impl Visit for Text {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.fields, " {}={value:?}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.fields, " {}={value}", field.name());
        }
    }
}

/// MCP's levels, in order.
pub fn rank(level: &LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// A tracing level as MCP names it.
pub fn level_of(level: Level) -> LoggingLevel {
    match level {
        Level::ERROR => LoggingLevel::Error,
        Level::WARN => LoggingLevel::Warning,
        Level::INFO => LoggingLevel::Info,
        _ => LoggingLevel::Debug,
    }
}

/// Forwards lines at `minimum` or above to `peer` until it goes away; the
/// minimum can change while it runs (`logging/setLevel` again).
pub fn forward(peer: Peer<RoleServer>, minimum: tokio::sync::watch::Receiver<u8>) {
    let mut lines = FEED.subscribe();
    tokio::spawn(async move {
        loop {
            let line = match lines.recv().await {
                Ok(line) => line,
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return,
            };
            let level = level_of(line.level);
            if rank(&level) < *minimum.borrow() {
                continue;
            }
            let data = json!({ "message": line.message, "target": line.target });
            let param =
                LoggingMessageNotificationParam::new(level, data).with_logger("recorder-gateway");
            if peer.notify_logging_message(param).await.is_err() {
                return;
            }
        }
    });
}
