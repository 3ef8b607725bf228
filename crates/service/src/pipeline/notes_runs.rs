//! The notes regenerations running now, one per meeting, each with a token
//! that stops it: `DELETE /v1/meetings/:id/notes` cancels one (the provider's
//! answer is no longer waited for), service shutdown cancels them all.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use recorder_domain::MeetingId;
use tokio_util::sync::CancellationToken;

/// The running regenerations.
#[derive(Default)]
pub struct NotesRuns(Mutex<HashMap<MeetingId, CancellationToken>>);

/// A registered run; it leaves the registry when dropped.
pub struct NotesRun<'a> {
    runs: &'a NotesRuns,
    meeting_id: MeetingId,
    pub stop: CancellationToken,
}

impl Drop for NotesRun<'_> {
    fn drop(&mut self) {
        self.runs.lock().remove(&self.meeting_id);
    }
}

impl NotesRuns {
    fn lock(&self) -> MutexGuard<'_, HashMap<MeetingId, CancellationToken>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers the run of `meeting_id`; its token is a child of `shutdown`.
    pub fn begin(&self, meeting_id: &MeetingId, shutdown: &CancellationToken) -> NotesRun<'_> {
        let stop = shutdown.child_token();
        self.lock().insert(meeting_id.clone(), stop.clone());
        NotesRun { runs: self, meeting_id: meeting_id.clone(), stop }
    }

    /// Stops the running regeneration of `meeting_id`; false when none runs.
    pub fn cancel(&self, meeting_id: &MeetingId) -> bool {
        match self.lock().get(meeting_id) {
            Some(stop) => {
                stop.cancel();
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_cancelled_by_its_meeting_and_leaves_when_dropped() {
        let runs = NotesRuns::default();
        let shutdown = CancellationToken::new();
        assert!(!runs.cancel(&"m1".into()));
        let run = runs.begin(&"m1".into(), &shutdown);
        assert!(!runs.cancel(&"m2".into()));
        assert!(runs.cancel(&"m1".into()));
        assert!(run.stop.is_cancelled());
        drop(run);
        assert!(!runs.cancel(&"m1".into()));
        let run = runs.begin(&"m1".into(), &shutdown);
        shutdown.cancel();
        assert!(run.stop.is_cancelled(), "shutdown stops every run");
    }
}
