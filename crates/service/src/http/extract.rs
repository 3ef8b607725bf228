//! Request extractors that answer in the contract's error shape: a JSON body
//! extractor whose errors name the offending field, and a query-string reader.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use recorder_api_types::ErrorCode;
use serde::de::DeserializeOwned;

use crate::base::error::{ApiError, ApiResult};

/// A JSON body. Malformed JSON, wrong types and unknown fields are 400 with the
/// field named; a body over the limit is 413. The content type is not required.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let BodyBytes(bytes) = BodyBytes::from_request(request, state).await?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// A body read but not yet parsed, for handlers whose policy check must come
/// before any complaint about the body (the contract's order of checks).
pub struct BodyBytes(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for BodyBytes {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(ErrorCode::PayloadTooLarge, "request body is larger than 1 MiB")
            } else {
                ApiError::invalid("request body could not be read")
            }
        })?;
        Ok(BodyBytes(bytes))
    }
}

/// Parses JSON, naming the path of the field that failed.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Every body of this API is an object; serde would also accept an array
    // for a struct, which only produces confusing messages.
    if bytes.iter().find(|byte| !byte.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::invalid("request body must be a JSON object"));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        let detail = without_position(&inner.to_string());
        if inner.is_syntax() || inner.is_eof() {
            ApiError::invalid(format!("malformed JSON: {detail}"))
        } else if path == "." {
            ApiError::invalid(format!("invalid body: {detail}"))
        } else {
            ApiError::invalid(format!("invalid field `{path}`: {detail}"))
        }
    })?;
    deserializer
        .end()
        .map_err(|_| ApiError::invalid("malformed JSON: trailing characters after the body"))?;
    Ok(value)
}

fn without_position(message: &str) -> String {
    match message.find(" at line ") {
        Some(index) => message[..index].to_string(),
        None => message.to_string(),
    }
}

/// The query string as name → value (the last value wins).
pub struct QueryMap(pub HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for QueryMap {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let pairs = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        Ok(QueryMap(pairs))
    }
}

impl QueryMap {
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// An optional integer; present but not an integer is 400 naming the field.
    pub fn integer(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.text(name) {
            None => Ok(None),
            Some(text) => text.trim().parse::<i64>().map(Some).map_err(|_| {
                ApiError::invalid(format!("query parameter `{name}` must be an integer"))
            }),
        }
    }
}

/// Trimmed text of 1 to `max` characters without NUL, or 400 naming the field.
/// (SQLite's text functions end a string at NUL, so "\u0000" would count as
/// empty there.)
pub fn text(field: &str, value: &str, max: usize) -> ApiResult<String> {
    let value = value.trim();
    let length = value.chars().count();
    if length == 0 || length > max {
        return Err(ApiError::invalid(format!("field `{field}` must have 1 to {max} characters")));
    }
    if value.contains('\0') {
        return Err(ApiError::invalid(format!("field `{field}` must not contain NUL characters")));
    }
    Ok(value.to_string())
}
