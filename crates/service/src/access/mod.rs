//! Who may ask: the bearer secrets, pairing codes for the extension, the
//! person's browser sessions, and the guard chain every request passes.

pub mod guard;
pub mod pairing;
pub mod sessions;
pub mod tokens;
