//! Live settings and live policy: the person's `settings.json` and the managed
//! policy, each behind a lock, with the policy re-read at launch and periodically.

use std::path::PathBuf;
use std::sync::RwLock;
use std::time::Duration;

use recorder_domain::policy::RawPolicyValue;
use recorder_domain::PolicyValues;
use recorder_settings::{
    check_patch_against_policy, effective_settings, effective_typed, entries_to_json,
    JsonFilePolicy, PolicyRefusal, PolicySource, Settings, SettingsDocument, SettingsError,
};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// The data folder's copy of the last policy read successfully.
pub const LAST_GOOD_POLICY: &str = "policy-last-good.json";

/// The managed policy in force and where it comes from.
pub struct PolicyHandle {
    source: Box<dyn PolicySource>,
    /// The last policy read successfully, kept in the data folder: what applies
    /// when the source cannot be read at launch (never "nothing configured").
    last_good: PathBuf,
    // Replaced whole on each refresh; readers clone what they need.
    current: RwLock<PolicyValues>,
    /// Why the source could not be read or parsed the last time, if it could not.
    error: RwLock<Option<String>>,
}

impl PolicyHandle {
    pub fn load(source: Box<dyn PolicySource>, last_good: PathBuf) -> Self {
        let handle = PolicyHandle {
            source,
            last_good,
            current: RwLock::new(PolicyValues::default()),
            error: RwLock::new(None),
        };
        if !handle.refresh_from_source() {
            handle.apply_last_good();
        }
        handle
    }

    pub fn current(&self) -> PolicyValues {
        self.current.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Why the policy source could not be used the last time it was read.
    pub fn error(&self) -> Option<String> {
        self.error.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Re-reads the source; true when the policy changed. A source that cannot be
    /// read or parsed keeps the policy in force (an administrator may be halfway
    /// through editing it) and says why in the log, `GET /v1/policy` and Settings.
    pub fn refresh(&self) -> bool {
        let before = self.current();
        self.refresh_from_source();
        self.current() != before
    }

    /// Reads the source; false (with the error kept) when it cannot be used.
    fn refresh_from_source(&self) -> bool {
        match self.source.load() {
            Ok(entries) => {
                *self.error.write().unwrap_or_else(|p| p.into_inner()) = None;
                let changed = self.apply(&entries);
                if changed || !self.last_good.exists() {
                    self.keep_as_last_good(&entries);
                }
                if changed {
                    tracing::info!(source = %self.source.describe(), "managed policy changed");
                }
                true
            }
            Err(error) => {
                tracing::warn!(%error, "managed policy not read; keeping the policy in force");
                *self.error.write().unwrap_or_else(|p| p.into_inner()) = Some(error.to_string());
                false
            }
        }
    }

    /// Puts `entries` in force; true when that changed the policy.
    fn apply(&self, entries: &[(String, RawPolicyValue)]) -> bool {
        let values = PolicyValues::from_raw(entries.iter().map(|(k, v)| (k.as_str(), v.clone())));
        for (key, reason) in &values.invalid {
            tracing::warn!(key, reason, "ignored invalid managed policy value");
        }
        let mut current = self.current.write().unwrap_or_else(|p| p.into_inner());
        let changed = *current != values;
        *current = values;
        changed
    }

    fn keep_as_last_good(&self, entries: &[(String, RawPolicyValue)]) {
        let text = entries_to_json(entries).to_string();
        let temporary = self.last_good.with_extension("json.part");
        let written = std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.last_good));
        if let Err(error) = written {
            tracing::warn!(%error, "could not keep the last good managed policy");
        }
    }

    /// At launch, when the source cannot be read: the last policy that could.
    fn apply_last_good(&self) {
        let kept = JsonFilePolicy { path: self.last_good.clone() };
        match kept.load() {
            Ok(entries) if !entries.is_empty() => {
                self.apply(&entries);
                tracing::warn!(file = %self.last_good.display(), "managed policy: the last good one applies");
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "the last good managed policy cannot be read"),
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
