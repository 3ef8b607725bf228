//! Model weights the service finds in the data folder's `models/` (or at a
//! path from the environment) and loads when first needed: the Silero VAD
//! (`recorder models add-vad`; without it the energy gate is used) and the
//! CAM++ speaker embedding (`recorder models add-speakers`; without it the
//! other side stays one speaker, "Them"), and pyannote's segmentation-3.0
//! (also `add-speakers`; without it speech is cut into 1.5 s windows instead
//! of local speakers, and overlapped speech keeps one speaker). The reason a file is not used is
//! logged once per reason; the weights are read again when the file changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use recorder_stt::silero::SileroModel;
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::segmentation::Segmentation;

/// Silero VAD weights (`RECORDER_VAD_PATH`, else `models/silero-vad.safetensors`).
pub type VadModel = Weights<SileroModel>;
/// CAM++ weights (`RECORDER_SPEAKER_MODEL_PATH`, else
/// `models/speaker-campplus.safetensors`).
pub type SpeakerModel = Weights<CamPlusPlus>;
/// Segmentation weights (`RECORDER_SEGMENTATION_MODEL_PATH`, else
/// `models/speaker-segmentation.safetensors`).
pub type SegmentationModel = Weights<Segmentation>;

/// One kind of weights: where they are, how they load, what goes without them.
pub struct Weights<M: 'static> {
    path: PathBuf,
    kind: &'static Kind<M>,
    cached: Mutex<Cached<M>>,
}

pub struct Kind<M> {
    /// What the weights do, for the log (`voice activity`, `speakers`).
    what: &'static str,
    /// What is used when they are missing.
    without: &'static str,
    /// How to install them.
    install: &'static str,
    load: fn(&Path) -> Result<Arc<M>, String>,
}

pub const VAD: Kind<SileroModel> = Kind {
    what: "voice activity: Silero VAD",
    without: "voice activity: the energy gate (no Silero VAD)",
    install: "run scripts/vad-model.sh, then `recorder models add-vad FILE`",
    load: |path| SileroModel::load(path).map_err(|e| e.to_string()),
};

pub const SPEAKERS: Kind<CamPlusPlus> = Kind {
    what: "speakers: CAM++ speaker embeddings",
    without: "speakers: the other side stays one speaker (no speaker model)",
    install: "run scripts/speaker-model.sh, then `recorder models add-speakers FILE`",
    load: |path| CamPlusPlus::load(path).map(Arc::new),
};

pub const SEGMENTATION: Kind<Segmentation> = Kind {
    what: "speakers: pyannote segmentation-3.0 (overlap-aware)",
    without: "speakers: 1.5 s windows of speech (no segmentation model)",
    install: "run scripts/speaker-model.sh, then `recorder models add-speakers FILE`",
    load: |path| Segmentation::load(path).map(Arc::new),
};

struct Cached<M> {
    file: Option<(PathBuf, Option<SystemTime>)>,
    model: Option<Arc<M>>,
    last_reason: Option<String>,
}

impl<M> Default for Cached<M> {
    fn default() -> Self {
        Cached { file: None, model: None, last_reason: None }
    }
}

impl<M: 'static> Weights<M> {
    /// The weights at `path` (from the environment), else `file_name` in `models_dir`.
    pub fn new(
        kind: &'static Kind<M>,
        path: Option<PathBuf>,
        models_dir: &Path,
        file_name: &str,
    ) -> Self {
        let path = path.unwrap_or_else(|| models_dir.join(file_name));
        Weights { path, kind, cached: Mutex::default() }
    }

    /// Whether the weights' file is there (one `stat`; for request handlers,
    /// which must not load 28 MB on the async runtime).
    pub fn installed(&self) -> bool {
        self.path.is_file()
    }

    /// The model to use now, or `None` (and the reason logged once).
    pub fn get(&self) -> Option<Arc<M>> {
        let path = self.path.clone();
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        let key = Some((path.clone(), modified));
        if cached.file == key {
            return cached.model.clone();
        }
        let loaded = if !path.exists() {
            Err(format!("{} is not installed ({})", path.display(), self.kind.install))
        } else {
            (self.kind.load)(&path)
        };
        cached.file = key;
        match loaded {
            Ok(model) => {
                tracing::info!(path = %path.display(), "{}", self.kind.what);
                cached.model = Some(model);
                cached.last_reason = None;
            }
            Err(reason) => {
                if cached.last_reason.as_deref() != Some(reason.as_str()) {
                    tracing::warn!(%reason, "{}", self.kind.without);
                }
                cached.model = None;
                cached.last_reason = Some(reason);
            }
        }
        cached.model.clone()
    }
}
