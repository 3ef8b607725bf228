//! Pure domain model of `recorder`: identifiers, meeting status, channels, note kinds,
//! managed policy keys and their validation, plans and token scopes.
//!
//! No I/O and no async here: every other crate builds on these types.

pub mod ids;
pub mod meeting;
pub mod meeting_apps;
pub mod policy;
pub mod text;

pub use ids::{
    new_id, parse_id, ActionItemId, ChangeId, MarkerId, MeetingId, NoteId, PairingId, PromptId,
    SessionId, VoiceId,
};
pub use meeting::{Channel, LedgerEntry, LedgerOutcome, MeetingStatus, NoteKind, Plan};
pub use policy::{PolicyKey, PolicyValue, PolicyValues};
