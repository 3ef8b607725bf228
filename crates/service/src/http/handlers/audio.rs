//! A meeting's audio on the person's channel: what exists and what the UI may
//! do with it, in-app playback with HTTP Range, and the file-manager reveal
//! (refused under DisableAudioExport; playback always works).

use std::path::{Path as FsPath, PathBuf};

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::{AudioAction, AudioChannel, AudioInfo};
use recorder_domain::{Channel, MeetingId, PolicyKey};
use tokio::io::{AsyncReadExt, AsyncSeekExt};
use tokio_util::io::ReaderStream;

use crate::base::error::{ApiError, ApiResult};
use crate::http::handlers::meetings::meeting_id;
use crate::state::{AppState, Core};

/// `GET /ui/meetings/:id/audio` → the channels on disk and the allowed actions.
pub async fn audio_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<AudioInfo>> {
    let id = existing_meeting(&state, &id).await?;
    let removed_at = {
        let id = id.clone();
        state
            .db(move |store| {
                store.audio_removed_at(&id).map_err(|e| ApiError::from_store("meeting", e))
            })
            .await?
    };
    let mut channels = Vec::new();
    for channel in [Channel::Mic, Channel::Sys] {
        let path = channel_path(&state.core, &id, channel);
        if let Ok(metadata) = tokio::fs::metadata(&path).await {
            channels.push(AudioChannel {
                channel,
                url: format!("/ui/meetings/{id}/audio/{}", channel.as_str()),
                bytes: metadata.len(),
            });
        }
    }
    let mut actions = vec![AudioAction::Play];
    if !state.policy().is_true(PolicyKey::DisableAudioExport) {
        actions.push(AudioAction::Reveal);
    }
    Ok(Json(AudioInfo { meeting_id: id, channels, audio_removed_at: removed_at, actions }))
}

/// `GET /ui/meetings/:id/audio/:channel` → `audio/wav`, with HTTP Range.
pub async fn play(
    State(state): State<AppState>,
    Path((id, channel)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let id = existing_meeting(&state, &id).await?;
    let channel = Channel::parse(&channel).ok_or_else(|| ApiError::not_found("audio channel"))?;
    let path = channel_path(&state.core, &id, channel);
    let mut file = match tokio::fs::File::open(&path).await {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(ApiError::not_found("audio of this channel"))
        }
        Err(error) => return Err(ApiError::internal("opening the audio file", error)),
    };
    let size = file.metadata().await.map_err(|e| ApiError::internal("reading audio", e))?.len();
    let range = headers.get(header::RANGE).and_then(|value| value.to_str().ok());
    let (status, start, length) = match range.map(|text| parse_range(text, size)) {
        None | Some(RangeRequest::Ignored) => (StatusCode::OK, 0, size),
        Some(RangeRequest::Unsatisfiable) => {
            let headers = [(header::CONTENT_RANGE, format!("bytes */{size}"))];
            return Ok((StatusCode::RANGE_NOT_SATISFIABLE, headers).into_response());
        }
        Some(RangeRequest::Bytes { start, end }) => {
            (StatusCode::PARTIAL_CONTENT, start, end - start + 1)
        }
    };
    file.seek(std::io::SeekFrom::Start(start))
        .await
        .map_err(|e| ApiError::internal("reading audio", e))?;
    let body = Body::from_stream(ReaderStream::new(file.take(length)));
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, header::HeaderValue::from_static("audio/wav"));
    headers.insert(header::ACCEPT_RANGES, header::HeaderValue::from_static("bytes"));
    headers.insert(header::CONTENT_LENGTH, length.into());
    if status == StatusCode::PARTIAL_CONTENT {
        let content_range = format!("bytes {start}-{}/{size}", start + length - 1);
        if let Ok(value) = header::HeaderValue::from_str(&content_range) {
            headers.insert(header::CONTENT_RANGE, value);
        }
    }
    Ok(response)
}

/// `POST /ui/meetings/:id/audio/reveal` → 204 after asking the file manager to
/// show the meeting's audio folder. Policy first, then the meeting.
pub async fn reveal(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let policy = state.policy();
    if policy.is_true(PolicyKey::DisableAudioExport) {
        return Err(ApiError::policy(
            PolicyKey::DisableAudioExport,
            "showing meeting audio in the file manager",
            &policy.managed_by(),
        ));
    }
    let id = existing_meeting(&state, &id).await?;
    let folder = state.core.data_dir.meeting(&id);
    let has_audio = [Channel::Mic, Channel::Sys]
        .iter()
        .any(|channel| channel_path(&state.core, &id, *channel).is_file());
    if !has_audio {
        return Err(ApiError::not_found("audio of this meeting"));
    }
    let opener = state.core.environment.opener.clone().unwrap_or_else(default_opener);
    open_in_file_manager(&opener, &folder)?;
    Ok(StatusCode::NO_CONTENT)
}

fn default_opener() -> PathBuf {
    PathBuf::from(if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    })
}

/// Starts the opener on `folder` and reaps it in the background.
fn open_in_file_manager(opener: &FsPath, folder: &FsPath) -> ApiResult<()> {
    let child = std::process::Command::new(opener)
        .arg(folder)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match child {
        Ok(mut child) => {
            std::thread::spawn(move || {
                let _ = child.wait();
            });
            Ok(())
        }
        Err(error) => Err(ApiError::new(
            recorder_api_types::ErrorCode::Internal,
            format!("could not start the file manager ({}): {error}", opener.display()),
        )),
    }
}

fn channel_path(core: &Core, id: &MeetingId, channel: Channel) -> PathBuf {
    core.data_dir.audio_file(id, channel)
}

async fn existing_meeting(state: &AppState, id: &str) -> ApiResult<MeetingId> {
    let id = meeting_id(id)?;
    let lookup = id.clone();
    state
        .db(move |store| store.meeting(&lookup).map_err(|e| ApiError::from_store("meeting", e)))
        .await?;
    Ok(id)
}

/// A `Range` header, judged against a file of `size` bytes.
#[derive(Debug, PartialEq, Eq)]
enum RangeRequest {
    /// Not a single byte range we understand: send the whole file (RFC 9110 allows it).
    Ignored,
    Unsatisfiable,
    /// Inclusive.
    Bytes {
        start: u64,
        end: u64,
    },
}

fn parse_range(header: &str, size: u64) -> RangeRequest {
    let Some(spec) = header.trim().strip_prefix("bytes=") else {
        return RangeRequest::Ignored;
    };
    if spec.contains(',') {
        return RangeRequest::Ignored;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeRequest::Ignored;
    };
    let number = |text: &str| text.trim().parse::<u64>().ok();
    match (first.trim().is_empty(), number(first), number(last)) {
        // `bytes=-N`: the last N bytes.
        (true, _, Some(suffix)) if suffix > 0 && size > 0 => {
            RangeRequest::Bytes { start: size.saturating_sub(suffix), end: size - 1 }
        }
        (true, _, Some(_)) => RangeRequest::Unsatisfiable,
        (false, Some(start), _) if start >= size => RangeRequest::Unsatisfiable,
        (false, Some(start), None) if last.trim().is_empty() => {
            RangeRequest::Bytes { start, end: size - 1 }
        }
        (false, Some(start), Some(end)) if end >= start => {
            RangeRequest::Bytes { start, end: end.min(size - 1) }
        }
        _ => RangeRequest::Ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_ranges() {
        use RangeRequest::*;
        assert_eq!(parse_range("bytes=0-99", 1000), Bytes { start: 0, end: 99 });
        assert_eq!(parse_range("bytes=900-", 1000), Bytes { start: 900, end: 999 });
        assert_eq!(parse_range("bytes=-100", 1000), Bytes { start: 900, end: 999 });
        assert_eq!(parse_range("bytes=-5000", 1000), Bytes { start: 0, end: 999 });
        assert_eq!(parse_range("bytes=990-5000", 1000), Bytes { start: 990, end: 999 });
        assert_eq!(parse_range("bytes=1000-", 1000), Unsatisfiable);
        assert_eq!(parse_range("bytes=-0", 1000), Unsatisfiable);
        assert_eq!(parse_range("bytes=0-", 0), Unsatisfiable);
        assert_eq!(parse_range("bytes=5-2", 1000), Ignored);
        assert_eq!(parse_range("bytes=0-1,5-9", 1000), Ignored);
        assert_eq!(parse_range("items=0-1", 1000), Ignored);
        assert_eq!(parse_range("bytes=x-1", 1000), Ignored);
    }
}
