//! What the tray shows: the recording's state as the service's events tell it.

use std::collections::BTreeMap;

use recorder_api_types::{ChannelState, RecordingState};

/// Idle, recording or paused, and which channels are in trouble.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    pub recording: bool,
    pub paused: bool,
    /// The microphone channel records silence.
    pub muted: bool,
    /// Channels (`mic`, `sys`) whose last `recording.channel` was not `ok`,
    /// with the state's word (`silent`, `failed`).
    pub troubled: BTreeMap<String, &'static str>,
}

/// The four looks of the tray icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Idle,
    Recording,
    Paused,
    Warning,
}

impl View {
    /// The view a health answer gives (at start and after reconnecting).
    pub fn from_health(state: &RecordingState) -> View {
        View {
            recording: state.active,
            paused: state.paused.unwrap_or(false),
            muted: state.muted.unwrap_or(false),
            ..View::default()
        }
    }

    pub fn started(&mut self) {
        *self = View { recording: true, ..View::default() };
    }

    pub fn stopped(&mut self) {
        *self = View::default();
    }

    pub fn channel(&mut self, channel: &str, state: ChannelState) {
        match state {
            ChannelState::Ok => {
                self.troubled.remove(channel);
            }
            ChannelState::Silent => {
                self.troubled.insert(channel.to_string(), "silent");
            }
            ChannelState::Failed => {
                self.troubled.insert(channel.to_string(), "failed");
            }
        }
    }

    pub fn look(&self) -> Look {
        match (self.recording, self.paused, self.troubled.is_empty()) {
            (false, _, _) => Look::Idle,
            (true, _, false) => Look::Warning,
            (true, true, true) => Look::Paused,
            (true, false, true) => Look::Recording,
        }
    }

    /// The tray's tooltip (and the accessible text of its state).
    pub fn tooltip(&self) -> String {
        let state = match (self.recording, self.paused) {
            (false, _) => return "Recorder: not recording".to_string(),
            (true, true) => "Recorder: paused",
            (true, false) => "Recorder: recording",
        };
        let muted = self.muted.then(|| "microphone muted".to_string());
        let trouble: Vec<String> = muted
            .into_iter()
            .chain(
                self.troubled
                    .iter()
                    .map(|(channel, word)| format!("{} {word}", channel_name(channel))),
            )
            .collect();
        match trouble.is_empty() {
            true => state.to_string(),
            false => format!("{state} ({})", trouble.join(", ")),
        }
    }
}

fn channel_name(channel: &str) -> &str {
    match channel {
        "mic" => "microphone",
        "sys" => "other side",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_look_follows_the_recording_and_its_channels() {
        let mut view = View::default();
        assert_eq!(view.look(), Look::Idle);
        assert_eq!(view.tooltip(), "Recorder: not recording");
        view.started();
        assert_eq!(view.look(), Look::Recording);
        view.paused = true;
        assert_eq!(view.look(), Look::Paused);
        assert_eq!(view.tooltip(), "Recorder: paused");
        view.paused = false;
        view.channel("mic", ChannelState::Silent);
        assert_eq!(view.look(), Look::Warning);
        assert_eq!(view.tooltip(), "Recorder: recording (microphone silent)");
        view.channel("mic", ChannelState::Ok);
        assert_eq!(view.look(), Look::Recording);
        view.muted = true;
        assert_eq!(view.tooltip(), "Recorder: recording (microphone muted)");
        assert_eq!(view.look(), Look::Recording, "muting is the person's choice, not trouble");
        view.channel("sys", ChannelState::Failed);
        view.stopped();
        assert_eq!(view.look(), Look::Idle, "a stop clears the warning");
    }

    #[test]
    fn health_gives_the_state_after_a_reconnect() {
        let health = RecordingState {
            active: true,
            meeting_id: None,
            paused: Some(true),
            muted: Some(true),
            ending: None,
        };
        assert_eq!(View::from_health(&health).look(), Look::Paused);
        assert!(View::from_health(&health).muted);
    }
}
