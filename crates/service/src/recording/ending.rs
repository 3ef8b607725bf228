//! Recordings that end by themselves, and the microphone muted.
//!
//! A recording started from a prompt follows its call ([`CallOrigin`]): when
//! the call ends (the desktop app released the microphone, or the extension
//! reports it with `POST /v1/recording/ended`), a countdown of
//! `recording.stop_after_call_ends_s` begins (`recording.ending`), and the
//! session thread stops the recording when it runs out (`call_ended`). Any
//! recording with both channels silent for `recording.stop_after_silence_min`
//! gets a countdown too, counted in recorded audio (`silence`). The person
//! calls a countdown off with Keep recording; the app taking the microphone
//! back calls off its call's countdown.

use std::sync::atomic::Ordering;

use recorder_api_types::{
    EndingReason, Event, MarkerAdded, RecordingEnding, RecordingMuted, StopReason,
};
use recorder_domain::{MarkerId, MeetingId};
use recorder_store::MarkerRecord;

use super::context::RecordingContext;
use super::countdown::{CallOrigin, Countdown};
use super::recorder::Control;
use crate::base::clock::now_ms;

/// How long the silence countdown lasts, in recorded audio.
pub const SILENCE_WARNING_MS: i64 = 30_000;

impl Control {
    /// The call the recording follows, until the person keeps it.
    pub fn following(&self) -> Option<&CallOrigin> {
        self.origin.as_ref().filter(|_| self.follows_call.load(Ordering::Relaxed))
    }

    pub fn muted(&self) -> bool {
        self.muted.load(Ordering::Relaxed)
    }

    /// Asks the session to mute (or unmute) the microphone channel.
    pub fn set_muted(&self, muted: bool) {
        self.muted.store(muted, Ordering::Relaxed);
    }

    pub fn countdown(&self) -> Option<Countdown> {
        self.ending.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Begins a countdown unless one runs already (a call's end replaces a
    /// silence countdown: the call is the firmer reason); returns it when it began.
    fn begin(&self, countdown: Countdown) -> Option<Countdown> {
        let mut ending = self.ending.lock().unwrap_or_else(|p| p.into_inner());
        let replaces_silence = countdown.reason == EndingReason::CallEnded
            && ending.as_ref().is_some_and(|running| running.reason == EndingReason::Silence);
        if ending.is_some() && !replaces_silence {
            return None;
        }
        *ending = Some(countdown.clone());
        Some(countdown)
    }

    /// Calls off the countdown if `which` says so; returns the one called off.
    fn call_off(&self, which: impl Fn(&Countdown) -> bool) -> Option<Countdown> {
        let mut ending = self.ending.lock().unwrap_or_else(|p| p.into_inner());
        if ending.as_ref().is_some_and(which) {
            return ending.take();
        }
        None
    }

    /// The call's countdown has run out: the reason to stop.
    /// Checked every tick of the session thread: looks, without a copy.
    pub(super) fn call_countdown_over(&self, now: i64) -> bool {
        let ending = self.ending.lock().unwrap_or_else(|p| p.into_inner());
        ending.as_ref().is_some_and(|c| c.reason == EndingReason::CallEnded && c.stops_at <= now)
    }

    /// Asks the session to stop, saying why.
    pub(super) fn stop_because(&self, reason: StopReason) {
        let mut chosen = self.reason.lock().unwrap_or_else(|p| p.into_inner());
        chosen.get_or_insert(reason);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Why the recording stopped: what asked first; a person by default.
    pub(super) fn stop_reason(&self) -> StopReason {
        self.reason.lock().unwrap_or_else(|p| p.into_inner()).unwrap_or(StopReason::Person)
    }
}

fn emit(context: &RecordingContext, meeting_id: &MeetingId, countdown: &Countdown, on: bool) {
    context.events().emit(Event::RecordingEnding(RecordingEnding {
        meeting_id: meeting_id.clone(),
        reason: countdown.reason,
        stops_at: on.then_some(countdown.stops_at),
        source_app: countdown.source_app.clone(),
    }));
}

/// The call of `source_app` ended: the recording that follows it (matched
/// by `url` when the report gives one) begins its countdown. Returns the
/// recording and when it stops; None when this concerns no recording or the
/// setting says never.
pub fn call_ended(
    context: &RecordingContext,
    source_app: &str,
    url: Option<&str>,
    from_extension: bool,
) -> Option<(MeetingId, i64)> {
    let current = context.recorder().current()?;
    let origin = current.control.following()?;
    let same_call = origin.source_app.eq_ignore_ascii_case(source_app)
        && if from_extension {
            origin.url.is_some() && url.is_none_or(|url| origin.url.as_deref() == Some(url))
        } else {
            origin.url.is_none()
        };
    let grace_s = context.effective_settings().recording.stop_after_call_ends_s;
    if !same_call || grace_s == 0 {
        return None;
    }
    let countdown = Countdown {
        reason: EndingReason::CallEnded,
        stops_at: now_ms() + i64::from(grace_s) * 1000,
        source_app: Some(origin.source_app.clone()),
    };
    match current.control.begin(countdown) {
        Some(begun) => {
            tracing::info!(source_app, grace_s, "the call ended: the recording stops unless kept");
            emit(context, &current.meeting_id, &begun, true);
            Some((current.meeting_id, begun.stops_at))
        }
        None => current
            .control
            .countdown()
            .filter(|running| running.reason == EndingReason::CallEnded)
            .map(|running| (current.meeting_id.clone(), running.stops_at)),
    }
}

/// The desktop app took the microphone back: its call goes on.
pub fn call_resumed(context: &RecordingContext, source_app: &str) {
    let Some(current) = context.recorder().current() else { return };
    let called_off = current.control.call_off(|countdown| {
        countdown.reason == EndingReason::CallEnded
            && countdown
                .source_app
                .as_deref()
                .is_some_and(|app| app.eq_ignore_ascii_case(source_app))
    });
    if let Some(countdown) = called_off {
        tracing::info!(source_app, "the call went on: the recording goes on");
        emit(context, &current.meeting_id, &countdown, false);
    }
}

/// The call a recording follows was joined again (the extension prompts
/// for the same page while the countdown runs): its countdown is off.
pub fn call_rejoined(context: &RecordingContext, source_app: &str, url: Option<&str>) {
    let Some(current) = context.recorder().current() else { return };
    let Some(origin) = current.control.following() else { return };
    if !origin.source_app.eq_ignore_ascii_case(source_app)
        || url.is_none()
        || origin.url.as_deref() != url
    {
        return;
    }
    if let Some(countdown) =
        current.control.call_off(|countdown| countdown.reason == EndingReason::CallEnded)
    {
        tracing::info!(source_app, "the call was joined again: the recording goes on");
        emit(context, &current.meeting_id, &countdown, false);
    }
}

/// Keep recording: calls off any countdown; the recording no longer
/// follows its call, and silence is counted again from now.
pub fn keep(context: &RecordingContext) -> Option<MeetingId> {
    let current = context.recorder().current()?;
    current.control.follows_call.store(false, Ordering::Relaxed);
    current.control.silence_kept.store(true, Ordering::Relaxed);
    if let Some(countdown) = current.control.call_off(|_| true) {
        emit(context, &current.meeting_id, &countdown, false);
    }
    Some(current.meeting_id)
}

/// The microphone muted or on, as the session thread applies it: the
/// moment is marked at the microphone channel's own position ("Microphone
/// muted" / "Microphone on"), so the transcript and the audio show the gap,
/// and `recording.muted` is told.
pub fn mark_muted(context: &RecordingContext, meeting_id: &MeetingId, muted: bool, at_ms: i64) {
    let label = if muted { "Microphone muted" } else { "Microphone on" };
    let marker = MarkerRecord { id: MarkerId::generate(), at_ms, label: label.to_owned() };
    match context.store().insert_marker(meeting_id, &marker) {
        Ok(_) => context.events().emit(Event::MarkerAdded(MarkerAdded {
            id: marker.id,
            at_ms,
            label: marker.label,
            meeting_id: meeting_id.clone(),
        })),
        Err(error) => tracing::warn!(%error, "could not mark the microphone muted or on"),
    }
    context
        .events()
        .emit(Event::RecordingMuted(RecordingMuted { meeting_id: meeting_id.clone(), muted }));
}

/// The silence stop, on the session thread: counts recorded audio in which
/// both channels were silent.
#[derive(Default)]
pub struct SilenceStop {
    /// Silence before the person last kept the recording does not count.
    kept_at_quiet_ms: i64,
}

impl SilenceStop {
    /// `quiet_ms`: recorded audio since either channel last had sound.
    /// Returns true once the recording should stop.
    pub fn check(
        &mut self,
        context: &RecordingContext,
        control: &Control,
        meeting_id: &MeetingId,
        quiet_ms: i64,
    ) -> bool {
        if control.silence_kept.swap(false, Ordering::Relaxed) {
            self.kept_at_quiet_ms = quiet_ms;
        } else if quiet_ms < self.kept_at_quiet_ms {
            self.kept_at_quiet_ms = 0; // sound came back since
        }
        let quiet = quiet_ms - self.kept_at_quiet_ms;
        let minutes = context.effective_settings().recording.stop_after_silence_min;
        let limit = i64::from(minutes) * 60_000;
        if minutes > 0 && quiet >= limit + SILENCE_WARNING_MS {
            return true;
        }
        if minutes > 0 && quiet >= limit {
            let countdown = Countdown {
                reason: EndingReason::Silence,
                stops_at: now_ms() + (limit + SILENCE_WARNING_MS - quiet),
                source_app: None,
            };
            if let Some(begun) = control.begin(countdown) {
                let recorded_ms = control.recorded_ms();
                tracing::info!(
                    minutes,
                    quiet_ms,
                    recorded_ms,
                    "nothing heard: the recording stops unless kept"
                );
                emit(context, meeting_id, &begun, true);
            }
        } else if let Some(countdown) = control.call_off(|c| c.reason == EndingReason::Silence) {
            emit(context, meeting_id, &countdown, false);
        }
        false
    }
}
