//! The Privacy Ledger's sink: every entry the egress crate writes goes to the
//! database (egress calls it off the async runtime and waits for it).

use std::sync::Arc;

use recorder_domain::LedgerEntry;
use recorder_egress::LedgerSink;
use recorder_store::Store;

/// Writes ledger entries to the store.
pub struct StoreLedger {
    store: Arc<Store>,
}

impl StoreLedger {
    pub fn new(store: Arc<Store>) -> Self {
        StoreLedger { store }
    }
}

impl LedgerSink for StoreLedger {
    fn write(&self, entry: &LedgerEntry) -> Result<(), String> {
        self.store.write_ledger_entry(entry).map_err(|error| error.to_string())
    }
}
