//! What the service and the `recorder-llm` worker say to each other: one JSON
//! object per line on the worker's stdin (requests) and stdout (replies).
//!
//! The worker first answers with [`Reply::Ready`] (or [`Reply::Error`] and exits),
//! then, for each [`Request`], with [`Reply::Progress`] lines and one
//! [`Reply::Done`] or [`Reply::Error`]. It exits when its stdin closes.

use serde::{Deserialize, Serialize};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

/// One completion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub messages: Vec<Message>,
    /// A JSON schema the answer must follow (llama.cpp's grammar constraint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json_schema: Option<String>,
    /// The most tokens written.
    pub max_tokens: u32,
}

/// What the worker knows about the model it loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Tokens of context the worker made room for.
    pub context: u32,
    /// The model's own context length.
    pub trained_context: u32,
    pub parameters: u64,
    pub size_bytes: u64,
    pub threads: u32,
    /// How the worker is confined while it reads the model and writes
    /// (`recorder_sandbox`'s report, e.g. "confined: files (Landlock ABI 7), …",
    /// or "unconfined: " and why). Empty from workers older than this field.
    #[serde(default)]
    pub confinement: String,
}

/// Counts of one finished completion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    pub text: String,
    pub prompt_tokens: u32,
    pub generated_tokens: u32,
    pub prompt_ms: u64,
    pub generate_ms: u64,
    /// The answer ended because it reached `max_tokens`.
    pub truncated: bool,
}

/// One line from the worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    Ready(ModelInfo),
    /// Tokens of the prompt read so far and tokens written so far.
    Progress {
        prompt_tokens: u32,
        read: u32,
        generated: u32,
    },
    Done(Finished),
    Error(String),
}

impl Reply {
    /// The reply as one line (no newline inside).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|error| {
            format!("{{\"error\":\"the reply could not be written: {error}\"}}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_one_line_each_and_read_back() {
        let replies = [
            Reply::Progress { prompt_tokens: 10, read: 4, generated: 0 },
            Reply::Error("line one\nline two".into()),
            Reply::Done(Finished {
                text: "{\"a\":\n1}".into(),
                prompt_tokens: 1,
                generated_tokens: 2,
                prompt_ms: 3,
                generate_ms: 4,
                truncated: false,
            }),
        ];
        for reply in replies {
            let line = reply.to_line();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<Reply>(&line).expect("reads back"), reply);
        }
    }
}
