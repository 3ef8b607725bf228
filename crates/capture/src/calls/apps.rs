//! The rules that tell a meeting app's capture stream from any other
//! program's: the recorder's own streams never count, a program counts by
//! its file name (without folder or `.exe`, any case) or by the name or
//! bundle id it gives itself, whole names only. The apps themselves are
//! `recorder_domain::meeting_apps`.

pub use recorder_domain::meeting_apps::{by_source_app, MeetingApp, MEETING_APPS};

use super::CaptureStream;

/// The meeting app a capture stream belongs to, if any. The recorder's own
/// streams (`own_pid`) never count, nor does a program that is not in the
/// table (a browser, `arecord`, a dictation tool).
pub fn meeting_app(stream: &CaptureStream, own_pid: u32) -> Option<&'static MeetingApp> {
    if stream.pid == Some(own_pid) {
        return None;
    }
    let binary = stream.binary.as_deref().map(program_name);
    let name = stream.name.as_deref().map(|name| name.trim().to_lowercase());
    MEETING_APPS.iter().find(|app| {
        binary.as_deref().is_some_and(|binary| app.binaries.contains(&binary))
            || name
                .as_deref()
                .is_some_and(|name| app.names.contains(&name) || app.bundle_ids.contains(&name))
    })
}

/// A program's file name without its folder or `.exe`, lower case.
fn program_name(binary: &str) -> String {
    let file = binary.trim().rsplit(['/', '\\']).next().unwrap_or_default().to_lowercase();
    match file.strip_suffix(".exe") {
        Some(stem) => stem.to_owned(),
        None => file,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by(binary: Option<&str>, name: Option<&str>) -> CaptureStream {
        CaptureStream {
            id: 1,
            binary: binary.map(str::to_owned),
            name: name.map(str::to_owned),
            pid: Some(4242),
            title: None,
        }
    }

    fn app_of(binary: Option<&str>, name: Option<&str>) -> Option<&'static str> {
        meeting_app(&by(binary, name), 1).map(|app| app.source_app)
    }

    #[test]
    fn each_app_is_known_by_its_program_on_every_platform() {
        assert_eq!(app_of(Some("zoom"), None), Some("zoom"));
        assert_eq!(app_of(Some(r"C:\Program Files\Zoom\bin\Zoom.exe"), None), Some("zoom"));
        assert_eq!(app_of(Some("teams-for-linux"), None), Some("teams"));
        assert_eq!(app_of(Some("ms-teams.exe"), None), Some("teams"));
        assert_eq!(app_of(Some("/usr/lib/slack/slack"), None), Some("slack"));
        assert_eq!(app_of(Some("Discord"), None), Some("discord"));
        assert_eq!(app_of(Some("CiscoCollabHost.exe"), None), Some("webex"));
        assert_eq!(app_of(Some("webex"), None), Some("webex"));
        assert_eq!(app_of(Some("skypeforlinux"), None), Some("skype"));
        assert_eq!(app_of(Some("signal-desktop"), None), Some("signal"));
        assert_eq!(app_of(Some("element-desktop"), None), Some("element"));
    }

    #[test]
    fn an_app_is_known_by_its_name_or_bundle_id_when_the_program_says_little() {
        assert_eq!(app_of(Some("electron"), Some("Microsoft Teams")), Some("teams"));
        assert_eq!(app_of(None, Some("ZOOM Meetings")), Some("zoom"));
        assert_eq!(app_of(Some("Slack"), Some("com.tinyspeck.slackmacgap")), Some("slack"));
        assert_eq!(app_of(None, Some("us.zoom.xos")), Some("zoom"));
    }

    #[test]
    fn browsers_recorders_and_dictation_never_count() {
        for (binary, name) in [
            (Some("chromium"), Some("Chromium")),
            (Some("chrome"), Some("Google Chrome")),
            (Some("firefox-esr"), Some("Firefox")),
            (Some("msedge.exe"), None),
            (Some("arecord"), Some("ALSA plug-in [arecord]")),
            (Some("audacity"), Some("Audacity")),
            (Some("nerd-dictation"), None),
            (Some("pw-record"), Some("pw-record")),
            (None, None),
            (Some(""), Some("  ")),
        ] {
            assert_eq!(app_of(binary, name), None, "{binary:?} / {name:?}");
        }
    }

    #[test]
    fn a_name_must_match_whole_not_in_part() {
        assert_eq!(app_of(Some("zoomer"), None), None);
        assert_eq!(app_of(Some("my-slack-bot"), Some("slack exporter")), None);
    }

    #[test]
    fn the_recorders_own_streams_never_count() {
        let own = CaptureStream { pid: Some(1), ..by(Some("zoom"), None) };
        assert_eq!(meeting_app(&own, 1), None);
    }

    #[test]
    fn every_app_has_a_lower_case_unique_source_app_and_lower_case_keys() {
        let mut seen = std::collections::HashSet::new();
        for app in MEETING_APPS {
            assert!(seen.insert(app.source_app), "{} twice", app.source_app);
            for key in app.binaries.iter().chain(app.names).chain(app.bundle_ids) {
                assert_eq!(*key, key.to_lowercase(), "{key} must be lower case");
            }
            assert_eq!(by_source_app(&app.source_app.to_uppercase()), Some(app));
        }
    }
}
