//! The web app a person uses, built from `ui/` into the binary (read from
//! `ui/dist` on disk in debug builds, so a rebuilt UI needs no Rust rebuild).
//!
//! Every page path (`/`, `/meetings/<id>`, `/recording`, `/settings/...`,
//! `/privacy`) answers the app's `index.html`; it holds no data, and the app
//! shows only a sign-in page until `/ui/*` accepts its session. Hashed files
//! under `/assets/` are cached for a year. Every response of the app carries a
//! Content-Security-Policy that allows only this origin.

use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::base::error::ApiError;

#[derive(rust_embed::RustEmbed)]
#[folder = "../../ui/dist"]
struct Built;

/// Nothing from anywhere but this origin; no inline script or style, no frames.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Pages named whole, and the prefixes of pages with a part after them.
const PAGES: [&str; 4] = ["/", "/recording", "/settings", "/privacy"];
const PAGE_PREFIXES: [&str; 2] = ["/meetings/", "/settings/"];

/// The fallback of every route: the app's files and pages, else 404.
pub async fn serve(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    let api = ["/v1", "/ui"].iter().any(|p| path == *p || path.starts_with(&format!("{p}/")));
    if api || !(method == Method::GET || method == Method::HEAD) {
        return not_found();
    }
    if is_page(path) {
        return file("index.html", "no-cache");
    }
    let name = path.trim_start_matches('/');
    if name.is_empty() || name.contains("..") || Built::get(name).is_none() {
        return not_found();
    }
    let caching = if name.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    file(name, caching)
}

fn is_page(path: &str) -> bool {
    let trimmed = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    PAGES.contains(&trimmed)
        || PAGE_PREFIXES.iter().any(|prefix| path.len() > prefix.len() && path.starts_with(prefix))
}

fn file(name: &str, caching: &'static str) -> Response {
    let Some(content) = Built::get(name) else {
        return not_found();
    };
    // Release builds embed the files: send the static bytes without a copy.
    let body = match content.data {
        std::borrow::Cow::Borrowed(bytes) => axum::body::Body::from(bytes),
        std::borrow::Cow::Owned(bytes) => axum::body::Body::from(bytes),
    };
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(name)));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(caching));
    add_page_headers(headers);
    response
}

/// CSP and the other headers every response of the app carries.
pub fn add_page_headers(headers: &mut axum::http::HeaderMap) {
    headers
        .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

/// 401 for a browser that opened a wrong, expired or used login link.
pub fn used_login_link() -> Response {
    const PAGE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
        <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
        <title>Sign-in link used — Recorder</title></head><body><main>\
        <h1>This sign-in link no longer works</h1>\
        <p>A sign-in link works once, within a minute of being made. \
        Run <code>recorder open</code> in a terminal for a new one.</p></main></body></html>";
    let mut response = (StatusCode::UNAUTHORIZED, PAGE).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    add_page_headers(headers);
    response
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn not_found() -> Response {
    ApiError::new(recorder_api_types::ErrorCode::NotFound, "no such route").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths_are_the_apps_and_nothing_else() {
        for page in ["/", "/meetings/0191", "/recording", "/settings", "/settings/ai", "/privacy"] {
            assert!(is_page(page), "{page}");
        }
        for other in ["/favicon.svg", "/assets/index-1.js", "/meetingsx", "/settingsx", "/v1"] {
            assert!(!is_page(other), "{other}");
        }
    }

    #[test]
    fn the_built_app_has_an_index_page() {
        let index = Built::get("index.html").expect("ui/dist/index.html is built into the binary");
        let text = String::from_utf8_lossy(&index.data);
        assert!(text.contains("<script type=\"module\""), "{text}");
        assert!(!text.contains("http://") && !text.contains("https://"), "no outside URL: {text}");
    }
}
