//! Desktop notifications: the record card when the window is out of sight
//! (`prompt.shown` with the actions Record and Not now, withdrawn on
//! `prompt.answered`), and plain messages (a tray action that failed).
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

use recorder_api_types::Prompt;

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

/// A person's name for a `source_app` value (CONTRACT §10).
pub fn app_name(source_app: &str) -> &str {
    match source_app {
        "google_meet" => "Google Meet",
        "zoom" => "Zoom",
        "teams" => "Microsoft Teams",
        "recorder" => "Recorder",
        "agent" => "an agent",
        other => other,
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
