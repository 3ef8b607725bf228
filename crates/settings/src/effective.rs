//! Effective settings: the person's settings with managed policy applied.
//!
//! A setting that a configured policy key forces appears in the effective JSON as
//! `{ value, managed: true, managed_by }`; the person cannot change it through
//! `/ui/settings` to anything but the forced value.

use recorder_domain::{PolicyKey, PolicyValues};
use serde_json::{json, Value};

use crate::document::{defaults, literal_loopback, Settings, SettingsDocument};

/// One setting forced by a policy key.
struct Override {
    /// Dotted path, e.g. `general.allow_remote_start`.
    path: &'static str,
    key: PolicyKey,
    value: Value,
}

/// Why a settings change was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyRefusal {
    pub key: PolicyKey,
    pub setting: String,
    pub message: String,
}

fn overrides(settings: &Settings, policy: &PolicyValues) -> Vec<Override> {
    let mut forced = Vec::new();
    let mut force = |path, key, value| forced.push(Override { path, key, value });
    if policy.is_true(PolicyKey::DisableAgentRecording) {
        force("general.allow_remote_start", PolicyKey::DisableAgentRecording, json!(false));
    }
    if policy.is_true(PolicyKey::DisableAutoRecordApps) {
        force("recording.auto_record_apps", PolicyKey::DisableAutoRecordApps, json!([]));
    }
    if policy.is_true(PolicyKey::DisableAutoExport) {
        force("export.auto_export_markdown", PolicyKey::DisableAutoExport, json!(false));
    }
    if let Some(cap) = policy.retention_cap_days() {
        let retention = &settings.retention;
        for (path, days) in [
            ("retention.keep_audio_days", retention.keep_audio_days),
            ("retention.delete_meetings_after_days", retention.delete_meetings_after_days),
        ] {
            // Forever and longer choices become the cap; shorter ones are kept.
            if days.is_none_or(|days| days > cap) {
                force(path, PolicyKey::MaxRetentionDays, json!(cap));
            }
        }
    }
    if let Some(key) = provider_refusal(&settings.ai.provider, &settings.ai.local_url, policy) {
        force("ai.provider", key, json!("builtin"));
    }
    forced
}

/// The policy key that refuses a cloud provider kind (and saving its key), if any.
pub fn cloud_refusal(provider: &str, policy: &PolicyValues) -> Option<PolicyKey> {
    if !matches!(provider, "anthropic" | "openai_compatible") {
        return None;
    }
    [PolicyKey::ForceLocalModel, PolicyKey::DisableCloudAIKeys]
        .into_iter()
        .find(|key| policy.is_true(*key))
}

/// The policy key that refuses this notes provider, if any. A local server named
/// by an IP literal is judged here; other names are judged by what they resolve
/// to, when the setting is changed and before every request.
pub fn provider_refusal(
    provider: &str,
    local_url: &str,
    policy: &PolicyValues,
) -> Option<PolicyKey> {
    if let Some(key) = cloud_refusal(provider, policy) {
        return Some(key);
    }
    let remote_local = provider == "local" && literal_loopback(local_url) == Some(false);
    if remote_local && policy.is_true(PolicyKey::ForceLocalModel) {
        return Some(PolicyKey::ForceLocalModel);
    }
    None
}

/// The settings as they are in force: plain values where the person decides,
/// `{ value, managed: true, managed_by }` where policy does.
pub fn effective_settings(document: &SettingsDocument, policy: &PolicyValues) -> Value {
    let mut effective = document.value().clone();
    // Values not used (hand-edited out of range, say) show what applies
    // instead, and are listed, as policy lists its ignored values.
    for invalid in document.invalid() {
        if let Some(value) = get_path(&defaults(), &invalid.key) {
            set_path(&mut effective, &invalid.key, value.clone());
        }
    }
    if !document.invalid().is_empty() {
        effective["invalid"] = json!(document.invalid());
    }
    let managed_by = policy.organization_name().unwrap_or("your organisation").to_string();
    for forced in overrides(document.typed(), policy) {
        let wrapped = json!({ "value": forced.value, "managed": true, "managed_by": managed_by });
        set_path(&mut effective, forced.path, wrapped);
    }
    effective
}

/// The typed settings with policy applied, for decisions in code.
/// Applies the overrides to a copy of the typed view: no JSON round trip on the
/// request path.
pub fn effective_typed(document: &SettingsDocument, policy: &PolicyValues) -> Settings {
    let mut settings = document.typed().clone();
    for forced in overrides(document.typed(), policy) {
        apply(&mut settings, &forced);
    }
    settings
}

/// Sets one forced value on the typed view; `overrides` only produces these paths
/// and values.
fn apply(settings: &mut Settings, forced: &Override) {
    match forced.path {
        "general.allow_remote_start" => settings.general.allow_remote_start = false,
        "recording.auto_record_apps" => settings.recording.auto_record_apps.clear(),
        "export.auto_export_markdown" => settings.export.auto_export_markdown = false,
        "retention.keep_audio_days" => settings.retention.keep_audio_days = forced.value.as_i64(),
        "retention.delete_meetings_after_days" => {
            settings.retention.delete_meetings_after_days = forced.value.as_i64()
        }
        "ai.provider" => settings.ai.provider = "builtin".to_string(),
        other => tracing::error!(path = other, "a policy override has no typed setting"),
    }
}

/// Refuses a change that sets a managed setting to anything but its forced value.
pub fn check_patch_against_policy(
    current: &SettingsDocument,
    patch: &Value,
    patched: &SettingsDocument,
    policy: &PolicyValues,
) -> Result<(), PolicyRefusal> {
    for forced in overrides(patched.typed(), policy) {
        let before = get_path(current.value(), forced.path);
        let after = get_path(patched.value(), forced.path);
        // What the patch itself asks for counts even when the file already
        // holds it: asking to set a managed key to another value is refused.
        let asked = get_path(patch, forced.path).filter(|value| !value.is_null());
        let asked_otherwise = asked.is_some_and(|value| value != &forced.value);
        if asked_otherwise || (after != before && after != Some(&forced.value)) {
            return Err(PolicyRefusal {
                key: forced.key,
                setting: forced.path.to_string(),
                message: format!(
                    "{} is set by the managed policy {} ({})",
                    forced.path,
                    forced.key.name(),
                    policy.managed_by()
                ),
            });
        }
    }
    Ok(())
}

fn get_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(value, |node, part| node.get(part))
}

fn set_path(value: &mut Value, path: &str, new: Value) {
    let mut node = value;
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        if !node.is_object() {
            *node = json!({});
        }
        let Some(object) = node.as_object_mut() else {
            return;
        };
        if parts.peek().is_none() {
            object.insert(part.to_string(), new);
            return;
        }
        node = object.entry(part.to_string()).or_insert_with(|| json!({}));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_domain::policy::RawPolicyValue;

    fn policy(entries: &[(&str, RawPolicyValue)]) -> PolicyValues {
        PolicyValues::from_raw(entries.iter().map(|(k, v)| (*k, v.clone())))
    }

    fn settings(patch: Value) -> SettingsDocument {
        SettingsDocument::from_value(defaults())
            .and_then(|doc| doc.patched(&patch))
            .expect("settings")
    }

    #[test]
    fn agent_recording_policy_forces_remote_start_off() {
        let doc = settings(json!({"general": {"allow_remote_start": true}}));
        let managed = policy(&[
            ("DisableAgentRecording", RawPolicyValue::Bool(true)),
            ("OrganizationName", RawPolicyValue::Text("Acme".into())),
        ]);
        let effective = effective_settings(&doc, &managed);
        assert_eq!(
            effective["general"]["allow_remote_start"],
            json!({"value": false, "managed": true, "managed_by": "Acme"})
        );
        assert!(!effective_typed(&doc, &managed).general.allow_remote_start);
        let unmanaged = effective_settings(&doc, &PolicyValues::default());
        assert_eq!(unmanaged["general"]["allow_remote_start"], json!(true));
    }

    #[test]
    fn typed_and_json_views_agree_for_every_override() {
        let doc = settings(json!({
            "general": {"allow_remote_start": true},
            "recording": {"auto_record_apps": ["zoom"]},
            "export": {"auto_export_markdown": true},
            "ai": {"provider": "anthropic"}
        }));
        let everything = policy(&[
            ("DisableAgentRecording", RawPolicyValue::Bool(true)),
            ("DisableAutoRecordApps", RawPolicyValue::Bool(true)),
            ("DisableAutoExport", RawPolicyValue::Bool(true)),
            ("MaxRetentionDays", RawPolicyValue::Integer(30)),
            ("ForceLocalModel", RawPolicyValue::Bool(true)),
        ]);
        let typed = effective_typed(&doc, &everything);
        let json = effective_settings(&doc, &everything);
        let value = |path: &str| get_path(&json, path).and_then(|v| v.get("value")).cloned();
        assert_eq!(
            value("general.allow_remote_start"),
            Some(json!(typed.general.allow_remote_start))
        );
        assert_eq!(
            value("recording.auto_record_apps"),
            Some(json!(typed.recording.auto_record_apps))
        );
        assert_eq!(
            value("export.auto_export_markdown"),
            Some(json!(typed.export.auto_export_markdown))
        );
        assert_eq!(
            value("retention.keep_audio_days"),
            Some(json!(typed.retention.keep_audio_days))
        );
        assert_eq!(
            value("retention.delete_meetings_after_days"),
            Some(json!(typed.retention.delete_meetings_after_days))
        );
        assert_eq!(value("ai.provider"), Some(json!(typed.ai.provider)));
        assert_eq!(overrides(doc.typed(), &everything).len(), 6, "every override is checked above");
    }

    #[test]
    fn retention_cap_keeps_shorter_choices() {
        let cap = policy(&[("MaxRetentionDays", RawPolicyValue::Integer(30))]);
        let doc = settings(json!({"retention": {"keep_audio_days": 7}}));
        let effective = effective_settings(&doc, &cap);
        assert_eq!(effective["retention"]["keep_audio_days"], json!(7));
        assert_eq!(effective["retention"]["delete_meetings_after_days"]["value"], json!(30));
        let longer = json!({"retention": {"keep_audio_days": 90}});
        let refused = check(&doc, &longer, &cap);
        assert_eq!(refused.expect_err("refused").key, PolicyKey::MaxRetentionDays);
        assert!(check(&doc, &json!({"retention": {"keep_audio_days": 3}}), &cap).is_ok());
        let no_cap = policy(&[("MaxRetentionDays", RawPolicyValue::Integer(0))]);
        assert_eq!(
            effective_settings(&doc, &no_cap)["retention"]["delete_meetings_after_days"],
            Value::Null
        );
    }

    #[test]
    fn cloud_providers_refused_under_either_key_local_only_under_force() {
        let doc =
            settings(json!({"ai": {"provider": "local", "local_url": "http://10.0.0.5:11434"}}));
        let force = policy(&[("ForceLocalModel", RawPolicyValue::Bool(true))]);
        let keys_off = policy(&[("DisableCloudAIKeys", RawPolicyValue::Bool(true))]);
        assert_eq!(effective_typed(&doc, &force).ai.provider, "builtin");
        assert_eq!(effective_typed(&doc, &keys_off).ai.provider, "local");
        let cloud = json!({"ai": {"provider": "anthropic"}});
        let refusal = check(&doc, &cloud, &keys_off).expect_err("refused");
        assert!(refusal.message.contains("Managed by your organisation"), "{}", refusal.message);
    }

    #[test]
    fn unchanged_managed_values_do_not_block_other_changes() {
        let doc = settings(json!({"general": {"allow_remote_start": true}}));
        let managed = policy(&[("DisableAgentRecording", RawPolicyValue::Bool(true))]);
        assert!(check(&doc, &json!({"general": {"user_name": "Ada"}}), &managed).is_ok());
        let forced_value = json!({"general": {"allow_remote_start": false}});
        assert!(check(&doc, &forced_value, &managed).is_ok());
    }

    #[test]
    fn asking_for_another_value_is_refused_even_when_the_file_already_holds_it() {
        // The file says true (written before the policy came); the policy forces false.
        let doc = settings(json!({"export": {"auto_export_markdown": true}}));
        let managed = policy(&[("DisableAutoExport", RawPolicyValue::Bool(true))]);
        let same = json!({"export": {"auto_export_markdown": true}});
        let refusal = check(&doc, &same, &managed).expect_err("refused");
        assert_eq!(refusal.key, PolicyKey::DisableAutoExport);
        assert_eq!(refusal.setting, "export.auto_export_markdown");
        assert!(check(&doc, &json!({"export": {"auto_export_markdown": false}}), &managed).is_ok());
        assert!(check(&doc, &json!({"export": {"folder": "/tmp/x"}}), &managed).is_ok());
    }

    #[test]
    fn invalid_values_show_their_default_and_are_listed() {
        let mut document = defaults();
        document["retention"]["delete_meetings_after_days"] = json!(50000);
        document["general"]["api_port"] = json!("high");
        let doc = SettingsDocument::lenient(document).expect("lenient");
        let effective = effective_settings(&doc, &policy(&[]));
        assert_eq!(effective["retention"]["delete_meetings_after_days"], Value::Null);
        assert_eq!(effective["general"]["api_port"], json!(47321));
        let keys: Vec<&str> = effective["invalid"]
            .as_array()
            .expect("listed")
            .iter()
            .filter_map(|i| i["key"].as_str())
            .collect();
        assert_eq!(keys, ["general.api_port", "retention.delete_meetings_after_days"]);
        assert!(effective_settings(&settings(json!({})), &policy(&[])).get("invalid").is_none());
    }

    /// The patch checked against policy, as `/ui/settings` does.
    fn check(
        doc: &SettingsDocument,
        patch: &Value,
        policy: &PolicyValues,
    ) -> Result<(), PolicyRefusal> {
        let patched = doc.patched(patch).expect("a valid patch");
        check_patch_against_policy(doc, patch, &patched, policy)
    }
}
