//! `GET /v1/search`: full-text search across transcripts and notes, and
//! `GET /v1/search/meetings`: the same grouped by meeting, for the library.

use axum::extract::State;
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::Json;
use recorder_api_types::{
    ErrorBody, MeetingMatches, MeetingSearchResults, SearchMode, SearchResults,
};
use recorder_store::{MatchesPage, SearchCursor, SearchHit};

use crate::base::error::{ApiError, ApiResult};
use crate::http::convert;
use crate::http::extract::QueryMap;
use crate::http::handlers::meetings::page_limit;
use crate::meaning::retrieve::Found;
use crate::meaning::search as meaning;
use crate::state::AppState;

/// The reply header that says which mode answered (`words` when the
/// embedding model is not installed, whatever was asked).
const MODE_HEADER: &str = "x-recorder-search-mode";
/// Passages read by meaning for one page of meetings.
const MEANING_POOL: usize = 200;

/// Words are ANDed; `"quoted phrases"` and `prefix*` work; no input is a syntax
/// error. Snippets are HTML-escaped with matches in `<mark>…</mark>`.
#[utoipa::path(get, path = "/v1/search", tag = "search",
    params(
        ("q" = String, Query, description = "Search text (required, not empty)", pattern = r"\S"),
        ("limit" = Option<i64>, Query, description = "1 to 100 (larger values are clamped); default 20", minimum = 1),
        ("mode" = Option<SearchMode>, Query, description = "`words` (default), `meaning` (passages of about 30 s and note items nearest in meaning; no `<mark>` unless a word matches), or `both` (the two rankings fused). Without the embedding model every mode searches by words; the `x-recorder-search-mode` header says which answered"),
    ),
    responses(
        (status = 200, body = SearchResults),
        (status = 400, body = ErrorBody, description = "Empty q, bad limit or unknown mode"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn search(State(state): State<AppState>, query: QueryMap) -> ApiResult<Response> {
    let q = required_q(&query)?;
    let limit = page_limit(query.integer("limit")?, 20, 100)?;
    let mode = mode(&state, &query)?;
    let user_name = state.effective_settings().general.user_name;
    let searcher = state.clone();
    let hits = state
        .db(move |store| {
            let words = match mode {
                SearchMode::Meaning => Vec::new(),
                _ => {
                    store.search(&q, limit).map_err(|e| ApiError::from_store("search index", e))?
                }
            };
            if mode == SearchMode::Words {
                return Ok(words);
            }
            let (found, unembedded) = meaning::by_meaning(&searcher, &q, limit as usize)
                .map_err(|e| ApiError::from_store("search by meaning", e))?;
            Ok(match mode {
                SearchMode::Meaning if !unembedded => {
                    found.iter().map(|f| meaning::hit(f, &q)).collect()
                }
                // Meetings not embedded yet are searched by their words.
                SearchMode::Meaning => {
                    let words = store
                        .search(&q, limit)
                        .map_err(|e| ApiError::from_store("search index", e))?;
                    meaning::fuse(words, found, &q, limit as usize)
                }
                _ => meaning::fuse(words, found, &q, limit as usize),
            })
        })
        .await?;
    let body = SearchResults {
        results: hits.into_iter().map(|hit| convert::search_result(hit, &user_name)).collect(),
    };
    Ok(with_mode(Json(body), mode))
}

/// `mode`, or 400; `words` whatever was asked while the model is not installed.
fn mode(state: &AppState, query: &QueryMap) -> ApiResult<SearchMode> {
    let asked = match query.text("mode").map(str::trim) {
        None | Some("") | Some("words") => SearchMode::Words,
        Some("meaning") => SearchMode::Meaning,
        Some("both") => SearchMode::Both,
        Some(_) => {
            return Err(ApiError::invalid("query parameter `mode` must be words, meaning or both"))
        }
    };
    Ok(if asked != SearchMode::Words && !state.models.meaning.installed() {
        SearchMode::Words
    } else {
        asked
    })
}

fn with_mode(body: impl IntoResponse, mode: SearchMode) -> Response {
    let mut response = body.into_response();
    let name = match mode {
        SearchMode::Words => "words",
        SearchMode::Meaning => "meaning",
        SearchMode::Both => "both",
    };
    response.headers_mut().insert(MODE_HEADER, HeaderValue::from_static(name));
    response
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
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page (mode `words` only)"),
        ("mode" = Option<SearchMode>, Query, description = "`words` (default: every word, newest first, in pages), `meaning` (the meetings of the passages nearest in meaning, best first, one page) or `both` (the two rankings fused, one page). Without the embedding model every mode searches by words (see the `x-recorder-search-mode` header)"),
    ),
    responses(
        (status = 200, body = MeetingSearchResults),
        (status = 400, body = ErrorBody, description = "Empty q, bad limit, passages or mode, or a cursor this service did not give (or given with another mode than words)"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn search_meetings(
    State(state): State<AppState>,
    query: QueryMap,
) -> ApiResult<Response> {
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
    let mode = mode(&state, &query)?;
    if mode != SearchMode::Words && cursor.is_some() {
        return Err(ApiError::invalid("`cursor` pages only mode=words"));
    }
    let user_name = state.effective_settings().general.user_name;
    let searcher = state.clone();
    let page = state
        .db(move |store| {
            let words = match mode {
                SearchMode::Meaning => {
                    MatchesPage { meetings: Vec::new(), total: 0, next_cursor: None }
                }
                _ => store
                    .search_meetings(&q, limit, passages, cursor)
                    .map_err(|e| ApiError::from_store("search index", e))?,
            };
            if mode == SearchMode::Words {
                return Ok(words);
            }
            let (found, unembedded) = meaning::by_meaning(&searcher, &q, MEANING_POOL)
                .map_err(|e| ApiError::from_store("search by meaning", e))?;
            // Meetings not embedded yet are searched by their words.
            let words = if mode == SearchMode::Meaning && unembedded {
                store
                    .search_meetings(&q, limit, passages, None)
                    .map_err(|e| ApiError::from_store("search index", e))?
            } else {
                words
            };
            Ok(meetings_by_meaning(words, &found, &q, limit as usize, passages as usize))
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
    let body = MeetingSearchResults {
        meetings,
        total: page.total,
        next_cursor: page.next_cursor.map(|cursor| cursor.to_string()),
    };
    Ok(with_mode(Json(body), mode))
}

/// Meetings ranked by their passages found by meaning, fused with the word
/// page's meetings when there are any (one page, no cursor).
fn meetings_by_meaning(
    words: MatchesPage,
    found: &[Found],
    q: &str,
    limit: usize,
    passages: usize,
) -> MatchesPage {
    let mut by_meaning: Vec<recorder_store::MeetingMatches> = Vec::new();
    for passage in found {
        let hit = meaning::hit(passage, q);
        match by_meaning.iter_mut().find(|m| m.meeting_id == hit.meeting_id) {
            Some(meeting) => {
                meeting.matches += 1;
                if meeting.hits.len() < passages {
                    meeting.hits.push(hit);
                }
            }
            None => by_meaning.push(recorder_store::MeetingMatches {
                meeting_id: hit.meeting_id.clone(),
                meeting_title: hit.meeting_title.clone(),
                started_at: hit.started_at,
                matches: 1,
                hits: vec![hit],
            }),
        }
    }
    let word_ids: Vec<String> = words.meetings.iter().map(|m| m.meeting_id.to_string()).collect();
    let meaning_ids: Vec<String> = by_meaning.iter().map(|m| m.meeting_id.to_string()).collect();
    let mut all: Vec<recorder_store::MeetingMatches> = words.meetings;
    let fused = recorder_embed::fusion::fuse(&[word_ids, meaning_ids]);
    let meetings: Vec<recorder_store::MeetingMatches> = fused
        .into_iter()
        .take(limit)
        .filter_map(|(id, _)| {
            let from_meaning = by_meaning.iter().find(|m| m.meeting_id.as_str() == id);
            match all.iter().position(|m| m.meeting_id.as_str() == id) {
                Some(i) => {
                    let mut meeting = all.swap_remove(i);
                    let extra: Vec<SearchHit> =
                        from_meaning.map(|m| m.hits.clone()).unwrap_or_default();
                    for hit in extra {
                        if meeting.hits.len() < passages && !meeting.hits.contains(&hit) {
                            meeting.hits.push(hit);
                        }
                    }
                    Some(meeting)
                }
                None => from_meaning.cloned(),
            }
        })
        .collect();
    MatchesPage { total: meetings.len() as i64, meetings, next_cursor: None }
}

/// The trimmed `q` both searches require: empty or missing is 400.
fn required_q(query: &QueryMap) -> ApiResult<String> {
    let q = query.text("q").map(str::trim).unwrap_or("");
    if q.is_empty() {
        return Err(ApiError::invalid("query parameter `q` must not be empty"));
    }
    Ok(q.to_string())
}
