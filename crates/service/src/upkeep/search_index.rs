//! The background build of the search index after the upgrade to schema 5:
//! meetings saved before it are moved into the new indexes a few at a time,
//! each batch a short write transaction, so reads, imports and a recording go
//! on meanwhile. Until it finishes, search answers from the old indexes. A
//! restart resumes where it stopped (the backlog is in the database).

use std::time::{Duration, Instant};

use recorder_store::IndexProgress;

use crate::state::{AppState, Core};

/// Meetings per write transaction: about 10 ms each for an hour of transcript.
const BATCH: usize = 8;
/// Between batches, so that other writers get the lock at once.
const PAUSE: Duration = Duration::from_millis(20);

pub async fn run(state: AppState) {
    let Some(first) = step(&state.core, 0).await else { return };
    state.work.search_index.set(first);
    if first.is_ready() {
        return;
    }
    tracing::info!(
        remaining = first.remaining,
        "adding earlier meetings to the search index in the background"
    );
    let started = Instant::now();
    let mut reported = first.remaining;
    loop {
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = tokio::time::sleep(PAUSE) => {}
        }
        let Some(progress) = step(&state.core, BATCH).await else {
            tokio::time::sleep(Duration::from_secs(5)).await;
            continue;
        };
        state.work.search_index.set(progress);
        if progress.is_ready() {
            tracing::info!(
                seconds = started.elapsed().as_secs(),
                "the search index holds every meeting"
            );
            return;
        }
        if reported - progress.remaining >= (first.remaining / 10).max(1) {
            reported = progress.remaining;
            tracing::info!(remaining = progress.remaining, "building the search index");
        }
    }
}

/// One batch (0: only reads the progress).
async fn step(core: &Core, meetings: usize) -> Option<IndexProgress> {
    let store = core.store.clone();
    let result = tokio::task::spawn_blocking(move || match meetings {
        0 => store.search_index_progress(),
        n => store.build_search_index(n),
    })
    .await;
    match result {
        Ok(Ok(progress)) => Some(progress),
        Ok(Err(error)) => {
            tracing::error!(%error, "could not build the search index; trying again");
            None
        }
        Err(error) => {
            tracing::error!(%error, "the search index task failed");
            None
        }
    }
}
