//! Record prompts: a client that noticed a meeting asks the person whether to
//! record it; the prompt stays pending (one per URL) until it is answered or
//! expires.

use recorder_domain::{MeetingId, PromptId};
use rusqlite::{params, OptionalExtension, Row};

use crate::{StoreError, StoreResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptState {
    Pending,
    Answered,
    Expired,
}

impl PromptState {
    fn as_str(self) -> &'static str {
        match self {
            PromptState::Pending => "pending",
            PromptState::Answered => "answered",
            PromptState::Expired => "expired",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text {
            "pending" => Some(PromptState::Pending),
            "answered" => Some(PromptState::Answered),
            "expired" => Some(PromptState::Expired),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PromptRecord {
    pub id: PromptId,
    pub source_app: String,
    pub title: Option<String>,
    pub url: Option<String>,
    pub attendees: Vec<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub state: PromptState,
    pub answer: Option<String>,
    pub meeting_id: Option<MeetingId>,
}

const PROMPT_COLUMNS: &str =
    "id, source_app, title, url, attendees_json, created_at, expires_at, state, answer, meeting_id";

impl crate::Store {
    /// Inserts a prompt unless one for the same URL is still pending, in which case
    /// that one is returned. The check and the insert share one transaction.
    pub fn insert_or_find_prompt(
        &self,
        prompt: &PromptRecord,
        now: i64,
    ) -> StoreResult<PromptRecord> {
        self.write(|tx| {
            if let Some(url) = &prompt.url {
                let existing = tx
                    .prepare_cached(&format!(
                        "SELECT {PROMPT_COLUMNS} FROM prompts \
                         WHERE url = ?1 AND state = 'pending' AND expires_at > ?2"
                    ))?
                    .query_row(params![url, now], read_prompt)
                    .optional()?;
                if let Some(existing) = existing {
                    return existing;
                }
            }
            let attendees = serde_json::to_string(&prompt.attendees)
                .map_err(|error| StoreError::Malformed(error.to_string()))?;
            tx.execute(
                "INSERT INTO prompts (id, source_app, title, url, attendees_json, created_at, expires_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    prompt.id.as_str(),
                    prompt.source_app,
                    prompt.title,
                    prompt.url,
                    attendees,
                    prompt.created_at,
                    prompt.expires_at
                ],
            )?;
            Ok(prompt.clone())
        })
    }

    pub fn prompt(&self, id: &PromptId) -> StoreResult<PromptRecord> {
        self.read(|db| {
            db.prepare_cached(&format!("SELECT {PROMPT_COLUMNS} FROM prompts WHERE id = ?1"))?
                .query_row([id.as_str()], read_prompt)
                .optional()?
                .ok_or(StoreError::NotFound)?
        })
    }

    /// Marks a pending prompt answered. Returns false when it was no longer pending.
    pub fn answer_prompt(
        &self,
        id: &PromptId,
        answer: &str,
        meeting_id: Option<&MeetingId>,
    ) -> StoreResult<bool> {
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE prompts SET state = 'answered', answer = ?2, meeting_id = ?3 \
                 WHERE id = ?1 AND state = 'pending'",
                params![id.as_str(), answer, meeting_id.map(MeetingId::as_str)],
            )?;
            Ok(changed == 1)
        })
    }

    /// The prompts still waiting for an answer, oldest first.
    pub fn pending_prompts(&self, now: i64) -> StoreResult<Vec<PromptRecord>> {
        self.read(|db| {
            db.prepare_cached(&format!(
                "SELECT {PROMPT_COLUMNS} FROM prompts WHERE state = 'pending' AND expires_at > ?1 \
                 ORDER BY created_at, id"
            ))?
            .query_map([now], read_prompt)?
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .collect()
        })
    }

    /// Moves every pending prompt whose time is up to `expired` and returns them.
    /// Checks on a reader first, so the usual case (nothing due) never writes.
    pub fn expire_prompts(&self, now: i64) -> StoreResult<Vec<PromptRecord>> {
        let due: bool = self.read(|db| {
            Ok(db
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM prompts WHERE state = 'pending' AND expires_at <= ?1)",
                )?
                .query_row([now], |row| row.get(0))?)
        })?;
        if !due {
            return Ok(Vec::new());
        }
        self.write(|tx| {
            let expired = tx
                .prepare_cached(&format!(
                    "SELECT {PROMPT_COLUMNS} FROM prompts WHERE state = 'pending' AND expires_at <= ?1"
                ))?
                .query_map([now], read_prompt)?
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .collect::<StoreResult<Vec<_>>>()?;
            tx.execute(
                "UPDATE prompts SET state = ?2, answer = 'expired' \
                 WHERE state = 'pending' AND expires_at <= ?1",
                params![now, PromptState::Expired.as_str()],
            )?;
            Ok(expired)
        })
    }
}

fn read_prompt(row: &Row) -> rusqlite::Result<StoreResult<PromptRecord>> {
    let attendees: String = row.get(4)?;
    let state: String = row.get(7)?;
    let attendees = match serde_json::from_str(&attendees) {
        Ok(list) => list,
        Err(error) => return Ok(Err(StoreError::Malformed(error.to_string()))),
    };
    let Some(state) = PromptState::parse(&state) else {
        return Ok(Err(StoreError::Malformed(format!("prompt state {state}"))));
    };
    Ok(Ok(PromptRecord {
        id: row.get::<_, String>(0)?.into(),
        source_app: row.get(1)?,
        title: row.get(2)?,
        url: row.get(3)?,
        attendees,
        created_at: row.get(5)?,
        expires_at: row.get(6)?,
        state,
        answer: row.get(8)?,
        meeting_id: row.get::<_, Option<String>>(9)?.map(MeetingId::from),
    }))
}
