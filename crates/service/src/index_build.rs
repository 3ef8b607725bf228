//! The progress of the background build of the search index, as
//! `/v1/health` shows it (see `search_index`).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use recorder_api_types::SearchIndexBuild;
use recorder_store::IndexProgress;

/// What `/v1/health` shows while the build runs (remaining, meetings).
#[derive(Debug, Default, Clone)]
pub struct IndexBuild(Arc<(AtomicI64, AtomicI64)>);

impl IndexBuild {
    pub fn set(&self, progress: IndexProgress) {
        self.0 .1.store(progress.meetings, Ordering::Relaxed);
        self.0 .0.store(progress.remaining, Ordering::Relaxed);
    }

    /// `None` once every meeting is indexed.
    pub fn state(&self) -> Option<SearchIndexBuild> {
        let remaining = self.0 .0.load(Ordering::Relaxed);
        (remaining > 0)
            .then(|| SearchIndexBuild { remaining, meetings: self.0 .1.load(Ordering::Relaxed) })
    }
}
