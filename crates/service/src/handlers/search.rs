//! `GET /v1/search`: full-text search across transcripts and notes.

use axum::extract::State;
use axum::Json;
use recorder_api_types::{ErrorBody, SearchResults};

use crate::convert;
use crate::error::{ApiError, ApiResult};
use crate::extract::QueryMap;
use crate::handlers::meetings::page_limit;
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
    let q = query.text("q").map(str::trim).unwrap_or("").to_string();
    if q.is_empty() {
        return Err(ApiError::invalid("query parameter `q` must not be empty"));
    }
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
