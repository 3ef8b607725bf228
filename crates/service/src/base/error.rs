//! `ApiError`: every failure of every route becomes `{ error: { code, message } }`
//! with the contract's status. Internal details are logged, never sent.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::{ErrorBody, ErrorCode};
use recorder_domain::PolicyKey;
use recorder_store::StoreError;

#[derive(Debug, Clone)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError { code, message: message.into() }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidRequest, message)
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(ErrorCode::NotFound, format!("{what} not found"))
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthorized, message)
    }

    /// A refusal by a managed policy key; says who manages it.
    pub fn policy(key: PolicyKey, what: &str, managed_by: &str) -> Self {
        Self::new(
            ErrorCode::PolicyDenied,
            format!("{what} is turned off by the managed policy {} ({managed_by})", key.name()),
        )
    }

    /// An unexpected failure: logged in full here, answered with a generic message.
    /// A failure that is not the caller's; a full disk is told as such
    /// (`storage_full`, 507), anything else is a bug (`internal`).
    pub fn internal(context: &str, error: impl std::fmt::Display) -> Self {
        let text = error.to_string();
        if is_storage_full(&text) {
            tracing::error!(error = %text, "{context}: the disk is full");
            return Self::storage_full(context);
        }
        tracing::error!(error = %text, "{context}");
        Self::new(ErrorCode::Internal, format!("internal error while {context}"))
    }

    pub fn storage_full(context: &str) -> Self {
        Self::new(
            ErrorCode::StorageFull,
            format!("the disk is full (while {context}); free some space and try again"),
        )
    }

    pub fn from_store(what: &str, error: StoreError) -> Self {
        match error {
            StoreError::NotFound => Self::not_found(what),
            other => Self::internal(&format!("reading or writing the {what}"), other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, Json(ErrorBody::new(self.code, self.message))).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// Whether an error's text is the OS's or SQLite's word for a full disk:
/// `ENOSPC` ("No space left on device"), `EDQUOT` ("Disk quota exceeded"),
/// `SQLITE_FULL` ("database or disk is full"). Errors reach here as text
/// (wrapped by std, rusqlite, tokio and anyhow alike), so the text decides.
pub fn is_storage_full(text: &str) -> bool {
    ["No space left on device", "Disk quota exceeded", "database or disk is full"]
        .iter()
        .any(|phrase| text.contains(phrase))
}
