//! Desktop notifications: the record card when the window is out of sight
//! (`prompt.shown` with the actions Record and Not now, withdrawn on
//! `prompt.answered`), the countdown to stopping by itself
//! (`recording.ending`, with Keep recording), and plain messages (a tray
//! action that failed, why a recording stopped by itself).
//! Linux speaks org.freedesktop.Notifications over D-Bus itself; macOS and
//! Windows show a notification without actions (see ARCHITECTURE.md).

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::Notifier;

#[cfg(not(target_os = "linux"))]
mod other;
#[cfg(not(target_os = "linux"))]
pub use other::Notifier;

use recorder_api_types::{EndingReason, Prompt, RecordingEnding};

/// The key the countdown's notification is kept under (beside prompt ids).
pub const ENDING: &str = "recording.ending";

/// What the person did with a prompt's notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub prompt_id: String,
    pub action: Action,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // no actions there yet
pub enum Action {
    Record,
    Decline,
    /// Keep recording (the countdown's notification).
    Keep,
    /// The notification itself was clicked: show the window (with the card).
    Open,
}

/// Text shown as written by a notification server that renders markup in
/// bodies: a call's title or a participant's name cannot add links, images or
/// formatting (`<a href>`, `<img>`) to a notification. Pango's markup reads
/// HTML's escapes.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn escape_markup(text: &str) -> String {
    recorder_domain::text::escape_html(text)
}

/// The notification's body: the meeting's title, its app and who is in it.
pub fn prompt_body(prompt: &Prompt) -> String {
    let app = app_name(&prompt.source_app);
    let title = prompt.title.as_deref().unwrap_or(app);
    let names: Vec<&str> = prompt.attendees.iter().map(|a| a.name.as_str()).take(5).collect();
    let more = prompt.attendees.len().saturating_sub(names.len());
    let mut body = format!("{title} ({app})");
    if !names.is_empty() {
        body.push_str(&format!("\nWith {}", names.join(", ")));
        if more > 0 {
            body.push_str(&format!(" and {more} more"));
        }
    }
    body
}

/// A person's name for a `source_app` value (CONTRACT §10; desktop apps
/// as the capture crate's table names them).
pub fn app_name(source_app: &str) -> &str {
    match source_app {
        "google_meet" => "Google Meet",
        "recorder" => "Recorder",
        "agent" => "an agent",
        other => recorder_domain::meeting_apps::by_source_app(other).map_or(other, |app| app.label),
    }
}

/// The countdown's notification: its summary and body, `seconds` before it stops.
pub fn ending_text(ending: &RecordingEnding, seconds: i64) -> (String, String) {
    let summary = match ending.reason {
        EndingReason::CallEnded => format!("The call ended — stopping in {seconds} s"),
        EndingReason::Silence => format!("Nothing heard for a while — stopping in {seconds} s"),
    };
    let body = match ending.source_app.as_deref() {
        Some(app) => format!("{} left the call. Keep recording to go on.", app_name(app)),
        None => "Keep recording to go on.".to_string(),
    };
    (summary, body)
}

/// What the person is told when a recording stopped by itself; None when
/// they stopped it.
pub fn stopped_text(reason: recorder_api_types::StopReason) -> Option<&'static str> {
    match reason {
        recorder_api_types::StopReason::CallEnded => {
            Some("The call ended, so the recording stopped.")
        }
        recorder_api_types::StopReason::Silence => {
            Some("Nothing was heard for a while, so the recording stopped.")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_api_types::Attendee;

    fn prompt(attendees: &[&str]) -> Prompt {
        Prompt {
            prompt_id: "p1".into(),
            source_app: "google_meet".into(),
            title: Some("Weekly sync".into()),
            url: None,
            attendees: attendees.iter().map(|n| Attendee { name: n.to_string() }).collect(),
            created_at: 0,
            expires_at: 60_000,
        }
    }

    #[test]
    fn markup_in_text_from_a_call_is_escaped() {
        assert_eq!(
            escape_markup("<a href=\"x\">Ada</a> & 'co'"),
            "&lt;a href=&quot;x&quot;&gt;Ada&lt;/a&gt; &amp; &#39;co&#39;"
        );
        assert_eq!(escape_markup("Weekly sync"), "Weekly sync");
    }

    #[test]
    fn desktop_apps_and_countdowns_read_as_people_say_them() {
        assert_eq!(app_name("teams"), "Microsoft Teams");
        assert_eq!(app_name("discord"), "Discord");
        assert_eq!(app_name("something-new"), "something-new");
        let ending = RecordingEnding {
            meeting_id: "m1".into(),
            reason: EndingReason::CallEnded,
            stops_at: Some(30_000),
            source_app: Some("zoom".into()),
        };
        assert_eq!(
            ending_text(&ending, 30),
            (
                "The call ended — stopping in 30 s".to_string(),
                "Zoom left the call. Keep recording to go on.".to_string()
            )
        );
    }

    #[test]
    fn the_body_names_the_meeting_its_app_and_people() {
        assert_eq!(prompt_body(&prompt(&[])), "Weekly sync (Google Meet)");
        assert_eq!(
            prompt_body(&prompt(&["Ada", "Grace"])),
            "Weekly sync (Google Meet)\nWith Ada, Grace"
        );
        let many = prompt(&["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(prompt_body(&many), "Weekly sync (Google Meet)\nWith a, b, c, d, e and 2 more");
    }
}
