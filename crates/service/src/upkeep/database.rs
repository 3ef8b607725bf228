//! The database's upkeep at start and after writes: the search indexes'
//! segments merged a short step at a time (one index, 32 pages), then the WAL
//! copied into the database, each on a blocking thread and away from the
//! requests' commits (store `index_upkeep.rs`). A write waits at most for one
//! step (a few ms).

use std::time::Duration;

use crate::state::AppState;
use crate::upkeep::blocking;

/// How often it looks whether anything was written.
const IDLE: Duration = Duration::from_millis(250);
/// Pages a merge step writes (to one index): a write waits for one step.
const PAGES: u32 = 32;
/// Between merge steps, so that a request's write gets the lock at once.
const PAUSE: Duration = Duration::from_millis(5);

pub async fn run(state: AppState) {
    let store = state.core.store.clone();
    // Once at start too: merges left by an earlier run, or by a tool.
    let mut seen = u64::MAX;
    loop {
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = tokio::time::sleep(IDLE) => {}
        }
        if store.writes() == seen {
            continue;
        }
        merge_all(&state).await;
        blocking(&state, "checkpointing the database's WAL", |store| store.checkpoint()).await;
        seen = store.writes();
    }
}

/// Merge steps, each index in turn, until a whole round finds nothing to do.
async fn merge_all(state: &AppState) {
    let round = state.core.store.merge_steps_per_round();
    let mut idle = 0;
    let mut step = 0;
    while idle < round {
        idle = if merge_step(state, step).await { 0 } else { idle + 1 };
        step += 1;
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = tokio::time::sleep(PAUSE) => {}
        }
    }
}

/// True when it merged anything (a failure is logged, and waits for the next write).
async fn merge_step(state: &AppState, step: usize) -> bool {
    let merged = blocking(state, "merging the search index", move |store| {
        store.merge_index_segments(step, PAGES)
    });
    merged.await.unwrap_or(false)
}
