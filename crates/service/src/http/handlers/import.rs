//! Import of a local audio file (`/v1/import`, and `/ui/import` without its
//! gates): the file is checked (format, size, converter, model) and its
//! transcription queued as a new meeting; the answer is 202 at once.

use std::path::{Path as FsPath, PathBuf};

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{ErrorBody, ErrorCode, Event, ImportRequest, Meeting};
use recorder_domain::{Channel, MeetingStatus};
use recorder_store::{JobKind, MeetingRecord};

use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::base::titles::UNTITLED_IMPORT;
use crate::http::extract::{text, ApiJson};
use crate::state::AppState;

pub const MAX_IMPORT_BYTES: u64 = 4 * 1024 * 1024 * 1024;
const AUDIO_EXTENSIONS: [&str; 14] = [
    "wav", "mp3", "m4a", "aac", "flac", "ogg", "oga", "opus", "webm", "aiff", "aif", "caf", "wma",
    "amr",
];

/// Transcribe an existing audio file. Needs 'Allow remote start'.
#[utoipa::path(post, path = "/v1/import", tag = "recording",
    request_body = ImportRequest,
    responses(
        (status = 202, body = Meeting),
        (status = 400, body = ErrorBody, description = "invalid_request or converter_missing"),
        (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "policy_denied or remote_start_disabled"),
        (status = 413, body = ErrorBody, description = "payload_too_large or file_too_large"),
        (status = 415, body = ErrorBody, description = "unsupported_audio_format"),
        (status = 503, body = ErrorBody, description = "model_unavailable"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn import(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    if let Some(title) = &request.title {
        text("title", title, 500)?;
    }
    let path = resolve_import_path(&request.path, state.core.environment.home.as_deref())?;
    import_file(&state, path, request.title).await
}

/// Checks a local file, then the converter and the model, and queues its
/// transcription as a new meeting. Shared by `/v1/import` and `/ui/import`.
pub async fn import_file(
    state: &AppState,
    path: PathBuf,
    title: Option<String>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let checked = path.clone();
    let (is_wav, source) = tokio::task::spawn_blocking(move || check_import_file(&checked))
        .await
        .map_err(|error| ApiError::internal("checking the import file", error))??;
    ready_to_transcribe(state, is_wav)?;
    let record = import_record(&path, title);
    queue_transcription(state, record, source).await
}

/// A file of this kind can be transcribed now: a converter for formats other
/// than WAV (400 `converter_missing`) and a model (503).
pub fn ready_to_transcribe(state: &AppState, is_wav: bool) -> ApiResult<()> {
    if !is_wav && state.core.environment.find_program("ffmpeg").is_none() {
        return Err(ApiError::new(
            ErrorCode::ConverterMissing,
            "only WAV is read natively; install ffmpeg to import other formats",
        ));
    }
    crate::models::active_model(&state.core, &state.config).map(|_| ())
}

/// Inserts the meeting (`transcribing`) with its transcription job, in one
/// transaction, and wakes the pipeline.
pub async fn queue_transcription(
    state: &AppState,
    record: MeetingRecord,
    source: PathBuf,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let source_path = source.to_string_lossy().into_owned();
    let job = JobKind::Transcribe { source_path, channel: Channel::Sys };
    let stored = record.clone();
    state
        .db(move |store| {
            store
                .insert_meeting_with_job(&stored, &job, now_ms())
                .map_err(|e| ApiError::internal("queueing the import", e))
        })
        .await?;
    state.work.pipeline.wake();
    state.core.events.emit(Event::meeting_status(record.id.clone(), MeetingStatus::Transcribing));
    Ok((StatusCode::ACCEPTED, Json(crate::http::convert::meeting(record))))
}

/// A new imported meeting, named after the file unless a title is given.
pub fn import_record(path: &FsPath, title: Option<String>) -> MeetingRecord {
    let file_title = || {
        path.file_stem()
            .map(|stem| stem.to_string_lossy().trim().to_owned())
            .filter(|stem| !stem.is_empty())
            .unwrap_or_else(|| UNTITLED_IMPORT.to_owned())
    };
    let title = title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    let title = title.unwrap_or_else(file_title).chars().take(500).collect();
    MeetingRecord::new_import(title, now_ms())
}

/// Absolute, or `~/…` under the home folder; never `~user`.
pub fn resolve_import_path(text: &str, home: Option<&FsPath>) -> ApiResult<PathBuf> {
    if let Some(rest) = text.strip_prefix("~/") {
        let home =
            home.ok_or_else(|| ApiError::invalid("field `path`: no home folder is known for ~/"))?;
        return Ok(home.join(rest));
    }
    let path = PathBuf::from(text);
    if !path.is_absolute() {
        return Err(ApiError::invalid("field `path` must be absolute or start with ~/"));
    }
    Ok(path)
}

/// Extension, then existence and kind (after links), then size. Returns
/// whether it is WAV, and the file's path with links resolved (the job reads
/// that file even if the link changes later).
fn check_import_file(path: &FsPath) -> ApiResult<(bool, PathBuf)> {
    let extension = audio_extension(path)?;
    let metadata = std::fs::metadata(path)
        .map_err(|_| ApiError::invalid("field `path` names no readable file"))?;
    if !metadata.is_file() {
        return Err(ApiError::invalid("field `path` must name a regular file"));
    }
    if metadata.len() > MAX_IMPORT_BYTES {
        return Err(ApiError::new(
            ErrorCode::FileTooLarge,
            "audio files of up to 4 GiB can be imported",
        ));
    }
    let source = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok((extension == "wav", source))
}

/// The file's extension in lower case, if it is a known audio one (else 415).
pub fn audio_extension(path: &FsPath) -> ApiResult<String> {
    let extension =
        path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if !AUDIO_EXTENSIONS.contains(&extension.as_str()) {
        return Err(ApiError::new(
            ErrorCode::UnsupportedAudioFormat,
            format!("known audio extensions are {}", AUDIO_EXTENSIONS.join(", ")),
        ));
    }
    Ok(extension)
}
