//! Housekeeping that runs beside the work: the retention sweeper, clearing
//! what a crash left behind, the background build of the search index, and
//! the database's merges and checkpoints after writes.

pub mod database;
pub mod index_build;
pub mod leftovers;
pub mod retention;
pub mod search_index;

use crate::base::error::ApiError;
use crate::state::AppState;

/// Store work off the runtime; a failure is logged (by `ApiError::internal`) and
/// gives `None`, so one bad row or step never stops the housekeeping.
pub(crate) async fn blocking<T: Send + 'static>(
    state: &AppState,
    what: &'static str,
    work: impl FnOnce(&recorder_store::Store) -> recorder_store::StoreResult<T> + Send + 'static,
) -> Option<T> {
    state.db(move |store| work(store).map_err(|error| ApiError::internal(what, error))).await.ok()
}
