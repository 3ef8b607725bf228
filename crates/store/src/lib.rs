//! SQLite storage for `recorder`: migrations, one writer connection, a few reader
//! connections, typed queries and the FTS5 search index.
//!
//! Every write runs in a `BEGIN IMMEDIATE` transaction on the single writer, so
//! writers never deadlock on lock upgrades and a failed write leaves no half row.
//! Readers see committed snapshots through WAL and never block the writer.

mod again;
mod edits;
mod error;
mod grouped;
mod history;
mod index;
mod index_upkeep;
mod jobs;
mod kept;
mod ledger;
mod matching;
mod meaning;
mod meetings;
mod migrations;
mod pairings;
mod parts;
mod pool;
mod prompts;
mod recordings;
mod retention;
mod rows;
mod search;
mod snapshot;
mod speakers;
mod status;
mod undo;

pub use edits::{Applied, Edit};
pub use error::{StoreError, StoreResult};
pub use grouped::{MatchesPage, MeetingMatches, SearchCursor};
pub use history::{Author, ChangeRecord, FOLD_MS};
pub use index::IndexProgress;
pub use index_upkeep::Checkpoint;
pub use jobs::{JobKind, JobRecord, NotesOutcome, Pass, TranscriptionEnd};
pub use meaning::{
    EmbeddingSource, NewPassage, PassageContent, PassageRecord, PassageSource, StoredVector,
};
pub use meetings::{ListQuery, MeetingChanges, MeetingPage, MeetingRecord};
pub use migrations::SCHEMA_VERSION;
pub use pairings::PairingRecord;
pub use parts::{ActionItemRecord, MarkerRecord, NewSegment, NoteRecord, SegmentRecord};
pub use pool::Store;
pub use prompts::{PromptRecord, PromptState};
/// The id types the store's records carry and its methods take.
pub use recorder_domain::{
    ActionItemId, MarkerId, MeetingId, NoteId, PairingId, PromptId, VoiceId,
};
pub use recordings::{ChannelRest, RecordingEnd};
pub use retention::{RetentionCutoffs, RetentionDue};
pub use rows::label_of;
pub use search::{fts_query, HitSource, SearchHit};
pub use snapshot::{integrity_check, meeting_ids_in, schema_version_of, snapshot};
pub use speakers::Renamed;
pub use speakers::{
    in_the_room, LineCut, OwnerVoice, SpeakerOfLine, SpeakerRecord, SysSpan, VoiceRecord, THEM,
};
