//! Every event of the stream (`/v1/events`, `/ui/events`), one payload type each.
//!
//! The SSE `data:` of an event is `{type, data, at}`: [`Event`] serializes as the
//! `type` and `data` fields (serde's adjacent tagging), and the bus adds `at`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::{Channel, MarkerId, MeetingId, MeetingStatus};

use crate::{Prompt, PromptAnswer};

/// One event: its `type` and its `data`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", content = "data")]
pub enum Event {
    #[serde(rename = "recording.started")]
    RecordingStarted(RecordingStarted),
    #[serde(rename = "recording.stopped")]
    RecordingStopped(RecordingStopped),
    #[serde(rename = "recording.paused")]
    RecordingPaused(RecordingPaused),
    /// The microphone channel records silence (muted) or the microphone again.
    #[serde(rename = "recording.muted")]
    RecordingMuted(RecordingMuted),
    /// A countdown to stopping by itself began (`stops_at`) or was called off
    /// (`stops_at: null`).
    #[serde(rename = "recording.ending")]
    RecordingEnding(RecordingEnding),
    /// About four times a second while recording.
    #[serde(rename = "recording.levels")]
    RecordingLevels(RecordingLevels),
    /// Whenever a channel's state changes while recording.
    #[serde(rename = "recording.channel")]
    RecordingChannel(RecordingChannel),
    #[serde(rename = "segment.new")]
    SegmentNew(LiveSegment),
    /// While someone speaks (live recordings only): the words of the line so
    /// far, about every second; replaced by the line's `segment.new`.
    #[serde(rename = "segment.partial")]
    SegmentPartial(LiveSegment),
    #[serde(rename = "meeting.updated")]
    MeetingUpdated(MeetingUpdated),
    #[serde(rename = "meeting.ready")]
    MeetingReady(MeetingRef),
    #[serde(rename = "meeting.deleted")]
    MeetingDeleted(MeetingRef),
    #[serde(rename = "prompt.shown")]
    PromptShown(Prompt),
    #[serde(rename = "prompt.answered")]
    PromptAnswered(PromptAnswer),
    #[serde(rename = "marker.added")]
    MarkerAdded(MarkerAdded),
    #[serde(rename = "notes.progress")]
    NotesProgress(NotesProgress),
    #[serde(rename = "transcription.progress")]
    TranscriptionProgress(TranscriptionProgress),
    #[serde(rename = "models.loading")]
    ModelsLoading(ModelRef),
    #[serde(rename = "models.loaded")]
    ModelsLoaded(ModelRef),
    #[serde(rename = "models.download")]
    ModelsDownload(ModelDownload),
    #[serde(rename = "models.installed")]
    ModelsInstalled(ModelInstalled),
    #[serde(rename = "pair.completed")]
    PairCompleted(Empty),
    /// The person saved settings (`PATCH /ui/settings`); read them again.
    #[serde(rename = "settings.changed")]
    SettingsChanged(Empty),
    /// The microphone and speakers check (`POST /ui/devices/check`).
    #[serde(rename = "devices.levels")]
    DevicesLevels(DevicesLevels),
    /// The owner's voice reading (`POST /ui/voices/owner/reading`).
    #[serde(rename = "voice.reading")]
    VoiceReading(VoiceReading),
    /// While recording: the speakers told apart so far gave these live
    /// lines another speaker (the pass after the recording settles them).
    #[serde(rename = "segment.speakers")]
    SegmentSpeakers(SegmentSpeakers),
    #[serde(rename = "error")]
    Error(ErrorEvent),
}

/// Every event `type`, as the stream names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum EventType {
    #[serde(rename = "recording.started")]
    RecordingStarted,
    #[serde(rename = "recording.stopped")]
    RecordingStopped,
    #[serde(rename = "recording.paused")]
    RecordingPaused,
    #[serde(rename = "recording.muted")]
    RecordingMuted,
    #[serde(rename = "recording.ending")]
    RecordingEnding,
    #[serde(rename = "recording.levels")]
    RecordingLevels,
    #[serde(rename = "recording.channel")]
    RecordingChannel,
    #[serde(rename = "segment.new")]
    SegmentNew,
    #[serde(rename = "segment.partial")]
    SegmentPartial,
    #[serde(rename = "meeting.updated")]
    MeetingUpdated,
    #[serde(rename = "meeting.ready")]
    MeetingReady,
    #[serde(rename = "meeting.deleted")]
    MeetingDeleted,
    #[serde(rename = "prompt.shown")]
    PromptShown,
    #[serde(rename = "prompt.answered")]
    PromptAnswered,
    #[serde(rename = "marker.added")]
    MarkerAdded,
    #[serde(rename = "notes.progress")]
    NotesProgress,
    #[serde(rename = "transcription.progress")]
    TranscriptionProgress,
    #[serde(rename = "models.loading")]
    ModelsLoading,
    #[serde(rename = "models.loaded")]
    ModelsLoaded,
    #[serde(rename = "models.download")]
    ModelsDownload,
    #[serde(rename = "models.installed")]
    ModelsInstalled,
    #[serde(rename = "pair.completed")]
    PairCompleted,
    #[serde(rename = "settings.changed")]
    SettingsChanged,
    #[serde(rename = "devices.levels")]
    DevicesLevels,
    #[serde(rename = "voice.reading")]
    VoiceReading,
    #[serde(rename = "segment.speakers")]
    SegmentSpeakers,
    #[serde(rename = "error")]
    Error,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::RecordingStarted => "recording.started",
            EventType::RecordingStopped => "recording.stopped",
            EventType::RecordingPaused => "recording.paused",
            EventType::RecordingMuted => "recording.muted",
            EventType::RecordingEnding => "recording.ending",
            EventType::RecordingLevels => "recording.levels",
            EventType::RecordingChannel => "recording.channel",
            EventType::SegmentNew => "segment.new",
            EventType::SegmentPartial => "segment.partial",
            EventType::MeetingUpdated => "meeting.updated",
            EventType::MeetingReady => "meeting.ready",
            EventType::MeetingDeleted => "meeting.deleted",
            EventType::PromptShown => "prompt.shown",
            EventType::PromptAnswered => "prompt.answered",
            EventType::MarkerAdded => "marker.added",
            EventType::NotesProgress => "notes.progress",
            EventType::TranscriptionProgress => "transcription.progress",
            EventType::ModelsLoading => "models.loading",
            EventType::ModelsLoaded => "models.loaded",
            EventType::ModelsDownload => "models.download",
            EventType::ModelsInstalled => "models.installed",
            EventType::PairCompleted => "pair.completed",
            EventType::SettingsChanged => "settings.changed",
            EventType::DevicesLevels => "devices.levels",
            EventType::VoiceReading => "voice.reading",
            EventType::SegmentSpeakers => "segment.speakers",
            EventType::Error => "error",
        }
    }
}

impl Event {
    /// The event's `type`.
    pub fn event_type(&self) -> EventType {
        match self {
            Event::RecordingStarted(_) => EventType::RecordingStarted,
            Event::RecordingStopped(_) => EventType::RecordingStopped,
            Event::RecordingPaused(_) => EventType::RecordingPaused,
            Event::RecordingMuted(_) => EventType::RecordingMuted,
            Event::RecordingEnding(_) => EventType::RecordingEnding,
            Event::RecordingLevels(_) => EventType::RecordingLevels,
            Event::RecordingChannel(_) => EventType::RecordingChannel,
            Event::SegmentNew(_) => EventType::SegmentNew,
            Event::SegmentPartial(_) => EventType::SegmentPartial,
            Event::MeetingUpdated(_) => EventType::MeetingUpdated,
            Event::MeetingReady(_) => EventType::MeetingReady,
            Event::MeetingDeleted(_) => EventType::MeetingDeleted,
            Event::PromptShown(_) => EventType::PromptShown,
            Event::PromptAnswered(_) => EventType::PromptAnswered,
            Event::MarkerAdded(_) => EventType::MarkerAdded,
            Event::NotesProgress(_) => EventType::NotesProgress,
            Event::TranscriptionProgress(_) => EventType::TranscriptionProgress,
            Event::ModelsLoading(_) => EventType::ModelsLoading,
            Event::ModelsLoaded(_) => EventType::ModelsLoaded,
            Event::ModelsDownload(_) => EventType::ModelsDownload,
            Event::ModelsInstalled(_) => EventType::ModelsInstalled,
            Event::PairCompleted(_) => EventType::PairCompleted,
            Event::SettingsChanged(_) => EventType::SettingsChanged,
            Event::DevicesLevels(_) => EventType::DevicesLevels,
            Event::VoiceReading(_) => EventType::VoiceReading,
            Event::SegmentSpeakers(_) => EventType::SegmentSpeakers,
            Event::Error(_) => EventType::Error,
        }
    }

    /// The event's `type` (the SSE event name).
    pub fn kind(&self) -> &'static str {
        self.event_type().as_str()
    }

    /// `meeting.updated` with the meeting's new status.
    pub fn meeting_status(meeting_id: impl Into<MeetingId>, status: MeetingStatus) -> Event {
        Event::MeetingUpdated(MeetingUpdated {
            meeting_id: meeting_id.into(),
            status: Some(status),
        })
    }

    /// `meeting.updated` for a change other than the status.
    pub fn meeting_changed(meeting_id: impl Into<MeetingId>) -> Event {
        Event::MeetingUpdated(MeetingUpdated { meeting_id: meeting_id.into(), status: None })
    }

    /// `error` with a message, and the meeting it concerns when there is one.
    pub fn error(message: impl Into<String>, meeting_id: Option<MeetingId>) -> Event {
        Event::Error(ErrorEvent {
            message: message.into(),
            meeting_id,
            model: None,
            file_name: None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingStarted {
    pub meeting_id: MeetingId,
    pub source_app: String,
    pub title: String,
    pub started_at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingStopped {
    pub meeting_id: MeetingId,
    pub status: MeetingStatus,
    /// Why it stopped.
    pub reason: StopReason,
}

/// Why a recording stopped: a person (or program) asked, its call ended,
/// nothing was heard for `recording.stop_after_silence_min`, or it could not
/// go on (a device gone, a full disk: the `error` event says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Person,
    CallEnded,
    Silence,
    Error,
}

/// Why a recording is about to stop by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndingReason {
    CallEnded,
    Silence,
}

impl From<EndingReason> for StopReason {
    fn from(reason: EndingReason) -> Self {
        match reason {
            EndingReason::CallEnded => StopReason::CallEnded,
            EndingReason::Silence => StopReason::Silence,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingMuted {
    pub meeting_id: MeetingId,
    pub muted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingEnding {
    pub meeting_id: MeetingId,
    pub reason: EndingReason,
    /// When the recording stops (ms since the epoch) unless kept; null: the
    /// countdown was called off.
    pub stops_at: Option<i64>,
    /// The app whose call ended (call_ended only).
    #[serde(default)]
    pub source_app: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingPaused {
    pub paused: bool,
    pub meeting_id: MeetingId,
}

/// Peak level of each channel over the last quarter second, in dBFS (-100 = silence).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingLevels {
    pub meeting_id: MeetingId,
    pub mic: f32,
    pub sys: f32,
}

/// The microphone and speakers check: each channel's peak dBFS (-100 for
/// silence) about four times a second, then once more with `done`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DevicesLevels {
    pub mic: f32,
    pub sys: f32,
    pub done: bool,
    /// With `done`: whether each channel had sound (above -50 dBFS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heard: Option<DevicesHeard>,
    /// Why the check ended early: a device failed, or a recording started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DevicesHeard {
    pub mic: bool,
    pub sys: bool,
}

/// The owner's voice reading: the microphone's peak dBFS (-100 for silence)
/// and the seconds left about four times a second, then once more with
/// `done` and its `outcome`. The audio is never kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VoiceReading {
    pub level_dbfs: f32,
    pub seconds_left: u32,
    /// Seconds of speech heard so far.
    pub speech_seconds: f32,
    pub done: bool,
    /// With `done`: what came of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<ReadingOutcome>,
    /// With `failed`: why the reading ended early (a device failed, a
    /// recording started, the speaker model could not be used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Live lines whose speaker changed (`segment.speakers`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SegmentSpeakers {
    pub meeting_id: MeetingId,
    pub segments: Vec<LineSpeaker>,
}

/// A line's id (as in `segment.new`) and the speaker it shows now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LineSpeaker {
    pub id: String,
    pub speaker: String,
}

/// `enrolled` (the voice is the owner's now), `too_little_speech` (under
/// 8 s of speech heard: nothing saved) or `failed` (`error` says why).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadingOutcome {
    Enrolled,
    TooLittleSpeech,
    Failed,
}

/// `ok`, `silent` (only silence for 30 s while the other channel has speech) or
/// `failed` (the device or sound server is gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChannelState {
    Ok,
    Silent,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordingChannel {
    pub meeting_id: MeetingId,
    /// `mic` or `sys`.
    pub channel: Channel,
    pub state: ChannelState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A transcript segment as it is made, with the meeting it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LiveSegment {
    pub meeting_id: MeetingId,
    /// The saved line's id (`segment.new`), to correct it while the meeting
    /// goes on; left out of `segment.partial`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub speaker: String,
    pub channel: Channel,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MeetingUpdated {
    pub meeting_id: MeetingId,
    /// The new status, when the status changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<MeetingStatus>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MeetingRef {
    pub meeting_id: MeetingId,
}

/// The marker, with the meeting it was added to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MarkerAdded {
    pub id: MarkerId,
    pub at_ms: i64,
    pub label: String,
    pub meeting_id: MeetingId,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NotesProgress {
    pub meeting_id: MeetingId,
    /// started, generating, saving, done or failed; canceled when a
    /// regeneration was canceled (`DELETE /v1/meetings/:id/notes`).
    pub stage: String,
    /// builtin, embedded (the notes model inside), local, anthropic or
    /// openai_compatible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// How far the notes model inside is, 0 to 100 (`generating` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TranscriptionProgress {
    pub meeting_id: MeetingId,
    pub position_ms: i64,
    /// Null when the file's format does not say how long it is.
    pub duration_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelRef {
    pub model: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelDownload {
    pub model: String,
    pub file_name: String,
    pub received: u64,
    pub total: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelInstalled {
    pub model: String,
    pub file_name: String,
    pub path: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Empty {}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ErrorEvent {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<MeetingId>,
    /// The model whose download failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_serializes_as_type_and_data() {
        let event = Event::meeting_status("m1", MeetingStatus::Ready);
        let json = serde_json::to_value(&event).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({"type": "meeting.updated", "data": {"meeting_id": "m1", "status": "ready"}})
        );
        assert_eq!(json["type"], event.kind());
        let back: Event = serde_json::from_value(json).expect("parses");
        assert_eq!(back, event);
    }

    #[test]
    fn an_event_type_is_named_as_the_event_is_tagged() {
        let event = Event::meeting_changed("m");
        let json = serde_json::to_value(&event).expect("serializes");
        assert_eq!(json["type"], serde_json::to_value(event.event_type()).expect("serializes"));
        assert_eq!(json["type"], event.event_type().as_str());
    }

    #[test]
    fn pair_completed_carries_an_empty_object() {
        let json = serde_json::to_value(Event::PairCompleted(Empty {})).expect("serializes");
        assert_eq!(json["data"], serde_json::json!({}));
    }
}

/// `{ type, data, at }`: the data of every Server-Sent Event.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventEnvelope {
    #[serde(rename = "type")]
    pub kind: EventType,
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
    pub at: i64,
}
