//! The service itself: health and recording state (`/v1/health`) and the API
//! description (`/v1/openapi.json`).

use std::sync::Arc;

use axum::extract::State;
use axum::{Extension, Json};
use recorder_api_types::{
    ErrorBody, Health, MeaningIndex, ProcessConfinement, RecordingState, TranscriptionDevice,
};
use recorder_stt::engine::{Backend, Device};
use serde_json::Value;

use crate::state::AppState;

/// Health and recording state.
#[utoipa::path(get, path = "/v1/health", tag = "system",
    responses((status = 200, body = Health), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn health(State(state): State<AppState>) -> Json<Health> {
    let meaning = meaning_index(&state).await;
    let transcription = transcription_device(&state).await;
    Json(Health {
        ok: true,
        version: state.core.version.to_string(),
        recording: match state.work.recorder.current() {
            Some(current) => RecordingState {
                active: true,
                meeting_id: Some(current.meeting_id),
                paused: Some(current.control.paused()),
                muted: Some(current.control.muted()),
                ending: current.control.countdown().map(|countdown| countdown.view()),
            },
            None => RecordingState {
                active: false,
                meeting_id: None,
                paused: None,
                muted: None,
                ending: None,
            },
        },
        search_index: state.work.search_index.state(),
        meaning,
        transcription,
        confinement: Some(confinement().clone()),
    })
}

/// What the kernel lets the service confine: asked once, it does not change
/// while the service runs.
fn confinement() -> &'static ProcessConfinement {
    static SUPPORT: std::sync::OnceLock<ProcessConfinement> = std::sync::OnceLock::new();
    SUPPORT.get_or_init(|| {
        let support = recorder_sandbox::support();
        ProcessConfinement { whole: support.is_whole(), summary: support.to_string() }
    })
}

/// Where transcription runs: the loaded model's place, else where the
/// setting would put it. Absent until the GPU search (a helper process,
/// started by the first ask) is done: health never waits for a driver.
async fn transcription_device(state: &AppState) -> Option<TranscriptionDevice> {
    let settings = state.effective_settings();
    let setting = settings.transcription.device.clone().unwrap_or_else(|| "auto".into());
    let search = recorder_stt::engine::search_if_done()?;
    let backend =
        state.models.engine.backend().unwrap_or_else(|| {
            recorder_stt::engine::backend_for(Device::from_setting(Some(&setting)))
        });
    let plan = crate::models::plan::FilePlan::for_machine(&settings, Some(&backend));
    let (runs_on, gpu, reason) = match backend {
        Backend::Gpu { name } => ("gpu", Some(name), None),
        Backend::Cpu { reason } => ("cpu", search.found.first().cloned(), Some(reason)),
    };
    Some(TranscriptionDevice {
        device: setting,
        runs_on: runs_on.into(),
        gpu,
        reason,
        file_workers: plan.workers as u32,
        threads_per_worker: plan.threads as u32,
    })
}

/// Whether search by meaning can be used, and how far the embedding has come.
async fn meaning_index(state: &AppState) -> MeaningIndex {
    let available = state.models.meaning.installed();
    let progress = state.db(|store| Ok(store.meaning_progress().ok())).await.ok().flatten();
    let (remaining, meetings) = progress.map_or((0, 0), |p| (p.remaining, p.meetings));
    MeaningIndex { available, remaining, meetings }
}

/// This document: OpenAPI 3 for every `/v1` route.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "system",
    responses(
        (status = 200, description = "OpenAPI 3.1 document", body = Object),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn openapi(Extension(document): Extension<Arc<Value>>) -> Json<Value> {
    Json(document.as_ref().clone())
}
