//! The Privacy Ledger: every outbound request the app made or refused.

use recorder_domain::{LedgerEntry, LedgerOutcome};
use rusqlite::params;

use crate::StoreResult;

impl crate::Store {
    /// Writes `entry`, or replaces the one with its id (keeping its place in the
    /// list): egress writes an entry before the request leaves and again with
    /// its outcome.
    pub fn write_ledger_entry(&self, entry: &LedgerEntry) -> StoreResult<()> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO ledger (id, at, method, url, host, purpose, status, bytes_sent, \
                 bytes_received, duration_ms, outcome) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) \
                 ON CONFLICT (id) DO UPDATE SET status = excluded.status, \
                 bytes_sent = excluded.bytes_sent, bytes_received = excluded.bytes_received, \
                 duration_ms = excluded.duration_ms, outcome = excluded.outcome",
                params![
                    entry.id,
                    entry.at,
                    entry.method,
                    entry.url,
                    entry.host,
                    entry.purpose,
                    entry.status,
                    entry.bytes_sent as i64,
                    entry.bytes_received as i64,
                    entry.duration_ms as i64,
                    entry.outcome.as_str()
                ],
            )?;
            Ok(())
        })
    }

    /// Every ledger entry, newest first.
    pub fn ledger(&self) -> StoreResult<Vec<LedgerEntry>> {
        self.read(|db| {
            let mut query = db.prepare_cached(
                "SELECT id, at, method, url, host, purpose, status, bytes_sent, bytes_received, \
                 duration_ms, outcome FROM ledger ORDER BY at DESC, seq DESC",
            )?;
            let rows = query.query_map([], |row| {
                Ok(LedgerEntry {
                    id: row.get(0)?,
                    at: row.get(1)?,
                    method: row.get(2)?,
                    url: row.get(3)?,
                    host: row.get(4)?,
                    purpose: row.get(5)?,
                    status: row.get(6)?,
                    bytes_sent: row.get::<_, i64>(7)? as u64,
                    bytes_received: row.get::<_, i64>(8)? as u64,
                    duration_ms: row.get::<_, i64>(9)? as u64,
                    outcome: outcome(row.get_ref(10)?.as_str()?),
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}

/// A stored outcome; a value this version does not know reads as `error`.
fn outcome(text: &str) -> LedgerOutcome {
    LedgerOutcome::parse(text).unwrap_or(LedgerOutcome::Error)
}
