//! A Privacy Ledger kept in memory: writes replace the entry with the same
//! id, as the database's upsert does. For tests of the egress path and of
//! the crates above it, which need a ledger but no database.

use std::sync::Mutex;

use recorder_domain::LedgerEntry;

use crate::LedgerSink;

#[derive(Default)]
pub struct MemoryLedger(Mutex<Vec<LedgerEntry>>);

impl MemoryLedger {
    /// Every entry written, in the order first written.
    pub fn entries(&self) -> Vec<LedgerEntry> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl LedgerSink for MemoryLedger {
    fn write(&self, entry: &LedgerEntry) -> Result<(), String> {
        let mut entries = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match entries.iter_mut().find(|written| written.id == entry.id) {
            Some(written) => *written = entry.clone(),
            None => entries.push(entry.clone()),
        }
        Ok(())
    }
}
