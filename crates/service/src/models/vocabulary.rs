//! The words a meeting's transcription should expect, given to whisper as
//! its prompt so names and terms come out spelled as written: the names the
//! person gave speakers in earlier meetings, the person's own name, the words
//! learned from their corrections (`transcription.learned`) and their list
//! (`transcription.vocabulary`), the meeting's title, its own words
//! (`PATCH /v1/meetings/:id {vocabulary}`) and its attendees.
//!
//! whisper keeps the end of a long prompt, so the sources are laid out from
//! the least to the most particular to this meeting, each word once (its
//! last place wins), and the whole kept under [`MAX_PROMPT_CHARS`] by
//! dropping from the front.

use recorder_domain::MeetingId;
use recorder_settings::Settings;
use recorder_store::{MeetingRecord, Store};

use crate::base::titles::is_made_up;

/// How many names of earlier meetings' speakers are offered.
const KNOWN_NAMES: i64 = 20;
/// The longest prompt, in characters: about the engine's token budget
/// (`recorder_stt::engine::MAX_PROMPT_TOKENS`) of names and terms.
pub const MAX_PROMPT_CHARS: usize = 400;

/// The prompt for `meeting_id`'s transcription now; empty when nothing is
/// known (or the meeting is gone). Reads the database (a few rows).
pub fn prompt_for(store: &Store, settings: &Settings, meeting_id: &MeetingId) -> String {
    let Ok(meeting) = store.meeting(meeting_id) else { return String::new() };
    prompt_of(store, settings, &meeting)
}

/// The prompt for `meeting`'s transcription, its record already read.
pub fn prompt_of(store: &Store, settings: &Settings, meeting: &MeetingRecord) -> String {
    let known = store.known_names(meeting.started_at, KNOWN_NAMES).unwrap_or_else(|error| {
        tracing::warn!(%error, "earlier speakers' names could not be read");
        Vec::new()
    });
    prompt(&Sources { known_names: &known, settings, meeting })
}

/// Where a meeting's words come from.
pub struct Sources<'a> {
    /// Earlier meetings' speaker names, the most recent first.
    pub known_names: &'a [String],
    pub settings: &'a Settings,
    pub meeting: &'a MeetingRecord,
}

/// The prompt: every word once, the most particular last, at most
/// [`MAX_PROMPT_CHARS`] characters, as a list ("Ana, Kubernetes, Siobhan.").
pub fn prompt(sources: &Sources) -> String {
    let user_name = sources.settings.general.user_name.trim();
    let title = sources.meeting.title.trim();
    let app = &sources.meeting.source_app;
    let ordered = sources
        .known_names
        .iter()
        .rev()
        .map(String::as_str)
        .chain(std::iter::once(user_name).filter(|name| *name != "Me"))
        .chain(sources.settings.transcription.learned.iter().map(String::as_str))
        .chain(sources.settings.transcription.vocabulary.iter().map(String::as_str))
        .chain(std::iter::once(title).filter(|title| !is_made_up(title, app)))
        .chain(sources.meeting.vocabulary.iter().map(String::as_str))
        .chain(sources.meeting.attendees.iter().map(String::as_str).filter_map(attendee_name));
    let mut words: Vec<&str> = Vec::new();
    for word in ordered.map(str::trim).filter(|word| !word.is_empty()) {
        words.retain(|kept| !kept.eq_ignore_ascii_case(word));
        words.push(word);
    }
    while !words.is_empty() && joined_len(&words) > MAX_PROMPT_CHARS {
        words.remove(0);
    }
    if words.is_empty() {
        return String::new();
    }
    format!("{}.", words.join(", "))
}

fn joined_len(words: &[&str]) -> usize {
    words.iter().map(|word| word.chars().count() + 2).sum()
}

/// The name in an attendee entry: an e-mail address alone is not spoken.
fn attendee_name(entry: &str) -> Option<&str> {
    let name = entry.split('<').next().unwrap_or(entry).trim();
    (!name.is_empty() && !name.contains('@')).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_settings::{defaults, SettingsDocument};

    fn settings(patch: serde_json::Value) -> Settings {
        let base = SettingsDocument::from_value(defaults()).expect("defaults");
        base.patched(&patch).expect("patch").typed().clone()
    }

    fn meeting(title: &str, attendees: &[&str], words: &[&str]) -> MeetingRecord {
        let mut meeting = MeetingRecord::new_import(title.into(), 1_000);
        meeting.attendees = attendees.iter().map(|a| a.to_string()).collect();
        meeting.vocabulary = words.iter().map(|w| w.to_string()).collect();
        meeting
    }

    #[test]
    fn every_source_is_used_the_meetings_own_last_and_each_word_once() {
        let settings = settings(serde_json::json!({
            "general": {"user_name": "Dana Okafor"},
            "transcription": {"vocabulary": ["Kubernetes", "siobhan"]}
        }));
        let known = vec!["Recent".to_owned(), "Older".to_owned()];
        let meeting = meeting("Rollout review", &["Siobhan", "Tran Nguyen"], &["Helm"]);
        let prompt =
            prompt(&Sources { known_names: &known, settings: &settings, meeting: &meeting });
        assert_eq!(
            prompt,
            "Older, Recent, Dana Okafor, Kubernetes, Rollout review, Helm, Siobhan, Tran Nguyen."
        );
    }

    #[test]
    fn made_up_titles_addresses_and_the_default_name_are_left_out() {
        let settings = settings(serde_json::json!({}));
        let mut meeting =
            meeting("Zoom call", &["ana@example.com", "Bo Li <bo@example.com>", " "], &[]);
        meeting.source_app = "zoom".into();
        let prompt = prompt(&Sources { known_names: &[], settings: &settings, meeting: &meeting });
        assert_eq!(prompt, "Bo Li.");
        let empty = meeting_with_nothing();
        assert_eq!(prompt_of(&settings, &empty), "");
    }

    fn meeting_with_nothing() -> MeetingRecord {
        meeting("import meeting", &[], &[])
    }

    fn prompt_of(settings: &Settings, meeting: &MeetingRecord) -> String {
        prompt(&Sources { known_names: &[], settings, meeting })
    }

    #[test]
    fn a_long_list_keeps_its_end_within_the_limit() {
        let words: Vec<String> = (0..200).map(|n| format!("Term{n:03}")).collect();
        let settings = settings(serde_json::json!({"transcription": {"vocabulary": words}}));
        let meeting = meeting("Weekly", &["Siobhan"], &[]);
        let prompt = prompt_of(&settings, &meeting);
        assert!(prompt.chars().count() <= MAX_PROMPT_CHARS + 1, "{prompt}");
        assert!(prompt.ends_with("Term199, Weekly, Siobhan."), "{prompt}");
        assert!(!prompt.contains("Term000"));
    }
}
