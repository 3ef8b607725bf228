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

/// `X-File-Name`, percent-decoded, without any folder part. `+` and `&` stand
/// for themselves (a name sent without encoding keeps them): before, a raw `&`
/// ended the name, so `Q&A.wav` arrived as `Q` and was refused as no audio.
fn file_name(headers: &HeaderMap) -> ApiResult<String> {
    let raw = headers
        .get(FILE_NAME_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| ApiError::invalid("header `X-File-Name` (the file's name) is required"))?;
    let escaped = raw.replace('+', "%2B").replace('&', "%26");
    let decoded = url::form_urlencoded::parse(format!("n={escaped}").as_bytes())
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
        // Regression: a raw `&` ended the name.
        assert_eq!(file_name(&named("Q&A.wav")).expect("name"), "Q&A.wav");
        assert_eq!(file_name(&named("Q%26A=1.wav")).expect("name"), "Q&A=1.wav");
    }

    /// What the app sends: the name as `encodeURIComponent` writes it.
    fn encode_uri_component(name: &str) -> String {
        name.bytes()
            .map(|byte| match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (byte as char).to_string(),
                b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')' => {
                    (byte as char).to_string()
                }
                other => format!("%{other:02X}"),
            })
            .collect()
    }

    /// The name the upload should get from `name`: its last path part, trimmed,
    /// if that is 1 to 255 characters.
    fn expected(name: &str) -> Option<String> {
        let last = name.rsplit(['/', '\\']).next().unwrap_or_default().trim().to_owned();
        (!last.is_empty() && last.chars().count() <= 255).then_some(last)
    }

    fn checked(
        headers: &HeaderMap,
    ) -> Result<Option<String>, proptest::test_runner::TestCaseError> {
        match file_name(headers) {
            Ok(name) => {
                proptest::prop_assert!(!name.contains(['/', '\\']) && !name.trim().is_empty());
                proptest::prop_assert!(name.chars().count() <= 255);
                Ok(Some(name))
            }
            Err(error) => {
                proptest::prop_assert_eq!(error.code, ErrorCode::InvalidRequest);
                proptest::prop_assert!(error.message.contains("X-File-Name"), "{}", error.message);
                Ok(None)
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Any name the app encodes arrives as itself (its last path part).
        #[test]
        fn any_encoded_name_arrives_whole(name in "\\PC{0,40}|[ ./\\\\a-z%+&=]{0,20}|.{250,260}") {
            let got = checked(&named(&encode_uri_component(&name)))?;
            proptest::prop_assert_eq!(got, expected(&name));
        }

        /// Any header value at all (raw text, stray `%`, bytes beyond ASCII):
        /// a name without folders, or `invalid_request`; and a raw name
        /// without `%` arrives as itself.
        #[test]
        fn any_header_value_gives_a_name_or_invalid_request(
            raw in proptest::prop_oneof![
                proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
                proptest::strategy::Strategy::prop_map("[ -~]{0,60}", String::into_bytes),
            ],
        ) {
            let Ok(value) = axum::http::HeaderValue::from_bytes(&raw) else { return Ok(()) };
            let mut headers = HeaderMap::new();
            headers.insert(FILE_NAME_HEADER, value);
            headers.insert(axum::http::header::CONTENT_LENGTH, axum::http::HeaderValue::from_bytes(&raw).expect("valid"));
            let got = checked(&headers)?;
            let _ = declared_length(&headers);
            // Header text is visible ASCII; other bytes are not a name.
            match std::str::from_utf8(&raw) {
                Ok(text) if text.is_ascii() && !text.contains('%') => {
                    proptest::prop_assert_eq!(got, expected(text));
                }
                _ => {}
            }
        }

        /// Any name: a known audio extension, or 415 `unsupported_audio_format`.
        #[test]
        fn any_name_has_a_known_extension_or_is_refused(name in "\\PC{0,30}(\\.(wav|WAV|mp3|Ogg|txt|))?") {
            match audio_extension(FsPath::new(&name)) {
                Ok(extension) => {
                    let dotted = format!(".{extension}");
                    proptest::prop_assert!(name.to_ascii_lowercase().contains(&dotted));
                }
                Err(error) => proptest::prop_assert_eq!(error.code, ErrorCode::UnsupportedAudioFormat),
            }
        }
    }
}
