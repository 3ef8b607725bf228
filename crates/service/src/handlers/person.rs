//! The person's channel (`/ui/*`): things only a person may do, authenticated by
//! the UI session cookie or `ui_token`, never by `api_token` or a paired token.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    Empty, ErrorCode, Event, LicenseInfo, LicenseRequest, Meeting, Pairing, PairingCode, Pairings,
    PauseReply, PauseRequest, PendingPrompts, PersonStartRequest, PlanReply, PromptAnswer,
    PromptAnswerRequest, RecordingPaused, StopReply,
};
use recorder_domain::Plan;
use recorder_store::PromptState;
use serde_json::{json, Value};

use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::extract::text;
use crate::extract::ApiJson;
use crate::license;
use crate::managed::SettingsChangeError;
use crate::recording::prompts::start_spec_of;
use crate::state::AppState;

/// `POST /ui/prompts/:prompt_id/answer` `{ answer: record | decline | always }`.
pub async fn answer_prompt(
    State(state): State<AppState>,
    Path(prompt_id): Path<String>,
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
                .answer_prompt(&id, &chosen, meeting.as_deref())
                .map_err(|e| ApiError::internal("answering the prompt", e))
        })
        .await?;
    if !answered {
        return Err(ApiError::not_found("pending prompt"));
    }
    let accepted = meeting_id.is_some();
    let reply = PromptAnswer { prompt_id, accepted, answer: answer.into(), meeting_id };
    state.events.emit(Event::PromptAnswered(reply.clone()));
    Ok(Json(reply))
}

/// 'Always': adds the app to 'Record without asking for'. Under
/// DisableAutoRecordApps the list is managed (forced empty) and stays so.
fn remember_app(state: &AppState, source_app: &str) {
    let mut apps = state.settings.typed().recording.auto_record_apps;
    if apps.iter().any(|app| app.eq_ignore_ascii_case(source_app)) {
        return;
    }
    apps.push(source_app.to_owned());
    let patch = json!({ "recording": { "auto_record_apps": apps } });
    match state.settings.patch(&patch, &state.policy()) {
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

/// `GET /ui/settings` → settings.json as it is on disk.
pub async fn get_settings(State(state): State<AppState>) -> Json<Value> {
    Json(state.settings.document())
}

/// `PATCH /ui/settings` → merge patch; managed settings are refused.
pub async fn patch_settings(
    State(state): State<AppState>,
    ApiJson(patch): ApiJson<Value>,
) -> ApiResult<Json<Value>> {
    let policy = state.policy();
    check_local_server(&state, &patch, &policy).await?;
    match state.settings.patch(&patch, &policy) {
        Ok(document) => {
            state.retention.wake();
            state.events.emit(Event::SettingsChanged(Empty {}));
            Ok(Json(document))
        }
        Err(SettingsChangeError::Invalid(error)) => Err(ApiError::invalid(error.to_string())),
        Err(SettingsChangeError::Policy(refusal)) => {
            Err(ApiError::new(ErrorCode::PolicyDenied, refusal.message))
        }
        Err(SettingsChangeError::Save(error)) => {
            Err(ApiError::internal("saving settings.json", error))
        }
    }
}

/// Under ForceLocalModel, choosing a local notes server (or changing its URL
/// while it is chosen) needs an address that really resolves to loopback only.
/// IP literals were judged by the settings' own policy check.
async fn check_local_server(
    state: &AppState,
    patch: &Value,
    policy: &recorder_domain::PolicyValues,
) -> ApiResult<()> {
    let touches_ai = patch
        .get("ai")
        .is_some_and(|ai| ai.get("provider").is_some() || ai.get("local_url").is_some());
    if !touches_ai || !policy.is_true(recorder_domain::PolicyKey::ForceLocalModel) {
        return Ok(());
    }
    let Some(settings) = state.settings.preview(patch) else {
        return Ok(()); // invalid: the patch itself says why
    };
    let url = &settings.ai.local_url;
    if settings.ai.provider != "local" || recorder_settings::literal_loopback(url).is_some() {
        return Ok(());
    }
    let parsed =
        url::Url::parse(url).map_err(|_| ApiError::invalid("field `ai.local_url` is not a URL"))?;
    match recorder_ai::loopback_addrs(&parsed).await {
        Ok(_) => Ok(()),
        Err(reason) => Err(ApiError::policy(
            recorder_domain::PolicyKey::ForceLocalModel,
            &format!("a local model server that is not on this machine ({reason})"),
            &policy.managed_by(),
        )),
    }
}

/// `POST /ui/pairing-code` → a new 6-digit code; the previous one dies.
pub async fn pairing_code(State(state): State<AppState>) -> Json<PairingCode> {
    let (code, expires_at) = state.pairing_codes.show(now_ms());
    Json(PairingCode { code, expires_at })
}

/// `GET /ui/pairings` → paired clients.
pub async fn list_pairings(State(state): State<AppState>) -> ApiResult<Json<Pairings>> {
    let records =
        state.db(|store| store.pairings().map_err(|e| ApiError::from_store("pairings", e))).await?;
    let pairings = records
        .into_iter()
        .map(|p| Pairing { id: p.id, created_at: p.created_at, last_used_at: p.last_used_at })
        .collect();
    Ok(Json(Pairings { pairings }))
}

/// `DELETE /ui/pairings/:id` → the token stops working at once.
pub async fn revoke_pairing(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let pairing_id = id.clone();
    state
        .db(move |store| {
            store
                .revoke_pairing(&pairing_id, now_ms())
                .map_err(|e| ApiError::from_store("pairing", e))
        })
        .await?;
    state
        .tokens
        .paired
        .write()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|_, pairing| *pairing != id);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /ui/license` `{ license }` → `{ plan }`; the licence is saved to license.json.
pub async fn install_license(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<LicenseRequest>,
) -> ApiResult<Json<PlanReply>> {
    let payload = license::verify(&request.license, now_ms())
        .map_err(|error| ApiError::invalid(format!("licence refused: {error}")))?;
    let bytes = serde_json::to_vec_pretty(&request.license)
        .map_err(|error| ApiError::internal("encoding the licence", error))?;
    let data_dir = state.data_dir.clone();
    tokio::task::spawn_blocking(move || data_dir.write_private(&data_dir.license(), &bytes))
        .await
        .map_err(|error| ApiError::internal("saving the licence", error))?
        .map_err(|error| ApiError::internal("saving the licence", error))?;
    tracing::info!(licensee = %payload.licensee, issued_at = payload.issued_at, "Pro licence installed");
    state.license.set(payload);
    Ok(Json(PlanReply { plan: "pro".into() }))
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
        crate::extract::parse_json(&body)?
    };
    let source_app = match request.source_app.as_deref() {
        Some(app) => text("source_app", app, 100)?,
        None => "recorder".to_owned(),
    };
    let meeting =
        crate::recording::start_recording(&state, source_app, request.title.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(crate::convert::meeting(meeting))))
}

/// `POST /ui/recording/stop`
pub async fn stop_recording(State(state): State<AppState>) -> ApiResult<Json<StopReply>> {
    let meeting_id = state.recorder.stop().await?;
    Ok(Json(StopReply { meeting_id, status: "transcribing".into() }))
}

/// `POST /ui/recording/pause` `{ paused }`: paused time is not recorded.
pub async fn pause_recording(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PauseRequest>,
) -> ApiResult<Json<PauseReply>> {
    let (meeting_id, changed) = state.recorder.pause(request.paused)?;
    if changed {
        state.events.emit(Event::RecordingPaused(RecordingPaused {
            paused: request.paused,
            meeting_id: meeting_id.clone(),
        }));
    }
    Ok(Json(PauseReply { meeting_id, paused: request.paused }))
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

/// `GET /ui/license` → the plan in force and whose licence it is.
pub async fn license_info(State(state): State<AppState>) -> Json<LicenseInfo> {
    let now = now_ms();
    let current = state.license.current().filter(|_| state.license.plan(now) == Plan::Pro);
    Json(LicenseInfo {
        plan: if current.is_some() { "pro" } else { "free" }.into(),
        licensee: current.as_ref().map(|licence| licence.licensee.clone()),
        expires_at: current.and_then(|licence| licence.expires_at),
    })
}
