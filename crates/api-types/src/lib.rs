//! Wire types of the local API (`/v1` and `/ui`) and the error-code table.
//!
//! Shared by the service, the typed client, the CLI and the gateway, so that every
//! side agrees on one shape. Every type here derives an OpenAPI schema; the service
//! publishes them at `GET /v1/openapi.json`.

mod ai;
mod audio;
mod error;
mod events;
mod export;
pub mod hosts;
pub mod identity;
mod imports;
mod ledger;
mod license;
mod meeting;
mod models;
mod notes_models;
mod pairing;
mod policy;
mod prompts;
mod recording;
mod search;
mod sessions;
mod speakers;
mod system;
mod templates;

pub use ai::*;
pub use audio::*;
pub use error::{ErrorBody, ErrorCode, ErrorDetail};
pub use events::*;
pub use export::*;
pub use imports::*;
pub use ledger::*;
pub use license::*;
pub use meeting::*;
pub use models::*;
pub use notes_models::*;
pub use pairing::*;
pub use policy::*;
pub use prompts::*;
pub use recorder_domain::{
    ActionItemId, Channel, MarkerId, MeetingId, MeetingStatus, NoteId, NoteKind, PairingId, Plan,
    PromptId, SessionId, VoiceId,
};
pub use recording::*;
pub use search::*;
pub use sessions::*;
pub use speakers::*;
pub use system::*;
pub use templates::*;

/// Header that marks a request as coming from the gateway (an agent request).
pub const CLIENT_HEADER: &str = "x-recorder-client";
/// The agent's own client name (an MCP host's `clientInfo.name`, an A2A
/// client's), sent by `recorder-gateway` beside [`CLIENT_HEADER`]; the
/// history names changes by it (`agent:<name>`).
pub const AGENT_HEADER: &str = "x-recorder-agent";
/// Value of [`CLIENT_HEADER`] sent by `recorder-gateway`.
pub const GATEWAY_CLIENT: &str = "gateway";
