//! An in-memory Privacy Ledger for the egress tests: writes replace the
//! entry with the same id, as the database's upsert does.

#![allow(dead_code)]

use std::sync::Mutex;

use recorder_domain::LedgerEntry;
use recorder_egress::LedgerSink;

#[derive(Default)]
pub struct Memory(pub Mutex<Vec<LedgerEntry>>);

impl LedgerSink for Memory {
    fn write(&self, entry: &LedgerEntry) -> Result<(), String> {
        let mut entries = self.0.lock().expect("lock");
        match entries.iter_mut().find(|written| written.id == entry.id) {
            Some(written) => *written = entry.clone(),
            None => entries.push(entry.clone()),
        }
        Ok(())
    }
}

impl Memory {
    pub fn entries(&self) -> Vec<LedgerEntry> {
        self.0.lock().expect("lock").clone()
    }
}
