//! `recorder-gateway`: lets AI agents use the recorder's meetings through MCP
//! (stdio and Streamable HTTP) and A2A (the early protocol and v0.3), doing
//! everything through the local API as an agent request
//! (`X-Recorder-Client: gateway`). It never opens the database or the audio.

pub mod a2a;
pub mod catalogue;
pub mod config;
pub mod guard;
pub mod mcp;
pub mod output;
pub mod router;
pub mod skills;
