//! The three dialects on the wire: Ollama `/api/chat`, OpenAI-compatible
//! `/chat/completions` and Anthropic `/v1/messages`. Requests are built here and
//! sent through egress; answers are read whether the server sent one JSON
//! document, NDJSON (Ollama streaming) or server-sent events (OpenAI, Anthropic).

use std::time::Duration;

use recorder_egress::{Egress, EgressError, Method, OutboundRequest, Verdict};
use serde_json::{json, Value};
use url::Url;

use crate::pipeline::Model;
use crate::prompt::Chat;
use crate::{AiError, ProviderConfig, ProviderKind};

const LOCAL_TIMEOUT: Duration = Duration::from_secs(300);
const CLOUD_TIMEOUT: Duration = Duration::from_secs(120);
const ANTHROPIC_VERSION: &str = "2023-06-01";
const MAX_TOKENS: u32 = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Ollama,
    /// `json_mode`: send `response_format: json_object` for JSON answers (cloud
    /// only: llama.cpp servers may reject it).
    OpenAi {
        json_mode: bool,
    },
    Anthropic,
}

impl Dialect {
    pub(crate) fn of(config: &ProviderConfig) -> Dialect {
        match config.kind {
            ProviderKind::Local if ends_in_v1(&config.base_url) => {
                Dialect::OpenAi { json_mode: false }
            }
            ProviderKind::Local => Dialect::Ollama,
            ProviderKind::OpenAiCompatible => Dialect::OpenAi { json_mode: true },
            ProviderKind::Anthropic => Dialect::Anthropic,
        }
    }

    /// The endpoint under the base URL.
    pub(crate) fn endpoint(self, base: &Url) -> Url {
        let suffix = match self {
            Dialect::Ollama => "/api/chat",
            Dialect::OpenAi { .. } => "/chat/completions",
            Dialect::Anthropic if ends_in_v1(base) => "/messages",
            Dialect::Anthropic => "/v1/messages",
        };
        let mut url = base.clone();
        let path = format!("{}{suffix}", base.path().trim_end_matches('/'));
        url.set_path(&path);
        url
    }

    pub(crate) fn body(self, model: &str, chat: &Chat) -> Value {
        let messages = json!([{ "role": "user", "content": chat.user }]);
        match self {
            Dialect::Anthropic => json!({
                "model": model,
                "max_tokens": MAX_TOKENS,
                "system": chat.system,
                "messages": messages,
            }),
            Dialect::Ollama | Dialect::OpenAi { .. } => {
                let mut all = vec![json!({ "role": "system", "content": chat.system })];
                all.push(messages[0].clone());
                let mut body = json!({ "model": model, "messages": all, "stream": false });
                match self {
                    Dialect::Ollama if chat.json => body["format"] = json!("json"),
                    Dialect::OpenAi { json_mode: true } if chat.json => {
                        body["response_format"] = json!({ "type": "json_object" })
                    }
                    _ => {}
                }
                body
            }
        }
    }

    /// The text of an answer: one JSON document, NDJSON or server-sent events.
    pub(crate) fn answer(self, body: &[u8]) -> Result<String, String> {
        let text = String::from_utf8_lossy(body);
        let text = text.trim();
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            return self.whole(&value).ok_or_else(|| unexpected(&value));
        }
        let is_sse = text.lines().any(|line| line.starts_with("data:"));
        let events: Vec<Value> = if is_sse {
            text.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .filter(|data| !data.is_empty() && *data != "[DONE]")
                .map(serde_json::from_str)
                .collect::<Result<_, _>>()
                .map_err(|_| "the streamed answer was not valid JSON events".to_string())?
        } else {
            text.lines()
                .filter(|line| !line.trim().is_empty())
                .map(serde_json::from_str)
                .collect::<Result<_, _>>()
                .map_err(|_| "the answer was neither JSON nor a stream".to_string())?
        };
        self.streamed(&events)
    }

    /// The text of a whole (non-streamed) answer.
    fn whole(self, value: &Value) -> Option<String> {
        match self {
            Dialect::Ollama => value["message"]["content"].as_str().map(str::to_string),
            Dialect::OpenAi { .. } => {
                value["choices"][0]["message"]["content"].as_str().map(str::to_string)
            }
            Dialect::Anthropic => {
                let blocks = value["content"].as_array()?;
                Some(
                    blocks
                        .iter()
                        .filter(|b| b["type"] == "text")
                        .filter_map(|b| b["text"].as_str())
                        .collect(),
                )
            }
        }
    }

    /// The text one event of a streamed answer adds.
    pub(crate) fn piece(self, event: &Value) -> Option<String> {
        let piece = match self {
            Dialect::Ollama => &event["message"]["content"],
            Dialect::OpenAi { .. } => &event["choices"][0]["delta"]["content"],
            Dialect::Anthropic if event["type"] == "content_block_delta" => &event["delta"]["text"],
            Dialect::Anthropic => &Value::Null,
        };
        piece.as_str().map(str::to_string)
    }

    /// The text of a streamed answer: its pieces joined.
    fn streamed(self, events: &[Value]) -> Result<String, String> {
        if let Some(failure) = events.iter().find(|event| is_error(event)) {
            return Err(unexpected(failure));
        }
        let pieces: Vec<String> = events.iter().filter_map(|event| self.piece(event)).collect();
        if pieces.is_empty() && !events.is_empty() {
            return Err("the streamed answer carried no text".to_string());
        }
        Ok(pieces.concat())
    }
}

fn ends_in_v1(url: &Url) -> bool {
    url.path().trim_end_matches('/').ends_with("/v1")
}

fn is_error(value: &Value) -> bool {
    value.get("error").is_some_and(|error| !error.is_null()) || value["type"] == "error"
}

/// Describes an answer of the wrong shape without quoting it (it might echo secrets).
fn unexpected(value: &Value) -> String {
    if is_error(value) {
        "the server answered with an error".to_string()
    } else {
        "the answer had an unexpected shape".to_string()
    }
}

/// A configured server, sending every request with the caller's verdict.
pub(crate) struct Server<'a> {
    egress: &'a Egress,
    config: &'a ProviderConfig,
    verdict: Verdict,
    dialect: Dialect,
    endpoint: Url,
    /// The ledger's purpose of every request (`notes`, `ask`).
    purpose: &'static str,
}

impl<'a> Server<'a> {
    pub(crate) fn new(egress: &'a Egress, config: &'a ProviderConfig, verdict: Verdict) -> Self {
        let dialect = Dialect::of(config);
        let endpoint = dialect.endpoint(&config.base_url);
        Server { egress, config, verdict, dialect, endpoint, purpose: "notes" }
    }

    /// The same server, its requests recorded for another purpose.
    pub(crate) fn for_purpose(mut self, purpose: &'static str) -> Self {
        self.purpose = purpose;
        self
    }

    fn request(&self, chat: &Chat) -> OutboundRequest {
        let mut request = OutboundRequest::new(Method::POST, self.endpoint.clone(), self.purpose);
        request.body = self.dialect.body(self.config.model_name(), chat).to_string().into_bytes();
        request.timeout =
            if self.config.kind == ProviderKind::Local { LOCAL_TIMEOUT } else { CLOUD_TIMEOUT };
        request.pinned_addrs = self.config.pinned_addrs.clone();
        request.headers.push(("content-type".into(), "application/json".into()));
        let key = self.config.api_key.as_deref().map(str::trim).filter(|key| !key.is_empty());
        match (self.dialect, key) {
            (Dialect::Anthropic, key) => {
                request.headers.push(("x-api-key".into(), key.unwrap_or_default().into()));
                request.headers.push(("anthropic-version".into(), ANTHROPIC_VERSION.into()));
            }
            (_, Some(key)) => {
                request.headers.push(("authorization".into(), format!("Bearer {key}")))
            }
            (_, None) => {}
        }
        request
    }
}

impl Server<'_> {
    /// Asks with a streamed answer: each piece of text is sent to `deltas` as
    /// it arrives; the whole text is returned at the end.
    pub(crate) async fn ask_streamed(
        &self,
        chat: &Chat,
        deltas: tokio::sync::mpsc::UnboundedSender<String>,
    ) -> Result<String, AiError> {
        let mut request = self.request(chat);
        let mut body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        body["stream"] = json!(true);
        request.body = body.to_string().into_bytes();
        let (pieces, mut arriving) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
        request.pieces = Some(pieces);
        let dialect = self.dialect;
        let reader = tokio::spawn(async move {
            let mut pending = Vec::new();
            while let Some(bytes) = arriving.recv().await {
                pending.extend_from_slice(&bytes);
                while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=end).collect();
                    if let Some(text) = streamed_piece(dialect, &line) {
                        let _ = deltas.send(text);
                    }
                }
            }
        });
        let result = self.egress.send(request, self.verdict.clone()).await;
        let _ = reader.await;
        self.read(result)
    }

    fn read(
        &self,
        response: Result<recorder_egress::OutboundResponse, EgressError>,
    ) -> Result<String, AiError> {
        let response = match response {
            Ok(response) => response,
            Err(EgressError::Blocked(reason)) => return Err(AiError::Blocked(reason)),
            Err(EgressError::UnsupportedScheme) => {
                return Err(AiError::Unusable("the server URL must be http or https".into()))
            }
            Err(EgressError::Failed { host, message }) => {
                return Err(AiError::Unreachable(format!("{host}: {message}")))
            }
        };
        match response.status {
            status @ 500.. => {
                Err(AiError::Unreachable(format!("the server failed (HTTP {status})")))
            }
            status @ 400.. => {
                Err(AiError::Unusable(format!("the server refused the request (HTTP {status})")))
            }
            _ => self.dialect.answer(&response.body).map_err(AiError::Unusable),
        }
    }
}

/// The text one line of a streamed answer (NDJSON, or an SSE `data:` line) adds.
fn streamed_piece(dialect: Dialect, line: &[u8]) -> Option<String> {
    let line = String::from_utf8_lossy(line);
    let line = line.trim();
    let data = line.strip_prefix("data:").map(str::trim).unwrap_or(line);
    if data.is_empty() || data == "[DONE]" {
        return None;
    }
    let event: Value = serde_json::from_str(data).ok()?;
    dialect.piece(&event).filter(|piece| !piece.is_empty())
}

impl Model for Server<'_> {
    async fn ask(&self, chat: &Chat) -> Result<String, AiError> {
        let response = self.egress.send(self.request(chat), self.verdict.clone()).await;
        self.read(response)
    }

    fn refuses(&self) -> bool {
        matches!(self.verdict, Verdict::Block(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dialects_streamed_lines_give_their_pieces() {
        let ollama = br#"{"message":{"role":"assistant","content":"We move"},"done":false}"#;
        assert_eq!(streamed_piece(Dialect::Ollama, ollama).as_deref(), Some("We move"));
        let openai = br#"data: {"choices":[{"delta":{"content":" in May"}}]}"#;
        let dialect = Dialect::OpenAi { json_mode: false };
        assert_eq!(streamed_piece(dialect, openai).as_deref(), Some(" in May"));
        assert_eq!(streamed_piece(dialect, b"data: [DONE]"), None);
        let anthropic =
            br#"data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"[1]"}}"#;
        assert_eq!(streamed_piece(Dialect::Anthropic, anthropic).as_deref(), Some("[1]"));
        assert_eq!(streamed_piece(Dialect::Anthropic, b"event: ping"), None);
        let done = br#"{"message":{"content":""},"done":true}"#;
        assert_eq!(streamed_piece(Dialect::Ollama, done), None);
    }

    fn config(kind: ProviderKind, base: &str) -> ProviderConfig {
        ProviderConfig {
            kind,
            base_url: Url::parse(base).expect("url"),
            model: None,
            api_key: None,
            pinned_addrs: Vec::new(),
        }
    }

    fn endpoint(kind: ProviderKind, base: &str) -> (Dialect, String) {
        let config = config(kind, base);
        let dialect = Dialect::of(&config);
        (dialect, dialect.endpoint(&config.base_url).to_string())
    }

    #[test]
    fn endpoints_follow_the_base_url() {
        use ProviderKind::*;
        let cases = [
            (Local, "http://localhost:11434", Dialect::Ollama, "http://localhost:11434/api/chat"),
            (Local, "http://localhost:11434/", Dialect::Ollama, "http://localhost:11434/api/chat"),
            (
                Local,
                "http://127.0.0.1:8080/v1",
                Dialect::OpenAi { json_mode: false },
                "http://127.0.0.1:8080/v1/chat/completions",
            ),
            (
                Local,
                "http://127.0.0.1:8080/v1/",
                Dialect::OpenAi { json_mode: false },
                "http://127.0.0.1:8080/v1/chat/completions",
            ),
            (
                Local,
                "http://127.0.0.1:8080/v1x",
                Dialect::Ollama,
                "http://127.0.0.1:8080/v1x/api/chat",
            ),
            (
                OpenAiCompatible,
                "https://api.openai.com/v1",
                Dialect::OpenAi { json_mode: true },
                "https://api.openai.com/v1/chat/completions",
            ),
            (
                Anthropic,
                "https://api.anthropic.com",
                Dialect::Anthropic,
                "https://api.anthropic.com/v1/messages",
            ),
            (
                Anthropic,
                "https://gw.example.com/anthropic/v1/",
                Dialect::Anthropic,
                "https://gw.example.com/anthropic/v1/messages",
            ),
        ];
        for (kind, base, dialect, url) in cases {
            assert_eq!(endpoint(kind, base), (dialect, url.to_string()), "{base}");
        }
    }

    fn chat(json: bool) -> Chat {
        Chat { system: "sys".into(), user: "hello".into(), json, schema: None }
    }

    #[test]
    fn bodies_speak_each_dialect() {
        let ollama = Dialect::Ollama.body("llama3.2", &chat(true));
        assert_eq!(ollama["format"], "json");
        assert_eq!(ollama["stream"], false);
        assert_eq!(ollama["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(ollama["messages"][1], json!({"role": "user", "content": "hello"}));
        assert!(Dialect::Ollama.body("m", &chat(false)).get("format").is_none());
        let cloud = Dialect::OpenAi { json_mode: true }.body("gpt", &chat(true));
        assert_eq!(cloud["response_format"], json!({"type": "json_object"}));
        assert_eq!(cloud["model"], "gpt");
        let local = Dialect::OpenAi { json_mode: false }.body("gpt", &chat(true));
        assert!(local.get("response_format").is_none() && local.get("format").is_none());
        let anthropic = Dialect::Anthropic.body("claude", &chat(false));
        assert_eq!(
            anthropic,
            json!({"model": "claude", "max_tokens": 4096, "system": "sys",
                   "messages": [{"role": "user", "content": "hello"}]})
        );
    }

    #[test]
    fn whole_answers_are_read() {
        let ollama = br#"{"model":"m","message":{"role":"assistant","content":"Hi"},"done":true}"#;
        assert_eq!(Dialect::Ollama.answer(ollama), Ok("Hi".into()));
        let openai = br#"{"choices":[{"index":0,"message":{"role":"assistant","content":"Yo"}}]}"#;
        assert_eq!(Dialect::OpenAi { json_mode: true }.answer(openai), Ok("Yo".into()));
        let anthropic = br#"{"content":[{"type":"text","text":"A"},{"type":"tool_use","id":"x"},{"type":"text","text":"B"}]}"#;
        assert_eq!(Dialect::Anthropic.answer(anthropic), Ok("AB".into()));
        assert!(Dialect::Ollama.answer(openai).is_err(), "another dialect's shape");
        let error = Dialect::Anthropic.answer(br#"{"type":"error","error":{"message":"k"}}"#);
        assert_eq!(error, Err("the server answered with an error".into()));
    }

    #[test]
    fn ollama_ndjson_streams_are_joined() {
        let stream = b"{\"message\":{\"role\":\"assistant\",\"content\":\"Hel\"},\"done\":false}\n\
            {\"message\":{\"role\":\"assistant\",\"content\":\"lo\"},\"done\":false}\n\
            {\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"eval_count\":3}\n";
        assert_eq!(Dialect::Ollama.answer(stream), Ok("Hello".into()));
        assert!(Dialect::Ollama.answer(b"{\"message\":{}}\nnot json\n").is_err());
    }

    #[test]
    fn openai_sse_streams_are_joined() {
        let stream = b"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n\
            data: {\"choices\":[{\"delta\":{\"content\":\"Good \"}}]}\n\n\
            data: {\"choices\":[{\"delta\":{\"content\":\"day\"},\"finish_reason\":null}]}\n\n\
            data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
            data: [DONE]\n\n";
        assert_eq!(Dialect::OpenAi { json_mode: false }.answer(stream), Ok("Good day".into()));
        let failing = b"data: {\"error\":{\"message\":\"overloaded\"}}\n\n";
        assert!(Dialect::OpenAi { json_mode: false }.answer(failing).is_err());
    }

    #[test]
    fn anthropic_sse_streams_are_joined() {
        let stream = b"event: message_start\n\
            data: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\n\n\
            event: content_block_start\n\
            data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
            event: ping\ndata: {\"type\":\"ping\"}\n\n\
            event: content_block_delta\n\
            data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Ni\"}}\n\n\
            event: content_block_delta\n\
            data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ce\"}}\n\n\
            event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        assert_eq!(Dialect::Anthropic.answer(stream), Ok("Nice".into()));
        let overloaded = b"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n\n";
        assert!(Dialect::Anthropic.answer(overloaded).is_err());
    }
}
