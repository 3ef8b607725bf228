//! Where managed policy comes from: a JSON file (`RECORDER_POLICY_PATH`, or
//! `/etc/recorder/policies.json` on Linux), the macOS managed-preferences plist, or
//! the Windows registry under `HKLM\SOFTWARE\Policies\Recorder`.

use std::path::{Path, PathBuf};

use recorder_domain::policy::RawPolicyValue;
use serde_json::Value;

use crate::data_dir::read_limited;
use crate::Environment;

/// The largest policy file read: it holds nine keys, so 1 MiB is far more than
/// any real one, and a larger file (or a device such as `/dev/zero`) is refused.
pub const MAX_POLICY_BYTES: u64 = 1 << 20;

#[derive(Debug, thiserror::Error)]
pub enum PolicySourceError {
    #[error("cannot read policy {0}: {1}")]
    Read(String, String),
    #[error("policy {0} is malformed: {1}")]
    Malformed(String, String),
}

/// A source of managed policy. `Ok(vec![])` means nothing is configured.
pub trait PolicySource: Send + Sync {
    fn load(&self) -> Result<Vec<(String, RawPolicyValue)>, PolicySourceError>;
    /// Where the values come from, for logs and diagnostics.
    fn describe(&self) -> String;
}

/// A flat JSON object keyed by policy key names.
pub struct JsonFilePolicy {
    pub path: PathBuf,
}

impl PolicySource for JsonFilePolicy {
    fn load(&self) -> Result<Vec<(String, RawPolicyValue)>, PolicySourceError> {
        let bytes = match read_limited(&self.path, MAX_POLICY_BYTES) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(PolicySourceError::Read(self.describe(), error.to_string())),
        };
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|error| PolicySourceError::Malformed(self.describe(), error.to_string()))?;
        let Value::Object(entries) = value else {
            return Err(PolicySourceError::Malformed(self.describe(), "not a JSON object".into()));
        };
        Ok(entries.into_iter().map(|(key, value)| (key, raw_from_json(&value))).collect())
    }

    fn describe(&self) -> String {
        self.path.display().to_string()
    }
}

fn raw_from_json(value: &Value) -> RawPolicyValue {
    match value {
        Value::Null => RawPolicyValue::Null,
        Value::Bool(flag) => RawPolicyValue::Bool(*flag),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => RawPolicyValue::Integer(integer),
            None => RawPolicyValue::Float(number.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(text) => RawPolicyValue::Text(text.clone()),
        Value::Array(_) => RawPolicyValue::Other("an array"),
        Value::Object(_) => RawPolicyValue::Other("an object"),
    }
}

/// The policy source for this platform, unless `RECORDER_POLICY_PATH` names a
/// file that may stand in for it (see [`may_override_policy`]).
pub fn default_policy_source(environment: &Environment) -> Box<dyn PolicySource> {
    if let Some(path) = &environment.policy_path {
        if may_override_policy(path, cfg!(debug_assertions)) {
            return Box::new(JsonFilePolicy { path: path.clone() });
        }
        tracing::warn!(
            file = %path.display(),
            "RECORDER_POLICY_PATH ignored: in a release build it must name a file owned by root \
             that no one else may write; the machine's policy applies"
        );
    }
    platform_source(environment)
}

/// Whether `RECORDER_POLICY_PATH` may replace the machine's policy. A managed
/// person could otherwise set it and escape every key. Debug builds (tests,
/// development) always allow it; release builds only for a file that only an
/// administrator could have written: owned by root, writable by no one else.
/// (On Windows, which has no such owner check here, release builds never do.)
pub fn may_override_policy(path: &Path, debug_build: bool) -> bool {
    if debug_build {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path)
            .is_ok_and(|meta| meta.is_file() && meta.uid() == 0 && meta.mode() & 0o022 == 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Policy entries as the flat JSON object a [`JsonFilePolicy`] reads back, so
/// the last good policy can be kept in the data folder.
pub fn entries_to_json(entries: &[(String, RawPolicyValue)]) -> Value {
    let object = entries
        .iter()
        .map(|(key, value)| {
            let value = match value {
                RawPolicyValue::Null => Value::Null,
                RawPolicyValue::Bool(flag) => Value::Bool(*flag),
                RawPolicyValue::Integer(number) => Value::from(*number),
                RawPolicyValue::Float(number) => {
                    serde_json::Number::from_f64(*number).map(Value::Number).unwrap_or(Value::Null)
                }
                RawPolicyValue::Text(text) => Value::String(text.clone()),
                RawPolicyValue::Other("an object") => Value::Object(Default::default()),
                RawPolicyValue::Other(_) => Value::Array(Vec::new()),
            };
            (key.clone(), value)
        })
        .collect();
    Value::Object(object)
}

#[cfg(target_os = "macos")]
fn platform_source(environment: &Environment) -> Box<dyn PolicySource> {
    Box::new(macos::ManagedPreferences::new(environment))
}

#[cfg(windows)]
fn platform_source(_environment: &Environment) -> Box<dyn PolicySource> {
    Box::new(windows::RegistryPolicy)
}

#[cfg(not(any(target_os = "macos", windows)))]
fn platform_source(_environment: &Environment) -> Box<dyn PolicySource> {
    Box::new(JsonFilePolicy { path: Path::new("/etc/recorder/policies.json").to_path_buf() })
}

#[cfg(any(target_os = "macos", test))]
mod macos {
    //! macOS: `/Library/Managed Preferences/<user>/app.recorder.desktop.plist` first,
    //! then `/Library/Managed Preferences/app.recorder.desktop.plist`.
    use super::*;

    pub struct ManagedPreferences {
        candidates: Vec<PathBuf>,
    }

    impl ManagedPreferences {
        #[cfg(test)]
        pub fn at(candidates: Vec<PathBuf>) -> Self {
            ManagedPreferences { candidates }
        }

        #[cfg_attr(test, allow(dead_code))]
        pub fn new(environment: &Environment) -> Self {
            let root = Path::new("/Library/Managed Preferences");
            let mut candidates = Vec::new();
            let user =
                environment.home.as_ref().and_then(|home| home.file_name()).map(|n| n.to_owned());
            if let Some(user) = user {
                candidates.push(root.join(user).join("app.recorder.desktop.plist"));
            }
            candidates.push(root.join("app.recorder.desktop.plist"));
            ManagedPreferences { candidates }
        }
    }

    impl PolicySource for ManagedPreferences {
        fn load(&self) -> Result<Vec<(String, RawPolicyValue)>, PolicySourceError> {
            let Some(path) = self.candidates.iter().find(|path| path.exists()) else {
                return Ok(Vec::new());
            };
            let bytes = read_limited(path, MAX_POLICY_BYTES).map_err(|error| {
                PolicySourceError::Read(path.display().to_string(), error.to_string())
            })?;
            let value =
                plist::Value::from_reader(std::io::Cursor::new(bytes)).map_err(|error| {
                    PolicySourceError::Malformed(path.display().to_string(), error.to_string())
                })?;
            let Some(dictionary) = value.into_dictionary() else {
                return Err(PolicySourceError::Malformed(
                    path.display().to_string(),
                    "not a dictionary".into(),
                ));
            };
            Ok(dictionary.into_iter().map(|(key, value)| (key, raw_from_plist(value))).collect())
        }

        fn describe(&self) -> String {
            "macOS managed preferences (app.recorder.desktop)".into()
        }
    }

    fn raw_from_plist(value: plist::Value) -> RawPolicyValue {
        match value {
            plist::Value::Boolean(flag) => RawPolicyValue::Bool(flag),
            plist::Value::Integer(number) => number
                .as_signed()
                .map(RawPolicyValue::Integer)
                .unwrap_or(RawPolicyValue::Other("an integer out of range")),
            plist::Value::Real(number) => RawPolicyValue::Float(number),
            plist::Value::String(text) => RawPolicyValue::Text(text),
            _ => RawPolicyValue::Other("an unsupported plist value"),
        }
    }
}

#[cfg(windows)]
mod windows {
    //! Windows: values under `HKLM\SOFTWARE\Policies\Recorder`. DWORDs are booleans
    //! (0/1) for boolean keys and integers for `MaxRetentionDays`.
    use super::*;
    use recorder_domain::policy::PolicyType;
    use recorder_domain::PolicyKey;
    use winreg::enums::HKEY_LOCAL_MACHINE;
    use winreg::RegKey;

    pub struct RegistryPolicy;

    impl PolicySource for RegistryPolicy {
        fn load(&self) -> Result<Vec<(String, RawPolicyValue)>, PolicySourceError> {
            let machine = RegKey::predef(HKEY_LOCAL_MACHINE);
            let Ok(key) = machine.open_subkey("SOFTWARE\\Policies\\Recorder") else {
                return Ok(Vec::new());
            };
            let mut entries = Vec::new();
            for policy in PolicyKey::ALL {
                let raw = match policy.value_type() {
                    PolicyType::Text => {
                        key.get_value::<String, _>(policy.name()).ok().map(RawPolicyValue::Text)
                    }
                    PolicyType::Boolean => {
                        key.get_value::<u32, _>(policy.name()).ok().map(|v| match v {
                            0 => RawPolicyValue::Bool(false),
                            1 => RawPolicyValue::Bool(true),
                            _ => RawPolicyValue::Other("a DWORD other than 0 or 1"),
                        })
                    }
                    PolicyType::Integer => key
                        .get_value::<u32, _>(policy.name())
                        .ok()
                        .map(|v| RawPolicyValue::Integer(v as i32 as i64)),
                };
                if let Some(raw) = raw {
                    entries.push((policy.name().to_string(), raw));
                }
            }
            Ok(entries)
        }

        fn describe(&self) -> String {
            "HKLM\\SOFTWARE\\Policies\\Recorder".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_domain::{PolicyKey, PolicyValues};

    #[cfg(unix)]
    #[test]
    fn release_builds_take_the_override_only_from_a_file_only_root_could_write() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        // Owned by root, 0644 on every Linux and macOS.
        assert!(may_override_policy(Path::new("/etc/passwd"), false));
        assert!(!may_override_policy(Path::new("/nonexistent/policies.json"), false));
        let temp = tempfile::tempdir().expect("temp");
        let file = temp.path().join("policies.json");
        std::fs::write(&file, "{}").expect("write");
        assert!(may_override_policy(&file, true), "debug builds always take it");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o646)).expect("chmod");
        assert!(!may_override_policy(&file, false), "others may write it");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o664)).expect("chmod");
        assert!(!may_override_policy(&file, false), "the group may write it");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let owned_by_root = std::fs::metadata(&file).expect("meta").uid() == 0;
        assert_eq!(may_override_policy(&file, false), owned_by_root, "only root's own file");
        assert!(!may_override_policy(temp.path(), false), "a folder is not a policy file");
    }

    #[test]
    fn kept_entries_read_back_as_they_were() {
        let entries = vec![
            ("OrganizationName".to_string(), RawPolicyValue::Text("Acme".into())),
            ("MaxRetentionDays".to_string(), RawPolicyValue::Integer(30)),
            ("DisableAudioExport".to_string(), RawPolicyValue::Bool(true)),
            ("ForceLocalModel".to_string(), RawPolicyValue::Null),
            ("AllowedExportFolder".to_string(), RawPolicyValue::Other("an array")),
        ];
        let temp = tempfile::tempdir().expect("temp");
        let path = temp.path().join("last-good.json");
        std::fs::write(&path, entries_to_json(&entries).to_string()).expect("write");
        let read = JsonFilePolicy { path }.load().expect("load");
        assert_eq!(read, entries);
    }

    #[test]
    fn macos_plists_are_read_per_user_first() {
        let temp = tempfile::tempdir().expect("temp");
        let user = temp.path().join("ada.plist");
        let machine = temp.path().join("machine.plist");
        let plist = |org: &str| {
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>OrganizationName</key><string>{org}</string>
<key>DisableAgentRecording</key><true/>
<key>MaxRetentionDays</key><integer>30</integer>
<key>AllowedExportFolder</key><array/>
</dict></plist>"#
            )
        };
        std::fs::write(&machine, plist("Machine")).expect("write");
        let source = macos::ManagedPreferences::at(vec![user.clone(), machine.clone()]);
        let entries = source.load().expect("load");
        assert!(
            entries.contains(&("OrganizationName".into(), RawPolicyValue::Text("Machine".into())))
        );
        assert!(entries.contains(&("DisableAgentRecording".into(), RawPolicyValue::Bool(true))));
        assert!(entries.contains(&("MaxRetentionDays".into(), RawPolicyValue::Integer(30))));
        assert!(entries.contains(&(
            "AllowedExportFolder".into(),
            RawPolicyValue::Other("an unsupported plist value")
        )));
        std::fs::write(&user, plist("User")).expect("write");
        let entries = source.load().expect("load");
        assert!(entries.contains(&("OrganizationName".into(), RawPolicyValue::Text("User".into()))));
    }

    #[test]
    fn json_file_values_and_missing_file() {
        let temp = tempfile::tempdir().expect("temp");
        let source = JsonFilePolicy { path: temp.path().join("policies.json") };
        assert!(source.load().expect("missing is empty").is_empty());
        std::fs::write(
            &source.path,
            r#"{"OrganizationName":"Acme","MaxRetentionDays":30,"X":1.5,"Y":[1]}"#,
        )
        .expect("write");
        let entries = source.load().expect("load");
        assert!(entries.contains(&("MaxRetentionDays".into(), RawPolicyValue::Integer(30))));
        assert!(entries.contains(&("X".into(), RawPolicyValue::Float(1.5))));
        assert!(entries.contains(&("Y".into(), RawPolicyValue::Other("an array"))));
        std::fs::write(&source.path, "[]").expect("write");
        assert!(matches!(source.load(), Err(PolicySourceError::Malformed(..))));
    }

    /// Any plist value, a few levels deep.
    fn any_plist() -> impl proptest::strategy::Strategy<Value = plist::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            any::<bool>().prop_map(plist::Value::Boolean),
            any::<i64>().prop_map(|n| plist::Value::Integer(n.into())),
            any::<u64>().prop_map(|n| plist::Value::Integer(n.into())),
            any::<f64>().prop_map(plist::Value::Real),
            ".{0,10}".prop_map(plist::Value::String),
            prop::collection::vec(any::<u8>(), 0..8).prop_map(plist::Value::Data),
        ];
        leaf.prop_recursive(2, 12, 3, |inner| {
            prop::collection::vec(inner, 0..3).prop_map(plist::Value::Array)
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// A managed-preferences plist of any values, written as XML or
        /// binary, or any bytes at all: read or refused, never a panic, and
        /// every value a key can use or a listed reason.
        #[test]
        fn any_plist_is_read_or_refused(
            entries in proptest::collection::btree_map(
                proptest::prop_oneof![
                    proptest::sample::select(PolicyKey::ALL.iter().map(|k| k.name().to_string()).collect::<Vec<_>>()),
                    "[A-Za-z]{1,8}",
                ],
                any_plist(),
                0..8,
            ),
            binary in proptest::prelude::any::<bool>(),
            garbage in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ) {
            let temp = tempfile::tempdir().expect("temp");
            let path = temp.path().join("managed.plist");
            let dictionary: plist::Dictionary = entries.clone().into_iter().collect();
            let value = plist::Value::Dictionary(dictionary);
            if binary {
                value.to_file_binary(&path).expect("write");
            } else {
                value.to_file_xml(&path).expect("write");
            }
            let source = macos::ManagedPreferences::at(vec![path.clone()]);
            let loaded = source.load().expect("a dictionary loads");
            let policy = PolicyValues::from_raw(loaded.iter().map(|(k, v)| (k.as_str(), v.clone())));
            for name in entries.keys() {
                let in_force = PolicyKey::from_name(name).and_then(|key| policy.get(key)).is_some();
                let listed = policy.invalid.iter().any(|(invalid, _)| invalid == name);
                proptest::prop_assert!(in_force != listed, "{name}: in force or listed, not both");
            }
            std::fs::write(&path, &garbage).expect("write");
            let _ = source.load();
        }

        /// A valid plist, XML or binary, with bytes overwritten, cut short or
        /// with huge values written over its offsets and counts (the binary
        /// format's trailer holds both): read or refused, never a panic.
        #[test]
        fn a_damaged_plist_is_read_or_refused(
            entries in proptest::collection::btree_map("[A-Za-z]{1,8}", any_plist(), 0..6),
            binary in proptest::prelude::any::<bool>(),
            damage in proptest::collection::vec(
                (proptest::prelude::any::<usize>(), proptest::prelude::any::<u64>(), 0u8..4),
                1..6,
            ),
        ) {
            let temp = tempfile::tempdir().expect("temp");
            let path = temp.path().join("managed.plist");
            let value = plist::Value::Dictionary(entries.into_iter().collect());
            let mut bytes = Vec::new();
            if binary {
                value.to_writer_binary(&mut bytes).expect("encode");
            } else {
                value.to_writer_xml(&mut bytes).expect("encode");
            }
            for (at, value, how) in damage {
                let at = at % (bytes.len() + 1);
                match how {
                    0 => bytes.truncate(at),
                    1 => {
                        let end = (at + 8).min(bytes.len());
                        bytes[at..end].copy_from_slice(&u64::MAX.to_be_bytes()[..end - at]);
                    }
                    _ if at < bytes.len() => bytes[at] = value as u8,
                    _ => bytes.push(value as u8),
                }
            }
            std::fs::write(&path, &bytes).expect("write");
            let source = macos::ManagedPreferences::at(vec![path]);
            if let Err(error) = source.load() {
                let shown = error.to_string();
                proptest::prop_assert!(shown.starts_with("policy ") || shown.starts_with("cannot read policy "), "{shown}");
            }
        }
    }
}
