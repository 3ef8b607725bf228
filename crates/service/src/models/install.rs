//! Installing a catalogue model: a background download through egress into
//! `models/<file>.part` (resumed with `Range` after an interruption), checked
//! against the catalogue's checksums, then renamed into place. Progress is
//! published as `models.download` events (at most 4 a second), the end as
//! `models.installed` or `error`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use recorder_api_types::{
    ErrorCode, ErrorEvent, Event, InstallStatus, ModelDownload, ModelInstallReply, ModelInstalled,
};
use recorder_egress::{Method, OutboundRequest, Verdict};
use recorder_stt::catalogue::{self, CatalogueEntry, Quantization};
use url::Url;

use crate::base::error::ApiError;
use crate::state::{AppState, Core};

/// Why a download is made, as the Privacy Ledger shows it.
pub const PURPOSE: &str = "model download";
/// Longest wait for the server's answer or for the next chunk of it.
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// At most 4 progress events a second.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Starts installing `name` (with an optional quantization): 202 `downloading`,
/// or 200 `installed` when the file is already there.
pub fn start(
    state: &AppState,
    name: &str,
    quantization: Option<&str>,
) -> Result<(bool, ModelInstallReply), ApiError> {
    let entry = lookup(name, quantization)?;
    let reply = |status: InstallStatus| ModelInstallReply {
        model: entry.id().to_string(),
        file_name: entry.file_name.to_string(),
        status,
    };
    if state.core.data_dir.models().join(entry.file_name).is_file() {
        return Ok((false, reply(InstallStatus::Installed)));
    }
    let url = download_url(&state.core, entry)?;
    if !state.models.downloads.try_begin(entry.file_name) {
        return Err(already_downloading(entry.file_name));
    }
    let checked = entry.clone();
    let target = Target {
        model: entry.id().to_string(),
        file_name: entry.file_name.to_string(),
        folder: state.core.data_dir.models(),
        size_bytes: entry.size_bytes,
        what: "transcription model",
        check: Arc::new(move |path| {
            catalogue::verify_file(&checked, path).map_err(|error| error.to_string())
        }),
    };
    tokio::spawn(run(state.clone(), target, url));
    Ok((true, reply(InstallStatus::Downloading)))
}

/// Checks a whole download (size, checksum, format); blocking.
pub type Check = Arc<dyn Fn(&Path) -> Result<(), String> + Send + Sync>;

/// A file to download into the data folder and how to check it.
pub struct Target {
    /// The model's name in events (`base.en-q8_0`, `qwen3-1.7b`).
    pub model: String,
    pub file_name: String,
    pub folder: PathBuf,
    /// The published size: a partial file longer than this starts over.
    pub size_bytes: Option<u64>,
    /// `transcription model` or `notes model`, for the log.
    pub what: &'static str,
    /// Checks the whole download (size, checksum, format); blocking.
    pub check: Check,
}

pub fn already_downloading(file_name: &str) -> ApiError {
    ApiError::new(
        ErrorCode::DownloadInProgress,
        format!("{file_name} is already being downloaded; wait for it to finish"),
    )
}

fn lookup(name: &str, quantization: Option<&str>) -> Result<&'static CatalogueEntry, ApiError> {
    let quantization = match quantization {
        Some(text) => Some(Quantization::parse(text).ok_or_else(|| {
            ApiError::invalid("field `quantization` must be f16, q8_0, q5_1 or q5_0")
        })?),
        None => None,
    };
    let entry = catalogue::find(name, quantization).ok_or_else(|| {
        let which = quantization.map(|q| format!(" as {}", q.as_str())).unwrap_or_default();
        ApiError::invalid(format!(
            "field `name`: the catalogue has no model \"{name}\"{which} (see `recorder models list`)"
        ))
    })?;
    if !entry.has_checksum() {
        return Err(ApiError::invalid(format!(
            "{} has no published checksum, so it cannot be verified; download it yourself and \
             install it with `recorder models add FILE`",
            entry.file_name
        )));
    }
    Ok(entry)
}

fn download_url(core: &Core, entry: &CatalogueEntry) -> Result<Url, ApiError> {
    let base = core.environment.model_base_url.as_deref();
    Url::parse(&entry.url_with_base(base))
        .map_err(|error| ApiError::internal("reading RECORDER_MODEL_BASE_URL", error))
}

/// The background download; always ends the registry's record of it.
/// Returns the installed file.
pub async fn run(state: AppState, target: Target, url: Url) -> Option<PathBuf> {
    let result = fetch(&state, &target, url).await;
    let (model, what) = (target.model.as_str(), target.what);
    match &result {
        Ok(path) => {
            tracing::info!(model, "{what} installed");
            state.core.events.emit(Event::ModelsInstalled(ModelInstalled {
                model: model.to_string(),
                file_name: target.file_name.clone(),
                path: path.display().to_string(),
            }));
        }
        Err(message) => {
            tracing::warn!(model, %message, "{what} download failed");
            state.core.events.emit(Event::Error(ErrorEvent {
                message: message.clone(),
                meeting_id: None,
                model: Some(model.to_string()),
                file_name: Some(target.file_name.clone()),
            }));
        }
    }
    let installed = result.as_ref().ok().cloned();
    state.models.downloads.finish(&target.file_name, result.err());
    installed
}

/// Downloads, verifies and renames; returns the installed file's path.
async fn fetch(state: &AppState, target: &Target, url: Url) -> Result<PathBuf, String> {
    let folder = target.folder.clone();
    let failed =
        |error: &dyn std::fmt::Display| format!("installing {}: {error}", target.file_name);
    tokio::fs::create_dir_all(&folder).await.map_err(|e| failed(&e))?;
    let part = folder.join(format!("{}.part", target.file_name));
    let mut file = tokio::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&part)
        .await
        .map_err(|e| failed(&e))?;
    let kept = file.metadata().await.map_err(|e| failed(&e))?.len();
    // A partial file longer than the model cannot be its beginning.
    let resume_from = if target.size_bytes.is_some_and(|size| kept > size) { 0 } else { kept };
    let mut request = OutboundRequest::new(Method::GET, url, PURPOSE);
    request.timeout = IDLE_TIMEOUT;
    let mut progress = Progress::new(state, target);
    let downloaded = state
        .core
        .egress
        .download(request, Verdict::Allow, &mut file, resume_from, |received, total| {
            progress.report(received, total)
        })
        .await;
    if let Err(error) = downloaded {
        drop(file);
        discard_if_empty(&part).await;
        return Err(failed(&error));
    }
    file.sync_all().await.map_err(|e| failed(&e))?;
    drop(file);
    verify(target, &part).await.map_err(|e| failed(&e))?;
    let installed = folder.join(&target.file_name);
    tokio::fs::rename(&part, &installed).await.map_err(|e| failed(&e))?;
    Ok(installed)
}

/// Checks the downloaded file; a file that fails is deleted (the next attempt
/// starts over).
async fn verify(target: &Target, part: &Path) -> Result<(), String> {
    let (check, path) = (target.check.clone(), part.to_path_buf());
    let result = tokio::task::spawn_blocking(move || check(&path))
        .await
        .map_err(|error| format!("checking the download failed: {error}"))?;
    if let Err(error) = result {
        if let Err(remove) = tokio::fs::remove_file(part).await {
            tracing::warn!(error = %remove, "could not delete a download that failed its check");
        }
        return Err(format!("{error}; the download was discarded"));
    }
    Ok(())
}

async fn discard_if_empty(part: &Path) {
    if tokio::fs::metadata(part).await.is_ok_and(|metadata| metadata.len() == 0) {
        let _ = tokio::fs::remove_file(part).await;
    }
}

/// Keeps the registry current and emits `models.download` at most every 250 ms.
struct Progress<'a> {
    state: &'a AppState,
    target: &'a Target,
    last_event: Option<Instant>,
}

impl<'a> Progress<'a> {
    fn new(state: &'a AppState, target: &'a Target) -> Self {
        Progress { state, target, last_event: None }
    }

    fn report(&mut self, received: u64, total: Option<u64>) {
        self.state.models.downloads.progress(&self.target.file_name, received, total);
        if self.last_event.is_some_and(|at| at.elapsed() < PROGRESS_EVERY) {
            return;
        }
        self.last_event = Some(Instant::now());
        self.state.core.events.emit(Event::ModelsDownload(ModelDownload {
            model: self.target.model.clone(),
            file_name: self.target.file_name.clone(),
            received,
            total,
        }));
    }
}
