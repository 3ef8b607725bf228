//! Meeting notes from an LLM server: a local one (Ollama or any OpenAI-compatible
//! server such as llama.cpp) or a cloud one (Anthropic, OpenAI-compatible).
//!
//! Every request goes through [`Egress`] with the caller's [`Verdict`], so each one
//! (sent, failed or refused) is in the Privacy Ledger. Long transcripts are split
//! into chunks and the notes are made map-reduce style, so any meeting length
//! works. The API key is never logged, never in an error and redacted in `Debug`.
//!
//! `prompt` words the requests, `wire` speaks each server's dialect, `chunk` splits
//! transcripts, `actions` reads the model's action-item JSON, `pipeline` runs the
//! map and reduce steps and `loopback` checks where a local server really is;
//! `embedded` writes notes with the model inside (`recorder-llm`), no server at all;
//! `ask` answers a question from the passages search found.

mod actions;
pub mod ask;
mod chunk;
pub mod embedded;
mod loopback;
mod pipeline;
mod prompt;
mod wire;

use std::fmt;
use std::net::SocketAddr;

use recorder_domain::NoteKind;
use recorder_egress::{Egress, Verdict};
use recorder_notes::{Context, Generated, Line};
use url::Url;

pub use crate::loopback::loopback_addrs;

/// Which kind of server makes the notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    /// `ai.local_url`: Ollama, or OpenAI-compatible when its path ends in `/v1`.
    Local,
    Anthropic,
    OpenAiCompatible,
}

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Local => "local",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::OpenAiCompatible => "openai_compatible",
        }
    }

    /// The model asked for when the settings name none.
    pub fn default_model(self) -> &'static str {
        match self {
            ProviderKind::Local => "llama3.2",
            ProviderKind::Anthropic => "claude-sonnet-4-5",
            ProviderKind::OpenAiCompatible => "gpt-4o-mini",
        }
    }
}

/// Where and how to ask for notes.
#[derive(Clone)]
pub struct ProviderConfig {
    pub kind: ProviderKind,
    /// Local: `ai.local_url`; Anthropic: `https://api.anthropic.com` or the cloud
    /// base URL; OpenAI-compatible: e.g. `https://api.openai.com/v1`.
    pub base_url: Url,
    /// Sent as the request's `model`; None means [`ProviderKind::default_model`].
    pub model: Option<String>,
    /// Never logged, never in errors.
    pub api_key: Option<String>,
    /// The only addresses the server's host may be reached at (see
    /// [`loopback_addrs`]); empty means an ordinary DNS lookup.
    pub pinned_addrs: Vec<SocketAddr>,
}

impl ProviderConfig {
    /// The model sent with every request.
    pub fn model_name(&self) -> &str {
        match self.model.as_deref().map(str::trim) {
            Some(model) if !model.is_empty() => model,
            _ => self.kind.default_model(),
        }
    }
}

impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("kind", &self.kind)
            .field("base_url", &recorder_egress::ledger_url(&self.base_url))
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("pinned_addrs", &self.pinned_addrs)
            .finish()
    }
}

/// What to write notes about.
#[derive(Debug, Clone, Copy)]
pub struct NotesRequest<'a> {
    pub kind: NoteKind,
    pub lines: &'a [Line],
    pub context: &'a Context,
    /// Markdown instructions of a template: what a Custom note is, or how to shape
    /// any other kind.
    pub template: Option<&'a str>,
}

/// Why no notes came from the provider. Messages name no secret and no query string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// Policy refused the request; nothing was sent.
    #[error("the notes request was refused: {0}")]
    Blocked(String),
    /// The server could not be reached, timed out or failed (HTTP 5xx).
    #[error("the notes server could not be used: {0}")]
    Unreachable(String),
    /// The server answered, but not with usable notes (HTTP 4xx, bad answers).
    #[error("the notes server gave no usable notes: {0}")]
    Unusable(String),
}

impl AiError {
    /// What went wrong, without the kind of failure in front (for a person).
    pub fn reason(&self) -> &str {
        match self {
            AiError::Blocked(reason) | AiError::Unreachable(reason) | AiError::Unusable(reason) => {
                reason
            }
        }
    }
}

/// Generates one note of `request.kind`. `verdict` goes with every request sent,
/// so a Block is recorded in the ledger and returned as [`AiError::Blocked`].
pub async fn generate(
    egress: &Egress,
    config: &ProviderConfig,
    verdict: Verdict,
    request: &NotesRequest<'_>,
) -> Result<Generated, AiError> {
    let server = wire::Server::new(egress, config, verdict);
    pipeline::run(&server, request, chunk::BUDGET).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(model: Option<&str>) -> ProviderConfig {
        ProviderConfig {
            kind: ProviderKind::Anthropic,
            base_url: Url::parse("https://api.anthropic.com/?key=q").expect("url"),
            model: model.map(str::to_string),
            api_key: Some("sk-SECRET-KEY".into()),
            pinned_addrs: Vec::new(),
        }
    }

    #[test]
    fn debug_redacts_the_key_and_the_query() {
        let shown = format!("{:?}", config(None));
        assert!(!shown.contains("SECRET") && !shown.contains("key=q"), "{shown}");
        assert!(shown.contains("<redacted>"), "{shown}");
    }

    #[test]
    fn models_default_per_provider() {
        assert_eq!(config(None).model_name(), "claude-sonnet-4-5");
        assert_eq!(config(Some("  ")).model_name(), "claude-sonnet-4-5");
        assert_eq!(config(Some("claude-opus-4")).model_name(), "claude-opus-4");
        let names: Vec<&str> =
            [ProviderKind::Local, ProviderKind::Anthropic, ProviderKind::OpenAiCompatible]
                .into_iter()
                .map(ProviderKind::as_str)
                .collect();
        assert_eq!(names, ["local", "anthropic", "openai_compatible"]);
    }
}
