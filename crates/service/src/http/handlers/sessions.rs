//! Signing in and out of the app: one-time login links, the session cookie they
//! set, the list of signed-in sessions and signing one out (`/ui/*`).

use axum::extract::{Extension, Path, State};
use axum::http::header::{ACCEPT, LOCATION, SET_COOKIE, USER_AGENT};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::{LoginLink, LoginLinkRequest, SessionList};

use crate::access::guard::Principal;
use crate::access::sessions::COOKIE_NAME;
use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::{parse_json, BodyBytes, QueryMap};
use crate::state::AppState;

/// `POST /ui/login-links` `{ page?, source? }` → a one-time login URL, valid
/// 60 s, that opens `page` (an app path; `/` by default). The page is held
/// server-side with the code, so the link cannot be edited into a redirect.
pub async fn login_link(
    State(state): State<AppState>,
    BodyBytes(body): BodyBytes,
) -> ApiResult<Json<LoginLink>> {
    let request: LoginLinkRequest =
        if body.trim_ascii().is_empty() { LoginLinkRequest::default() } else { parse_json(&body)? };
    let page = request.page.unwrap_or_else(|| "/".to_string());
    if !is_app_path(&page) {
        return Err(ApiError::invalid(
            "field `page` must be a path of the app, such as /settings/extension",
        ));
    }
    let code = state.access.sessions.new_link(now_ms(), &page, request.source.unwrap_or_default());
    Ok(Json(LoginLink {
        url: format!("http://127.0.0.1:{}/ui/login?code={code}", state.core.port),
    }))
}

/// `/settings/extension?pair` yes; `//elsewhere`, `/\\elsewhere`, `https://…` no.
fn is_app_path(page: &str) -> bool {
    let mut chars = page.chars();
    chars.next() == Some('/')
        && !matches!(chars.next(), Some('/' | '\\'))
        && page.len() <= 300
        && page.chars().all(|c| c.is_ascii_graphic())
}

/// `GET /ui/login?code=…` → sets the session cookie and redirects to the link's
/// page. A wrong, expired or used link is 401: a page that says what to do for a
/// browser, the error body for everyone else.
pub async fn login(
    State(state): State<AppState>,
    query: QueryMap,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let code = query.text("code").unwrap_or_default();
    let user_agent = headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let Some(redeemed) = state.access.sessions.redeem_link(code, now_ms(), user_agent) else {
        let wants_page = headers
            .get(ACCEPT)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html"));
        if wants_page {
            return Ok(crate::http::assets::used_login_link());
        }
        return Err(ApiError::unauthorized("this login link is wrong, expired or already used"));
    };
    // A session cookie (gone when the browser closes); the service ends the
    // session itself after 12 h idle or 7 days.
    let cookie = format!("{COOKIE_NAME}={}; HttpOnly; SameSite=Strict; Path=/", redeemed.session);
    Ok((StatusCode::SEE_OTHER, [(LOCATION, redeemed.opens), (SET_COOKIE, cookie)]).into_response())
}

/// `POST /ui/logout` → 204: ends this session (its cookie is refused from now
/// on) and clears the cookie. With `ui_token` there is no session to end: 400.
pub async fn logout(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
) -> ApiResult<Response> {
    let Principal::Person { session: Some(session) } = principal else {
        return Err(ApiError::invalid("only a signed-in session can sign out"));
    };
    state.access.sessions.end_by_token(&session);
    tracing::info!("a session of the app signed out");
    let clear = format!("{COOKIE_NAME}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, clear)]).into_response())
}

/// `GET /ui/sessions` → every signed-in session, newest first.
pub async fn list_sessions(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
) -> Json<SessionList> {
    let current = match &principal {
        Principal::Person { session } => session.as_deref(),
        _ => None,
    };
    Json(SessionList { sessions: state.access.sessions.list(now_ms(), current) })
}

/// `DELETE /ui/sessions/:id` → 204: signs that session out.
pub async fn end_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if !state.access.sessions.end_by_id(&id) {
        return Err(ApiError::not_found("session"));
    }
    tracing::info!("a session of the app was signed out from another");
    Ok(StatusCode::NO_CONTENT)
}
