//! The desktop meeting apps whose calls are noticed: their `source_app`,
//! the name people know them by, and how each shows up to the sound server
//! on each platform (program file names, the name it gives itself, macOS
//! bundle ids). Add an app here; the capture crate's call watcher
//! (`calls/apps.rs`) holds the rules that match a program to one. Browsers
//! are not here on purpose: a call in a browser tab is the extension's,
//! which knows the page and the attendees.

/// A desktop meeting app.
#[derive(Debug, PartialEq, Eq)]
pub struct MeetingApp {
    /// `source_app` of its prompts and recordings.
    pub source_app: &'static str,
    /// The name people know it by.
    pub label: &'static str,
    /// Program file names, without `.exe`, compared without case.
    pub binaries: &'static [&'static str],
    /// `application.name` values, compared without case.
    pub names: &'static [&'static str],
    /// macOS bundle ids.
    pub bundle_ids: &'static [&'static str],
}

pub const MEETING_APPS: &[MeetingApp] = &[
    MeetingApp {
        source_app: "zoom",
        label: "Zoom",
        binaries: &["zoom", "zoom.real", "zoomwebviewhost"],
        names: &["zoom", "zoom meetings", "zoom workplace"],
        bundle_ids: &["us.zoom.xos"],
    },
    MeetingApp {
        source_app: "teams",
        label: "Microsoft Teams",
        binaries: &["teams-for-linux", "teams", "ms-teams", "msteams"],
        names: &["teams-for-linux", "microsoft teams", "microsoft teams (work or school)"],
        bundle_ids: &["com.microsoft.teams", "com.microsoft.teams2"],
    },
    MeetingApp {
        source_app: "slack",
        label: "Slack",
        binaries: &["slack"],
        names: &["slack"],
        bundle_ids: &["com.tinyspeck.slackmacgap"],
    },
    MeetingApp {
        source_app: "discord",
        label: "Discord",
        binaries: &["discord", "discordptb", "discordcanary"],
        names: &["discord", "webrtc voiceengine"],
        bundle_ids: &["com.hnc.discord"],
    },
    MeetingApp {
        source_app: "webex",
        label: "Webex",
        binaries: &["webex", "ciscocollabhost", "atmgr"],
        names: &["webex", "cisco webex meetings"],
        bundle_ids: &["cisco-systems.spark", "com.webex.meetingmanager"],
    },
    MeetingApp {
        source_app: "skype",
        label: "Skype",
        binaries: &["skypeforlinux", "skype"],
        names: &["skype", "skypeforlinux"],
        bundle_ids: &["com.skype.skype"],
    },
    MeetingApp {
        source_app: "signal",
        label: "Signal",
        binaries: &["signal-desktop", "signal"],
        names: &["signal", "signal-desktop"],
        bundle_ids: &["org.whispersystems.signal-desktop"],
    },
    MeetingApp {
        source_app: "element",
        label: "Element",
        binaries: &["element-desktop", "element"],
        names: &["element", "element-desktop"],
        bundle_ids: &["im.riot.app"],
    },
];

/// A recording without a title is named after its app: never empty.
pub fn default_title(source_app: &str) -> String {
    format!("{source_app} meeting")
}

/// The app of a `source_app`, for its label.
pub fn by_source_app(source_app: &str) -> Option<&'static MeetingApp> {
    MEETING_APPS.iter().find(|app| app.source_app.eq_ignore_ascii_case(source_app))
}
