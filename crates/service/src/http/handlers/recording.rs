//! The recording: start, stop, pause and markers, on both channels.
//!
//! `/v1` start is gated in the route's layer (policy → plan → setting); the
//! person's own button (`/ui/recording/start`) has no plan or setting gate.
//! Stop and markers are one handler for both channels. The state checks
//! (already recording, not recording, no model) run here.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    CallEndedReply, CallEndedRequest, ErrorBody, Event, KeepReply, Marker, MarkerAdded,
    MarkerRequest, Meeting, MuteReply, MuteRequest, PauseReply, PauseRequest, PersonStartRequest,
    RecordingPaused, StartRequest, StopReply,
};
use recorder_domain::{MarkerId, MeetingStatus};
use recorder_store::{MarkerRecord, MeetingChanges};

use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::{text, ApiJson};
use crate::recording::context::RecordingContext;
use crate::recording::{ending, not_recording};
use crate::state::AppState;

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
        crate::recording::start_recording(&state, source_app, request.title.as_deref(), None)
            .await?;
    Ok((StatusCode::CREATED, Json(crate::http::convert::meeting(meeting))))
}

/// `POST /ui/recording/start`: the person's own button (no plan or setting
/// gate). The body is optional.
pub async fn start_recording(
    State(state): State<AppState>,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let request: PersonStartRequest = if body.iter().all(u8::is_ascii_whitespace) {
        PersonStartRequest::default()
    } else {
        crate::http::extract::parse_json(&body)?
    };
    let source_app = match request.source_app.as_deref() {
        Some(app) => text("source_app", app, 100)?,
        None => "recorder".to_owned(),
    };
    let language = request
        .language
        .as_deref()
        .map(|code| crate::pipeline::again::language_to_pin(&state, code))
        .transpose()?;
    let meeting =
        crate::recording::start_recording(&state, source_app, request.title.as_deref(), language)
            .await?;
    Ok((StatusCode::CREATED, Json(crate::http::convert::meeting(meeting))))
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
    let meeting_id = state.work.recorder.stop().await?;
    Ok(Json(StopReply { meeting_id, status: MeetingStatus::Transcribing }))
}

/// `POST /ui/recording/pause` `{ paused }`: paused time is not recorded.
pub async fn pause_recording(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PauseRequest>,
) -> ApiResult<Json<PauseReply>> {
    let (meeting_id, changed) = state.work.recorder.pause(request.paused)?;
    if changed {
        state.core.events.emit(Event::RecordingPaused(RecordingPaused {
            paused: request.paused,
            meeting_id: meeting_id.clone(),
        }));
    }
    Ok(Json(PauseReply { meeting_id, paused: request.paused }))
}

/// Mute or unmute the microphone in the recording: while muted the
/// microphone channel records silence (the other side is still recorded).
/// The recording's thread applies it at its next step and then marks the
/// moment ("Microphone muted" / "Microphone on") and emits
/// `recording.muted`. Pro for agent requests.
#[utoipa::path(post, path = "/v1/recording/mute", tag = "recording",
    request_body = MuteRequest,
    responses(
        (status = 200, body = MuteReply),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required (agents)"),
        (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "not_recording"),
    ),
    security(("bearer" = [])))]
pub async fn mute(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<MuteRequest>,
) -> ApiResult<Json<MuteReply>> {
    let current = state.work.recorder.current().ok_or_else(not_recording)?;
    current.control.set_muted(request.muted);
    Ok(Json(MuteReply { meeting_id: current.meeting_id, muted: request.muted }))
}

/// A call ended (a paired extension saw the person leave, the tab close or
/// navigate away). The recording that came from that call's prompt stops
/// after `recording.stop_after_call_ends_s` unless the person keeps it; any
/// other report changes nothing.
#[utoipa::path(post, path = "/v1/recording/ended", tag = "recording",
    request_body = CallEndedRequest,
    responses(
        (status = 200, body = CallEndedReply),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn call_ended(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<CallEndedRequest>,
) -> ApiResult<Json<CallEndedReply>> {
    let source_app = text("source_app", &request.source_app, 100)?;
    let url = request.url.as_deref().map(|url| text("url", url, 2048)).transpose()?;
    let context = RecordingContext::of(&state);
    let stopping = ending::call_ended(&context, &source_app, url.as_deref(), true);
    Ok(Json(match stopping {
        Some((meeting_id, stops_at)) => CallEndedReply {
            stopping: true,
            meeting_id: Some(meeting_id),
            stops_at: Some(stops_at),
        },
        None => CallEndedReply { stopping: false, meeting_id: None, stops_at: None },
    }))
}

/// `POST /ui/recording/keep`: Keep recording (calls off a countdown).
pub async fn keep_recording(State(state): State<AppState>) -> ApiResult<Json<KeepReply>> {
    let meeting_id = ending::keep(&RecordingContext::of(&state)).ok_or_else(not_recording)?;
    Ok(Json(KeepReply { meeting_id }))
}

/// Body of `POST /ui/recording/language`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguagePin {
    language: String,
}

/// `POST /ui/recording/language {language}` → the meeting: the language of
/// the recording's lines from now on (a code, or `auto` to detect it). 400
/// for a language the models do not know or the model in use cannot
/// transcribe (English-only), 409 `not_recording`. (A finished
/// meeting is corrected by transcribing it again.)
pub async fn pin_language(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<LanguagePin>,
) -> ApiResult<Json<Meeting>> {
    let language = crate::pipeline::again::language_to_pin(&state, &request.language)?;
    let meeting_id = state.work.recorder.current().ok_or_else(not_recording)?.meeting_id;
    let changes = MeetingChanges { language: Some(language), ..MeetingChanges::default() };
    Ok(Json(super::meetings::change_meeting(&state, meeting_id, changes).await?))
}

/// `POST /ui/devices/check` → 202 `{seconds}`: the microphone and speakers
/// check (`devices.levels` events for that long). 409 `already_recording`.
pub async fn check_devices(
    State(state): State<AppState>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    let started = state.clone();
    tokio::task::spawn_blocking(move || crate::recording::check::start(&started))
        .await
        .map_err(|error| ApiError::internal("the device check", error))??;
    let seconds = crate::recording::check::CHECK_FOR.as_secs();
    Ok((StatusCode::ACCEPTED, Json(serde_json::json!({ "seconds": seconds }))))
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
        let request: MarkerRequest = crate::http::extract::parse_json(&body)?;
        if let Some(given) = &request.label {
            label = text("label", given, 200)?;
        }
    }
    let current = state.work.recorder.current().ok_or_else(not_recording)?;
    // An offset into the recorded audio (paused time is not in it), so the
    // marker lines up with the transcript and the audio.
    let record =
        MarkerRecord { id: MarkerId::generate(), at_ms: current.control.recorded_ms(), label };
    let (saved, meeting_id) = (record.clone(), current.meeting_id.clone());
    state
        .db(move |store| {
            store.insert_marker(&meeting_id, &saved).map_err(|e| ApiError::from_store("meeting", e))
        })
        .await?;
    let marker = Marker { id: record.id, at_ms: record.at_ms, label: record.label };
    state.core.events.emit(Event::MarkerAdded(MarkerAdded {
        id: marker.id.clone(),
        at_ms: marker.at_ms,
        label: marker.label.clone(),
        meeting_id: current.meeting_id.clone(),
    }));
    Ok((StatusCode::CREATED, Json(marker)))
}
