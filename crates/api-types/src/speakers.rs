//! The speakers of a meeting (the other side's, and the people in the room
//! beside the laptop's owner), and the voices the person named (extensions of
//! the contract, issues 18 and 49).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use recorder_domain::{Channel, VoiceId};

/// One speaker told apart: of the other side (`sys`: `Them` when it was one
/// voice, else `Speaker N`) or someone in the room beside the laptop's owner
/// (`mic`: `In the room N`; the owner is "Me" and not listed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Speaker {
    /// `Speaker N`, `Them` or `In the room N`: names this speaker in a rename
    /// whatever it is called.
    pub key: String,
    pub channel: Channel,
    /// What transcripts, search and exports show: the name, else the key.
    pub label: String,
    /// The name given (or recognised from a remembered voice), if any.
    pub name: Option<String>,
}

/// `GET|PATCH /v1/meetings/:id/speakers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SpeakerList {
    /// Empty while the meeting is being processed, when nobody but the owner
    /// spoke, or without the speaker model (then the other side is one
    /// speaker, "Them", and the microphone "Me").
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
    /// The laptop owner's own voice, which tells "Me" from the people in the
    /// room; `null` until it is learned.
    pub owner: Option<OwnerVoiceInfo>,
}

/// What is kept of the owner's voice (never the voice print itself).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OwnerVoiceInfo {
    /// Meetings where the microphone had only the owner's voice, it was
    /// learned from.
    pub meetings: i64,
    /// Whether it was learned from the owner's reading (Settings → Speakers)
    /// as well.
    pub enrolled: bool,
    /// Milliseconds since the epoch.
    pub updated_at: i64,
}
