//! A meeting's action items, kept by the person and by agents: added,
//! reworded, given an owner and a due date, ticked, removed. Each change goes
//! through the store's one path and its history (`corrections::apply`).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use recorder_api_types::{ActionItem, ActionItemPatch, ErrorBody, NewActionItem};
use recorder_domain::ActionItemId;
use recorder_store::{Applied, Edit};

use crate::access::guard::Principal;
use crate::base::error::{ApiError, ApiResult};
use crate::http::convert;
use crate::http::extract::{text, ApiJson};
use crate::http::handlers::corrections::{apply, author};
use crate::http::handlers::meetings::meeting_id;
use crate::state::AppState;

/// Add an action item.
#[utoipa::path(post, path = "/v1/meetings/{id}/action_items", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = NewActionItem,
    responses(
        (status = 201, body = ActionItem),
        (status = 400, body = ErrorBody, description = "Empty text, a due date that is not YYYY-MM-DD, unknown fields"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn add_action_item(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NewActionItem>,
) -> ApiResult<(StatusCode, Json<ActionItem>)> {
    let id = meeting_id(&id)?;
    let words = text("text", &body.text, 1_000)?;
    let owner = match body.owner {
        Some(owner) => text("owner", &owner, 200)?,
        None => state.effective_settings().general.user_name,
    };
    let due = body.due.as_deref().map(due_date).transpose()?;
    let edit = Edit::AddItem { text: words, owner, due };
    let applied = apply(&state, id, author(&principal, &headers), edit, "meeting").await?;
    Ok((StatusCode::CREATED, Json(item_reply(applied)?)))
}

/// Change an action item: its words, owner, due date or whether it is done.
#[utoipa::path(patch, path = "/v1/meetings/{id}/action_items/{item_id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id"), ("item_id" = String, Path, description = "Action item id")),
    request_body = ActionItemPatch,
    responses(
        (status = 200, body = ActionItem),
        (status = 400, body = ErrorBody, description = "Empty body or text, a due date that is not YYYY-MM-DD, unknown fields"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn patch_action_item(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path((id, item_id)): Path<(String, String)>,
    ApiJson(patch): ApiJson<ActionItemPatch>,
) -> ApiResult<Json<ActionItem>> {
    let id = meeting_id(&id)?;
    let item = item_id_of(&item_id)?;
    if patch.text.is_none() && patch.owner.is_none() && patch.due.is_none() && patch.done.is_none()
    {
        return Err(ApiError::invalid("give at least one of `text`, `owner`, `due`, `done`"));
    }
    let edit = Edit::UpdateItem {
        item,
        text: patch.text.map(|words| text("text", &words, 1_000)).transpose()?,
        owner: patch.owner.map(|owner| text("owner", &owner, 200)).transpose()?,
        due: patch.due.map(|due| due.as_deref().map(due_date).transpose()).transpose()?,
        done: patch.done,
    };
    let applied = apply(&state, id, author(&principal, &headers), edit, "action item").await?;
    Ok(Json(item_reply(applied)?))
}

/// Remove an action item (the history keeps it, and Undo brings it back).
#[utoipa::path(delete, path = "/v1/meetings/{id}/action_items/{item_id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id"), ("item_id" = String, Path, description = "Action item id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn delete_action_item(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path((id, item_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let id = meeting_id(&id)?;
    let edit = Edit::RemoveItem { item: item_id_of(&item_id)? };
    apply(&state, id, author(&principal, &headers), edit, "action item").await?;
    Ok(StatusCode::NO_CONTENT)
}

fn item_id_of(text: &str) -> ApiResult<ActionItemId> {
    ActionItemId::parse(text).ok_or_else(|| ApiError::not_found("action item"))
}

fn item_reply(applied: Applied) -> ApiResult<ActionItem> {
    match applied {
        Applied::Item(item) => Ok(convert::action_item(item)),
        _ => Err(ApiError::internal("changing an action item", "another kind of change")),
    }
}

/// A due date: a real calendar day written `YYYY-MM-DD`.
pub fn due_date(text: &str) -> ApiResult<String> {
    let text = text.trim();
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .filter(|_| text.len() == 10)
        .map(|date| date.format("%Y-%m-%d").to_string())
        .ok_or_else(|| ApiError::invalid("field `due` must be a date written YYYY-MM-DD, or null"))
}

#[cfg(test)]
mod tests {
    use super::due_date;

    #[test]
    fn due_dates_are_real_days_in_iso_form() {
        assert_eq!(due_date(" 2026-12-24 ").expect("a day"), "2026-12-24");
        assert_eq!(due_date("2028-02-29").expect("a leap day"), "2028-02-29");
        for wrong in ["2026-02-30", "2026-13-01", "24.12.2026", "2026-1-5", "tomorrow", ""] {
            assert!(due_date(wrong).is_err(), "{wrong}");
        }
    }
}
