//! `GET /v1/search`: full-text search across transcripts and notes, and
//! `GET /v1/search/meetings`: the same grouped by meeting, for the library.

use axum::extract::State;
use axum::Json;
use recorder_api_types::{ErrorBody, MeetingMatches, MeetingSearchResults, SearchResults};
use recorder_store::SearchCursor;

use crate::base::error::{ApiError, ApiResult};
use crate::http::convert;
use crate::http::extract::QueryMap;
use crate::http::handlers::meetings::page_limit;
use crate::state::AppState;

/// Words are ANDed; `"quoted phrases"` and `prefix*` work; no input is a syntax
/// error. Snippets are HTML-escaped with matches in `<mark>…</mark>`.
#[utoipa::path(get, path = "/v1/search", tag = "search",
    params(
        ("q" = String, Query, description = "Search text (required, not empty)", pattern = r"\S"),
        ("limit" = Option<i64>, Query, description = "1 to 100 (larger values are clamped); default 20", minimum = 1),
    ),
    responses(
        (status = 200, body = SearchResults),
        (status = 400, body = ErrorBody, description = "Empty q or bad limit"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn search(
    State(state): State<AppState>,
    query: QueryMap,
) -> ApiResult<Json<SearchResults>> {
    let q = required_q(&query)?;
    let limit = page_limit(query.integer("limit")?, 20, 100)?;
    let user_name = state.effective_settings().general.user_name;
    let hits = state
        .db(move |store| {
            store.search(&q, limit).map_err(|e| ApiError::from_store("search index", e))
        })
        .await?;
    Ok(Json(SearchResults {
        results: hits.into_iter().map(|hit| convert::search_result(hit, &user_name)).collect(),
    }))
}

/// Search results grouped by meeting: the meetings `GET /v1/meetings?q=` holds
/// (title, transcript or notes contain every word), newest first, each with
/// how many of its lines and notes match and its best passages. Pages continue
/// with `cursor` (stable while meetings are added). An extension of the spec.
#[utoipa::path(get, path = "/v1/search/meetings", tag = "search",
    params(
        ("q" = String, Query, description = "Search text (required, not empty)", pattern = r"\S"),
        ("limit" = Option<i64>, Query, description = "Meetings per page, 1 to 50 (larger values are clamped); default 10", minimum = 1),
        ("passages" = Option<i64>, Query, description = "Passages per meeting, 1 to 10 (clamped); default 3", minimum = 1),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, body = MeetingSearchResults),
        (status = 400, body = ErrorBody, description = "Empty q, bad limit or passages, or a cursor this service did not give"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn search_meetings(
    State(state): State<AppState>,
    query: QueryMap,
) -> ApiResult<Json<MeetingSearchResults>> {
    let q = required_q(&query)?;
    let limit = page_limit(query.integer("limit")?, 10, 50)?;
    let passages = match query.integer("passages")? {
        Some(passages) if passages < 1 => {
            return Err(ApiError::invalid("query parameter `passages` must be at least 1"));
        }
        passages => passages.unwrap_or(3).min(10),
    };
    let cursor = match query.text("cursor") {
        None => None,
        Some(text) => Some(SearchCursor::parse(text).ok_or_else(|| {
            ApiError::invalid("`cursor` must be the `next_cursor` of an earlier page")
        })?),
    };
    let user_name = state.effective_settings().general.user_name;
    let page = state
        .db(move |store| {
            store
                .search_meetings(&q, limit, passages, cursor)
                .map_err(|e| ApiError::from_store("search index", e))
        })
        .await?;
    let meetings = page
        .meetings
        .into_iter()
        .map(|found| MeetingMatches {
            meeting_id: found.meeting_id,
            meeting_title: found.meeting_title,
            started_at: found.started_at,
            matches: found.matches,
            results: found
                .hits
                .into_iter()
                .map(|hit| convert::search_result(hit, &user_name))
                .collect(),
        })
        .collect();
    Ok(Json(MeetingSearchResults {
        meetings,
        total: page.total,
        next_cursor: page.next_cursor.map(|cursor| cursor.to_string()),
    }))
}

/// The trimmed `q` both searches require: empty or missing is 400.
fn required_q(query: &QueryMap) -> ApiResult<String> {
    let q = query.text("q").map(str::trim).unwrap_or("");
    if q.is_empty() {
        return Err(ApiError::invalid("query parameter `q` must not be empty"));
    }
    Ok(q.to_string())
}
