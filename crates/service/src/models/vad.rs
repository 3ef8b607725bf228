//! The voice-activity model: Silero VAD weights from `RECORDER_VAD_PATH`, else
//! the data folder's `models/silero-vad.safetensors` (installed by `recorder
//! models add-vad`). Without them the energy gate is used, and the reason is
//! logged once per reason. The weights are read again when the file changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use recorder_stt::silero::{SileroModel, FILE_NAME};

pub struct VadModel {
    path: PathBuf,
    cached: Mutex<Cached>,
}

#[derive(Default)]
struct Cached {
    file: Option<(PathBuf, Option<SystemTime>)>,
    model: Option<Arc<SileroModel>>,
    last_reason: Option<String>,
}

impl VadModel {
    /// The weights at `path` (`RECORDER_VAD_PATH`), else in `models_dir`.
    pub fn new(path: Option<PathBuf>, models_dir: &Path) -> Self {
        let path = path.unwrap_or_else(|| models_dir.join(FILE_NAME));
        VadModel { path, cached: Mutex::default() }
    }

    /// The Silero model to use now, or `None` for the energy gate.
    pub fn get(&self) -> Option<Arc<SileroModel>> {
        let path = self.path.clone();
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        let key = Some((path.clone(), modified));
        if cached.file == key {
            return cached.model.clone();
        }
        let loaded = if !path.exists() {
            Err(format!("{} is not installed (run scripts/vad-model.sh, then `recorder models add-vad FILE`)", path.display()))
        } else {
            SileroModel::load(&path).map_err(|e| e.to_string())
        };
        cached.file = key;
        match loaded {
            Ok(model) => {
                tracing::info!(path = %path.display(), "voice activity: Silero VAD");
                cached.model = Some(model);
                cached.last_reason = None;
            }
            Err(reason) => {
                if cached.last_reason.as_deref() != Some(reason.as_str()) {
                    tracing::warn!(%reason, "voice activity: the energy gate (no Silero VAD)");
                }
                cached.model = None;
                cached.last_reason = Some(reason);
            }
        }
        cached.model.clone()
    }
}
