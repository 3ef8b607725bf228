//! Correcting a meeting's record: a line's words or speaker, a note, the
//! person's own notes. Every change goes through the store's one path
//! (`Store::apply_edit`: the change and its history row in one transaction)
//! and is followed by `meeting.updated`.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::{Extension, Json};
use recorder_api_types::{ErrorBody, Note, NoteContent, Segment, SegmentPatch};
use recorder_domain::{MeetingId, MeetingStatus, NoteId};
use recorder_store::{Applied, Author, Edit, StoreError};

use crate::access::guard::Principal;
use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::convert;
use crate::http::extract::{text, ApiJson};
use crate::http::handlers::meetings::meeting_id;
use crate::state::AppState;

/// The longest note, in characters.
const NOTE_MAX: usize = 200_000;

/// Correct a line: its words, its speaker, or both.
#[utoipa::path(patch, path = "/v1/meetings/{id}/segments/{segment_id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id"), ("segment_id" = String, Path, description = "The line's `id` in the JSON transcript")),
    request_body = SegmentPatch,
    responses(
        (status = 200, body = Segment, description = "The line as it now is"),
        (status = 400, body = ErrorBody, description = "Empty body, empty text, unknown fields"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "Unknown meeting or line"),
        (status = 409, body = ErrorBody, description = "meeting_busy: the meeting is being transcribed"),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn patch_segment(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path((id, segment_id)): Path<(String, String)>,
    ApiJson(patch): ApiJson<SegmentPatch>,
) -> ApiResult<Json<Segment>> {
    let id = meeting_id(&id)?;
    let segment: i64 = segment_id.parse().map_err(|_| ApiError::not_found("line"))?;
    let edit = segment_edit(segment, patch)?;
    let author = author(&principal, &headers);
    let corrects_words =
        author == Author::Person && matches!(&edit, Edit::Line { text: Some(_), .. });
    let before = if corrects_words { Some(line_text(&state, &id, segment).await?) } else { None };
    let applied = apply(&state, id.clone(), author, edit, "line").await?;
    let user_name = state.effective_settings().general.user_name;
    let line = match applied {
        Applied::Line(line) => line,
        Applied::Lines(lines) => lines
            .into_iter()
            .find(|l| l.id == segment)
            .ok_or_else(|| ApiError::not_found("line"))?,
        _ => return Err(ApiError::internal("correcting a line", "another kind of change")),
    };
    if let Some(before) = before {
        learn_words(&state, &before, &line.text);
    }
    Ok(Json(convert::segment(line, &user_name)))
}

fn segment_edit(segment: i64, patch: SegmentPatch) -> ApiResult<Edit> {
    let words = patch.text.map(|given| text("text", &given, 10_000)).transpose()?;
    let speaker = patch.speaker.map(|name| text("speaker", &name, 200)).transpose()?;
    match (words, speaker, patch.all_of_speaker) {
        (None, None, _) => Err(ApiError::invalid("give `text`, `speaker` or both")),
        (Some(_), _, true) => Err(ApiError::invalid(
            "`all_of_speaker` moves lines to a speaker; give it without `text`",
        )),
        (None, Some(speaker), true) => Ok(Edit::SpeakerLines { segment, speaker }),
        (text, speaker, _) => Ok(Edit::Line { segment, text, speaker }),
    }
}

async fn line_text(state: &AppState, id: &MeetingId, segment: i64) -> ApiResult<String> {
    let id = id.clone();
    state
        .db(move |store| {
            store.meeting(&id).map_err(|e| ApiError::from_store("meeting", e))?;
            let lines = store.segments(&id).map_err(|e| ApiError::from_store("meeting", e))?;
            lines
                .into_iter()
                .find(|line| line.id == segment)
                .map(|line| line.text)
                .ok_or_else(|| ApiError::not_found("line"))
        })
        .await
}

/// Keeps the rare words the person wrote in (`transcription.learned`), so
/// later transcriptions spell them right. A failure to save is logged: the
/// correction itself is saved.
fn learn_words(state: &AppState, before: &str, after: &str) {
    use crate::models::learned::{new_rare_words, with_new};
    let new = new_rare_words(before, after);
    if new.is_empty() {
        return;
    }
    let settings = state.effective_settings();
    let words = &settings.transcription;
    let Some(learned) = with_new(&words.learned, &words.vocabulary, &new) else { return };
    let patch = serde_json::json!({ "transcription": { "learned": learned } });
    match state.config.settings.patch(&patch, &state.policy()) {
        Ok(_) => {
            tracing::info!(words = new.len(), "learned words from a correction");
            state
                .core
                .events
                .emit(recorder_api_types::Event::SettingsChanged(recorder_api_types::Empty {}));
        }
        Err(refused) => {
            use crate::config::managed::SettingsChangeError;
            let error = match refused {
                SettingsChangeError::Invalid(error) | SettingsChangeError::Save(error) => {
                    error.to_string()
                }
                SettingsChangeError::Policy(refusal) => refusal.message,
            };
            tracing::warn!(error, "the words of a correction could not be learned");
        }
    }
}

/// Rewrite a note (it is then `written_by: person`, and kept through the
/// automatic notes runs).
#[utoipa::path(patch, path = "/v1/meetings/{id}/notes/{note_id}", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id"), ("note_id" = String, Path, description = "Note id")),
    request_body = NoteContent,
    responses(
        (status = 200, body = Note),
        (status = 400, body = ErrorBody, description = "Empty or too long, unknown fields"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "Unknown meeting or note"),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn patch_note(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path((id, note_id)): Path<(String, String)>,
    ApiJson(body): ApiJson<NoteContent>,
) -> ApiResult<Json<Note>> {
    let id = meeting_id(&id)?;
    let note = NoteId::parse(&note_id).ok_or_else(|| ApiError::not_found("note"))?;
    let content_md = note_text(&body.content_md, false)?;
    let edit = Edit::Note { note, content_md };
    let applied = apply(&state, id, author(&principal, &headers), edit, "note").await?;
    note_reply(applied)
}

/// Save the person's own notes (kind `mine`), made when missing. New lines
/// keep the moment of the recording they were typed at.
#[utoipa::path(put, path = "/v1/meetings/{id}/notes/mine", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = NoteContent,
    responses(
        (status = 200, body = Note),
        (status = 400, body = ErrorBody, description = "Too long, unknown fields"),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn put_my_notes(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<NoteContent>,
) -> ApiResult<Json<Note>> {
    let id = meeting_id(&id)?;
    let content_md = note_text(&body.content_md, true)?;
    let moment_ms = state
        .work
        .recorder
        .current()
        .filter(|current| current.meeting_id == id)
        .map(|current| current.control.recorded_ms());
    let edit = Edit::MyNotes { content_md, moment_ms };
    let applied = apply(&state, id, author(&principal, &headers), edit, "meeting").await?;
    note_reply(applied)
}

fn note_reply(applied: Applied) -> ApiResult<Json<Note>> {
    match applied {
        Applied::Note(note) => Ok(Json(convert::note(note))),
        _ => Err(ApiError::internal("saving a note", "another kind of change")),
    }
}

/// A note's Markdown: at most [`NOTE_MAX`] characters, no NUL; only the
/// person's own notes may be empty. Line ends are kept as typed.
fn note_text(content_md: &str, may_be_empty: bool) -> ApiResult<String> {
    if !may_be_empty && content_md.trim().is_empty() {
        return Err(ApiError::invalid("field `content_md` must not be empty"));
    }
    if content_md.chars().count() > NOTE_MAX {
        return Err(ApiError::invalid(format!(
            "field `content_md` must have at most {NOTE_MAX} characters"
        )));
    }
    if content_md.contains('\0') {
        return Err(ApiError::invalid("field `content_md` must not contain NUL characters"));
    }
    Ok(content_md.replace("\r\n", "\n"))
}

/// Who is changing the record: the person, an agent by its client's name
/// (`X-Recorder-Agent`, sent by the gateway), or a script with the API token.
pub fn author(principal: &Principal, headers: &HeaderMap) -> Author {
    match principal {
        Principal::Person { .. } => Author::Person,
        Principal::Api { agent: true } => Author::Agent(agent_name(headers)),
        _ => Author::Agent("api".into()),
    }
}

/// The agent's client name: letters, digits and `-_.` only, at most 64.
fn agent_name(headers: &HeaderMap) -> String {
    let given = headers
        .get(recorder_api_types::AGENT_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let name: String = given
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '))
        .take(64)
        .collect();
    match name.trim() {
        "" => recorder_api_types::GATEWAY_CLIENT.to_string(),
        name => name.to_string(),
    }
}

/// Applies an edit through the store's one path and tells the open pages.
/// `what` names the part for a 404.
pub async fn apply(
    state: &AppState,
    id: MeetingId,
    author: Author,
    edit: Edit,
    what: &'static str,
) -> ApiResult<Applied> {
    let meeting_id = id.clone();
    let applied = state
        .db(move |store| {
            store.meeting(&meeting_id).map_err(|e| ApiError::from_store("meeting", e))?;
            store.apply_edit(&meeting_id, &author, edit, now_ms()).map_err(|e| edit_error(what, e))
        })
        .await?;
    state.core.events.emit(recorder_api_types::Event::meeting_changed(id));
    Ok(applied)
}

/// The store's refusals in the contract's shape.
pub fn edit_error(what: &str, error: StoreError) -> ApiError {
    match error {
        StoreError::Busy(status @ MeetingStatus::Transcribing) => ApiError::new(
            recorder_api_types::ErrorCode::MeetingBusy,
            format!(
                "the meeting is {}; its lines can be corrected when that is done",
                status.as_str()
            ),
        ),
        StoreError::Conflict(message) => ApiError::invalid(message),
        other => ApiError::from_store(what, other),
    }
}
