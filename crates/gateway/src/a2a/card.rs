//! The Agent Cards. They list the twelve skills of the catalogue.
//!
//! - [`card`]: the v0.3 card (`authentication`, `protocolVersion`,
//!   `securitySchemes` as `{type: "http", scheme: "bearer"}`, `security`,
//!   `preferredTransport`), modes as media types; [`card_early`] is the same
//!   with the early protocol's modes (`text`), at `/.well-known/agent.json`.
//! - [`card_v10`]: the A2A 1.0 card (`supportedInterfaces` with
//!   `protocolVersion: "1.0"` and `"0.3"`, `securitySchemes` as
//!   `{httpAuthSecurityScheme}`, `securityRequirements`, no `url`).
//! - [`card_merged`]: what `/.well-known/agent-card.json` serves to a client
//!   that does not say which version it reads: the 1.0 card with the v0.3
//!   fields merged in where 1.0 has no field of that name, which is what the
//!   official 1.x SDK's own servers serve (both SDK lines read it). A request
//!   with `A2A-Version: 1.0` gets the pure 1.0 card, `A2A-Version: 0.3` the
//!   pure v0.3 card.

use std::hash::{DefaultHasher, Hash, Hasher};

use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::catalogue;

/// How long a client may keep a card without asking again.
const MAX_AGE: &str = "public, max-age=300";

/// A card with `Cache-Control` and a weak `ETag`; `If-None-Match` with that
/// tag gets 304 Not Modified.
pub fn respond(card: &Value, request: &HeaderMap) -> Response {
    let mut hasher = DefaultHasher::new();
    card.to_string().hash(&mut hasher);
    let tag = format!("W/\"{:016x}\"", hasher.finish());
    let matches =
        request.get(IF_NONE_MATCH).and_then(|value| value.to_str().ok()).is_some_and(|value| {
            value.split(',').any(|candidate| {
                let candidate = candidate.trim();
                candidate == "*"
                    || candidate.trim_start_matches("W/") == tag.trim_start_matches("W/")
            })
        });
    let mut response =
        if matches { StatusCode::NOT_MODIFIED.into_response() } else { Json(card).into_response() };
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(MAX_AGE));
    if let Ok(value) = HeaderValue::from_str(&tag) {
        headers.insert(ETAG, value);
    }
    response
}

const DESCRIPTION: &str = "Answers questions about the meetings recorded on this machine: \
    lists and searches meetings, answers questions from what was said (citing the lines), reads \
    transcripts, notes and action items, and (with Recorder \
    Pro and the person's permission) starts and stops recordings, adds markers, adds and updates \
    action items (owner, due date, done) and regenerates notes. Send free text (a keyword router picks the skill) or a data part \
    {\"skill\": <id>, \"args\": {...}}. Everything stays on this machine.";

const TOKEN_HELP: &str = "Authorization: Bearer <api_token>, where the token is the contents \
    of the file `api_token` in the recorder's data folder (macOS: ~/Library/Application \
    Support/app.recorder.desktop/api_token; Linux: ~/.local/share/app.recorder.desktop/api_token; \
    Windows: %APPDATA%\\app.recorder.desktop\\api_token).";

/// What skills take and give, as media types: free text, or a data part
/// (`{"skill", "args"}` in, `{"skill", "meeting_ids", "timestamps"}` out).
pub const MODES: [&str; 2] = ["text/plain", "application/json"];

/// The same in the early protocol's words, as the interface specification
/// gives the card at `/.well-known/agent.json`.
const EARLY_INPUT_MODES: [&str; 1] = ["text"];
const EARLY_OUTPUT_MODES: [&str; 2] = ["text", "application/json"];

fn skills() -> Vec<Value> {
    let modes = json!(MODES);
    catalogue::entries()
        .iter()
        .map(|entry| {
            json!({
                "id": entry.name(),
                "name": entry.title,
                "description": entry.description,
                "tags": entry.tags,
                "examples": entry.examples,
                "inputModes": modes,
                "outputModes": modes,
            })
        })
        .collect()
}

/// The early-protocol and v0.3 card, for an agent reachable at `url`.
pub fn card(url: &str) -> Value {
    let skills = skills();
    json!({
        "name": "Recorder",
        "description": DESCRIPTION,
        "url": url,
        "provider": { "organization": "recorder", "url": url },
        "version": env!("CARGO_PKG_VERSION"),
        "protocolVersion": "0.3.0",
        "preferredTransport": "JSONRPC",
        "capabilities": {
            "streaming": true,
            "pushNotifications": false,
            "stateTransitionHistory": false,
        },
        "authentication": { "schemes": ["bearer"] },
        "securitySchemes": {
            "bearer": { "type": "http", "scheme": "bearer", "description": TOKEN_HELP },
        },
        "security": [{ "bearer": [] }],
        "defaultInputModes": MODES,
        "defaultOutputModes": MODES,
        "skills": skills,
        "supportsAuthenticatedExtendedCard": false,
    })
}

/// The card at `/.well-known/agent.json`: the v0.3 card with the early
/// protocol's modes (`text`), exactly as the interface specification has them.
pub fn card_early(url: &str) -> Value {
    let mut card = card(url);
    card["defaultInputModes"] = json!(EARLY_INPUT_MODES);
    card["defaultOutputModes"] = json!(EARLY_OUTPUT_MODES);
    if let Some(skills) = card["skills"].as_array_mut() {
        for skill in skills {
            skill["inputModes"] = json!(EARLY_INPUT_MODES);
            skill["outputModes"] = json!(EARLY_OUTPUT_MODES);
        }
    }
    card
}

/// The A2A 1.0 card: one JSON-RPC interface at `url`, spoken in 1.0 and 0.3.
pub fn card_v10(url: &str) -> Value {
    let interface = |version: &str| json!({ "url": url, "protocolBinding": "JSONRPC", "protocolVersion": version });
    json!({
        "name": "Recorder",
        "description": DESCRIPTION,
        "supportedInterfaces": [interface("1.0"), interface("0.3")],
        "provider": { "organization": "recorder", "url": url },
        "version": env!("CARGO_PKG_VERSION"),
        "capabilities": {
            "streaming": true,
            "pushNotifications": false,
            "extendedAgentCard": false,
        },
        "securitySchemes": {
            "bearer": { "httpAuthSecurityScheme": { "scheme": "Bearer", "description": TOKEN_HELP } },
        },
        "securityRequirements": [{ "schemes": { "bearer": { "list": [] } } }],
        "defaultInputModes": MODES,
        "defaultOutputModes": MODES,
        "skills": skills(),
    })
}

/// The 1.0 card with the v0.3 card's fields merged in wherever the 1.0 card
/// has no field of that name (objects merge key by key, lists item by item),
/// as the official SDK's `agent_card_to_dict` does.
pub fn card_merged(url: &str) -> Value {
    let mut merged = card_v10(url);
    merge(&mut merged, &card(url));
    merged
}

fn merge(into: &mut Value, from: &Value) {
    match (into, from) {
        (Value::Object(into), Value::Object(from)) => {
            for (key, value) in from {
                match into.get_mut(key) {
                    Some(existing) => merge(existing, value),
                    None => {
                        into.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (Value::Array(into), Value::Array(from)) => {
            for (existing, value) in into.iter_mut().zip(from) {
                merge(existing, value);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merged_card_reads_as_both_versions() {
        let merged = card_merged("http://127.0.0.1:1/");
        // 1.0 fields.
        assert_eq!(merged["supportedInterfaces"][0]["protocolVersion"], "1.0");
        assert_eq!(
            merged["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["scheme"],
            "Bearer"
        );
        assert!(merged["securityRequirements"].is_array());
        // v0.3 fields beside them.
        assert_eq!(merged["url"], "http://127.0.0.1:1/");
        assert_eq!(merged["protocolVersion"], "0.3.0");
        assert_eq!(merged["securitySchemes"]["bearer"]["type"], "http");
        assert_eq!(merged["securitySchemes"]["bearer"]["scheme"], "bearer");
        assert_eq!(merged["security"], json!([{ "bearer": [] }]));
        // The pure cards keep to their own version.
        let v10 = card_v10("http://127.0.0.1:1/");
        assert!(v10.get("url").is_none() && v10.get("security").is_none());
        assert!(card("http://127.0.0.1:1/").get("supportedInterfaces").is_none());
    }
}
