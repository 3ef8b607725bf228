//! Markdown export of a meeting: by the person (`POST /ui/meetings/:id/export`,
//! `recorder export`) and automatically when a meeting becomes ready while
//! 'Auto-export Markdown after each meeting' is on. AllowedExportFolder bounds
//! both; the file never replaces an existing one.

use std::path::PathBuf;

use recorder_domain::{MeetingId, PolicyKey, PolicyValues};
use recorder_export::{
    ExportActionItem, ExportMarker, ExportMeeting, ExportNote, ExportSegment, FolderError,
};
use recorder_settings::Settings;
use recorder_store::Store;

use crate::base::error::ApiError;
use crate::state::{AppState, Core};

/// Where an export goes: the folder asked for, else `export.folder`, else the
/// allowed folder. Checked against AllowedExportFolder on the real path.
pub fn target_folder(
    core: &Core,
    settings: &Settings,
    requested: Option<&str>,
    policy: &PolicyValues,
) -> Result<PathBuf, ApiError> {
    let allowed = policy.allowed_export_folder();
    let folder = requested
        .map(str::to_owned)
        .or_else(|| settings.export.folder.clone())
        .or_else(|| allowed.map(str::to_owned))
        .ok_or_else(|| {
            ApiError::invalid(
                "field `folder` is required: no export folder is set (settings export.folder)",
            )
        })?;
    let home = core.environment.home.clone().unwrap_or_else(|| PathBuf::from("/"));
    recorder_export::resolve_folder(&folder, &home, allowed).map_err(|error| match error {
        FolderError::Outside { folder, allowed } => ApiError::policy(
            PolicyKey::AllowedExportFolder,
            &format!("exporting to {folder} (outside {allowed})"),
            &policy.managed_by(),
        ),
        FolderError::Invalid(message) => ApiError::invalid(format!("field `folder`: {message}")),
    })
}

/// Writes the meeting's Markdown into `folder`; returns the new file's path.
pub fn write(
    store: &Store,
    user_name: &str,
    id: &MeetingId,
    folder: &std::path::Path,
) -> Result<PathBuf, ApiError> {
    let meeting = export_meeting(store, user_name, id)?;
    let markdown = recorder_export::render_markdown(&meeting);
    let name = recorder_export::file_name(&meeting.title, meeting.started_at);
    recorder_export::write_new(folder, &name, markdown.as_bytes())
        .map_err(|error| ApiError::internal("writing the export file", error))
}

fn export_meeting(
    store: &Store,
    user_name: &str,
    id: &MeetingId,
) -> Result<ExportMeeting, ApiError> {
    let meeting = store.meeting(id).map_err(|e| ApiError::from_store("meeting", e))?;
    let (notes, items, markers) =
        store.meeting_parts(id).map_err(|e| ApiError::from_store("meeting", e))?;
    let segments = store.segments(id).map_err(|e| ApiError::from_store("meeting", e))?;
    Ok(ExportMeeting {
        title: meeting.title,
        started_at: meeting.started_at,
        ended_at: meeting.ended_at,
        duration_ms: Some(meeting.duration_ms),
        source_app: meeting.source_app,
        language: meeting.language.unwrap_or_default(),
        attendees: meeting.attendees,
        tags: meeting.tags,
        notes: notes
            .into_iter()
            .map(|note| ExportNote { kind: note.kind, content_md: note.content_md })
            .collect(),
        action_items: items
            .into_iter()
            .map(|item| ExportActionItem {
                text: item.text,
                owner: item.owner,
                done: item.done,
                due: item.due,
            })
            .collect(),
        markers: markers
            .into_iter()
            .map(|marker| ExportMarker { at_ms: marker.at_ms, label: marker.label })
            .collect(),
        segments: segments
            .into_iter()
            .map(|segment| ExportSegment {
                speaker: segment.speaker_name(user_name),
                start_ms: segment.start_ms,
                end_ms: segment.end_ms,
                text: segment.text,
            })
            .collect(),
    })
}

/// The automatic export of a meeting that just became ready (blocking; runs on
/// the job worker's thread). Failures are logged and announced, never fatal.
pub fn after_ready(state: &AppState, id: &MeetingId) {
    let policy = state.policy();
    let settings = state.effective_settings();
    if !settings.export.auto_export_markdown {
        return;
    }
    let result = target_folder(&state.core, &settings, None, &policy)
        .and_then(|folder| write(&state.core.store, &settings.general.user_name, id, &folder));
    match result {
        Ok(path) => tracing::info!(meeting_id = %id, path = %path.display(), "exported Markdown"),
        Err(error) => {
            tracing::warn!(meeting_id = %id, error = %error.message, "automatic export failed");
            state.core.events.emit(recorder_api_types::Event::error(
                format!("automatic Markdown export failed: {}", error.message),
                Some(id.to_owned()),
            ));
        }
    }
}
