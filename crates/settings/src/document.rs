//! `settings.json`: the person's own choices. Nested objects, defaults filled in,
//! unknown keys kept, every known key checked for type and range.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::data_dir::{read_limited, write_atomic};

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{path} is not valid JSON: {source}")]
    Syntax { path: PathBuf, source: serde_json::Error },
    /// A known key has a value of the wrong type or out of range; names the key.
    #[error("{0}")]
    Invalid(String),
}

/// The typed view of the settings this build knows.
#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    pub general: General,
    pub recording: Recording,
    pub retention: Retention,
    pub export: Export,
    pub ai: Ai,
    pub transcription: Transcription,
}

#[derive(Debug, Clone, Deserialize)]
pub struct General {
    pub api_port: u16,
    pub allow_remote_start: bool,
    pub user_name: String,
    /// Start the desktop app (its tray icon, window hidden) when the person
    /// logs in. Beyond the contract's keys; the desktop app applies it.
    #[serde(default)]
    pub start_at_login: bool,
    /// Show the app's first-run guide (model, devices, extension, login).
    /// A settings file the service creates (a first run) says true; one that
    /// already existed without the key (written before the guide) gets false.
    /// Beyond the contract's keys.
    #[serde(default)]
    pub show_first_run_guide: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Recording {
    pub auto_record_apps: Vec<String>,
    pub language: String,
    /// Notice desktop meeting apps that open the microphone and ask the
    /// person (the record card) whether to record. Beyond the contract's keys.
    #[serde(default = "on")]
    pub detect_meeting_apps: bool,
    /// A recording that came from a call stops this long after the call
    /// ended; 0: never.
    #[serde(default = "call_end_grace")]
    pub stop_after_call_ends_s: u32,
    /// Any recording stops after this long with both channels silent; 0: never.
    #[serde(default = "silence_minutes")]
    pub stop_after_silence_min: u32,
}

fn call_end_grace() -> u32 {
    30
}

fn silence_minutes() -> u32 {
    10
}

#[derive(Debug, Clone, Deserialize)]
pub struct Retention {
    pub keep_audio_days: Option<i64>,
    pub delete_meetings_after_days: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Export {
    pub auto_export_markdown: bool,
    pub folder: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Ai {
    pub provider: String,
    pub local_url: String,
    pub model: Option<String>,
    pub cloud_base_url: Option<String>,
    /// The notes model inside (`ai.provider: "embedded"`): an installed model's
    /// name (`recorder models notes`); null: the first one installed. Beyond
    /// the contract's keys.
    #[serde(default)]
    pub embedded_model: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Transcription {
    pub model: String,
    pub threads: Option<u32>,
    /// How imported files are decoded: `greedy` (the default; absent means
    /// greedy) or `beam` (beam search: about twice the time, fewer misheard
    /// words). Beyond the contract's keys; live lines are always greedy.
    #[serde(default)]
    pub decoding: Option<String>,
    /// Where transcription runs: `auto` (a GPU where there is one, else the
    /// CPU; absent means auto), `cpu` or `gpu` (the CPU, with the reason
    /// logged, where no GPU can be used). Beyond the contract's keys.
    #[serde(default)]
    pub device: Option<String>,
    /// Keep the voices the person names, only on this machine, to recognise
    /// them in later meetings (Settings → Speakers lists and forgets them).
    /// Beyond the contract's keys; on unless turned off.
    #[serde(default = "on")]
    pub remember_voices: bool,
    /// Words to know: names and terms every transcription should spell as
    /// written here (whisper's prompt, with each meeting's attendees and
    /// title). At most [`MAX_WORDS`] of 1 to [`MAX_WORD_CHARS`] characters.
    #[serde(default)]
    pub vocabulary: Vec<String>,
    /// Words learned from the person's corrections: rare words they wrote
    /// into lines where the transcription had something else. Used as
    /// `vocabulary` is; Settings → Words to know lists them, each removable.
    /// At most [`MAX_WORDS`], the oldest dropped first.
    #[serde(default)]
    pub learned: Vec<String>,
    /// Transcribe every recording again, once it is ready, with this larger
    /// installed model (a final pass); `null`: never (the default: on two
    /// cores a larger model takes minutes per meeting). Beyond the contract's keys.
    #[serde(default)]
    pub final_pass_model: Option<String>,
}

/// The most entries in a list of words to know (`transcription.vocabulary`,
/// a meeting's `vocabulary`).
pub const MAX_WORDS: usize = 200;
/// The longest entry in a list of words to know, in characters.
pub const MAX_WORD_CHARS: usize = 100;

/// Whether `word` may stand in a list of words to know: 1 to
/// [`MAX_WORD_CHARS`] characters once trimmed, none of them a control.
pub fn is_vocabulary_word(word: &str) -> bool {
    let trimmed = word.trim();
    (1..=MAX_WORD_CHARS).contains(&trimmed.chars().count())
        && !trimmed.chars().any(char::is_control)
}

fn on() -> bool {
    true
}

pub const DECODINGS: [&str; 2] = ["greedy", "beam"];
/// `transcription.device`'s values.
pub const DEVICES: [&str; 3] = ["auto", "cpu", "gpu"];

pub const PROVIDERS: [&str; 5] = ["builtin", "embedded", "local", "anthropic", "openai_compatible"];

/// `transcription.model` until the person chooses one.
pub const DEFAULT_TRANSCRIPTION_MODEL: &str = "base.en";

/// The defaults written to a new `settings.json`.
pub fn defaults() -> Value {
    json!({
        "general": { "api_port": 47321, "allow_remote_start": false, "user_name": "Me", "start_at_login": false, "show_first_run_guide": false },
        "recording": {
            "auto_record_apps": [], "language": "en", "detect_meeting_apps": true,
            "stop_after_call_ends_s": 30, "stop_after_silence_min": 10
        },
        "retention": { "keep_audio_days": null, "delete_meetings_after_days": null },
        "export": { "auto_export_markdown": false, "folder": null },
        "ai": { "provider": "builtin", "local_url": "http://127.0.0.1:11434", "model": null, "cloud_base_url": null },
        "transcription": { "model": DEFAULT_TRANSCRIPTION_MODEL, "threads": null, "remember_voices": true, "vocabulary": [], "learned": [] }
    })
}

/// The settings of a first run: the defaults, with the first-run guide shown.
fn first_run_defaults() -> Value {
    let mut document = defaults();
    document["general"]["show_first_run_guide"] = Value::Bool(true);
    document
}

/// A key of `settings.json` whose value is not used (wrong type or out of
/// range, e.g. hand-edited): its default applies until it is changed, and the
/// file keeps what the person wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidSetting {
    /// `section.key`, e.g. `retention.delete_meetings_after_days`.
    pub key: String,
    pub reason: String,
}

/// The largest `settings.json` read: far above what the settings need (the
/// vocabulary, the largest, is at most 200 words of 100 characters), and
/// bounded, so a runaway file is refused rather than held whole.
pub const MAX_SETTINGS_BYTES: u64 = 16 << 20;

/// The whole JSON document (unknown keys included) and its typed view.
#[derive(Debug, Clone)]
pub struct SettingsDocument {
    document: Value,
    typed: Settings,
    /// Keys whose values the typed view replaced by their defaults.
    invalid: Vec<InvalidSetting>,
}

impl SettingsDocument {
    /// Reads `path`, filling in missing known keys; writes the file when it was
    /// missing or lacked keys. A file that is not a JSON object is an error. A
    /// known key with a wrong value does not stop anything: its default applies,
    /// it is listed in [`SettingsDocument::invalid`], and the file is not
    /// written (the person's text stays as it is).
    pub fn load_or_create(path: &Path) -> Result<Self, SettingsError> {
        let existing = match read_limited(path, MAX_SETTINGS_BYTES) {
            Ok(bytes) => Some(
                serde_json::from_slice::<Value>(&bytes)
                    .map_err(|source| SettingsError::Syntax { path: path.to_path_buf(), source })?,
            ),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(SettingsError::Read { path: path.to_path_buf(), source }),
        };
        let mut document = existing.clone().unwrap_or_else(first_run_defaults);
        if !document.is_object() {
            return Err(SettingsError::Invalid(format!(
                "{} must hold a JSON object",
                path.display()
            )));
        }
        fill_missing(&mut document, &defaults());
        let loaded = Self::lenient(document)?;
        for invalid in &loaded.invalid {
            tracing::warn!(key = %invalid.key, reason = %invalid.reason, "settings.json: a value is not valid; its default applies");
        }
        if loaded.invalid.is_empty() && existing.as_ref() != Some(&loaded.document) {
            loaded.save(path)?;
        }
        Ok(loaded)
    }

    /// Checks a whole document and builds its typed view; any invalid key is
    /// an error.
    pub fn from_value(document: Value) -> Result<Self, SettingsError> {
        let loaded = Self::lenient(document)?;
        match loaded.invalid.first() {
            Some(invalid) => Err(SettingsError::Invalid(format!("settings: {}", invalid.reason))),
            None => Ok(loaded),
        }
    }

    /// Builds the typed view with the default in place of every invalid key
    /// (listed in [`SettingsDocument::invalid`]).
    pub fn lenient(document: Value) -> Result<Self, SettingsError> {
        let (usable, invalid) = usable_values(&document);
        let typed = typed_view(&usable)?;
        validate(&typed)?;
        Ok(SettingsDocument { document, typed, invalid })
    }

    /// Keys whose values are not used, with why.
    pub fn invalid(&self) -> &[InvalidSetting] {
        &self.invalid
    }

    pub fn value(&self) -> &Value {
        &self.document
    }

    pub fn typed(&self) -> &Settings {
        &self.typed
    }

    /// The document after an RFC 7396 merge patch, validated; `self` is unchanged.
    pub fn patched(&self, patch: &Value) -> Result<Self, SettingsError> {
        if !patch.is_object() {
            return Err(SettingsError::Invalid("settings patch must be a JSON object".into()));
        }
        let mut document = self.document.clone();
        merge_patch(&mut document, patch);
        // Removing a known key with null restores its default.
        fill_missing(&mut document, &defaults());
        let patched = Self::lenient(document)?;
        // A key that was already invalid and that the patch left alone stays
        // as it is (and listed); a patch may not bring a new invalid value.
        let unchanged = |invalid: &&InvalidSetting| {
            self.invalid.iter().any(|old| old.key == invalid.key)
                && get_path(&self.document, &invalid.key)
                    == get_path(&patched.document, &invalid.key)
        };
        match patched.invalid.iter().find(|invalid| !unchanged(invalid)) {
            Some(invalid) => Err(SettingsError::Invalid(format!("settings: {}", invalid.reason))),
            None => Ok(patched),
        }
    }

    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let mut text = serde_json::to_vec_pretty(&self.document)
            .map_err(|error| SettingsError::Invalid(error.to_string()))?;
        text.push(b'\n');
        write_atomic(path, &text, None)
            .map_err(|source| SettingsError::Write { path: path.to_path_buf(), source })
    }
}

/// The API port configured in an existing `settings.json`, read without creating
/// or changing the file (for clients such as the CLI and the gateway).
pub fn configured_api_port(path: &Path) -> u16 {
    read_limited(path, MAX_SETTINGS_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|document| document.pointer("/general/api_port").and_then(Value::as_u64))
        .and_then(|port| u16::try_from(port).ok())
        .filter(|port| *port != 0)
        .unwrap_or(47321)
}

/// RFC 7396: objects merge recursively, `null` removes, anything else replaces.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(target) = target {
        for (key, value) in patch {
            if value.is_null() {
                target.remove(key);
            } else {
                merge_patch(target.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

/// Adds every key of `defaults` that `target` lacks, recursively; keeps the rest.
fn fill_missing(target: &mut Value, defaults: &Value) {
    let (Value::Object(target), Value::Object(defaults)) = (target, defaults) else {
        return;
    };
    for (key, default) in defaults {
        match target.get_mut(key) {
            Some(existing) => fill_missing(existing, default),
            None => {
                target.insert(key.clone(), default.clone());
            }
        }
    }
}

/// The document with each known key that fails on its own (tried in the
/// defaults, so every other key is valid) replaced by its default, and the
/// keys replaced. A section that is not an object is replaced whole.
fn usable_values(document: &Value) -> (Value, Vec<InvalidSetting>) {
    let defaults = defaults();
    let mut usable = document.clone();
    // A key missing from a section has its default (as a loaded file would).
    fill_missing(&mut usable, &defaults);
    let mut invalid = Vec::new();
    let Some(sections) = defaults.as_object() else { return (usable, invalid) };
    for (section, default_section) in sections {
        let Some(keys) = document.get(section).and_then(Value::as_object) else {
            invalid.push(InvalidSetting {
                key: section.clone(),
                reason: format!("{section} must be an object"),
            });
            usable[section] = default_section.clone();
            continue;
        };
        for (key, value) in keys {
            let mut trial = defaults.clone();
            trial[section][key] = value.clone();
            let Err(SettingsError::Invalid(message)) =
                typed_view(&trial).and_then(|t| validate(&t))
            else {
                continue;
            };
            let reason = message.strip_prefix("settings: ").unwrap_or(&message);
            // A type error names its section only; name the key.
            let reason = match reason.strip_prefix(&format!("{section}: ")) {
                Some(detail) => format!("{section}.{key}: {detail}"),
                None => reason.to_string(),
            };
            invalid.push(InvalidSetting { key: format!("{section}.{key}"), reason });
            match default_section.get(key) {
                Some(default) => usable[section][key] = default.clone(),
                None => drop(usable[section].as_object_mut().map(|keys| keys.remove(key))),
            }
        }
    }
    (usable, invalid)
}

fn get_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(value, |node, part| node.get(part))
}

/// Deserializes section by section so the error names the section that is wrong.
fn typed_view(document: &Value) -> Result<Settings, SettingsError> {
    fn section<T: for<'a> Deserialize<'a>>(
        document: &Value,
        name: &str,
    ) -> Result<T, SettingsError> {
        let value = document.get(name).cloned().unwrap_or(Value::Null);
        serde_json::from_value(value).map_err(|error| {
            SettingsError::Invalid(format!("settings: {name}: {}", clean_serde_message(&error)))
        })
    }
    Ok(Settings {
        general: section(document, "general")?,
        recording: section(document, "recording")?,
        retention: section(document, "retention")?,
        export: section(document, "export")?,
        ai: section(document, "ai")?,
        transcription: section(document, "transcription")?,
    })
}

fn clean_serde_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.find(" at line ") {
        Some(index) => text[..index].to_string(),
        None => text,
    }
}

fn validate(settings: &Settings) -> Result<(), SettingsError> {
    let fail = |message: &str| Err(SettingsError::Invalid(format!("settings: {message}")));
    if settings.general.api_port == 0 {
        return fail("general.api_port must be between 1 and 65535");
    }
    let name = settings.general.user_name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return fail("general.user_name must have 1 to 100 characters");
    }
    if settings
        .recording
        .auto_record_apps
        .iter()
        .any(|app| app.trim().is_empty() || app.len() > 200)
    {
        return fail("recording.auto_record_apps must hold names of 1 to 200 characters");
    }
    if settings.recording.stop_after_call_ends_s > 3600 {
        return fail("recording.stop_after_call_ends_s must be 0 (never) to 3600 seconds");
    }
    if settings.recording.stop_after_silence_min > 1440 {
        return fail("recording.stop_after_silence_min must be 0 (never) to 1440 minutes");
    }
    for (key, days) in [
        ("retention.keep_audio_days", settings.retention.keep_audio_days),
        ("retention.delete_meetings_after_days", settings.retention.delete_meetings_after_days),
    ] {
        if matches!(days, Some(days) if !(1..=36500).contains(&days)) {
            return fail(&format!("{key} must be null (Forever) or 1 to 36500"));
        }
    }
    if let Some(folder) = &settings.export.folder {
        if !(folder.starts_with('/') || folder.starts_with("~/") || folder == "~") {
            return fail("export.folder must be an absolute path or start with ~/");
        }
    }
    if !PROVIDERS.contains(&settings.ai.provider.as_str()) {
        return fail(
            "ai.provider must be builtin, embedded, local, anthropic or openai_compatible",
        );
    }
    if settings.ai.embedded_model.as_deref().is_some_and(|name| !is_model_name(name)) {
        return fail("ai.embedded_model must be null or a model name (letters, digits, . _ -)");
    }
    if !is_http_url(&settings.ai.local_url) {
        return fail("ai.local_url must be an http:// or https:// URL");
    }
    if settings.ai.cloud_base_url.as_deref().is_some_and(|base| !is_http_url(base)) {
        return fail("ai.cloud_base_url must be null or an http:// or https:// URL");
    }
    if matches!(settings.transcription.threads, Some(threads) if threads == 0 || threads > 256) {
        return fail("transcription.threads must be null (automatic) or 1 to 256");
    }
    if settings.transcription.decoding.as_deref().is_some_and(|d| !DECODINGS.contains(&d)) {
        return fail("transcription.decoding must be greedy or beam");
    }
    if settings.transcription.device.as_deref().is_some_and(|d| !DEVICES.contains(&d)) {
        return fail("transcription.device must be auto, cpu or gpu");
    }
    if settings.transcription.final_pass_model.as_deref().is_some_and(|n| !is_model_name(n)) {
        return fail(
            "transcription.final_pass_model must be null or a model name (letters, digits, . _ -)",
        );
    }
    for (key, words) in [
        ("vocabulary", &settings.transcription.vocabulary),
        ("learned", &settings.transcription.learned),
    ] {
        if words.len() > MAX_WORDS || !words.iter().all(|word| is_vocabulary_word(word)) {
            return fail(&format!(
                "transcription.{key} must hold at most {MAX_WORDS} words of 1 to {MAX_WORD_CHARS} characters"
            ));
        }
    }
    Ok(())
}

/// 1 to 100 letters, digits, `.`, `_` and `-`, not starting with `.`.
fn is_model_name(name: &str) -> bool {
    (1..=100).contains(&name.len())
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// An http(s) URL with a host.
fn is_http_url(text: &str) -> bool {
    url::Url::parse(text)
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some())
}

/// Whether a local server's URL names a loopback address, judged from the URL
/// alone: `Some` for IP literals (IPv4-mapped IPv6 by the IPv4 inside; the URL
/// parser already turns `0x7f000001` into `127.0.0.1`) and `localhost`, `None`
/// for other names, which only resolving can judge.
pub fn literal_loopback(local_url: &str) -> Option<bool> {
    let url = url::Url::parse(local_url).ok()?;
    match url.host()? {
        url::Host::Ipv4(address) => Some(address.is_loopback()),
        url::Host::Ipv6(address) => {
            Some(address.to_ipv4_mapped().map_or(address.is_loopback(), |v4| v4.is_loopback()))
        }
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost").then_some(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_is_created_with_defaults() {
        let temp = tempfile::tempdir().expect("temp");
        let path = temp.path().join("settings.json");
        let settings = SettingsDocument::load_or_create(&path).expect("load");
        assert_eq!(settings.typed().general.api_port, 47321);
        let written: Value =
            serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
        assert_eq!(written, first_run_defaults());
        assert_eq!(written["general"]["show_first_run_guide"], true, "a first run shows the guide");
    }

    #[test]
    fn a_settings_file_from_before_the_guide_does_not_show_it() {
        let temp = tempfile::tempdir().expect("temp");
        let path = temp.path().join("settings.json");
        std::fs::write(&path, r#"{"general": {"user_name": "Ada"}}"#).expect("write");
        let settings = SettingsDocument::load_or_create(&path).expect("load");
        assert!(!settings.typed().general.show_first_run_guide);
        assert_eq!(settings.typed().general.user_name, "Ada");
    }

    #[test]
    fn unknown_keys_survive_load_and_patch() {
        let temp = tempfile::tempdir().expect("temp");
        let path = temp.path().join("settings.json");
        std::fs::write(&path, r#"{"general":{"api_port":5000,"theme":"dark"},"plugins":{"x":1}}"#)
            .expect("write");
        let settings = SettingsDocument::load_or_create(&path).expect("load");
        assert_eq!(settings.typed().general.api_port, 5000);
        let patched = settings.patched(&json!({"general": {"user_name": "Ada"}})).expect("patch");
        assert_eq!(patched.value()["general"]["theme"], "dark");
        assert_eq!(patched.value()["plugins"]["x"], 1);
        assert_eq!(patched.typed().general.user_name, "Ada");
        let written: Value =
            serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
        assert_eq!(written["plugins"]["x"], 1);
    }

    #[test]
    fn wrong_types_and_ranges_name_the_key() {
        let base = SettingsDocument::from_value(defaults()).expect("defaults");
        let error = base.patched(&json!({"general": {"api_port": "x"}})).expect_err("type");
        assert!(error.to_string().contains("general"), "{error}");
        let error = base.patched(&json!({"retention": {"keep_audio_days": 0}})).expect_err("range");
        assert!(error.to_string().contains("retention.keep_audio_days"), "{error}");
        let error = base.patched(&json!({"ai": {"provider": "skynet"}})).expect_err("enum");
        assert!(error.to_string().contains("ai.provider"), "{error}");
    }

    #[test]
    fn decoding_is_greedy_unless_set_to_beam() {
        let base = SettingsDocument::from_value(defaults()).expect("defaults");
        assert_eq!(base.typed().transcription.decoding, None, "not written by default");
        let beam = base.patched(&json!({"transcription": {"decoding": "beam"}})).expect("beam");
        assert_eq!(beam.typed().transcription.decoding.as_deref(), Some("beam"));
        let error =
            base.patched(&json!({"transcription": {"decoding": "fast"}})).expect_err("enum");
        assert!(error.to_string().contains("transcription.decoding"), "{error}");
    }

    #[test]
    fn the_device_is_auto_unless_set_to_cpu_or_gpu() {
        let base = SettingsDocument::from_value(defaults()).expect("defaults");
        assert_eq!(base.typed().transcription.device, None, "not written by default");
        for device in ["auto", "cpu", "gpu"] {
            let set = base.patched(&json!({"transcription": {"device": device}})).expect(device);
            assert_eq!(set.typed().transcription.device.as_deref(), Some(device));
        }
        let error = base.patched(&json!({"transcription": {"device": "tpu"}})).expect_err("enum");
        assert!(error.to_string().contains("transcription.device"), "{error}");
    }

    #[test]
    fn null_restores_a_default() {
        let base = SettingsDocument::from_value(defaults()).expect("defaults");
        let named = base.patched(&json!({"general": {"user_name": "Ada"}})).expect("patch");
        let reset = named.patched(&json!({"general": {"user_name": null}})).expect("reset");
        assert_eq!(reset.typed().general.user_name, "Me");
    }

    #[test]
    fn corrupt_file_is_an_error_and_left_alone() {
        let temp = tempfile::tempdir().expect("temp");
        let path = temp.path().join("settings.json");
        std::fs::write(&path, "{not json").expect("write");
        assert!(matches!(
            SettingsDocument::load_or_create(&path),
            Err(SettingsError::Syntax { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "{not json");
    }

    #[test]
    fn an_out_of_range_value_starts_with_its_default_and_the_file_stays() {
        let temp = tempfile::tempdir().expect("temp");
        let path = temp.path().join("settings.json");
        let text = r#"{"retention": {"delete_meetings_after_days": 50000}, "general": {"user_name": "Ada"}}"#;
        std::fs::write(&path, text).expect("write");
        let loaded = SettingsDocument::load_or_create(&path).expect("starts anyway");
        assert_eq!(loaded.typed().retention.delete_meetings_after_days, None, "the default");
        assert_eq!(loaded.typed().general.user_name, "Ada", "the other keys apply");
        let keys: Vec<&str> = loaded.invalid().iter().map(|i| i.key.as_str()).collect();
        assert_eq!(keys, ["retention.delete_meetings_after_days"]);
        assert!(loaded.invalid()[0].reason.contains("1 to 36500"), "{:?}", loaded.invalid());
        assert_eq!(std::fs::read_to_string(&path).expect("read"), text, "never rewritten");

        // Another change keeps the person's value (still listed); a fix clears it.
        let other = loaded.patched(&json!({"general": {"user_name": "Bo"}})).expect("other key");
        assert_eq!(other.value()["retention"]["delete_meetings_after_days"], 50000);
        assert_eq!(other.invalid().len(), 1);
        let fixed =
            other.patched(&json!({"retention": {"delete_meetings_after_days": 90}})).expect("fix");
        assert!(fixed.invalid().is_empty());
        assert_eq!(fixed.typed().retention.delete_meetings_after_days, Some(90));
        let worse = loaded.patched(&json!({"retention": {"delete_meetings_after_days": 0}}));
        assert!(worse.is_err(), "a patch may not set an invalid value");
        let new_problem = loaded.patched(&json!({"general": {"api_port": 0}}));
        assert!(new_problem.expect_err("refused").to_string().contains("general.api_port"));
    }

    #[test]
    fn a_section_of_the_wrong_shape_is_replaced_by_its_defaults() {
        let mut document = defaults();
        document["export"] = json!("yes");
        document["general"]["api_port"] = json!("x");
        let loaded = SettingsDocument::lenient(document).expect("lenient");
        assert!(!loaded.typed().export.auto_export_markdown);
        assert_eq!(loaded.typed().general.api_port, 47321);
        let reasons: Vec<String> = loaded.invalid().iter().map(|i| i.reason.clone()).collect();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert!(reasons.iter().any(|r| r == "export must be an object"), "{reasons:?}");
        assert!(reasons.iter().any(|r| r.starts_with("general.api_port: invalid type")));
    }

    #[test]
    fn url_hosts() {
        assert_eq!(literal_loopback("http://127.0.0.1:11434/v1"), Some(true));
        assert_eq!(literal_loopback("http://0x7f000001"), Some(true));
        assert_eq!(literal_loopback("http://2130706433:8080"), Some(true));
        assert_eq!(literal_loopback("http://[::1]:8080"), Some(true));
        assert_eq!(literal_loopback("http://[::ffff:127.0.0.1]"), Some(true));
        assert_eq!(literal_loopback("http://[::ffff:10.0.0.1]"), Some(false));
        assert_eq!(literal_loopback("http://10.0.0.5:11434"), Some(false));
        assert_eq!(literal_loopback("http://LocalHost:11434"), Some(true));
        assert_eq!(literal_loopback("http://127.0.0.1.nip.io"), None);
        assert!(!is_http_url("ftp://x"));
    }
}
