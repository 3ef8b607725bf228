//! Error codes and the one error body every failure is answered with.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Every `error.code` the API can answer with, and its HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    InvalidRequest,
    ConverterMissing,
    Unauthorized,
    InvalidPairingCode,
    ProRequired,
    ForbiddenHost,
    /// A `/ui` request with the session cookie from a page other than the app's own.
    ForbiddenOrigin,
    InsufficientScope,
    PolicyDenied,
    RemoteStartDisabled,
    NotFound,
    MethodNotAllowed,
    AlreadyRecording,
    NotRecording,
    MeetingBusy,
    DownloadInProgress,
    PayloadTooLarge,
    FileTooLarge,
    UnsupportedAudioFormat,
    TooManyAttempts,
    Internal,
    /// The disk holding the data folder (or the export folder) is full.
    StorageFull,
    ModelUnavailable,
    RecordingUnavailable,
    NotesUnavailable,
}

impl ErrorCode {
    pub fn status(self) -> u16 {
        use ErrorCode::*;
        match self {
            InvalidRequest | ConverterMissing => 400,
            Unauthorized | InvalidPairingCode => 401,
            ProRequired => 402,
            ForbiddenHost | ForbiddenOrigin | InsufficientScope | PolicyDenied
            | RemoteStartDisabled => 403,
            NotFound => 404,
            MethodNotAllowed => 405,
            AlreadyRecording | NotRecording | MeetingBusy | DownloadInProgress => 409,
            PayloadTooLarge | FileTooLarge => 413,
            UnsupportedAudioFormat => 415,
            TooManyAttempts => 429,
            Internal => 500,
            StorageFull => 507,
            ModelUnavailable | RecordingUnavailable | NotesUnavailable => 503,
        }
    }

    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            InvalidRequest => "invalid_request",
            ConverterMissing => "converter_missing",
            Unauthorized => "unauthorized",
            InvalidPairingCode => "invalid_pairing_code",
            ProRequired => "pro_required",
            ForbiddenHost => "forbidden_host",
            ForbiddenOrigin => "forbidden_origin",
            InsufficientScope => "insufficient_scope",
            PolicyDenied => "policy_denied",
            RemoteStartDisabled => "remote_start_disabled",
            NotFound => "not_found",
            MethodNotAllowed => "method_not_allowed",
            AlreadyRecording => "already_recording",
            NotRecording => "not_recording",
            MeetingBusy => "meeting_busy",
            DownloadInProgress => "download_in_progress",
            PayloadTooLarge => "payload_too_large",
            FileTooLarge => "file_too_large",
            UnsupportedAudioFormat => "unsupported_audio_format",
            TooManyAttempts => "too_many_attempts",
            Internal => "internal",
            StorageFull => "storage_full",
            ModelUnavailable => "model_unavailable",
            RecordingUnavailable => "recording_unavailable",
            NotesUnavailable => "notes_unavailable",
        }
    }
}

/// `{ "error": { "code", "message" } }`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

impl ErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail { code: code.as_str().to_string(), message: message.into() },
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// Machine-readable code, e.g. `not_found`.
    pub code: String,
    /// One human-readable sentence; never contains a secret.
    pub message: String,
}
