//! Managed policy keys: their names, display order, types and constraints, and the
//! validation that turns raw values from any policy source into typed values.
//!
//! A key that is absent, null, or whose value breaks its type or constraints is
//! Not Configured; invalid values are reported with a reason so administrators can
//! see why their setting had no effect.

use serde::Serialize;

/// The nine managed policy keys, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PolicyKey {
    OrganizationName,
    ForceLocalModel,
    DisableCloudAIKeys,
    MaxRetentionDays,
    DisableAudioExport,
    DisableAgentRecording,
    DisableAutoRecordApps,
    DisableAutoExport,
    AllowedExportFolder,
}

/// What type a key takes when configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyType {
    Text,
    Boolean,
    Integer,
}

/// A value as a policy source delivered it, before validation.
#[derive(Debug, Clone, PartialEq)]
pub enum RawPolicyValue {
    Null,
    Bool(bool),
    Integer(i64),
    Float(f64),
    Text(String),
    /// Arrays, objects, data blobs: never valid for any key.
    Other(&'static str),
}

/// A validated, configured policy value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PolicyValue {
    Bool(bool),
    Integer(i64),
    Text(String),
}

impl PolicyKey {
    pub const ALL: [PolicyKey; 9] = [
        PolicyKey::OrganizationName,
        PolicyKey::ForceLocalModel,
        PolicyKey::DisableCloudAIKeys,
        PolicyKey::MaxRetentionDays,
        PolicyKey::DisableAudioExport,
        PolicyKey::DisableAgentRecording,
        PolicyKey::DisableAutoRecordApps,
        PolicyKey::DisableAutoExport,
        PolicyKey::AllowedExportFolder,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PolicyKey::OrganizationName => "OrganizationName",
            PolicyKey::ForceLocalModel => "ForceLocalModel",
            PolicyKey::DisableCloudAIKeys => "DisableCloudAIKeys",
            PolicyKey::MaxRetentionDays => "MaxRetentionDays",
            PolicyKey::DisableAudioExport => "DisableAudioExport",
            PolicyKey::DisableAgentRecording => "DisableAgentRecording",
            PolicyKey::DisableAutoRecordApps => "DisableAutoRecordApps",
            PolicyKey::DisableAutoExport => "DisableAutoExport",
            PolicyKey::AllowedExportFolder => "AllowedExportFolder",
        }
    }

    pub fn order(self) -> u32 {
        match self {
            PolicyKey::OrganizationName => 5,
            PolicyKey::ForceLocalModel => 10,
            PolicyKey::DisableCloudAIKeys => 15,
            PolicyKey::MaxRetentionDays => 20,
            PolicyKey::DisableAudioExport => 25,
            PolicyKey::DisableAgentRecording => 30,
            PolicyKey::DisableAutoRecordApps => 35,
            PolicyKey::DisableAutoExport => 40,
            PolicyKey::AllowedExportFolder => 45,
        }
    }

    pub fn value_type(self) -> PolicyType {
        match self {
            PolicyKey::OrganizationName | PolicyKey::AllowedExportFolder => PolicyType::Text,
            PolicyKey::MaxRetentionDays => PolicyType::Integer,
            _ => PolicyType::Boolean,
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|key| key.name() == name)
    }

    /// Validates a raw value. `Ok(None)` is Not Configured; `Err` gives the reason a
    /// configured value was ignored.
    pub fn validate(self, raw: &RawPolicyValue) -> Result<Option<PolicyValue>, String> {
        if *raw == RawPolicyValue::Null {
            return Ok(None);
        }
        let value = match (self.value_type(), raw) {
            (PolicyType::Boolean, RawPolicyValue::Bool(flag)) => PolicyValue::Bool(*flag),
            (PolicyType::Integer, RawPolicyValue::Integer(number)) => PolicyValue::Integer(*number),
            (PolicyType::Text, RawPolicyValue::Text(text)) => PolicyValue::Text(text.clone()),
            (expected, _) => {
                return Err(format!("expected {}, got {}", type_name(expected), raw_kind(raw)))
            }
        };
        self.check_constraints(&value)?;
        Ok(Some(value))
    }

    fn check_constraints(self, value: &PolicyValue) -> Result<(), String> {
        match (self, value) {
            (PolicyKey::OrganizationName, PolicyValue::Text(name)) if name.chars().count() > 80 => {
                Err("longer than 80 characters".into())
            }
            // Zero or negative means "no cap" (the key's description says so);
            // only values above the maximum are invalid.
            (PolicyKey::MaxRetentionDays, PolicyValue::Integer(days)) if *days > 36500 => {
                Err("greater than the maximum of 36500".into())
            }
            (PolicyKey::AllowedExportFolder, PolicyValue::Text(folder)) => {
                check_export_folder(folder)
            }
            _ => Ok(()),
        }
    }
}

fn check_export_folder(folder: &str) -> Result<(), String> {
    let anchored = folder.starts_with('/') || folder.starts_with("~/") || folder == "~";
    if !anchored {
        return Err("must be an absolute path or start with ~/".into());
    }
    if folder.split(['/', '\\']).any(|part| part == "..") {
        return Err("must not contain a '..' component".into());
    }
    Ok(())
}

fn type_name(kind: PolicyType) -> &'static str {
    match kind {
        PolicyType::Text => "a string",
        PolicyType::Boolean => "a boolean",
        PolicyType::Integer => "an integer",
    }
}

fn raw_kind(raw: &RawPolicyValue) -> &'static str {
    match raw {
        RawPolicyValue::Null => "null",
        RawPolicyValue::Bool(_) => "a boolean",
        RawPolicyValue::Integer(_) => "an integer",
        RawPolicyValue::Float(_) => "a number with a fraction",
        RawPolicyValue::Text(_) => "a string",
        RawPolicyValue::Other(kind) => kind,
    }
}

/// The validated policy: one optional value per key, plus what was ignored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolicyValues {
    values: Vec<(PolicyKey, PolicyValue)>,
    pub invalid: Vec<(String, String)>,
}

impl PolicyValues {
    /// Validates every entry a source delivered. Unknown key names are reported as
    /// invalid so a typo in a policy file does not pass silently.
    pub fn from_raw<'a>(entries: impl IntoIterator<Item = (&'a str, RawPolicyValue)>) -> Self {
        let mut policy = PolicyValues::default();
        for (name, raw) in entries {
            let Some(key) = PolicyKey::from_name(name) else {
                policy.invalid.push((name.to_string(), "unknown policy key".to_string()));
                continue;
            };
            match key.validate(&raw) {
                Ok(Some(value)) => policy.values.push((key, value)),
                Ok(None) => {}
                Err(reason) => policy.invalid.push((name.to_string(), reason)),
            }
        }
        policy.invalid.sort();
        policy
    }

    pub fn get(&self, key: PolicyKey) -> Option<&PolicyValue> {
        self.values.iter().find(|(candidate, _)| *candidate == key).map(|(_, value)| value)
    }

    /// True only when the key is configured to `true`.
    pub fn is_true(&self, key: PolicyKey) -> bool {
        matches!(self.get(key), Some(PolicyValue::Bool(true)))
    }

    pub fn organization_name(&self) -> Option<&str> {
        match self.get(PolicyKey::OrganizationName) {
            Some(PolicyValue::Text(name)) if !name.trim().is_empty() => Some(name),
            _ => None,
        }
    }

    /// "Managed by <name>" or "Managed by your organisation".
    pub fn managed_by(&self) -> String {
        format!("Managed by {}", self.organization_name().unwrap_or("your organisation"))
    }

    /// The retention cap in days, if any (values of 0 or below mean no cap).
    pub fn retention_cap_days(&self) -> Option<i64> {
        match self.get(PolicyKey::MaxRetentionDays) {
            Some(PolicyValue::Integer(days)) if *days > 0 => Some(*days),
            _ => None,
        }
    }

    pub fn allowed_export_folder(&self) -> Option<&str> {
        match self.get(PolicyKey::AllowedExportFolder) {
            Some(PolicyValue::Text(folder)) => Some(folder),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(entries: &[(&str, RawPolicyValue)]) -> PolicyValues {
        PolicyValues::from_raw(entries.iter().map(|(k, v)| (*k, v.clone())))
    }

    #[test]
    fn booleans_validate_by_type() {
        let values = policy(&[
            ("ForceLocalModel", RawPolicyValue::Bool(true)),
            ("DisableAudioExport", RawPolicyValue::Text("yes".into())),
        ]);
        assert!(values.is_true(PolicyKey::ForceLocalModel));
        assert_eq!(values.get(PolicyKey::DisableAudioExport), None);
        assert_eq!(values.invalid[0].0, "DisableAudioExport");
    }

    #[test]
    fn retention_bounds_and_no_cap() {
        assert_eq!(
            policy(&[("MaxRetentionDays", RawPolicyValue::Integer(30))]).retention_cap_days(),
            Some(30)
        );
        let zero = policy(&[("MaxRetentionDays", RawPolicyValue::Integer(0))]);
        assert_eq!(zero.retention_cap_days(), None);
        assert!(zero.invalid.is_empty());
        assert!(zero.get(PolicyKey::MaxRetentionDays).is_some());
        let negative = policy(&[("MaxRetentionDays", RawPolicyValue::Integer(-5))]);
        assert_eq!(negative.retention_cap_days(), None);
        let too_big = policy(&[("MaxRetentionDays", RawPolicyValue::Integer(36501))]);
        assert_eq!(too_big.get(PolicyKey::MaxRetentionDays), None);
        assert_eq!(too_big.invalid.len(), 1);
        let fraction = policy(&[("MaxRetentionDays", RawPolicyValue::Float(1.5))]);
        assert_eq!(fraction.invalid.len(), 1);
    }

    #[test]
    fn export_folder_patterns() {
        for good in ["/srv/exports", "~/Exports", "~"] {
            let values = policy(&[("AllowedExportFolder", RawPolicyValue::Text(good.into()))]);
            assert_eq!(values.allowed_export_folder(), Some(good), "{good}");
        }
        for bad in ["exports", "~user/x", "/srv/../etc", "~/a/..", ""] {
            let values = policy(&[("AllowedExportFolder", RawPolicyValue::Text(bad.into()))]);
            assert_eq!(values.allowed_export_folder(), None, "{bad}");
            assert_eq!(values.invalid.len(), 1, "{bad}");
        }
    }

    #[test]
    fn organisation_name_limits_and_message() {
        let named = policy(&[("OrganizationName", RawPolicyValue::Text("Acme".into()))]);
        assert_eq!(named.managed_by(), "Managed by Acme");
        assert_eq!(PolicyValues::default().managed_by(), "Managed by your organisation");
        let long = policy(&[("OrganizationName", RawPolicyValue::Text("x".repeat(81)))]);
        assert_eq!(long.organization_name(), None);
        let exact = policy(&[("OrganizationName", RawPolicyValue::Text("é".repeat(80)))]);
        assert!(exact.organization_name().is_some());
    }

    #[test]
    fn null_is_not_configured_and_unknown_keys_are_reported() {
        let values = policy(&[
            ("DisableAutoExport", RawPolicyValue::Null),
            ("DisableEverything", RawPolicyValue::Bool(true)),
        ]);
        assert_eq!(values.get(PolicyKey::DisableAutoExport), None);
        assert_eq!(
            values.invalid,
            vec![("DisableEverything".to_string(), "unknown policy key".to_string())]
        );
    }

    #[test]
    fn keys_are_in_display_order() {
        let orders: Vec<u32> = PolicyKey::ALL.iter().map(|key| key.order()).collect();
        let mut sorted = orders.clone();
        sorted.sort();
        assert_eq!(orders, sorted);
        assert_eq!(PolicyKey::ALL.len(), 9);
    }
}
