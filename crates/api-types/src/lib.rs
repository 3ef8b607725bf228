//! Wire types of the local API (`/v1` and `/ui`) and the error-code table.
//!
//! Shared by the service, the typed client, the CLI and the gateway, so that every
//! side agrees on one shape. Every type here derives an OpenAPI schema; the service
//! publishes them at `GET /v1/openapi.json`.

mod error;
mod events;
pub mod hosts;
pub mod identity;
mod meeting;
mod misc;
mod models;
mod person;
mod speakers;

pub use error::{ErrorBody, ErrorCode, ErrorDetail};
pub use events::*;
pub use meeting::*;
pub use misc::*;
pub use models::*;
pub use person::*;
pub use speakers::*;

/// Header that marks a request as coming from the gateway (an agent request).
pub const CLIENT_HEADER: &str = "x-recorder-client";
/// Value of [`CLIENT_HEADER`] sent by `recorder-gateway`.
pub const GATEWAY_CLIENT: &str = "gateway";
