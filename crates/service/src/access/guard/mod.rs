//! The guard chain, in the contract's order: Host → bearer → scope → policy →
//! plan → setting. State checks (unknown ids, conflicts) are the handlers' own.
//! No handler looks at a token: [`auth`] puts a [`Principal`] in the request.

pub mod auth;
pub mod gates;
pub mod host;
pub mod origin;

pub use auth::Principal;
pub use gates::Requirement;
