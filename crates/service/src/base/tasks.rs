//! Background components. Each runs until the shared shutdown token is cancelled.

use std::sync::Arc;
use std::time::Duration;

use recorder_api_types::{Event, PromptAnswer};

use crate::base::clock::now_ms;
use crate::state::{AppState, Core};

/// Re-reads managed policy periodically (at launch it was read by `bind`); a new
/// retention cap takes effect at once.
pub async fn refresh_policy(state: AppState, period: Duration) {
    let changed = || state.work.retention.wake();
    state.config.policy.refresh_periodically(period, state.core.shutdown.clone(), changed).await;
}

/// Expires unanswered record prompts after 60 s with `prompt.answered`.
pub async fn expire_prompts(core: Arc<Core>) {
    let mut ticker = tokio::time::interval(Duration::from_millis(500));
    loop {
        tokio::select! {
            _ = core.shutdown.cancelled() => return,
            _ = ticker.tick() => {}
        }
        let store = core.store.clone();
        let expired = tokio::task::spawn_blocking(move || store.expire_prompts(now_ms())).await;
        match expired {
            Ok(Ok(prompts)) => {
                for prompt in prompts {
                    core.events.emit(Event::PromptAnswered(PromptAnswer {
                        prompt_id: prompt.id,
                        accepted: false,
                        answer: "expired".into(),
                        meeting_id: None,
                    }));
                }
            }
            Ok(Err(error)) => tracing::error!(%error, "could not expire prompts"),
            Err(error) => tracing::error!(%error, "prompt expiry task failed"),
        }
    }
}

/// Finishes recordings whose end a full disk (or another refusal of the
/// database) kept from being saved, as soon as the database takes it.
pub async fn finish_stranded_recordings(state: AppState) {
    let mut ticker = tokio::time::interval(Duration::from_secs(2));
    loop {
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = ticker.tick() => {}
        }
        crate::recording::finish_stranded(&state).await;
    }
}

/// A loaded model takes hundreds of MB: it is freed after a quiet period
/// (never during a recording) and loaded again when next needed.
pub async fn unload_idle_model(state: AppState) {
    const QUIET: Duration = Duration::from_secs(120);
    let mut ticker = tokio::time::interval(Duration::from_secs(10));
    loop {
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return,
            _ = ticker.tick() => {}
        }
        if state.work.recorder.current().is_none() && state.models.engine.unload_if_idle(QUIET) {
            tracing::info!("transcription model unloaded after {} s without use", QUIET.as_secs());
        }
    }
}
