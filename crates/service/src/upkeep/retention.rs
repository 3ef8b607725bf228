//! The retention sweeper: removes audio files older than 'Keep audio files' and
//! meetings older than 'Delete meetings after', both as capped by
//! MaxRetentionDays (the effective settings). Runs at start-up, every hour, and
//! soon after the retention settings change. Starred meetings are never deleted.

use std::time::Duration;

use recorder_api_types::{Event, MeetingRef};
use recorder_domain::MeetingId;
use recorder_settings::Settings;
use recorder_store::RetentionCutoffs;

use crate::base::clock::now_ms;
use crate::state::{AppState, Core};
use crate::upkeep::blocking;

const DAY_MS: i64 = 86_400_000;

/// What one sweep removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub audio: usize,
    pub meetings: usize,
}

/// The instants before which audio and meetings are due, from the effective
/// settings (null days = Forever).
pub fn cutoffs(settings: &Settings, now: i64) -> RetentionCutoffs {
    let before = |days: Option<i64>| days.map(|days| now - days * DAY_MS);
    RetentionCutoffs {
        audio_before: before(settings.retention.keep_audio_days),
        meetings_before: before(settings.retention.delete_meetings_after_days),
    }
}

/// Sweeps at start-up, then every `period` or when woken, until shutdown.
pub async fn run(state: AppState, period: Duration) {
    loop {
        let swept = sweep(&state, now_ms()).await;
        if swept != Swept::default() {
            tracing::info!(
                audio = swept.audio,
                meetings = swept.meetings,
                "retention: removed expired audio and meetings"
            );
        }
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = state.work.retention.notified() => {}
            _ = tokio::time::sleep(period) => {}
        }
    }
}

/// One sweep at `now`.
pub async fn sweep(state: &AppState, now: i64) -> Swept {
    let cutoffs = cutoffs(&state.effective_settings(), now);
    if cutoffs == RetentionCutoffs::default() {
        return Swept::default();
    }
    let Some(due) = blocking(state, "retention: reading what is due", move |store| {
        store.retention_due(cutoffs)
    })
    .await
    else {
        return Swept::default();
    };
    let mut swept = Swept::default();
    for id in due.meetings {
        let before = cutoffs.meetings_before.unwrap_or(i64::MIN);
        if delete_meeting(state, &id, before).await {
            swept.meetings += 1;
        }
    }
    for id in due.audio {
        if remove_audio(state, &id, now).await {
            swept.audio += 1;
        }
    }
    swept
}

/// Deletes one expired meeting: rows first, then its folder, then the event.
async fn delete_meeting(state: &AppState, id: &MeetingId, before: i64) -> bool {
    let meeting_id = id.to_owned();
    let deleted = blocking(state, "retention: deleting a meeting", move |store| {
        store.delete_expired_meeting(&meeting_id, before)
    });
    if deleted.await != Some(true) {
        return false;
    }
    remove_meeting_folder(&state.core, id).await;
    tracing::info!(meeting_id = %id, "retention: deleted a meeting older than its retention");
    state.core.events.emit(Event::MeetingDeleted(MeetingRef { meeting_id: id.to_owned() }));
    true
}

/// Removes one meeting's audio files and notes it; the meeting stays. Files
/// that cannot be removed leave the meeting unmarked, so the next sweep tries
/// again (and the app never says audio is gone while it is still on disk).
async fn remove_audio(state: &AppState, id: &MeetingId, now: i64) -> bool {
    if !remove_meeting_folder(&state.core, id).await {
        return false;
    }
    let meeting_id = id.to_owned();
    let marked = blocking(state, "retention: noting removed audio", move |store| {
        store.mark_audio_removed(&meeting_id, now)
    });
    if marked.await.is_none() {
        return false;
    }
    tracing::info!(meeting_id = %id, "retention: removed audio older than its retention");
    state.core.events.emit(Event::meeting_changed(id));
    true
}

/// Removes `meetings/<id>/` (after the rows are gone, or by retention); whether
/// it is gone. A failure is logged.
pub async fn remove_meeting_folder(core: &Core, id: &MeetingId) -> bool {
    let folder = core.data_dir.meeting(id);
    let result = tokio::task::spawn_blocking(move || match std::fs::remove_dir_all(&folder) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    })
    .await;
    match result {
        Ok(Ok(())) => true,
        Ok(Err(error)) => {
            tracing::error!(%error, meeting_id = %id, "could not remove the meeting's audio folder");
            false
        }
        Err(error) => {
            tracing::error!(%error, meeting_id = %id, "audio removal task failed");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_settings::SettingsDocument;
    use serde_json::json;

    #[test]
    fn cutoffs_count_whole_days_back_from_now() {
        let document = SettingsDocument::from_value(recorder_settings::defaults())
            .and_then(|d| d.patched(&json!({"retention": {"keep_audio_days": 7}})))
            .expect("settings");
        let now = 100 * DAY_MS;
        let cutoffs = cutoffs(document.typed(), now);
        assert_eq!(cutoffs.audio_before, Some(93 * DAY_MS));
        assert_eq!(cutoffs.meetings_before, None, "Forever");
    }
}
