//! Queueing a pass over a ready meeting (transcribed again with another
//! installed model or language): what it may use, and its jobs
//! (`store/src/again.rs` does the rest). The route, a corrected language and
//! the final pass start one here.

use recorder_api_types::{ErrorCode, Event, TranscribeAccepted};
use recorder_domain::{Channel, MeetingId, MeetingStatus};
use recorder_store::{Pass, StoreError};

use crate::base::clock::now_ms;
use crate::base::error::{ApiError, ApiResult};
use crate::models::{active_model, installed_model, ActiveModel};
use crate::state::AppState;

/// Queues a pass over a ready meeting with `model` (installed; default the
/// one in use) and `language` (default the meeting's, else
/// `recording.language`).
pub async fn start_pass(
    state: &AppState,
    id: MeetingId,
    model: Option<&str>,
    language: Option<&str>,
) -> ApiResult<TranscribeAccepted> {
    // In the contract's order: the request itself, the meeting, its state,
    // its audio, then what the computer has (the model).
    let language = language.map(valid_language).transpose()?;
    let meeting = id.clone();
    let record = state
        .db(move |store| store.meeting(&meeting).map_err(|e| ApiError::from_store("meeting", e)))
        .await?;
    if record.status != MeetingStatus::Ready {
        return Err(busy(record.status));
    }
    let sources = audio_of(state, &id)?;
    let chosen = chosen_model(state, model)?;
    let language = language.or(record.language);
    let language = chosen_language(state, language.as_deref(), &chosen)?;
    // No model named: the pass runs with the one in use when it runs.
    let named = model.map(|_| chosen.name.clone());
    let pass = Pass { model: named, language: Some(language.clone()), staged: true };
    let queued = id.clone();
    state
        .db(move |store| {
            store.enqueue_transcription_again(&queued, &pass, &sources, now_ms()).map_err(|error| {
                match error {
                    StoreError::Busy(status) => busy(status),
                    other => ApiError::from_store("meeting", other),
                }
            })
        })
        .await?;
    state.work.pipeline.wake();
    state.core.events.emit(Event::meeting_status(id.clone(), MeetingStatus::Transcribing));
    tracing::info!(meeting_id = %id, model = %chosen.name, %language, "transcribing a meeting again");
    let status = MeetingStatus::Transcribing;
    Ok(TranscribeAccepted { meeting_id: id, status, model: chosen.name, language })
}

pub fn busy(status: MeetingStatus) -> ApiError {
    ApiError::new(
        ErrorCode::MeetingBusy,
        format!("the meeting is {}; it can be transcribed again when it is ready", status.as_str()),
    )
}

/// The model named (it must be installed), else the one in use.
fn chosen_model(state: &AppState, name: Option<&str>) -> ApiResult<ActiveModel> {
    let Some(name) = name.map(str::trim) else {
        return active_model(&state.core, &state.config);
    };
    installed_model(&state.core.data_dir.models(), name).ok_or_else(|| {
        ApiError::new(
            ErrorCode::ModelUnavailable,
            format!("the model \"{name}\" is not installed: install it in Settings → Transcription or with `recorder models install {name}`"),
        )
    })
}

/// `code` as a language: `auto` or a code whisper knows, in lower case.
pub fn valid_language(code: &str) -> ApiResult<String> {
    let language = code.trim().to_ascii_lowercase();
    if language != "auto" && !recorder_stt::engine::known_language(&language) {
        return Err(ApiError::invalid(format!(
            "field `language` must be a language code such as en, de or fr, or auto (got \"{language}\")"
        )));
    }
    Ok(language)
}

/// The language named, else `recording.language`; an English-only model
/// takes only English.
fn chosen_language(state: &AppState, code: Option<&str>, model: &ActiveModel) -> ApiResult<String> {
    let language = match code {
        Some(code) => valid_language(code)?,
        None => state.effective_settings().recording.language,
    };
    fit_for(model, language)
}

/// A language to pin on a recording (its start, or the recording page's
/// select): known, and one the model in use can transcribe. Without a model
/// the language is only checked (starting says what is missing).
pub fn language_to_pin(state: &AppState, code: &str) -> ApiResult<String> {
    let language = valid_language(code)?;
    match crate::models::active_model(&state.core, &state.config) {
        Ok(model) => fit_for(&model, language),
        Err(_) => Ok(language),
    }
}

/// `language` for `model`: `auto` is English on an English-only model, and
/// any other language is refused there (it would be written as English).
fn fit_for(model: &ActiveModel, language: String) -> ApiResult<String> {
    let english_only = recorder_stt::catalogue::is_english_only(&model.name);
    if english_only && language == "auto" {
        return Ok("en".to_owned());
    }
    if english_only && language != "en" {
        return Err(ApiError::invalid(format!(
            "{} is English-only: choose a multilingual model (such as base or small) to transcribe {language}",
            model.name
        )));
    }
    Ok(language)
}

/// The meeting's audio files (a recording's two channels, an import's one);
/// 404 for audio that retention removed.
pub fn audio_of(state: &AppState, id: &MeetingId) -> ApiResult<Vec<(Channel, String)>> {
    let sources: Vec<(Channel, String)> = [Channel::Mic, Channel::Sys]
        .into_iter()
        .map(|channel| (channel, state.core.data_dir.audio_file(id, channel)))
        .filter(|(_, path)| path.is_file())
        .map(|(channel, path)| (channel, path.to_string_lossy().into_owned()))
        .collect();
    if sources.is_empty() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            "this meeting's audio is no longer kept (retention removed it), so it cannot be transcribed again",
        ));
    }
    Ok(sources)
}
