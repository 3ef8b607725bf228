//! Host check: only loopback names reach the service, which defeats DNS
//! rebinding. Requests from web origins other than loopback are refused too, so a
//! web page cannot drive the API even where a browser would send the request.

use axum::extract::Request;
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::Response;
use recorder_api_types::ErrorCode;

use crate::error::ApiError;

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

/// `127.0.0.1`, `localhost` or `[::1]`, with any port (or none).
pub fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((inside, after)) if after.is_empty() || valid_port(after) => {
                return inside == "::1"
            }
            _ => return false,
        }
    } else {
        match host.split_once(':') {
            Some((name, port)) if valid_port(&format!(":{port}")) => name,
            Some(_) => return false,
            None => host,
        }
    };
    name.eq_ignore_ascii_case("localhost") || name == "127.0.0.1"
}

fn valid_port(text: &str) -> bool {
    text.strip_prefix(':').is_some_and(|port| {
        !port.is_empty() && port.len() <= 5 && port.chars().all(|c| c.is_ascii_digit())
    })
}

fn is_web_origin(origin: &str) -> bool {
    origin.starts_with("http://") || origin.starts_with("https://")
}

fn is_loopback_origin(origin: &str) -> bool {
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(is_loopback_host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for good in
            ["127.0.0.1", "127.0.0.1:47321", "localhost", "LOCALHOST:1", "[::1]", "[::1]:8080"]
        {
            assert!(is_loopback_host(good), "{good}");
        }
        for bad in [
            "evil.com",
            "127.0.0.1.evil.com",
            "localhost.evil.com",
            "127.0.0.2",
            "[::2]",
            "[::1]x",
            "127.0.0.1:abc",
            "127.0.0.1:",
            "",
            "localhost:80:80",
            "0.0.0.0",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        assert!(is_loopback_origin("http://127.0.0.1:47321"));
        assert!(!is_loopback_origin("https://evil.com"));
        assert!(!is_web_origin("chrome-extension://abcdef"));
    }
}
