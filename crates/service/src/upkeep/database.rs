//! The database's upkeep after writes: the search indexes' segments merged a
//! short step at a time (one index, 32 pages), then the WAL copied into the database, each on a
//! blocking thread and away from the requests' commits (store
//! `index_upkeep.rs`). A write waits at most for one step (a few ms).

use std::sync::Arc;
use std::time::Duration;

use recorder_store::Store;

use crate::state::AppState;

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
        merge_all(&state, &store).await;
        checkpoint(&store).await;
        seen = store.writes();
    }
}

/// Merge steps, each index in turn, until a whole round finds nothing to do.
async fn merge_all(state: &AppState, store: &Arc<Store>) {
    let round = store.merge_steps_per_round();
    let mut idle = 0;
    let mut step = 0;
    while idle < round {
        idle = if merge_step(store, step).await { 0 } else { idle + 1 };
        step += 1;
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = tokio::time::sleep(PAUSE) => {}
        }
    }
}

/// True when it merged anything.
async fn merge_step(store: &Arc<Store>, step: usize) -> bool {
    let store = store.clone();
    match tokio::task::spawn_blocking(move || store.merge_index_segments(step, PAGES)).await {
        Ok(Ok(worked)) => worked,
        Ok(Err(error)) => {
            tracing::warn!(%error, "could not merge the search index; trying after the next write");
            false
        }
        Err(error) => {
            tracing::error!(%error, "the search index merge task failed");
            false
        }
    }
}

async fn checkpoint(store: &Arc<Store>) {
    let store = store.clone();
    match tokio::task::spawn_blocking(move || store.checkpoint()).await {
        Ok(Ok(_)) => {}
        Ok(Err(error)) => tracing::warn!(%error, "could not checkpoint the database's WAL"),
        Err(error) => tracing::error!(%error, "the checkpoint task failed"),
    }
}
