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
    /// Starts from the progress read when the service opened the database, so
    /// `/v1/health` shows a pending build from its first answer.
    pub fn new(progress: IndexProgress) -> IndexBuild {
        let build = IndexBuild::default();
        build.set(progress);
        build
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn health_shows_a_pending_build_from_the_start_and_nothing_once_done() {
        let build = IndexBuild::new(IndexProgress { remaining: 3, meetings: 5 });
        let shown = build.state().expect("pending from the first answer");
        assert_eq!((shown.remaining, shown.meetings), (3, 5));
        build.set(IndexProgress { remaining: 0, meetings: 5 });
        assert!(build.state().is_none());
        assert!(IndexBuild::new(IndexProgress { remaining: 0, meetings: 0 }).state().is_none());
    }
}
