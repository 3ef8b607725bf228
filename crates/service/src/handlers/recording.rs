//! Recording, prompts, import and notes regeneration through `/v1`.
//!
//! Every gate of the contract (policy → plan → setting) runs in the route's
//! layer; the state checks (already recording, not recording, no model) run
//! here. Import and notes queue a job for the pipeline and answer 202 at once.

use std::path::{Path as FsPath, PathBuf};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use recorder_api_types::{
    Attendee, ErrorBody, ErrorCode, Event, ImportRequest, Marker, MarkerAdded, MarkerRequest,
    Meeting, NotesAccepted, NotesRequest, Prompt, PromptAnswer, PromptReply, PromptRequest,
    StartRequest, StopReply,
};
use recorder_domain::{new_id, Channel, NoteKind};
use recorder_store::{JobKind, MarkerRecord, MeetingRecord, PromptRecord, PromptState, StoreError};

use crate::clock::now_ms;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::handlers::meetings::meeting_id;
use crate::recording::StartSpec;
use crate::state::AppState;

pub const PROMPT_LIFETIME_MS: i64 = 60_000;
pub const MAX_IMPORT_BYTES: u64 = 4 * 1024 * 1024 * 1024;
const AUDIO_EXTENSIONS: [&str; 14] = [
    "wav", "mp3", "m4a", "aac", "flac", "ogg", "oga", "opus", "webm", "aiff", "aif", "caf", "wma",
    "amr",
];

pub fn not_recording() -> ApiError {
    ApiError::new(ErrorCode::NotRecording, "nothing is being recorded")
}

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
    let meeting = state.recorder.start(state, start_spec_of(&record)).await?;
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

/// What a recording started from a prompt is called and who is in it.
pub fn start_spec_of(prompt: &PromptRecord) -> StartSpec {
    StartSpec {
        title: prompt.title.clone().unwrap_or_else(|| default_title(&prompt.source_app)),
        source_app: prompt.source_app.clone(),
        attendees: prompt.attendees.clone(),
    }
}

/// A recording without a title is named after its app: never empty.
pub fn default_title(source_app: &str) -> String {
    format!("{source_app} meeting")
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

pub fn prompt_view(record: &PromptRecord) -> Prompt {
    Prompt {
        prompt_id: record.id.clone(),
        source_app: record.source_app.clone(),
        title: record.title.clone(),
        url: record.url.clone(),
        attendees: record.attendees.iter().map(|name| Attendee { name: name.clone() }).collect(),
        created_at: record.created_at,
        expires_at: record.expires_at,
    }
}

/// Trimmed text of 1 to `max` characters without NUL, or 400 naming the field.
/// (SQLite's text functions end a string at NUL, so "\u0000" would count as
/// empty there.)
pub fn text(field: &str, value: &str, max: usize) -> ApiResult<String> {
    let value = value.trim();
    let length = value.chars().count();
    if length == 0 || length > max {
        return Err(ApiError::invalid(format!("field `{field}` must have 1 to {max} characters")));
    }
    if value.contains('\0') {
        return Err(ApiError::invalid(format!("field `{field}` must not contain NUL characters")));
    }
    Ok(value.to_string())
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
    ),
    security(("bearer" = [])))]
pub async fn start(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<StartRequest>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let source_app = text("source_app", &request.source_app, 100)?;
    start_recording(&state, source_app, request.title.as_deref()).await
}

/// Starts a recording for `source_app`, titled `title` (checked) or after
/// the app: the API's start and the person's own button.
pub async fn start_recording(
    state: &AppState,
    source_app: String,
    title: Option<&str>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let title = title.map(|t| text("title", t, 500)).transpose()?;
    let spec = StartSpec {
        title: title.unwrap_or_else(|| default_title(&source_app)),
        source_app,
        attendees: Vec::new(),
    };
    let meeting = state.recorder.start(state, spec).await?;
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

/// Transcribe an existing audio file. Needs 'Allow remote start'.
#[utoipa::path(post, path = "/v1/import", tag = "recording",
    request_body = ImportRequest,
    responses(
        (status = 202, body = Meeting),
        (status = 400, body = ErrorBody, description = "invalid_request or converter_missing"),
        (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "policy_denied or remote_start_disabled"),
        (status = 413, body = ErrorBody, description = "payload_too_large or file_too_large"),
        (status = 415, body = ErrorBody, description = "unsupported_audio_format"),
        (status = 503, body = ErrorBody, description = "model_unavailable"),
    ),
    security(("bearer" = [])))]
pub async fn import(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ImportRequest>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    if let Some(title) = &request.title {
        text("title", title, 500)?;
    }
    let path = resolve_import_path(&request.path, state.environment.home.as_deref())?;
    import_file(&state, path, request.title).await
}

/// Checks a local file, then the converter and the model, and queues its
/// transcription as a new meeting. Shared by `/v1/import` and `/ui/import`.
pub async fn import_file(
    state: &AppState,
    path: PathBuf,
    title: Option<String>,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let checked = path.clone();
    let (is_wav, source) = tokio::task::spawn_blocking(move || check_import_file(&checked))
        .await
        .map_err(|error| ApiError::internal("checking the import file", error))??;
    ready_to_transcribe(state, is_wav)?;
    let record = import_record(&path, title);
    queue_transcription(state, record, source).await
}

/// A file of this kind can be transcribed now: a converter for formats other
/// than WAV (400 `converter_missing`) and a model (503).
pub fn ready_to_transcribe(state: &AppState, is_wav: bool) -> ApiResult<()> {
    if !is_wav && state.environment.find_program("ffmpeg").is_none() {
        return Err(ApiError::new(
            ErrorCode::ConverterMissing,
            "only WAV is read natively; install ffmpeg to import other formats",
        ));
    }
    crate::models::active_model(state).map(|_| ())
}

/// Inserts the meeting (`transcribing`) with its transcription job, in one
/// transaction, and wakes the pipeline.
pub async fn queue_transcription(
    state: &AppState,
    record: MeetingRecord,
    source: PathBuf,
) -> ApiResult<(StatusCode, Json<Meeting>)> {
    let source_path = source.to_string_lossy().into_owned();
    let job = JobKind::Transcribe { source_path, channel: Channel::Sys };
    let stored = record.clone();
    state
        .db(move |store| {
            store
                .insert_meeting_with_job(&stored, &job, now_ms())
                .map_err(|e| ApiError::internal("queueing the import", e))
        })
        .await?;
    state.pipeline.wake();
    state.events.emit(Event::meeting_status(record.id.clone(), "transcribing"));
    Ok((StatusCode::ACCEPTED, Json(crate::convert::meeting(record))))
}

/// A new imported meeting, named after the file unless a title is given.
pub fn import_record(path: &FsPath, title: Option<String>) -> MeetingRecord {
    let file_title = || {
        path.file_stem()
            .map(|stem| stem.to_string_lossy().trim().to_owned())
            .filter(|stem| !stem.is_empty())
            .unwrap_or_else(|| "Imported audio".to_owned())
    };
    let title = title.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    let title = title.unwrap_or_else(file_title).chars().take(500).collect();
    MeetingRecord::new_import(title, now_ms())
}

/// Absolute, or `~/…` under the home folder; never `~user`.
pub fn resolve_import_path(text: &str, home: Option<&FsPath>) -> ApiResult<PathBuf> {
    if let Some(rest) = text.strip_prefix("~/") {
        let home =
            home.ok_or_else(|| ApiError::invalid("field `path`: no home folder is known for ~/"))?;
        return Ok(home.join(rest));
    }
    let path = PathBuf::from(text);
    if !path.is_absolute() {
        return Err(ApiError::invalid("field `path` must be absolute or start with ~/"));
    }
    Ok(path)
}

/// Extension, then existence and kind (after links), then size. Returns
/// whether it is WAV, and the file's path with links resolved (the job reads
/// that file even if the link changes later).
fn check_import_file(path: &FsPath) -> ApiResult<(bool, PathBuf)> {
    let extension = audio_extension(path)?;
    let metadata = std::fs::metadata(path)
        .map_err(|_| ApiError::invalid("field `path` names no readable file"))?;
    if !metadata.is_file() {
        return Err(ApiError::invalid("field `path` must name a regular file"));
    }
    if metadata.len() > MAX_IMPORT_BYTES {
        return Err(ApiError::new(
            ErrorCode::FileTooLarge,
            "audio files of up to 4 GiB can be imported",
        ));
    }
    let source = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok((extension == "wav", source))
}

/// The file's extension in lower case, if it is a known audio one (else 415).
pub fn audio_extension(path: &FsPath) -> ApiResult<String> {
    let extension =
        path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if !AUDIO_EXTENSIONS.contains(&extension.as_str()) {
        return Err(ApiError::new(
            ErrorCode::UnsupportedAudioFormat,
            format!("known audio extensions are {}", AUDIO_EXTENSIONS.join(", ")),
        ));
    }
    Ok(extension)
}

/// Regenerate notes of a kind. Pro.
#[utoipa::path(post, path = "/v1/meetings/{id}/notes", tag = "meetings",
    params(("id" = String, Path, description = "Meeting id")),
    request_body = NotesRequest,
    responses(
        (status = 202, body = NotesAccepted),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody, description = "pro_required"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "meeting_busy"),
        (status = 413, body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn regenerate_notes(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<NotesRequest>,
) -> ApiResult<(StatusCode, Json<NotesAccepted>)> {
    let kind = NoteKind::parse(&request.kind).ok_or_else(|| {
        ApiError::invalid(
            "field `kind` must be summary, action_items, decisions, key_points or custom",
        )
    })?;
    if kind == NoteKind::Custom
        && request.template_id.as_deref().is_none_or(|t| t.trim().is_empty())
    {
        return Err(ApiError::invalid("field `template_id` is required for custom notes"));
    }
    let id = meeting_id(&id)?;
    let template_id = request.template_id.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
    if let Some(template_id) = &template_id {
        // An unknown meeting is reported as such before an unknown template.
        let meeting = id.clone();
        state
            .db(move |store| {
                store.meeting(&meeting).map_err(|e| ApiError::from_store("meeting", e))
            })
            .await?;
        if crate::templates::find(&state.data_dir.templates(), template_id).is_none() {
            return Err(ApiError::not_found("note template"));
        }
    }
    let queued = id.clone();
    state
        .db(move |store| {
            let template = template_id.as_deref();
            store.enqueue_notes(&queued, kind.as_str(), template, now_ms()).map_err(|e| match e {
                StoreError::Busy(status) => ApiError::new(
                    ErrorCode::MeetingBusy,
                    format!(
                        "the meeting is {}; notes can be made when it is ready",
                        status.as_str()
                    ),
                ),
                other => ApiError::from_store("meeting", other),
            })
        })
        .await?;
    state.pipeline.wake();
    state.events.emit(Event::meeting_status(id.clone(), "summarising"));
    Ok((StatusCode::ACCEPTED, Json(NotesAccepted { meeting_id: id, status: "summarising".into() })))
}
