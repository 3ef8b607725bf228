//! Identifiers. Meetings, notes, action items, markers, prompts and pairings are
//! UUIDv7 strings: sortable by creation time, unguessable enough for a local API.

use uuid::Uuid;

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
}
