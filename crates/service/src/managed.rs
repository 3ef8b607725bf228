//! Live settings and live policy: the person's `settings.json` and the managed
//! policy, each behind a lock, with the policy re-read at launch and periodically.

use std::path::PathBuf;
use std::sync::RwLock;
use std::time::Duration;

use recorder_domain::PolicyValues;
use recorder_settings::{
    check_patch_against_policy, effective_settings, effective_typed, PolicyRefusal, PolicySource,
    Settings, SettingsDocument, SettingsError,
};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The managed policy in force and where it comes from.
pub struct PolicyHandle {
    source: Box<dyn PolicySource>,
    // Replaced whole on each refresh; readers clone what they need.
    current: RwLock<PolicyValues>,
}

impl PolicyHandle {
    pub fn load(source: Box<dyn PolicySource>) -> Self {
        let handle = PolicyHandle { source, current: RwLock::new(PolicyValues::default()) };
        handle.refresh();
        handle
    }

    pub fn current(&self) -> PolicyValues {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Re-reads the source; true when the policy changed. A source that cannot be
    /// parsed keeps the last good policy (an administrator may be halfway through
    /// editing it) and says why.
    pub fn refresh(&self) -> bool {
        match self.source.load() {
            Ok(entries) => {
                let values =
                    PolicyValues::from_raw(entries.iter().map(|(k, v)| (k.as_str(), v.clone())));
                for (key, reason) in &values.invalid {
                    tracing::warn!(key, reason, "ignored invalid managed policy value");
                }
                let mut current = self.current.write().unwrap_or_else(|p| p.into_inner());
                if *current == values {
                    return false;
                }
                tracing::info!(source = %self.source.describe(), "managed policy changed");
                *current = values;
                true
            }
            Err(error) => {
                tracing::warn!(%error, "managed policy not refreshed; keeping the last one");
                false
            }
        }
    }

    /// Refreshes every `period` until shutdown; calls `changed` after a change.
    pub async fn refresh_periodically(
        &self,
        period: Duration,
        shutdown: CancellationToken,
        changed: impl Fn(),
    ) {
        let mut ticker = tokio::time::interval(period);
        ticker.tick().await;
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = ticker.tick() => if self.refresh() { changed() },
            }
        }
    }
}

/// Why a settings change was not made.
pub enum SettingsChangeError {
    Invalid(SettingsError),
    Policy(PolicyRefusal),
    Save(SettingsError),
}

/// The person's settings document, saved to `settings.json` on every change.
pub struct SettingsHandle {
    path: PathBuf,
    // Held for the whole check-and-save of a change so two changes never interleave.
    document: RwLock<SettingsDocument>,
}

impl SettingsHandle {
    pub fn new(path: PathBuf, document: SettingsDocument) -> Self {
        SettingsHandle { path, document: RwLock::new(document) }
    }

    pub fn document(&self) -> Value {
        self.read().value().clone()
    }

    /// The person's own choices, before any managed key applies.
    pub fn typed(&self) -> Settings {
        self.read().typed().clone()
    }

    pub fn effective(&self, policy: &PolicyValues) -> Value {
        effective_settings(&self.read(), policy)
    }

    pub fn effective_typed(&self, policy: &PolicyValues) -> Settings {
        effective_typed(&self.read(), policy)
    }

    /// The person's settings as a patch would leave them (nothing is saved).
    pub fn preview(&self, patch: &Value) -> Option<Settings> {
        self.read().patched(patch).ok().map(|document| document.typed().clone())
    }

    /// Applies a merge patch if it is valid and policy allows it, then saves.
    pub fn patch(
        &self,
        patch: &Value,
        policy: &PolicyValues,
    ) -> Result<Value, SettingsChangeError> {
        let mut document = self.document.write().unwrap_or_else(|p| p.into_inner());
        let patched = document.patched(patch).map_err(SettingsChangeError::Invalid)?;
        check_patch_against_policy(&document, patch, &patched, policy)
            .map_err(SettingsChangeError::Policy)?;
        patched.save(&self.path).map_err(SettingsChangeError::Save)?;
        *document = patched;
        Ok(document.value().clone())
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, SettingsDocument> {
        self.document.read().unwrap_or_else(|p| p.into_inner())
    }
}
