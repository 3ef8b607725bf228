//! The Privacy Ledger's sink: every entry the egress crate records is written to
//! the database, off the async runtime.

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
    fn record(&self, entry: LedgerEntry) {
        let store = self.store.clone();
        let write = move || {
            if let Err(error) = store.insert_ledger_entry(&entry) {
                tracing::error!(%error, host = %entry.host, "could not write a Privacy Ledger entry");
            }
        };
        // `record` is called from async code (egress) and must not block it.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(write)),
            Err(_) => write(),
        }
    }
}
