//! The other side's speakers of a meeting (`/v1/meetings/:id/speakers`, and
//! the app's copy under `/ui`), and the remembered voices (`/ui/voices`, the
//! person's only: a voice print is theirs to see and forget, not an agent's).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Extension;
use axum::Json;
use recorder_api_types::{
    ErrorBody, ErrorCode, Event, OwnerVoiceInfo, Speaker, SpeakerList, SpeakerNames, Voice,
    VoiceList,
};
use recorder_domain::{MeetingId, MeetingStatus, VoiceId};
use recorder_store::{Renamed, SpeakerRecord, Store};

use crate::access::guard::Principal;
use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::http::extract::{text, ApiJson};
use crate::http::handlers::corrections::author;
use crate::http::handlers::meetings::meeting_id;
use crate::state::AppState;

/// The longest speaker name.
const NAME_MAX: usize = 80;

/// The speakers of the other side, with names to offer.
#[utoipa::path(get, path = "/v1/meetings/{id}/speakers", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    responses(
        (status = 200, body = SpeakerList),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn get_speakers(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<SpeakerList>> {
    let id = meeting_id(&id)?;
    let installed = state.models.speakers.installed();
    state
        .db(move |store| {
            let records = store.speakers(&id).map_err(|e| ApiError::from_store("meeting", e))?;
            speaker_list(store, &id, &records, installed)
        })
        .await
        .map(Json)
}

/// Names speakers: `{"Speaker 1": "Dana"}`; `null` takes a name away.
/// Transcripts, search, exports and action-item owners follow. A named voice
/// is remembered (unless `transcription.remember_voices` is off).
#[utoipa::path(patch, path = "/v1/meetings/{id}/speakers", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = SpeakerNames,
    responses(
        (status = 200, body = SpeakerList),
        (status = 400, body = ErrorBody, description = "An unknown speaker or an invalid name; the message names it"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "meeting_busy: the meeting is still being recorded or processed"),
        (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "storage_full: the disk is full; nothing was half-written"),
    ),
    security(("bearer" = [])))]
pub async fn patch_speakers(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    headers: HeaderMap,
    Path(id): Path<String>,
    ApiJson(names): ApiJson<SpeakerNames>,
) -> ApiResult<Json<SpeakerList>> {
    let id = meeting_id(&id)?;
    let wanted = names
        .0
        .into_iter()
        .map(|(key, name)| Ok((key, name.map(|n| text("name", &n, NAME_MAX)).transpose()?)))
        .collect::<ApiResult<Vec<_>>>()?;
    let remember = state.effective_settings().transcription.remember_voices;
    let installed = state.models.speakers.installed();
    let meeting = id.clone();
    let author = author(&principal, &headers);
    let list = state
        .db(move |store| {
            let known = store.speakers(&meeting).map_err(|e| ApiError::from_store("meeting", e))?;
            if known.is_empty() {
                not_yet(store, &meeting)?;
            }
            let changes = resolve(&known, wanted)?;
            let renamed = Renamed { author: &author, now: now_ms(), remember };
            let after = store
                .rename_speakers(&meeting, &changes, renamed)
                .map_err(|e| ApiError::from_store("speaker", e))?;
            speaker_list(store, &meeting, &after, installed)
        })
        .await?;
    state.core.events.emit(Event::meeting_changed(id));
    Ok(Json(list))
}

/// A meeting still being recorded or processed has its speakers told apart
/// later: 409 `meeting_busy`, as for other changes a busy meeting refuses.
fn not_yet(store: &Store, meeting_id: &MeetingId) -> ApiResult<()> {
    let status = store.meeting(meeting_id).map_err(|e| ApiError::from_store("meeting", e))?.status;
    if status == MeetingStatus::Ready {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::MeetingBusy,
        format!(
            "the meeting is {}; its speakers are told apart when it is finished",
            status.as_str()
        ),
    ))
}

/// Each key (`Speaker N`, or a current label) as a speaker number.
fn resolve(
    known: &[SpeakerRecord],
    wanted: Vec<(String, Option<String>)>,
) -> ApiResult<Vec<(i64, Option<String>)>> {
    if known.is_empty() && !wanted.is_empty() {
        return Err(ApiError::invalid(
            "this meeting's speakers are not told apart (yet): the other side is one speaker",
        ));
    }
    wanted
        .into_iter()
        .map(|(key, name)| {
            let key = key.trim();
            let speaker = known
                .iter()
                .find(|s| s.key == key)
                .or_else(|| known.iter().find(|s| s.label() == key))
                .ok_or_else(|| ApiError::invalid(format!("no speaker `{key}` in this meeting")))?;
            Ok((speaker.number, name))
        })
        .collect()
}

/// The reply: `records` with names to offer from the meeting's attendees.
fn speaker_list(
    store: &Store,
    meeting_id: &MeetingId,
    records: &[SpeakerRecord],
    installed: bool,
) -> ApiResult<SpeakerList> {
    let meeting = store.meeting(meeting_id).map_err(|e| ApiError::from_store("meeting", e))?;
    let speakers: Vec<Speaker> = records
        .iter()
        .map(|s| Speaker {
            key: s.key.clone(),
            channel: s.channel,
            label: s.label(),
            name: s.name.clone(),
        })
        .collect();
    let suggestions = meeting
        .attendees
        .into_iter()
        .filter(|a| !speakers.iter().any(|s| s.name.as_deref() == Some(a.as_str())))
        .collect();
    Ok(SpeakerList { speakers, suggestions, model_installed: installed })
}

/// `GET /ui/voices`: the remembered voices.
pub async fn list_voices(State(state): State<AppState>) -> ApiResult<Json<VoiceList>> {
    let remember = state.effective_settings().transcription.remember_voices;
    let (voices, owner) = state
        .db(|store| {
            let voices = store.voices().map_err(|e| ApiError::from_store("voice", e))?;
            let owner = store.owner_voice().map_err(|e| ApiError::from_store("voice", e))?;
            Ok((voices, owner))
        })
        .await?;
    let owner = owner.map(|o| OwnerVoiceInfo {
        meetings: o.meetings,
        enrolled: o.enrolled,
        updated_at: o.updated_at,
    });
    let voices = voices
        .into_iter()
        .map(|v| Voice {
            id: v.id,
            name: v.name,
            meetings: v.meetings,
            created_at: v.created_at,
            updated_at: v.updated_at,
        })
        .collect();
    let model_installed = state.models.speakers.installed();
    Ok(Json(VoiceList { voices, remember, model_installed, owner }))
}

/// `DELETE /ui/voices/:id`: forgets a voice (meetings keep their names).
pub async fn delete_voice(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = VoiceId::parse(&id).ok_or_else(|| ApiError::not_found("voice"))?;
    state
        .db(move |store| store.delete_voice(&id).map_err(|e| ApiError::from_store("voice", e)))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /ui/owner-voice`: forgets the owner's voice (learned again from
/// the next meetings where only they speak on the microphone, unless
/// remembering voices is off).
pub async fn forget_owner_voice(State(state): State<AppState>) -> ApiResult<StatusCode> {
    state
        .db(|store| store.forget_owner_voice().map_err(|e| ApiError::from_store("voice", e)))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /ui/voices/owner/reading` → 202 `{seconds}`: listens to the
/// microphone for that long while the owner reads aloud (`voice.reading`
/// events), then learns their voice from the speech heard (`outcome`
/// `enrolled`, or `too_little_speech` under 8 s: nothing saved). 409
/// `already_recording`; 503 `model_unavailable` without the speaker model,
/// `recording_unavailable` when the devices cannot open.
pub async fn read_owner_voice(
    State(state): State<AppState>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    let started = state.clone();
    tokio::task::spawn_blocking(move || crate::recording::reading::start(&started))
        .await
        .map_err(|error| ApiError::internal("the voice reading", error))??;
    let seconds = crate::recording::reading::length(&state).as_secs();
    Ok((StatusCode::ACCEPTED, Json(serde_json::json!({ "seconds": seconds }))))
}
