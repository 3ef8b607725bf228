//! Transcription-model downloads in progress, and the last failure of each
//! file, for `GET /ui/models` (the downloading itself is in [`super::install`]).

use std::collections::HashMap;
use std::sync::Mutex;

use recorder_api_types::DownloadProgress;

/// Downloads in progress and the last failure of each file, by file name.
#[derive(Default)]
pub struct Downloads {
    files: Mutex<HashMap<String, DownloadState>>,
}

enum DownloadState {
    Running(DownloadProgress),
    Failed(String),
}

impl Downloads {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, DownloadState>> {
        self.files.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Marks `file` as downloading; false when it already is.
    pub fn try_begin(&self, file: &str) -> bool {
        let mut files = self.lock();
        if self.running_in(&files, file) {
            return false;
        }
        let progress = DownloadProgress { received: 0, total: None };
        files.insert(file.to_string(), DownloadState::Running(progress));
        true
    }

    pub fn is_running(&self, file: &str) -> bool {
        self.running_in(&self.lock(), file)
    }

    fn running_in(&self, files: &HashMap<String, DownloadState>, file: &str) -> bool {
        matches!(files.get(file), Some(DownloadState::Running(_)))
    }

    pub fn progress(&self, file: &str, received: u64, total: Option<u64>) {
        if let Some(DownloadState::Running(progress)) = self.lock().get_mut(file) {
            *progress = DownloadProgress { received, total };
        }
    }

    /// Ends the download of `file`, keeping the error (if any) for `GET /ui/models`.
    pub fn finish(&self, file: &str, error: Option<String>) {
        let mut files = self.lock();
        match error {
            Some(message) => files.insert(file.to_string(), DownloadState::Failed(message)),
            None => files.remove(file),
        };
    }

    /// (progress while downloading, the last failure).
    pub fn status(&self, file: &str) -> (Option<DownloadProgress>, Option<String>) {
        match self.lock().get(file) {
            Some(DownloadState::Running(progress)) => (Some(*progress), None),
            Some(DownloadState::Failed(message)) => (None, Some(message.clone())),
            None => (None, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_run_once_per_file_and_keep_their_last_error() {
        let downloads = Downloads::default();
        assert!(downloads.try_begin("a.bin"));
        assert!(!downloads.try_begin("a.bin"));
        assert!(downloads.try_begin("b.bin"));
        downloads.progress("a.bin", 10, Some(20));
        assert_eq!(
            downloads.status("a.bin").0,
            Some(DownloadProgress { received: 10, total: Some(20) })
        );
        downloads.finish("a.bin", Some("broken".into()));
        assert_eq!(downloads.status("a.bin"), (None, Some("broken".into())));
        assert!(downloads.try_begin("a.bin"), "a failed download can be retried");
        assert_eq!(downloads.status("a.bin").1, None);
        downloads.finish("a.bin", None);
        assert_eq!(downloads.status("a.bin"), (None, None));
    }
}
