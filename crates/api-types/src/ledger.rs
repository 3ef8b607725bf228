//! The Privacy Ledger as the API returns it: the domain's [`LedgerEntry`], the
//! one definition the egress crate writes and the store keeps.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use recorder_domain::{LedgerEntry, LedgerOutcome};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Ledger {
    pub entries: Vec<LedgerEntry>,
}
