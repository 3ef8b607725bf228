//! Record prompts: an app or agent asks (`POST /v1/recording/prompt`), the
//! person sees the waiting ones (`GET /ui/prompts`) and answers
//! (`POST /ui/prompts/:prompt_id/answer`). Answering yes starts the recording.

use axum::extract::{Path, State};
use axum::Json;
use recorder_api_types::{
    ErrorBody, Event, PendingPrompts, PromptAnswer, PromptAnswerRequest, PromptReply, PromptRequest,
};
use recorder_domain::PromptId;
use recorder_store::{PromptRecord, PromptState};
use serde_json::json;

use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::config::managed::SettingsChangeError;
use crate::http::extract::{text, ApiJson};
use crate::recording::prompts::{start_spec_of, PROMPT_LIFETIME_MS};
use crate::state::AppState;

/// Ask the person whether to record. Only asks: a person answers in the app.
#[utoipa::path(post, path = "/v1/recording/prompt", tag = "recording",
    request_body = PromptRequest,
    responses(
        (status = 200, body = PromptReply),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "policy_denied for agents under DisableAgentRecording"),
        (status = 409, body = ErrorBody, description = "already_recording"),
        (status = 413, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "model_unavailable or recording_unavailable (auto-record apps start at once)"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn prompt(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PromptRequest>,
) -> ApiResult<Json<PromptReply>> {
    let record = prompt_record(request)?;
    let prompt_id = crate::recording::prompts::ask(&state, record).await?;
    Ok(Json(PromptReply { prompt_id }))
}

fn prompt_record(request: PromptRequest) -> ApiResult<PromptRecord> {
    let now = now_ms();
    let attendees = request.attendees.unwrap_or_default();
    if attendees.len() > 200 {
        return Err(ApiError::invalid("field `attendees` holds more than 200 people"));
    }
    Ok(PromptRecord {
        id: PromptId::generate(),
        source_app: text("source_app", &request.source_app, 100)?,
        title: request.title.as_deref().map(|t| text("title", t, 500)).transpose()?,
        url: request.url.as_deref().map(|u| text("url", u, 2048)).transpose()?,
        attendees: attendees
            .into_iter()
            .map(|person| text("attendees.name", &person.name, 200))
            .collect::<ApiResult<_>>()?,
        created_at: now,
        expires_at: now + PROMPT_LIFETIME_MS,
        state: PromptState::Pending,
        answer: None,
        meeting_id: None,
    })
}

/// `GET /ui/prompts` → the record prompts still waiting for a person, oldest
/// first (a page opened after `prompt.shown` shows them too).
pub async fn pending_prompts(State(state): State<AppState>) -> ApiResult<Json<PendingPrompts>> {
    let records = state
        .db(|store| {
            store.pending_prompts(now_ms()).map_err(|e| ApiError::internal("reading prompts", e))
        })
        .await?;
    let prompts = records.iter().map(crate::recording::prompts::prompt_view).collect();
    Ok(Json(PendingPrompts { prompts }))
}

/// `POST /ui/prompts/:prompt_id/answer` `{ answer: record | decline | always }`.
pub async fn answer_prompt(
    State(state): State<AppState>,
    Path(prompt_id): Path<PromptId>,
    ApiJson(request): ApiJson<PromptAnswerRequest>,
) -> ApiResult<Json<PromptAnswer>> {
    let answer = request.answer.as_str();
    if !matches!(answer, "record" | "decline" | "always") {
        return Err(ApiError::invalid("field `answer` must be record, decline or always"));
    }
    let id = prompt_id.clone();
    let prompt = state
        .db(move |store| store.prompt(&id).map_err(|e| ApiError::from_store("prompt", e)))
        .await?;
    if prompt.state != PromptState::Pending || prompt.expires_at <= now_ms() {
        return Err(ApiError::not_found("pending prompt"));
    }
    // Accepting starts the recording first: if it cannot start (already
    // recording, no model), the prompt stays pending and nothing is lost.
    let meeting_id = match answer {
        "decline" => None,
        _ => Some(crate::recording::start(&state, start_spec_of(&prompt)).await?.id),
    };
    if answer == "always" {
        remember_app(&state, &prompt.source_app);
    }
    let (id, chosen, meeting) = (prompt_id.clone(), answer.to_owned(), meeting_id.clone());
    let answered = state
        .db(move |store| {
            store
                .answer_prompt(&id, &chosen, meeting.as_ref())
                .map_err(|e| ApiError::internal("answering the prompt", e))
        })
        .await?;
    if !answered {
        return Err(ApiError::not_found("pending prompt"));
    }
    let accepted = meeting_id.is_some();
    let reply = PromptAnswer { prompt_id, accepted, answer: answer.into(), meeting_id };
    state.core.events.emit(Event::PromptAnswered(reply.clone()));
    Ok(Json(reply))
}

/// 'Always': adds the app to 'Record without asking for'. Under
/// DisableAutoRecordApps the list is managed (forced empty) and stays so.
fn remember_app(state: &AppState, source_app: &str) {
    let mut apps = state.config.settings.typed().recording.auto_record_apps;
    if apps.iter().any(|app| app.eq_ignore_ascii_case(source_app)) {
        return;
    }
    apps.push(source_app.to_owned());
    let patch = json!({ "recording": { "auto_record_apps": apps } });
    match state.config.settings.patch(&patch, &state.policy()) {
        Ok(_) => tracing::info!(source_app, "added to 'Record without asking for'"),
        Err(SettingsChangeError::Policy(_)) => {
            tracing::info!(
                source_app,
                "'Record without asking for' is managed; the app was not added"
            )
        }
        Err(SettingsChangeError::Invalid(error) | SettingsChangeError::Save(error)) => {
            tracing::warn!(source_app, %error, "could not add the app to 'Record without asking for'")
        }
    }
}
