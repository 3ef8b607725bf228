//! The checks in front of both HTTP transports (MCP Streamable HTTP and A2A),
//! in the service's order: a loopback Host header (403 `forbidden_host`), then
//! the bearer token from `api_token` (401 `unauthorized` with
//! `WWW-Authenticate: Bearer`). Errors use the local API's error body.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN, WWW_AUTHENTICATE};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::hosts::{is_loopback_host, is_loopback_origin, is_web_origin};
use recorder_api_types::{ErrorBody, ErrorCode};
use subtle::ConstantTimeEq;

/// The token every HTTP request must carry.
#[derive(Clone)]
pub struct Token(Arc<str>);

impl Token {
    pub fn new(token: &str) -> Token {
        Token(Arc::from(token))
    }

    fn matches(&self, candidate: &str) -> bool {
        bool::from(self.0.as_bytes().ct_eq(candidate.as_bytes()))
    }
}

/// An error in the local API's shape.
pub fn error(code: ErrorCode, message: &str) -> Response {
    let status = StatusCode::from_u16(code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, Json(ErrorBody::new(code, message))).into_response();
    if code == ErrorCode::Unauthorized {
        response.headers_mut().insert(WWW_AUTHENTICATE, "Bearer".parse().expect("static header"));
    }
    response
}

/// Refuses a Host header that is not 127.0.0.1, localhost or [::1] (any port),
/// and requests from web pages of other origins.
pub async fn check_host(request: Request, next: Next) -> Response {
    let host = request.headers().get(HOST).and_then(|value| value.to_str().ok());
    if !host.is_some_and(is_loopback_host) {
        return error(
            ErrorCode::ForbiddenHost,
            "the Host header must be 127.0.0.1, localhost or [::1]",
        );
    }
    if let Some(origin) = request.headers().get(ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if is_web_origin(origin) && !is_loopback_origin(origin) {
            return error(ErrorCode::ForbiddenHost, "requests from web pages are refused");
        }
    }
    next.run(request).await
}

/// Requires `Authorization: Bearer <api_token>`.
pub async fn check_token(State(token): State<Token>, request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer ")))
        .map(str::trim);
    match presented {
        Some(candidate) if token.matches(candidate) => next.run(request).await,
        Some(_) => error(ErrorCode::Unauthorized, "the bearer token is not this recorder's api_token"),
        None => error(
            ErrorCode::Unauthorized,
            "send Authorization: Bearer <api_token> (the api_token file in the recorder's data folder)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    fn app() -> Router {
        Router::new()
            .route("/", get(|| async { "ok" }))
            .layer(axum::middleware::from_fn_with_state(Token::new("secret"), check_token))
            .layer(axum::middleware::from_fn(check_host))
    }

    async fn status(host: Option<&str>, auth: Option<&str>) -> (u16, Option<String>) {
        let mut request = Request::builder().uri("/");
        if let Some(host) = host {
            request = request.header(HOST, host);
        }
        if let Some(auth) = auth {
            request = request.header(AUTHORIZATION, auth);
        }
        let response =
            app().oneshot(request.body(Body::empty()).expect("request")).await.expect("answer");
        let challenge =
            response.headers().get(WWW_AUTHENTICATE).map(|v| v.to_str().unwrap_or("").to_string());
        (response.status().as_u16(), challenge)
    }

    #[tokio::test]
    async fn host_first_then_token() {
        assert_eq!(status(Some("evil.com"), Some("Bearer secret")).await.0, 403);
        assert_eq!(status(None, Some("Bearer secret")).await.0, 403);
        assert_eq!(status(Some("127.0.0.1:47323"), None).await, (401, Some("Bearer".into())));
        assert_eq!(status(Some("localhost"), Some("Bearer wrong")).await.0, 401);
        assert_eq!(status(Some("[::1]:1"), Some("Bearer secret")).await.0, 200);
    }
}
