//! Paired clients: each pairing keeps its token's hash and when it was last
//! used, and is live until revoked.

use recorder_domain::PairingId;
use rusqlite::params;

use crate::{StoreError, StoreResult};

#[derive(Debug, Clone, PartialEq)]
pub struct PairingRecord {
    pub id: PairingId,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

impl crate::Store {
    pub fn insert_pairing(&self, id: &PairingId, token_hash: &[u8], now: i64) -> StoreResult<()> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO pairings (id, token_hash, created_at) VALUES (?1, ?2, ?3)",
                params![id.as_str(), token_hash, now],
            )?;
            Ok(())
        })
    }

    /// Live (not revoked) pairings with their token hashes, for the token cache.
    pub fn live_pairing_hashes(&self) -> StoreResult<Vec<(PairingId, Vec<u8>)>> {
        self.read(|db| {
            let mut query =
                db.prepare_cached("SELECT id, token_hash FROM pairings WHERE revoked_at IS NULL")?;
            let rows =
                query.query_map([], |row| Ok((row.get::<_, String>(0)?.into(), row.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    pub fn pairings(&self) -> StoreResult<Vec<PairingRecord>> {
        self.read(|db| {
            let mut query = db.prepare_cached(
                "SELECT id, created_at, last_used_at FROM pairings \
                 WHERE revoked_at IS NULL ORDER BY created_at DESC, id DESC",
            )?;
            let rows = query.query_map([], |row| {
                Ok(PairingRecord {
                    id: row.get::<_, String>(0)?.into(),
                    created_at: row.get(1)?,
                    last_used_at: row.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    pub fn touch_pairing(&self, id: &PairingId, now: i64) -> StoreResult<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE pairings SET last_used_at = ?2 WHERE id = ?1",
                params![id.as_str(), now],
            )?;
            Ok(())
        })
    }

    /// Revokes a live pairing; `NotFound` when there is none by that id.
    pub fn revoke_pairing(&self, id: &PairingId, now: i64) -> StoreResult<()> {
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE pairings SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                params![id.as_str(), now],
            )?;
            if changed == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }
}
