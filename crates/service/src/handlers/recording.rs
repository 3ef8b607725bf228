//! Recording through `/v1`: prompts, start, stop and markers.
//!
//! Every gate of the contract (policy → plan → setting) runs in the route's
//! layer; the state checks (already recording, not recording, no model) run
//! here.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    ErrorBody, Event, Marker, MarkerAdded, MarkerRequest, Meeting, PromptAnswer, PromptReply,
    PromptRequest, StartRequest, StopReply,
};
use recorder_domain::new_id;
use recorder_store::{MarkerRecord, PromptRecord, PromptState};

use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::extract::{text, ApiJson};
use crate::recording::not_recording;
use crate::recording::prompts::{prompt_view, start_spec_of, PROMPT_LIFETIME_MS};
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
    if state.recorder.current().is_some() {
        return Err(crate::recording::already_recording());
    }
    let auto = state.effective_settings().recording.auto_record_apps;
    if auto.iter().any(|app| app.eq_ignore_ascii_case(&record.source_app)) {
        return start_without_asking(&state, record).await;
    }
    let now = now_ms();
    let candidate = record.clone();
    let stored = state
        .db(move |store| {
            store
                .insert_or_find_prompt(&candidate, now)
                .map_err(|e| ApiError::internal("saving the prompt", e))
        })
        .await?;
    if stored.id == record.id {
        let shown = prompt_view(&stored);
        state.events.emit(Event::PromptShown(shown));
    }
    Ok(Json(PromptReply { prompt_id: stored.id }))
}

/// 'Record without asking for' this app: the recording starts at once and
/// the prompt is answered `auto`.
async fn start_without_asking(
    state: &AppState,
    record: PromptRecord,
) -> ApiResult<Json<PromptReply>> {
    let meeting = crate::recording::start(state, start_spec_of(&record)).await?;
    let (prompt, meeting_id) = (record.clone(), meeting.id.clone());
    let prompt_id = state
        .db(move |store| {
            store
                .insert_or_find_prompt(&prompt, now_ms())
                .and_then(|found| {
                    store.answer_prompt(&found.id, "auto", Some(&meeting_id)).map(|_| found.id)
                })
                .map_err(|e| ApiError::internal("saving the prompt", e))
        })
        .await?;
    state.events.emit(Event::PromptAnswered(PromptAnswer {
        prompt_id: prompt_id.clone(),
        accepted: true,
        answer: "auto".into(),
        meeting_id: Some(meeting.id.clone()),
    }));
    Ok(Json(PromptReply { prompt_id }))
}

fn prompt_record(request: PromptRequest) -> ApiResult<PromptRecord> {
    let now = now_ms();
    let attendees = request.attendees.unwrap_or_default();
    if attendees.len() > 200 {
        return Err(ApiError::invalid("field `attendees` holds more than 200 people"));
    }
    Ok(PromptRecord {
        id: new_id(),
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

/// Start recording. Pro; refused unless 'Allow remote start' is on.
#[utoipa::path(post, path = "/v1/recording/start", tag = "recording",
    request_body = StartRequest,
    responses(
        (status = 201, body = Meeting),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required"),
        (status = 403, body = ErrorBody, description = "policy_denied or remote_start_disabled"),
        (status = 409, body = ErrorBody, description = "already_recording"),
        (status = 413, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "model_unavailable, or recording_unavailable when a capture device cannot be opened"),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn start(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<StartRequest>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let source_app = text("source_app", &request.source_app, 100)?;
    let meeting =
        crate::recording::start_recording(&state, source_app, request.title.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(crate::convert::meeting(meeting))))
}

/// Stop the current recording. Pro for agent requests.
#[utoipa::path(post, path = "/v1/recording/stop", tag = "recording",
    responses(
        (status = 200, body = StopReply),
        (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "not_recording"),
    ),
    security(("bearer" = [])))]
pub async fn stop(State(state): State<AppState>) -> ApiResult<Json<StopReply>> {
    let meeting_id = state.recorder.stop().await?;
    Ok(Json(StopReply { meeting_id, status: "transcribing".into() }))
}

/// Bookmark the current moment. Pro for agent requests.
#[utoipa::path(post, path = "/v1/recording/marker", tag = "recording",
    request_body = Option<MarkerRequest>,
    responses(
        (status = 201, body = Marker),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "not_recording"),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn marker(
    State(state): State<AppState>,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Json<Marker>)> {
    // The body is optional: an empty body means the default label.
    let mut label = "Marker".to_owned();
    if !body.iter().all(u8::is_ascii_whitespace) {
        let request: MarkerRequest = crate::extract::parse_json(&body)?;
        if let Some(given) = &request.label {
            label = text("label", given, 200)?;
        }
    }
    let current = state.recorder.current().ok_or_else(not_recording)?;
    // An offset into the recorded audio (paused time is not in it), so the
    // marker lines up with the transcript and the audio.
    let record = MarkerRecord { id: new_id(), at_ms: current.control.recorded_ms(), label };
    let (saved, meeting_id) = (record.clone(), current.meeting_id.clone());
    state
        .db(move |store| {
            store.insert_marker(&meeting_id, &saved).map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    let marker = Marker { id: record.id, at_ms: record.at_ms, label: record.label };
    state.events.emit(Event::MarkerAdded(MarkerAdded {
        id: marker.id.clone(),
        at_ms: marker.at_ms,
        label: marker.label.clone(),
        meeting_id: current.meeting_id.clone(),
    }));
    Ok((StatusCode::CREATED, Json(marker)))
}
