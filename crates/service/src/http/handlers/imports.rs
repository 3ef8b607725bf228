//! The person's upload (`/ui/imports`: the file as the request body, streamed to
//! `meetings/<id>/`). Like `/ui/import` (a local path, served by the handler of
//! `/v1/import` without its gates), it needs no 'Allow remote start' and is not
//! refused by the agent-recording policy: a person chose the file. The limits
//! and format rules of `/v1/import` apply.

use std::path::{Path as FsPath, PathBuf};

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use futures_util::StreamExt;
use recorder_api_types::{ErrorCode, Meeting};
use tokio::io::AsyncWriteExt;

use crate::base::error::{ApiError, ApiResult};
use crate::http::handlers::import::{
    audio_extension, import_record, queue_transcription, ready_to_transcribe, MAX_IMPORT_BYTES,
};
use crate::state::AppState;

/// The header that names an uploaded file (percent-encoded UTF-8).
pub const FILE_NAME_HEADER: &str = "x-file-name";

/// `POST /ui/imports` with the file as the body → 202 Meeting. Everything that
/// can be refused is refused before the first byte is stored; a cut-off or
/// oversized upload leaves nothing behind.
pub async fn upload(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let name = file_name(&headers)?;
    let extension = audio_extension(FsPath::new(&name))?;
    if declared_length(&headers).is_some_and(|length| length > MAX_IMPORT_BYTES) {
        return Err(too_large());
    }
    ready_to_transcribe(&state, extension == "wav")?;
    let record = import_record(FsPath::new(&name), None);
    let folder = state.core.data_dir.meeting(&record.id);
    let target = folder.join(format!("original.{extension}"));
    match receive(body, &folder, &target).await {
        Ok(()) => queue_transcription(&state, record, target).await,
        Err(error) => {
            if let Err(cleanup) = tokio::fs::remove_dir_all(&folder).await {
                tracing::warn!(error = %cleanup, "could not remove an unfinished upload");
            }
            Err(error)
        }
    }
}

/// Streams the body to `<target>.part`, counting bytes, then renames it.
async fn receive(body: Body, folder: &FsPath, target: &FsPath) -> ApiResult<()> {
    tokio::fs::create_dir_all(folder)
        .await
        .map_err(|e| ApiError::internal("creating the meeting folder", e))?;
    let partial = PathBuf::from(format!("{}.part", target.display()));
    let mut file = tokio::fs::File::create(&partial)
        .await
        .map_err(|e| ApiError::internal("creating the upload file", e))?;
    let mut stream = body.into_data_stream();
    let mut received: u64 = 0;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| ApiError::invalid("the upload was cut off"))?;
        received += chunk.len() as u64;
        if received > MAX_IMPORT_BYTES {
            return Err(too_large());
        }
        file.write_all(&chunk).await.map_err(|e| ApiError::internal("storing the upload", e))?;
    }
    if received == 0 {
        return Err(ApiError::invalid("the uploaded file is empty"));
    }
    file.sync_all().await.map_err(|e| ApiError::internal("storing the upload", e))?;
    drop(file);
    tokio::fs::rename(&partial, target)
        .await
        .map_err(|e| ApiError::internal("storing the upload", e))
}

/// `X-File-Name`, percent-decoded, without any folder part.
fn file_name(headers: &HeaderMap) -> ApiResult<String> {
    let raw = headers
        .get(FILE_NAME_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| ApiError::invalid("header `X-File-Name` (the file's name) is required"))?;
    let decoded = url::form_urlencoded::parse(format!("n={}", raw.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default();
    let name = decoded.rsplit(['/', '\\']).next().unwrap_or_default().trim().to_owned();
    if name.is_empty() || name.chars().count() > 255 {
        return Err(ApiError::invalid("header `X-File-Name` must be a file name"));
    }
    Ok(name)
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers.get(axum::http::header::CONTENT_LENGTH)?.to_str().ok()?.parse().ok()
}

fn too_large() -> ApiError {
    ApiError::new(ErrorCode::FileTooLarge, "audio files of up to 4 GiB can be imported")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(FILE_NAME_HEADER, value.parse().expect("header value"));
        headers
    }

    #[test]
    fn file_names_are_decoded_and_stripped_of_folders() {
        assert_eq!(file_name(&named("Weekly%20sync.mp3")).expect("name"), "Weekly sync.mp3");
        assert_eq!(file_name(&named("a+b.wav")).expect("name"), "a+b.wav");
        assert_eq!(file_name(&named("..%2F..%2Fetc%2Fpasswd.wav")).expect("name"), "passwd.wav");
        assert_eq!(file_name(&named("%C3%A9t%C3%A9.ogg")).expect("name"), "été.ogg");
        assert!(file_name(&named("%2F")).is_err());
        assert!(file_name(&HeaderMap::new()).is_err());
    }
}
