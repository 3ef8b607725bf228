//! Bearer and session authentication, and the scope of paired tokens.
//!
//! `/v1/*` takes `api_token` or a paired token (`/v1/pair` takes none); `/ui/*`
//! takes the UI session cookie or `ui_token` (`/ui/login` takes none). Each token
//! is refused where it does not belong, with 401.

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;
use recorder_api_types::{ErrorCode, CLIENT_HEADER, GATEWAY_CLIENT};
use recorder_domain::PairingId;

use crate::access::guard::origin::is_own_page;
use crate::access::sessions::COOKIE_NAME;
use crate::access::tokens::{hash_token, same_secret};
use crate::base::clock::now_ms;
use crate::base::error::ApiError;
use crate::state::AppState;

/// Who is calling, as established by the guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Principal {
    /// `api_token`; `agent` when the request carries `X-Recorder-Client: gateway`.
    Api { agent: bool },
    /// A token from `/v1/pair` (scope `extension`).
    Paired { id: PairingId },
    /// The person, through the UI session cookie (`session`: its token, so the
    /// person can sign it out) or `ui_token` (`session: None`).
    Person { session: Option<String> },
    /// Routes that need no credentials.
    Anonymous,
}

impl Principal {
    pub fn is_agent(&self) -> bool {
        matches!(self, Principal::Api { agent: true })
    }
}

/// What a paired (extension) token may call.
const EXTENSION_SCOPE: [(Method, &str); 6] = [
    (Method::GET, "/v1/health"),
    (Method::GET, "/v1/events"),
    (Method::POST, "/v1/recording/prompt"),
    (Method::POST, "/v1/recording/ended"),
    (Method::POST, "/v1/recording/marker"),
    (Method::POST, "/v1/recording/mute"),
];

pub async fn authenticate(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let path = request.uri().path();
    let principal = if path == "/v1/pair" || path == "/ui/login" {
        Principal::Anonymous
    } else if path == "/v1" || path.starts_with("/v1/") {
        let principal = api_principal(&state, request.headers())?;
        check_scope(&principal, request.method(), path)?;
        principal
    } else if path == "/ui" || path.starts_with("/ui/") {
        person_principal(&state, request.headers())?
    } else {
        Principal::Anonymous
    };
    request.extensions_mut().insert(principal);
    Ok(next.run(request).await)
}

fn api_principal(state: &AppState, headers: &HeaderMap) -> Result<Principal, ApiError> {
    let token =
        bearer(headers).ok_or_else(|| ApiError::unauthorized("a bearer token is required"))?;
    if same_secret(&token, &state.access.tokens.api) {
        let agent = headers
            .get(CLIENT_HEADER)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.trim().eq_ignore_ascii_case(GATEWAY_CLIENT));
        return Ok(Principal::Api { agent });
    }
    let pairing = state
        .access
        .tokens
        .paired
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .get(&hash_token(&token))
        .cloned();
    let Some(id) = pairing else {
        return Err(ApiError::unauthorized("the bearer token is not valid"));
    };
    record_use(state, &id);
    Ok(Principal::Paired { id })
}

/// Notes when a paired extension was last seen (at most once a minute), off the
/// request path.
fn record_use(state: &AppState, pairing_id: &PairingId) {
    let now = now_ms();
    if !state.access.tokens.should_record_use(pairing_id, now) {
        return;
    }
    let (store, id) = (state.core.store.clone(), pairing_id.clone());
    tokio::task::spawn_blocking(move || {
        if let Err(error) = store.touch_pairing(&id, now) {
            tracing::warn!(%error, "could not record when a pairing was last used");
        }
    });
}

fn person_principal(state: &AppState, headers: &HeaderMap) -> Result<Principal, ApiError> {
    if let Some(token) = bearer(headers) {
        return if same_secret(&token, &state.access.tokens.ui) {
            Ok(Principal::Person { session: None })
        } else {
            Err(ApiError::unauthorized("the bearer token is not valid here"))
        };
    }
    let Some(session) = session_cookie(headers) else {
        return Err(ApiError::unauthorized("sign in with `recorder open`"));
    };
    // A browser sends the cookie with requests from every port of this host
    // (cookies and SameSite ignore ports): only the app's own pages may use it.
    if !is_own_page(headers) {
        return Err(ApiError::new(
            ErrorCode::ForbiddenOrigin,
            "only the app's own pages may use its session; this request came from another page",
        ));
    }
    if !state.access.sessions.use_session(&session, now_ms()) {
        return Err(ApiError::unauthorized("signed out: sign in with `recorder open`"));
    }
    Ok(Principal::Person { session: Some(session) })
}

fn check_scope(principal: &Principal, method: &Method, path: &str) -> Result<(), ApiError> {
    if !matches!(principal, Principal::Paired { .. }) {
        return Ok(());
    }
    let allowed = EXTENSION_SCOPE.iter().any(|(m, p)| m == method && *p == path);
    if allowed {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::InsufficientScope,
            "a paired extension token may only read health and events, prompt, report a call's \
             end, add markers and mute the microphone",
        ))
    }
}

/// The token of `Authorization: Bearer <token>`, if present.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then(|| token.to_string())
}

fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value.to_string())
}
