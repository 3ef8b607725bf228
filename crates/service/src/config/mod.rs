//! What the service is told to do: the person's live settings, the managed
//! policy that overrides them, and the plan a licence grants.

pub mod license;
pub mod managed;
