//! Meetings embedded first when someone asks (blocking): ready meetings whose
//! passages are missing or out of date (one just imported or finished, one
//! just corrected) are embedded before a question is
//! answered, newest first, within a bound, and not while a recording runs;
//! those left over are searched by their words, and the answer says how many.

use recorder_embed::Embedder;
use recorder_store::StoreResult;

use crate::meaning::background::{embed_now, recording};
use crate::state::AppState;

/// Lines (and note items) one question embeds at most before it is
/// answered: about two meeting hours' worth, a few seconds on two cores.
const LINES_FIRST: usize = 1_800;
/// Meetings looked at for it.
const MEETINGS_FIRST: usize = 24;

/// Embeds what a question within `[from, to)` needs first; returns how many
/// meetings in it are left to be searched by their words alone.
pub fn embed_first(
    state: &AppState,
    embedder: &Embedder,
    from: Option<i64>,
    to: Option<i64>,
) -> StoreResult<usize> {
    let store = &state.core.store;
    let waiting = store.unembedded_ready(from, to, MEETINGS_FIRST + 1)?;
    // While a recording runs its live lines keep the CPU: words only.
    if waiting.is_empty() || recording(state) {
        return Ok(waiting.len());
    }
    let mut budget = LINES_FIRST;
    let mut left = 0;
    for (i, source) in waiting.into_iter().enumerate() {
        let size = source.lines.len() + source.notes.len() * 8;
        if i >= MEETINGS_FIRST || size > budget {
            left += 1;
            continue;
        }
        budget -= size;
        let meeting = source.meeting_id.clone();
        if embed_now(state, embedder, source, || state.core.shutdown.is_cancelled()) {
            tracing::debug!(%meeting, "search by meaning: embedded first, for a question");
        } else {
            left += 1;
        }
    }
    state.models.meaning.catch_up(store)?;
    Ok(left)
}
