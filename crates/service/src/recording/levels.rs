//! What the person sees of the audio while recording: each channel's peak level
//! about four times a second (`recording.levels`), and a channel's state when it
//! changes (`recording.channel`): `silent` after 30 s of nothing but silence
//! while the other channel had sound, `failed` when its stream is gone.

use std::time::{Duration, Instant};

use recorder_api_types::{ChannelState, Event, RecordingChannel, RecordingLevels};
use recorder_domain::{Channel, MeetingId};

/// How often levels are reported.
pub const LEVELS_EVERY: Duration = Duration::from_millis(250);
/// Recorded audio of silence after which a channel is called silent.
pub const SILENT_AFTER_MS: i64 = 30_000;
/// Below this peak level a window counts as silence.
const SILENCE_DBFS: f32 = -50.0;
/// The level reported for digital silence.
pub const FLOOR_DBFS: f32 = -100.0;

/// Peaks up to one step of 16-bit audio (dither, a muted device) are silence.
const QUANTISATION_FLOOR: f32 = 1.5 / 32768.0;

/// Peak dBFS of a linear peak, -100 for silence.
pub fn dbfs(peak: f32) -> f32 {
    if peak <= QUANTISATION_FLOOR {
        return FLOOR_DBFS;
    }
    (20.0 * peak.log10()).clamp(FLOOR_DBFS, 0.0)
}

/// The two channels in the order of the arrays below.
const CHANNELS: [Channel; 2] = [Channel::Mic, Channel::Sys];

/// Follows both channels' loudness over recorded time.
pub struct ChannelWatch {
    meeting_id: MeetingId,
    /// Recorded ms since each channel last had sound.
    quiet_ms: [i64; 2],
    state: [ChannelState; 2],
    last_report: Instant,
}

impl ChannelWatch {
    pub fn new(meeting_id: MeetingId) -> Self {
        ChannelWatch {
            meeting_id,
            quiet_ms: [0; 2],
            state: [ChannelState::Ok; 2],
            last_report: Instant::now(),
        }
    }

    /// Whether a quarter second has passed since the last report.
    pub fn due(&self) -> bool {
        self.last_report.elapsed() >= LEVELS_EVERY
    }

    /// One window: `recorded_ms` of new audio on each channel (mic, sys;
    /// each channel's own, as devices deliver in bursts) with these linear
    /// peaks. Returns the levels event, then any channel whose state changed.
    pub fn observe(&mut self, recorded_ms: [i64; 2], peaks: [f32; 2]) -> Vec<Event> {
        self.last_report = Instant::now();
        let levels = peaks.map(dbfs);
        let mut events = vec![Event::RecordingLevels(RecordingLevels {
            meeting_id: self.meeting_id.clone(),
            mic: levels[0],
            sys: levels[1],
        })];
        if recorded_ms.iter().all(|ms| *ms <= 0) {
            return events; // paused: time does not pass for the watch
        }
        for (index, level) in levels.iter().enumerate() {
            self.quiet_ms[index] = if *level < SILENCE_DBFS {
                self.quiet_ms[index] + recorded_ms[index].max(0)
            } else {
                0
            };
        }
        for index in 0..2 {
            let other_heard = self.quiet_ms[1 - index] < self.quiet_ms[index];
            let next = match self.state[index] {
                ChannelState::Failed => ChannelState::Failed,
                _ if self.quiet_ms[index] == 0 => ChannelState::Ok,
                ChannelState::Ok if self.quiet_ms[index] >= SILENT_AFTER_MS && other_heard => {
                    ChannelState::Silent
                }
                current => current,
            };
            if let Some(event) = self.set(index, next, None) {
                events.push(event);
            }
        }
        events
    }

    /// Recorded audio since either channel last had sound.
    pub fn quiet_both_ms(&self) -> i64 {
        self.quiet_ms[0].min(self.quiet_ms[1])
    }

    /// Audio of a channel was lost because the recorder fell behind its
    /// device: said at once, whatever the channel's state.
    pub fn overrun(&self, channel: Channel, lost_ms: i64) -> Event {
        let index = CHANNELS.iter().position(|c| *c == channel).unwrap_or(0);
        let side = match channel {
            Channel::Mic => "your microphone",
            Channel::Sys => "the other side",
        };
        Event::RecordingChannel(RecordingChannel {
            meeting_id: self.meeting_id.clone(),
            channel,
            state: self.state[index],
            message: Some(format!(
                "{lost_ms} ms of {side} was lost: the computer was too busy to keep up"
            )),
        })
    }

    /// A channel's stream is gone.
    pub fn failed(&mut self, channel: Channel, message: String) -> Option<Event> {
        let index = CHANNELS.iter().position(|c| *c == channel)?;
        self.set(index, ChannelState::Failed, Some(message))
    }

    fn set(&mut self, index: usize, next: ChannelState, message: Option<String>) -> Option<Event> {
        if self.state[index] == next {
            return None;
        }
        self.state[index] = next;
        let message = message.or_else(|| silent_message(CHANNELS[index], next));
        Some(Event::RecordingChannel(RecordingChannel {
            meeting_id: self.meeting_id.clone(),
            channel: CHANNELS[index],
            state: next,
            message,
        }))
    }
}

fn silent_message(channel: Channel, state: ChannelState) -> Option<String> {
    (state == ChannelState::Silent).then(|| match channel {
        Channel::Mic => "No sound from your microphone for 30 s — check the input device".into(),
        Channel::Sys => "No sound from the other side for 30 s — check the output device".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOUD: f32 = 0.3;

    fn states(events: &[Event]) -> Vec<(Channel, ChannelState)> {
        events
            .iter()
            .filter_map(|event| match event {
                Event::RecordingChannel(c) => Some((c.channel, c.state)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn levels_are_peak_dbfs_with_a_floor() {
        assert_eq!(dbfs(0.0), -100.0);
        assert!((dbfs(1.0)).abs() < 1e-6);
        assert!((dbfs(0.5) + 6.02).abs() < 0.01);
        assert_eq!(dbfs(1e-9), -100.0);
        assert_eq!(dbfs(1.0 / 32768.0), -100.0, "one 16-bit step of dither is silence");
        assert!((dbfs(0.001) + 60.0).abs() < 0.01);
    }

    #[test]
    fn a_silent_side_is_reported_after_30_s_while_the_other_speaks_and_clears_on_sound() {
        let mut watch = ChannelWatch::new("m".into());
        let mut changes = Vec::new();
        for _ in 0..119 {
            changes.extend(states(&watch.observe([250, 250], [LOUD, 0.0])));
        }
        assert!(changes.is_empty(), "29.75 s is not yet 30 s: {changes:?}");
        let at_30 = watch.observe([250, 250], [LOUD, 0.0]);
        assert_eq!(states(&at_30), [(Channel::Sys, ChannelState::Silent)]);
        let Some(Event::RecordingChannel(change)) = at_30.last() else { panic!("{at_30:?}") };
        assert!(change.message.as_deref().is_some_and(|m| m.contains("other side")));
        assert!(states(&watch.observe([250, 250], [LOUD, 0.0])).is_empty(), "reported once");
        assert_eq!(
            states(&watch.observe([250, 250], [LOUD, LOUD])),
            [(Channel::Sys, ChannelState::Ok)]
        );
    }

    #[test]
    fn both_sides_quiet_is_not_a_warning_and_pauses_do_not_count() {
        let mut watch = ChannelWatch::new("m".into());
        for _ in 0..400 {
            assert!(states(&watch.observe([250, 250], [0.0, 0.0])).is_empty());
        }
        let mut watch = ChannelWatch::new("m".into());
        for _ in 0..400 {
            let events = watch.observe([0, 0], [0.0, 0.0]);
            assert!(states(&events).is_empty(), "paused windows add no time");
            assert_eq!(events.len(), 1, "levels still reported");
        }
    }

    #[test]
    fn a_failed_channel_stays_failed() {
        let mut watch = ChannelWatch::new("m".into());
        let event = watch.failed(Channel::Mic, "gone".into());
        assert!(
            matches!(event, Some(Event::RecordingChannel(ref c)) if c.state == ChannelState::Failed && c.message.as_deref() == Some("gone"))
        );
        assert!(states(&watch.observe([250, 250], [LOUD, LOUD])).is_empty());
        assert!(watch.failed(Channel::Mic, "again".into()).is_none());
    }
}
