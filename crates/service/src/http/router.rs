//! Every route of the service, in one place. `/v1` routes are registered together
//! with their OpenAPI description (utoipa-axum), so the published document cannot
//! miss a route; `/ui` routes belong to the person's channel and are not published
//! (their shapes are, as components). Everything else is the web app (`assets`).

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::{delete, get, patch, post, put};
use axum::{Extension, Router};
use recorder_api_types::identity::IDENTITY_PATH;
use recorder_api_types::ErrorCode;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::access::guard::{auth, gates, host, Requirement};
use crate::base::error::ApiError;
use crate::http::assets;
use crate::http::handlers::{
    action_items, ai, ask, audio, corrections, diagnostics, events, export, history, identity,
    import, imports, ledger, license, meetings, models, notes, notes_models, pairing, policy,
    prompts, recording, search, sessions, settings, speakers, system, templates, transcribe,
    transcript,
};
use crate::state::AppState;

/// Request bodies larger than this are refused with 413.
pub const BODY_LIMIT: usize = 1024 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(title = "recorder local API", description = "Loopback API of the recorder service. Every route but /v1/pair needs `Authorization: Bearer <api_token>`."),
    modifiers(&BearerScheme),
    components(schemas(
        recorder_api_types::TranscriptFormat, recorder_api_types::Event,
        recorder_api_types::EventEnvelope, recorder_api_types::PendingPrompts,
        recorder_api_types::PromptAnswer, recorder_api_types::PromptAnswerRequest,
        recorder_api_types::PairingCode, recorder_api_types::Pairings,
        recorder_api_types::LicenseInfo, recorder_api_types::LicenseRequest,
        recorder_api_types::PlanReply, recorder_api_types::PauseReply,
        recorder_api_types::ModelList, recorder_api_types::ModelInstallReply,
        recorder_api_types::LoginLink, recorder_api_types::LoginLinkRequest,
        recorder_api_types::SessionList, recorder_api_types::SessionInfo,
        recorder_api_types::SessionSource,
        recorder_api_types::ModelAddRequest,
        recorder_api_types::ModelAdded, recorder_api_types::ModelSpeeds,
        recorder_api_types::VoiceList, recorder_api_types::Voice, recorder_api_types::OwnerVoiceInfo,
        // The person's own routes (`/ui`), for the app's typed client.
        recorder_api_types::PersonStartRequest, recorder_api_types::PauseRequest,
        recorder_api_types::ModelInstallRequest, recorder_api_types::ModelRemoval,
        recorder_api_types::KeyRequest, recorder_api_types::AiKeyList,
        recorder_api_types::AudioInfo, recorder_api_types::ExportRequest,
        recorder_api_types::ExportReply,
        recorder_api_types::NotesModelList, recorder_api_types::NotesModelInstallRequest,
        recorder_api_types::NotesModelAddRequest,
        recorder_api_types::SearchMode,
    )),
    tags((name = "meetings"), (name = "search"), (name = "recording"), (name = "events"), (name = "pairing"), (name = "system"))
)]
struct ApiDoc;

struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The `/v1` routes and their OpenAPI document.
fn api(state: &AppState) -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let gate =
        |requirement: Requirement| from_fn_with_state((state.clone(), requirement), gates::enforce);
    let gated =
        |routes: OpenApiRouter<AppState>, requirement| routes.route_layer(gate(requirement));
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(system::health))
        .routes(routes!(meetings::list_meetings))
        .routes(routes!(meetings::get_meeting, meetings::patch_meeting, meetings::delete_meeting))
        .routes(routes!(transcript::get_transcript))
        .routes(routes!(history::history))
        .routes(routes!(speakers::get_speakers, speakers::patch_speakers))
        .routes(routes!(search::search))
        .routes(routes!(search::search_meetings))
        .routes(routes!(ask::ask))
        .routes(routes!(ledger::ledger))
        .routes(routes!(settings::settings))
        .routes(routes!(policy::policy))
        .routes(routes!(templates::templates))
        .routes(routes!(system::openapi))
        .routes(routes!(events::events))
        .routes(routes!(pairing::pair))
        .routes(routes!(recording::call_ended))
        .merge(gated(
            OpenApiRouter::new().routes(routes!(notes::regenerate_notes, notes::cancel_notes)),
            Requirement::PRO,
        ))
        .merge(gated(OpenApiRouter::new().routes(routes!(prompts::prompt)), Requirement::PROMPT))
        .merge(gated(OpenApiRouter::new().routes(routes!(recording::start)), Requirement::START))
        .merge(gated(
            OpenApiRouter::new()
                .routes(routes!(recording::stop))
                .routes(routes!(recording::marker))
                .routes(routes!(recording::mute))
                .routes(routes!(transcribe::transcribe_again))
                .routes(routes!(corrections::patch_segment))
                .routes(routes!(corrections::patch_note))
                .routes(routes!(corrections::put_my_notes))
                .routes(routes!(action_items::add_action_item))
                .routes(routes!(action_items::patch_action_item, action_items::delete_action_item))
                .routes(routes!(history::undo)),
            Requirement::PRO_FOR_AGENTS,
        ))
        .merge(gated(OpenApiRouter::new().routes(routes!(import::import)), Requirement::IMPORT))
        .split_for_parts()
}

/// The person's channel.
fn person_routes(state: &AppState) -> Router<AppState> {
    let pro = from_fn_with_state((state.clone(), Requirement::PRO), gates::enforce);
    Router::new()
        .route("/ui/login-links", post(sessions::login_link))
        .route("/ui/login", get(sessions::login))
        .route("/ui/logout", post(sessions::logout))
        .route("/ui/sessions", get(sessions::list_sessions))
        .route("/ui/sessions/{id}", delete(sessions::end_session))
        .route("/ui/prompts", get(prompts::pending_prompts))
        .route("/ui/prompts/{prompt_id}/answer", post(prompts::answer_prompt))
        .route("/ui/settings", get(settings::get_settings).patch(settings::patch_settings))
        .route("/ui/pairing-code", post(pairing::pairing_code))
        .route("/ui/pairings", get(pairing::list_pairings))
        .route("/ui/pairings/{id}", delete(pairing::revoke_pairing))
        .route("/ui/license", get(license::license_info).post(license::install_license))
        .route("/ui/models", get(models::list_models))
        .route("/ui/models/install", post(models::install_model))
        .route("/ui/models/measure", post(models::measure_models))
        .route("/ui/models/add", post(models::add_model))
        .route("/ui/models/{name}", delete(models::remove_model))
        .route("/ui/notes-models", get(notes_models::list))
        .route("/ui/notes-models/install", post(notes_models::install))
        .route("/ui/notes-models/add", post(notes_models::add))
        .route("/ui/notes-models/{name}", delete(notes_models::remove))
        .route("/ui/recording/start", post(recording::start_recording))
        .route("/ui/recording/stop", post(recording::stop))
        .route("/ui/recording/pause", post(recording::pause_recording))
        .route("/ui/recording/mute", post(recording::mute))
        .route("/ui/recording/keep", post(recording::keep_recording))
        .route("/ui/recording/language", post(recording::pin_language))
        .route("/ui/devices/check", post(recording::check_devices))
        .route("/ui/meetings/{id}/export", post(export::export_meeting))
        .route("/ui/ai/keys", get(ai::list_keys))
        .route("/ui/ai/keys/{provider}", put(ai::save_key).delete(ai::clear_key))
        .route("/ui/templates", get(templates::templates))
        .route("/ui/meetings/{id}/audio", get(audio::audio_info))
        .route("/ui/meetings/{id}/audio/reveal", post(audio::reveal))
        .route("/ui/meetings/{id}/audio/{channel}", get(audio::play))
        .route("/ui/logs", get(diagnostics::logs))
        .route("/ui/import", post(import::import))
        .route("/ui/imports", post(imports::upload).layer(DefaultBodyLimit::disable()))
        // The app's reads and edits: the `/v1` handlers, for the person's session.
        .route("/ui/health", get(system::health))
        .route("/ui/events", get(events::events))
        .route("/ui/meetings", get(meetings::list_meetings))
        .route(
            "/ui/meetings/{id}",
            get(meetings::get_meeting)
                .patch(meetings::patch_meeting)
                .delete(meetings::delete_meeting),
        )
        .route("/ui/meetings/{id}/transcript", get(transcript::get_transcript))
        .route("/ui/meetings/{id}/action_items", post(action_items::add_action_item))
        .route(
            "/ui/meetings/{id}/action_items/{item_id}",
            patch(action_items::patch_action_item).delete(action_items::delete_action_item),
        )
        .route("/ui/meetings/{id}/segments/{segment_id}", patch(corrections::patch_segment))
        .route("/ui/meetings/{id}/notes/mine", put(corrections::put_my_notes))
        .route("/ui/meetings/{id}/notes/{note_id}", patch(corrections::patch_note))
        .route("/ui/meetings/{id}/history", get(history::history))
        .route("/ui/meetings/{id}/history/{change_id}/undo", post(history::undo))
        .route(
            "/ui/meetings/{id}/speakers",
            get(speakers::get_speakers).patch(speakers::patch_speakers),
        )
        .route("/ui/voices", get(speakers::list_voices))
        .route("/ui/voices/{id}", delete(speakers::delete_voice))
        .route("/ui/owner-voice", delete(speakers::forget_owner_voice))
        .route("/ui/voices/owner/reading", post(speakers::read_owner_voice))
        .route(
            "/ui/meetings/{id}/notes",
            post(notes::regenerate_notes).delete(notes::cancel_notes).route_layer(pro),
        )
        .route("/ui/recording/marker", post(recording::marker))
        .route("/ui/meetings/{id}/transcribe", post(transcribe::transcribe_again))
        .route("/ui/search", get(search::search))
        .route("/ui/search/meetings", get(search::search_meetings))
        .route("/ui/ask", post(ask::ask))
        .route("/ui/ledger", get(ledger::ledger))
        .route("/ui/policy", get(policy::policy))
        .route("/ui/settings/effective", get(settings::settings))
}

/// The whole application: Host check, then authentication, then the routes.
pub fn app(state: AppState) -> Router {
    let (api, document) = api(&state);
    let document = serde_json::to_value(&document).unwrap_or_default();
    api.merge(person_routes(&state))
        .route(IDENTITY_PATH, get(identity::prove_identity))
        .fallback(assets::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(Extension(Arc::new(document)))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(from_fn_with_state(state.clone(), auth::authenticate))
        .layer(from_fn(host::check_host))
        .with_state(state)
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(ErrorCode::MethodNotAllowed, "this route does not take that method")
}
