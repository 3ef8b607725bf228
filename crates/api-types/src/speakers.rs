//! The other side's speakers of a meeting, and the voices the person named
//! (extensions of the contract, issue 18).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::VoiceId;

/// One speaker of the other side (`sys`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Speaker {
    /// `Speaker N`: names this speaker in a rename whatever it is called.
    pub key: String,
    /// What transcripts, search and exports show: the name, else the key.
    pub label: String,
    /// The name given (or recognised from a remembered voice), if any.
    pub name: Option<String>,
}

/// `GET|PATCH /v1/meetings/:id/speakers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SpeakerList {
    /// Empty while the meeting is being processed, when the other side said
    /// nothing, or without the speaker model (then it is one speaker, "Them").
    pub speakers: Vec<Speaker>,
    /// Names to offer: the meeting's attendees not given to a speaker yet.
    pub suggestions: Vec<String>,
    /// Whether the speaker model is installed (`recorder models add-speakers`).
    pub model_installed: bool,
}

/// Body of `PATCH /v1/meetings/:id/speakers`: a speaker's key (`Speaker 2`)
/// or current label, to the new name (1–80 characters), or `null` to take the
/// name away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"Speaker 1": "Dana"}))]
pub struct SpeakerNames(pub BTreeMap<String, Option<String>>);

/// A voice the person named, kept on this machine to recognise it again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Voice {
    pub id: VoiceId,
    pub name: String,
    /// Meetings in which this name was given to a speaker.
    pub meetings: i64,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub updated_at: i64,
}

/// `GET /ui/voices`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct VoiceList {
    pub voices: Vec<Voice>,
    /// The setting `transcription.remember_voices`.
    pub remember: bool,
    /// Whether the speaker model is installed (`recorder models add-speakers`).
    pub model_installed: bool,
}
