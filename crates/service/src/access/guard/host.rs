//! Host check: only loopback names reach the service, which defeats DNS
//! rebinding. Requests from web origins other than loopback are refused too, so a
//! web page cannot drive the API even where a browser would send the request.

use axum::extract::Request;
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::Response;
use recorder_api_types::hosts::{is_loopback_host, is_loopback_origin, is_web_origin};
use recorder_api_types::ErrorCode;

use crate::base::error::ApiError;

pub async fn check_host(request: Request, next: Next) -> Result<Response, ApiError> {
    let host = request
        .headers()
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_string)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    if !host.is_some_and(|host| is_loopback_host(&host)) {
        return Err(ApiError::new(
            ErrorCode::ForbiddenHost,
            "the Host header must be 127.0.0.1, localhost or [::1]",
        ));
    }
    if let Some(authority) = request.uri().authority() {
        if !is_loopback_host(authority.as_str()) {
            return Err(ApiError::new(
                ErrorCode::ForbiddenHost,
                "the request target must be loopback",
            ));
        }
    }
    if let Some(origin) = request.headers().get(ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if is_web_origin(origin) && !is_loopback_origin(origin) {
            return Err(ApiError::new(
                ErrorCode::ForbiddenHost,
                "requests from web pages are refused",
            ));
        }
    }
    Ok(next.run(request).await)
}
