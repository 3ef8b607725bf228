//! The Agent Card served at `/.well-known/agent.json` and
//! `/.well-known/agent-card.json`: one document that reads as an early-protocol
//! card (`authentication`) and as an A2A v0.3 card (`protocolVersion`,
//! `securitySchemes`, `security`, `preferredTransport`). It lists the nine
//! skills of the catalogue.

use serde_json::{json, Value};

use crate::catalogue;

const DESCRIPTION: &str = "Answers questions about the meetings recorded on this machine: \
    lists and searches meetings, reads transcripts, notes and action items, and (with Recorder \
    Pro and the person's permission) starts and stops recordings, adds markers and regenerates \
    notes. Send free text (a keyword router picks the skill) or a data part \
    {\"skill\": <id>, \"args\": {...}}. Everything stays on this machine.";

const TOKEN_HELP: &str = "Authorization: Bearer <api_token>, where the token is the contents \
    of the file `api_token` in the recorder's data folder (macOS: ~/Library/Application \
    Support/app.recorder.desktop/api_token; Linux: ~/.local/share/app.recorder.desktop/api_token; \
    Windows: %APPDATA%\\app.recorder.desktop\\api_token).";

/// What skills take and give, as media types: free text, or a data part
/// (`{"skill", "args"}` in, `{"skill", "meeting_ids", "timestamps"}` out).
pub const MODES: [&str; 2] = ["text/plain", "application/json"];

/// The card, for an agent reachable at `url`.
pub fn card(url: &str) -> Value {
    let modes = json!(MODES);
    let skills: Vec<Value> = catalogue::entries()
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
        .collect();
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
