//! A wake-up call for a background task that otherwise sleeps until its next
//! round (the job worker when work is queued, the retention sweeper when its
//! settings change). A wake given while the task is busy is kept for its
//! next wait.

use tokio::sync::Notify;

#[derive(Default)]
pub struct Wake {
    notify: Notify,
}

impl Wake {
    pub fn wake(&self) {
        self.notify.notify_one();
    }

    /// Resolves at the next wake (or at once for one given meanwhile).
    pub async fn notified(&self) {
        self.notify.notified().await
    }
}
