//! `/v1/meetings`: list, read, change, delete.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    ErrorBody, ErrorCode, Event, Meeting, MeetingList, MeetingPatch, MeetingRef,
};
use recorder_domain::MeetingId;
use recorder_store::{ListQuery, MeetingChanges};

use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::convert;
use crate::http::extract::text;
use crate::http::extract::{ApiJson, QueryMap};
use crate::state::AppState;

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;

/// List meetings, newest first.
#[utoipa::path(get, path = "/v1/meetings", tag = "meetings",
    params(
        ("q" = Option<String>, Query, description = "Full-text filter over titles, transcripts and notes"),
        ("limit" = Option<i64>, Query, description = "1 to 200 (larger values are clamped); default 50", minimum = 1),
        ("offset" = Option<i64>, Query, description = "0 or more; default 0", minimum = 0),
        ("from" = Option<i64>, Query, description = "started_at lower bound in ms (inclusive)"),
        ("to" = Option<i64>, Query, description = "started_at upper bound in ms (exclusive)"),
    ),
    responses(
        (status = 200, body = MeetingList),
        (status = 400, body = ErrorBody, description = "Bad query value"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn list_meetings(
    State(state): State<AppState>,
    query: QueryMap,
) -> ApiResult<Json<MeetingList>> {
    let list_query = ListQuery {
        q: query.text("q").map(str::trim).filter(|q| !q.is_empty()).map(str::to_string),
        limit: page_limit(query.integer("limit")?, DEFAULT_LIMIT, MAX_LIMIT)?,
        offset: offset(query.integer("offset")?)?,
        from: query.integer("from")?,
        to: query.integer("to")?,
    };
    let (limit, offset) = (list_query.limit, list_query.offset);
    let page = state
        .db(move |store| {
            store.list_meetings(&list_query).map_err(|e| ApiError::from_store("meetings", e))
        })
        .await?;
    Ok(Json(MeetingList {
        meetings: page.meetings.into_iter().map(convert::meeting).collect(),
        total: page.total,
        limit,
        offset,
    }))
}

/// `limit`: default when absent, at least 1, clamped to `max`.
pub fn page_limit(value: Option<i64>, default: i64, max: i64) -> ApiResult<i64> {
    match value {
        None => Ok(default),
        Some(limit) if limit < 1 => {
            Err(ApiError::invalid("query parameter `limit` must be at least 1"))
        }
        Some(limit) => Ok(limit.min(max)),
    }
}

fn offset(value: Option<i64>) -> ApiResult<i64> {
    match value {
        Some(offset) if offset < 0 => {
            Err(ApiError::invalid("query parameter `offset` must be 0 or more"))
        }
        other => Ok(other.unwrap_or(0)),
    }
}

/// One meeting with its notes, action items and markers.
#[utoipa::path(get, path = "/v1/meetings/{id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    responses(
        (status = 200, body = Meeting),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn get_meeting(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Meeting>> {
    let id = meeting_id(&id)?;
    Ok(Json(full_meeting(&state, id).await?))
}

pub async fn full_meeting(state: &AppState, id: MeetingId) -> ApiResult<Meeting> {
    state
        .db(move |store| {
            let record = store.meeting(&id).map_err(|e| ApiError::from_store("meeting", e))?;
            let parts = store.meeting_parts(&id).map_err(|e| ApiError::from_store("meeting", e))?;
            Ok(convert::meeting_with_parts(record, parts))
        })
        .await
}

/// A meeting id from a path: anything that is not a UUID cannot name a meeting.
pub fn meeting_id(text: &str) -> ApiResult<MeetingId> {
    MeetingId::parse(text).ok_or_else(|| ApiError::not_found("meeting"))
}

/// Change title, tags, starred, attendees or the words to expect.
#[utoipa::path(patch, path = "/v1/meetings/{id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = MeetingPatch,
    responses(
        (status = 200, body = Meeting),
        (status = 400, body = ErrorBody, description = "Invalid body; the message names the field"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn patch_meeting(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(patch): ApiJson<MeetingPatch>,
) -> ApiResult<Json<Meeting>> {
    let changes = validate_patch(patch)?;
    Ok(Json(change_meeting(&state, meeting_id(&id)?, changes).await?))
}

/// Saves validated changes, tells the open pages (`meeting.changed`) and
/// returns the meeting as it now is.
pub async fn change_meeting(
    state: &AppState,
    id: MeetingId,
    changes: MeetingChanges,
) -> ApiResult<Meeting> {
    let meeting_id = id.clone();
    state
        .db(move |store| {
            store
                .update_meeting(&meeting_id, &changes, now_ms())
                .map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    state.core.events.emit(Event::meeting_changed(id.clone()));
    full_meeting(state, id).await
}

fn validate_patch(patch: MeetingPatch) -> ApiResult<MeetingChanges> {
    let title = patch.title.map(|title| text("title", &title, 500)).transpose()?;
    let tags = patch.tags.map(validate_tags).transpose()?;
    let attendees = patch
        .attendees
        .map(|people| {
            if people.len() > 200 {
                return Err(ApiError::invalid("field `attendees` holds more than 200 people"));
            }
            people.into_iter().map(|person| text("attendees.name", &person.name, 200)).collect()
        })
        .transpose()?;
    let vocabulary = patch.vocabulary.map(validate_vocabulary).transpose()?;
    Ok(MeetingChanges {
        title,
        tags,
        starred: patch.starred,
        attendees,
        vocabulary,
        language: None,
    })
}

fn validate_vocabulary(words: Vec<String>) -> ApiResult<Vec<String>> {
    use recorder_settings::{is_vocabulary_word, MAX_WORDS, MAX_WORD_CHARS};
    let mut unique: Vec<String> = Vec::new();
    for word in words {
        if !is_vocabulary_word(&word) {
            return Err(ApiError::invalid(format!(
                "field `vocabulary` holds a word that is empty, longer than {MAX_WORD_CHARS} characters or has control characters"
            )));
        }
        let word = word.trim().to_owned();
        if !unique.iter().any(|kept| kept.eq_ignore_ascii_case(&word)) {
            unique.push(word);
        }
    }
    if unique.len() > MAX_WORDS {
        return Err(ApiError::invalid(format!(
            "field `vocabulary` holds more than {MAX_WORDS} words"
        )));
    }
    Ok(unique)
}

fn validate_tags(tags: Vec<String>) -> ApiResult<Vec<String>> {
    let mut unique: Vec<String> = Vec::new();
    for tag in tags {
        let tag = text("tags", &tag, 64)?;
        if !unique.contains(&tag) {
            unique.push(tag);
        }
    }
    if unique.len() > 50 {
        return Err(ApiError::invalid("field `tags` holds more than 50 tags"));
    }
    Ok(unique)
}

/// Delete a meeting: rows and index entries in one transaction, then its audio.
#[utoipa::path(delete, path = "/v1/meetings/{id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "meeting_busy: recording or transcribing"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn delete_meeting(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = meeting_id(&id)?;
    let meeting_id = id.clone();
    state
        .db(move |store| {
            let meeting =
                store.meeting(&meeting_id).map_err(|e| ApiError::from_store("meeting", e))?;
            if meeting.status.is_busy() {
                return Err(ApiError::new(
                    ErrorCode::MeetingBusy,
                    format!(
                        "the meeting is {}; try again when it is done",
                        meeting.status.as_str()
                    ),
                ));
            }
            store.delete_meeting(&meeting_id).map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    crate::upkeep::retention::remove_meeting_folder(&state.core, &id).await;
    state.core.events.emit(Event::MeetingDeleted(MeetingRef { meeting_id: id }));
    Ok(StatusCode::NO_CONTENT)
}
