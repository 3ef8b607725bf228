//! The titles the service makes up for a meeting nobody named: an app's
//! meeting ("zoom meeting"), a desktop app's call ("Zoom call") and an import
//! whose file name gives none ("Imported audio"). Here, below the handlers
//! and the models that both use them, so that a model never reaches up into
//! a handler for one.

use recorder_domain::meeting_apps::{by_source_app, default_title};

/// The title of an import whose file name gives none.
pub const UNTITLED_IMPORT: &str = "Imported audio";

/// The title of a desktop meeting app's call ("Zoom call"), from the app's label.
pub fn call_title(label: &str) -> String {
    format!("{label} call")
}

/// Whether `title` is one the service made up for a meeting of `source_app`
/// (or none at all): it says nothing about the words spoken.
pub fn is_made_up(title: &str, source_app: &str) -> bool {
    let call = by_source_app(source_app).map(|known| call_title(known.label));
    title.is_empty()
        || title.eq_ignore_ascii_case(&default_title(source_app))
        || call.is_some_and(|call| title.eq_ignore_ascii_case(&call))
        || title == UNTITLED_IMPORT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_titles_the_service_gives_are_made_up_and_a_persons_are_not() {
        assert!(is_made_up("", "zoom"));
        assert!(is_made_up("zoom meeting", "zoom"));
        assert!(is_made_up("Zoom call", "zoom"));
        assert!(is_made_up(UNTITLED_IMPORT, "import"));
        assert!(!is_made_up("Rollout review", "zoom"));
        assert!(!is_made_up("imported audio files", "import"));
    }
}
