//! The process environment, read once. Nothing else in the workspace calls
//! `std::env::var`, so every input from the environment is listed here.

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// `RECORDER_DATA_DIR`
    pub data_dir: Option<PathBuf>,
    /// `RECORDER_POLICY_PATH`
    pub policy_path: Option<PathBuf>,
    /// `RECORDER_POLICY_REFRESH_SECS`
    pub policy_refresh_secs: Option<String>,
    /// `RECORDER_MODEL_PATH`
    pub model_path: Option<PathBuf>,
    /// `RECORDER_NOTES_MODEL_PATH`: a GGUF model the notes model inside uses
    /// instead of the data folder's `models/notes/`.
    pub notes_model_path: Option<PathBuf>,
    /// `RECORDER_VAD_PATH`: Silero VAD weights to use instead of the data
    /// folder's `models/silero-vad.safetensors`.
    pub vad_path: Option<PathBuf>,
    /// `RECORDER_SPEAKER_MODEL_PATH`: CAM++ speaker weights to use instead of
    /// the data folder's `models/speaker-campplus.safetensors`.
    pub speaker_model_path: Option<PathBuf>,
    /// `RECORDER_SEGMENTATION_MODEL_PATH`: pyannote segmentation-3.0 weights
    /// to use instead of the data folder's
    /// `models/speaker-segmentation.safetensors`.
    pub segmentation_model_path: Option<PathBuf>,
    /// `RECORDER_MODEL_BASE_URL`: where `recorder models install` downloads from
    /// instead of the public catalogue (a mirror, or a test server).
    pub model_base_url: Option<String>,
    /// `RUST_LOG`-style log filter: `RECORDER_LOG`
    pub log_filter: Option<String>,
    pub home: Option<PathBuf>,
    pub xdg_data_home: Option<PathBuf>,
    pub appdata: Option<PathBuf>,
    /// `PATH`, to find helper programs such as `ffmpeg`.
    pub search_path: Option<std::ffi::OsString>,
    /// Where PipeWire's socket is: `PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`.
    pub pipewire_runtime_dir: Option<PathBuf>,
    /// `RECORDER_CREDENTIAL_STORE`: `file` keeps notes-provider API keys in the
    /// data folder's 0600 file instead of the OS credential store.
    pub credential_store: Option<String>,
    /// `RECORDER_RETENTION_SWEEP_SECS`: the retention sweeper's period (1 h).
    pub retention_sweep_secs: Option<String>,
    /// `RECORDER_PAIRING_CODE_SECS`: how long a pairing code lives, shorter
    /// than its 120 s only (the extension's tests see a code expire).
    pub pairing_code_secs: Option<String>,
    /// `RECORDER_READING_SECS`: how long the owner's voice reading listens,
    /// shorter than its 20 s only (tests play the reading faster).
    pub reading_secs: Option<String>,
    /// `RECORDER_ASK_FLOOR`: the relevance floor of asking, for
    /// `bench/ask.py`'s sweep only (it measures where the floor belongs).
    pub ask_floor: Option<String>,
    /// `RECORDER_OPENER`: the program that shows a folder in the file manager
    /// (default: xdg-open, open or explorer).
    pub opener: Option<PathBuf>,
    /// `GDK_GL`: GTK's OpenGL switch; the desktop app sets `disable` when
    /// the person has not chosen (see crates/desktop/src/main.rs).
    pub gdk_gl: Option<String>,
    /// `MALLOC_ARENA_MAX`: glibc's arena cap; where the person set it, the
    /// service and the app leave their own cap unset
    /// (recorder_sandbox::allocator).
    pub malloc_arena_max: Option<String>,
}

impl Environment {
    pub fn from_process() -> Self {
        let path = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let text = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        Environment {
            data_dir: path("RECORDER_DATA_DIR"),
            policy_path: path("RECORDER_POLICY_PATH"),
            policy_refresh_secs: text("RECORDER_POLICY_REFRESH_SECS"),
            model_path: path("RECORDER_MODEL_PATH"),
            notes_model_path: path("RECORDER_NOTES_MODEL_PATH"),
            vad_path: path("RECORDER_VAD_PATH"),
            speaker_model_path: path("RECORDER_SPEAKER_MODEL_PATH"),
            segmentation_model_path: path("RECORDER_SEGMENTATION_MODEL_PATH"),
            model_base_url: text("RECORDER_MODEL_BASE_URL"),
            pipewire_runtime_dir: path("PIPEWIRE_RUNTIME_DIR").or_else(|| path("XDG_RUNTIME_DIR")),
            log_filter: text("RECORDER_LOG"),
            home: path("HOME").or_else(|| path("USERPROFILE")),
            xdg_data_home: path("XDG_DATA_HOME"),
            appdata: path("APPDATA"),
            search_path: std::env::var_os("PATH"),
            credential_store: text("RECORDER_CREDENTIAL_STORE"),
            retention_sweep_secs: text("RECORDER_RETENTION_SWEEP_SECS"),
            pairing_code_secs: text("RECORDER_PAIRING_CODE_SECS"),
            reading_secs: text("RECORDER_READING_SECS"),
            ask_floor: text("RECORDER_ASK_FLOOR"),
            opener: path("RECORDER_OPENER"),
            gdk_gl: text("GDK_GL"),
            malloc_arena_max: text("MALLOC_ARENA_MAX"),
        }
    }

    /// The full path of an executable found on `PATH`.
    pub fn find_program(&self, name: &str) -> Option<PathBuf> {
        let search_path = self.search_path.as_ref()?;
        std::env::split_paths(search_path)
            .flat_map(|folder| [folder.join(name), folder.join(format!("{name}.exe"))])
            .find(|candidate| candidate.is_file())
    }

    /// The retention sweeper's period: 1 h unless `RECORDER_RETENTION_SWEEP_SECS`
    /// says otherwise (whole seconds, at least 1).
    pub fn retention_sweep(&self) -> Duration {
        seconds_or(self.retention_sweep_secs.as_deref(), 3600)
    }

    /// The policy refresh period: 60 s unless `RECORDER_POLICY_REFRESH_SECS` says
    /// otherwise (a whole number of seconds, at least 1).
    pub fn policy_refresh(&self) -> Duration {
        seconds_or(self.policy_refresh_secs.as_deref(), 60)
    }

    /// How long a pairing code lives: CONTRACT §7's 120 s, or fewer seconds
    /// if `RECORDER_PAIRING_CODE_SECS` says so. Never longer: a code that
    /// lived longer would give a guesser more time.
    pub fn pairing_code_lifetime(&self) -> Duration {
        seconds_or(self.pairing_code_secs.as_deref(), PAIRING_CODE_SECS)
            .min(Duration::from_secs(PAIRING_CODE_SECS))
    }

    /// How long the owner's voice reading listens: `default`, or fewer
    /// seconds if `RECORDER_READING_SECS` says so (never longer).
    pub fn reading_length(&self, default: Duration) -> Duration {
        seconds_or(self.reading_secs.as_deref(), default.as_secs()).min(default)
    }
}

impl Environment {
    /// The relevance floor of asking: `default`, or what
    /// `RECORDER_ASK_FLOOR` says (a number from 0 to 1).
    pub fn ask_floor(&self, default: f32) -> f32 {
        self.ask_floor
            .as_deref()
            .and_then(|text| text.trim().parse::<f32>().ok())
            .filter(|floor| (0.0..=1.0).contains(floor))
            .unwrap_or(default)
    }
}

/// A pairing code's lifetime (CONTRACT §7).
const PAIRING_CODE_SECS: u64 = 120;

/// A whole number of seconds (at least 1) from `text`, else `default`.
fn seconds_or(text: Option<&str>, default: u64) -> Duration {
    let seconds = text
        .and_then(|text| text.trim().parse::<u64>().ok())
        .filter(|seconds| *seconds >= 1)
        .unwrap_or(default);
    Duration::from_secs(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_pairing(secs: Option<&str>) -> Environment {
        Environment { pairing_code_secs: secs.map(str::to_owned), ..Environment::default() }
    }

    #[test]
    fn a_pairing_code_lives_120_s_and_can_only_be_shortened() {
        assert_eq!(with_pairing(None).pairing_code_lifetime(), Duration::from_secs(120));
        assert_eq!(with_pairing(Some("3")).pairing_code_lifetime(), Duration::from_secs(3));
        assert_eq!(with_pairing(Some("600")).pairing_code_lifetime(), Duration::from_secs(120));
        assert_eq!(with_pairing(Some("0")).pairing_code_lifetime(), Duration::from_secs(120));
        assert_eq!(with_pairing(Some("soon")).pairing_code_lifetime(), Duration::from_secs(120));
    }

    #[test]
    fn a_reading_can_only_be_shortened() {
        let twenty = Duration::from_secs(20);
        let with = |secs: &str| Environment {
            reading_secs: Some(secs.to_owned()),
            ..Environment::default()
        };
        assert_eq!(Environment::default().reading_length(twenty), twenty);
        assert_eq!(with("5").reading_length(twenty), Duration::from_secs(5));
        assert_eq!(with("60").reading_length(twenty), twenty);
        assert_eq!(with("0").reading_length(twenty), twenty);
    }
}
