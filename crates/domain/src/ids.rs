//! Identifiers. Meetings, notes, action items, markers, prompts and pairings are
//! UUIDv7 strings: sortable by creation time, unguessable enough for a local API.
//!
//! Each kind of id has its own type ([`MeetingId`], [`PromptId`], …) so that a
//! prompt's id cannot be passed where a meeting's is meant. On the wire each is
//! the plain string (`#[serde(transparent)]`); the OpenAPI document names it.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// Declares an id type: a transparent string with the conversions callers need.
macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[derive(Serialize, Deserialize, ToSchema)]
        #[serde(transparent)]
        #[schema(value_type = String)]
        pub struct $name(String);

        impl $name {
            /// A new, unique id.
            pub fn generate() -> Self {
                Self(new_id())
            }

            /// An id given by a client, in canonical form; `None` when it is
            /// not a UUID (callers answer 404 for ids in paths).
            pub fn parse(text: &str) -> Option<Self> {
                parse_id(text).map(Self)
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&$name> for $name {
            fn from(id: &$name) -> Self {
                id.clone()
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    )*};
}

id_type! {
    /// A meeting (a recording or an import).
    MeetingId;
    /// One of a meeting's notes.
    NoteId;
    /// One of a meeting's action items.
    ActionItemId;
    /// A marker set while recording.
    MarkerId;
    /// A record prompt waiting for the person's answer.
    PromptId;
    /// A paired client (the browser extension).
    PairingId;
    /// One of the person's signed-in browser sessions.
    SessionId;
    /// A remembered voice of the other side.
    VoiceId;
    /// One change in a meeting's history.
    ChangeId;
}

/// A new UUIDv7 identifier in its canonical hyphenated lowercase form.
pub fn new_id() -> String {
    Uuid::now_v7().to_string()
}

/// Parses an identifier given by a client. Returns the canonical form, or `None`
/// when the text is not a UUID (callers answer 404 for ids in paths).
pub fn parse_id(text: &str) -> Option<String> {
    Uuid::parse_str(text).ok().map(|id| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_ids_are_canonical_and_increase() {
        let first = new_id();
        let second = new_id();
        assert_eq!(parse_id(&first).as_deref(), Some(first.as_str()));
        assert!(second > first, "{second} should sort after {first}");
    }

    #[test]
    fn rejects_non_uuid_text() {
        assert_eq!(parse_id("../../etc/passwd"), None);
        assert_eq!(parse_id(""), None);
    }

    #[test]
    fn an_id_is_its_string_on_the_wire() {
        let id = MeetingId::from("0190a5e0-0000-7000-8000-000000000000");
        let json = serde_json::to_string(&id).expect("serializes");
        assert_eq!(json, "\"0190a5e0-0000-7000-8000-000000000000\"");
        assert_eq!(serde_json::from_str::<MeetingId>(&json).expect("parses"), id);
        assert_eq!(id, "0190a5e0-0000-7000-8000-000000000000");
    }
}
