//! Meeting status machine, audio channels, note kinds, plans and ledger entries.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The status a meeting moves through, in this order only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MeetingStatus {
    Recording,
    Transcribing,
    Summarising,
    Ready,
}

impl MeetingStatus {
    pub const ALL: [MeetingStatus; 4] = [
        MeetingStatus::Recording,
        MeetingStatus::Transcribing,
        MeetingStatus::Summarising,
        MeetingStatus::Ready,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MeetingStatus::Recording => "recording",
            MeetingStatus::Transcribing => "transcribing",
            MeetingStatus::Summarising => "summarising",
            MeetingStatus::Ready => "ready",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == text)
    }

    /// Whether a meeting may move from `self` to `next`. Regenerating notes moves a
    /// ready meeting back to summarising; nothing else goes backwards.
    pub fn can_move_to(self, next: MeetingStatus) -> bool {
        use MeetingStatus::*;
        matches!(
            (self, next),
            (Recording, Transcribing)
                | (Transcribing, Summarising)
                | (Summarising, Ready)
                | (Ready, Summarising)
                // Transcribed again with another model or language.
                | (Ready, Transcribing)
        )
    }

    /// A meeting that is still being captured or transcribed cannot be deleted or
    /// have its notes regenerated (409 `meeting_busy`).
    pub fn is_busy(self) -> bool {
        matches!(self, MeetingStatus::Recording | MeetingStatus::Transcribing)
    }
}

/// The two audio channels: `mic` is the local user, `sys` everyone else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Mic,
    Sys,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Mic => "mic",
            Channel::Sys => "sys",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "mic" => Some(Channel::Mic),
            "sys" => Some(Channel::Sys),
            _ => None,
        }
    }

    /// The speaker name shown for this channel: the user's own name for `mic`,
    /// `Them` for `sys` (the remote side is a single speaker at present).
    pub fn speaker(self, user_name: &str) -> String {
        match self {
            Channel::Mic => user_name.to_string(),
            Channel::Sys => "Them".to_string(),
        }
    }
}

/// Kinds of notes a meeting can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    Summary,
    ActionItems,
    Decisions,
    KeyPoints,
    Custom,
    /// The person's own notes, typed in the app's notepad; never written by
    /// the notes runs.
    Mine,
}

impl NoteKind {
    /// The kinds the notes runs write (every kind but `mine`).
    pub const ALL: [NoteKind; 5] = [
        NoteKind::Summary,
        NoteKind::ActionItems,
        NoteKind::Decisions,
        NoteKind::KeyPoints,
        NoteKind::Custom,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NoteKind::Summary => "summary",
            NoteKind::ActionItems => "action_items",
            NoteKind::Decisions => "decisions",
            NoteKind::KeyPoints => "key_points",
            NoteKind::Custom => "custom",
            NoteKind::Mine => "mine",
        }
    }

    /// A kind the notes runs write; `mine` is not one of them.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// The licence plan in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
        }
    }
}

/// How an outbound request ended: answered below 400 (`ok`), failed or
/// answered 400 and above (`error`), or refused before it left (`blocked`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LedgerOutcome {
    Ok,
    Error,
    Blocked,
}

impl LedgerOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerOutcome::Ok => "ok",
            LedgerOutcome::Error => "error",
            LedgerOutcome::Blocked => "blocked",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [LedgerOutcome::Ok, LedgerOutcome::Error, LedgerOutcome::Blocked]
            .into_iter()
            .find(|outcome| outcome.as_str() == text)
    }
}

/// One outbound request the app made or refused: a row of the Privacy Ledger,
/// as the egress crate writes it and the API returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LedgerEntry {
    pub id: String,
    pub at: i64,
    pub method: String,
    /// Scheme, host, port and path only: never a query string or credentials.
    pub url: String,
    pub host: String,
    pub purpose: String,
    /// HTTP status, null when no answer came back.
    pub status: Option<u16>,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub duration_ms: u64,
    pub outcome: LedgerOutcome,
}

/// Each shows as its wire name.
macro_rules! display_as_str {
    ($($name:ident),*) => {$(
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}

display_as_str!(MeetingStatus, Channel, NoteKind, Plan, LedgerOutcome);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_moves_forward_only_except_regeneration_and_transcribing_again() {
        use MeetingStatus::*;
        assert!(Recording.can_move_to(Transcribing));
        assert!(Transcribing.can_move_to(Summarising));
        assert!(Summarising.can_move_to(Ready));
        assert!(Ready.can_move_to(Summarising));
        assert!(Ready.can_move_to(Transcribing), "transcribed again");
        assert!(!Ready.can_move_to(Recording));
        assert!(!Recording.can_move_to(Ready));
        assert!(!Transcribing.can_move_to(Recording));
    }

    #[test]
    fn names_round_trip() {
        for status in MeetingStatus::ALL {
            assert_eq!(MeetingStatus::parse(status.as_str()), Some(status));
        }
        for kind in NoteKind::ALL {
            assert_eq!(NoteKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Channel::parse("sys"), Some(Channel::Sys));
        assert_eq!(Channel::parse("both"), None);
    }

    #[test]
    fn speakers_follow_channels() {
        assert_eq!(Channel::Mic.speaker("Ada"), "Ada");
        assert_eq!(Channel::Sys.speaker("Ada"), "Them");
    }
}
