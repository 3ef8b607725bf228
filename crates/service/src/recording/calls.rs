//! Desktop meeting apps: while `recording.detect_meeting_apps` is on, the
//! capture crate's watcher reports the programs that open a microphone; a
//! known meeting app taking it asks the person (the record card, as the
//! extension's prompts do: 'Record without asking for' applies), and the app
//! releasing it ends the call, so the recording that came from it begins its
//! countdown ([`super::ending`]). An app that takes the microphone back within
//! the grace period (`recording.stop_after_call_ends_s`, or [`SAME_CALL`] when
//! that is 0) is in the same call: no second card, and the countdown is off;
//! one that does not has ended its call, and a card nobody answered goes
//! (`prompt.answered` `expired`).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use recorder_api_types::{Event, EventType, PromptAnswer};
use recorder_capture::calls::apps::{meeting_app, MeetingApp};
use recorder_capture::calls::{self, StreamEvent};
use recorder_domain::PromptId;
use recorder_store::{PromptRecord, PromptState};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

use super::context::RecordingContext;
use super::ending;
use super::prompts::{ask, PROMPT_LIFETIME_MS};
use crate::base::clock::now_ms;
use crate::base::titles::call_title;
use crate::state::AppState;

/// A microphone released and taken back within this is the same call, when
/// recordings do not stop at a call's end (a grace period of 0).
pub const SAME_CALL: Duration = Duration::from_secs(10);

/// How long a released microphone may stay released within one call.
fn same_call(state: &AppState) -> Duration {
    match state.effective_settings().recording.stop_after_call_ends_s {
        0 => SAME_CALL,
        seconds => Duration::from_secs(u64::from(seconds)),
    }
}

/// Watches while the setting is on, until the service shuts down.
pub async fn run(state: AppState) {
    let mut settings = state.core.events.subscribe(None).live;
    loop {
        if state.effective_settings().recording.detect_meeting_apps {
            tracing::info!("watching for meeting apps that open the microphone");
            if !follow(&state).await {
                return;
            }
            tracing::info!("no longer watching for meeting apps");
        }
        // Off: wait for the settings to change (or the shutdown).
        loop {
            tokio::select! {
                _ = state.core.shutdown.cancelled() => return,
                event = settings.recv() => match event {
                    Ok(event) if event.kind == EventType::SettingsChanged.as_str() => break,
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => return,
                },
            }
        }
    }
}

/// Follows the watcher until the setting is turned off (true) or the
/// service shuts down (false).
async fn follow(state: &AppState) -> bool {
    let Some((_watch, mut received)) = start_watch() else { return false };
    let mut settings = state.core.events.subscribe(None).live;
    let mut calls = Calls::default();
    loop {
        let withdrawal = calls.next_withdrawal();
        tokio::select! {
            _ = state.core.shutdown.cancelled() => return false,
            _ = sleep_until(withdrawal) => calls.withdraw_due(state).await,
            event = received.recv() => match event {
                Some(event) => calls.handle(state, event).await,
                None => return false,
            },
            event = settings.recv() => match event {
                Ok(event) if event.kind == EventType::SettingsChanged.as_str() => {
                    if !state.effective_settings().recording.detect_meeting_apps {
                        return true;
                    }
                }
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => return false,
            },
        }
    }
}

/// Sleeps until `at`, or for ever.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// The capture crate's watcher, its events handed to the async side.
fn start_watch() -> Option<(calls::CallWatch, UnboundedReceiver<StreamEvent>)> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let watch = match calls::watch(sender) {
        Ok(watch) => watch,
        Err(error) => {
            tracing::warn!(%error, "cannot watch for meeting apps");
            return None;
        }
    };
    let (forward, received) = unbounded_channel();
    let bridge = std::thread::Builder::new().name("call-events".into()).spawn(move || {
        for event in receiver {
            if forward.send(event).is_err() {
                return;
            }
        }
    });
    if let Err(error) = bridge {
        tracing::warn!(%error, "cannot watch for meeting apps");
        return None;
    }
    Some((watch, received))
}

/// Which meeting apps hold a microphone now.
#[derive(Default)]
struct Calls {
    /// Open capture streams of meeting apps.
    streams: HashMap<u64, &'static MeetingApp>,
    /// How many streams each app holds.
    held: HashMap<&'static str, usize>,
    /// When each app last released the microphone.
    released: HashMap<&'static str, Instant>,
    /// The card each app's call brought up, and when it goes if the app
    /// does not take the microphone back.
    cards: HashMap<&'static str, (PromptId, Option<Instant>)>,
}

impl Calls {
    async fn handle(&mut self, state: &AppState, event: StreamEvent) {
        match event {
            StreamEvent::Opened(stream) => {
                let Some(app) = meeting_app(&stream, std::process::id()) else { return };
                self.streams.insert(stream.id, app);
                let held = self.held.entry(app.source_app).or_default();
                *held += 1;
                if *held == 1 {
                    self.taken(state, app, stream.title).await;
                }
            }
            StreamEvent::Closed { id } => {
                let Some(app) = self.streams.remove(&id) else { return };
                let held = self.held.entry(app.source_app).or_default();
                *held = held.saturating_sub(1);
                if *held == 0 {
                    self.released(state, app);
                }
            }
            StreamEvent::Unavailable(reason) => {
                tracing::info!(%reason, "cannot watch for meeting apps for now; trying again");
            }
            StreamEvent::Reset => {
                // The sound server went away: every call's streams are gone.
                // Those still open come back with the next listing.
                let mut apps: Vec<&'static MeetingApp> =
                    self.streams.drain().map(|(_, app)| app).collect();
                apps.sort_by_key(|app| app.source_app);
                apps.dedup_by_key(|app| app.source_app);
                self.held.clear();
                for app in apps {
                    self.released(state, app);
                }
            }
        }
    }

    /// A meeting app took a microphone: a call began (or went on).
    async fn taken(&mut self, state: &AppState, app: &'static MeetingApp, title: Option<String>) {
        ending::call_resumed(&RecordingContext::of(state), app.source_app);
        if let Some((_, withdraw_at)) = self.cards.get_mut(app.source_app) {
            *withdraw_at = None;
        }
        let same_call =
            self.released.get(app.source_app).is_some_and(|at| at.elapsed() < same_call(state));
        if same_call || state.work.recorder.current().is_some() {
            return;
        }
        tracing::info!(source_app = app.source_app, "a meeting app opened the microphone");
        match ask(state, prompt_for(app, title)).await {
            Ok(prompt_id) => {
                self.cards.insert(app.source_app, (prompt_id, None));
            }
            Err(error) => tracing::info!(
                source_app = app.source_app,
                error = %error.message,
                "the meeting app's call was not offered for recording"
            ),
        }
    }

    /// A meeting app released every microphone: its call ended.
    fn released(&mut self, state: &AppState, app: &'static MeetingApp) {
        self.released.insert(app.source_app, Instant::now());
        if let Some((_, withdraw_at)) = self.cards.get_mut(app.source_app) {
            *withdraw_at = Some(Instant::now() + same_call(state));
        }
        ending::call_ended(&RecordingContext::of(state), app.source_app, None, false);
    }
}

impl Calls {
    fn next_withdrawal(&self) -> Option<Instant> {
        self.cards.values().filter_map(|(_, at)| *at).min()
    }

    /// Takes away the cards of calls that ended before anyone answered.
    async fn withdraw_due(&mut self, state: &AppState) {
        let now = Instant::now();
        let due: Vec<&'static str> = self
            .cards
            .iter()
            .filter(|(_, (_, at))| at.is_some_and(|at| at <= now))
            .map(|(app, _)| *app)
            .collect();
        for app in due {
            let Some((prompt_id, _)) = self.cards.remove(app) else { continue };
            let id = prompt_id.clone();
            let withdrawn = state
                .db(move |store| {
                    store.answer_prompt(&id, "expired", None).map_err(|e| {
                        crate::base::error::ApiError::internal("expiring the prompt", e)
                    })
                })
                .await;
            if matches!(withdrawn, Ok(true)) {
                tracing::info!(source_app = app, "the call ended before anyone answered its card");
                state.core.events.emit(Event::PromptAnswered(PromptAnswer {
                    prompt_id,
                    accepted: false,
                    answer: "expired".into(),
                    meeting_id: None,
                }));
            }
        }
    }
}

/// The record card's prompt for a desktop app's call.
fn prompt_for(app: &MeetingApp, title: Option<String>) -> PromptRecord {
    let now = now_ms();
    PromptRecord {
        id: PromptId::generate(),
        source_app: app.source_app.to_owned(),
        title: Some(title.unwrap_or_else(|| call_title(app.label))),
        url: None,
        attendees: Vec::new(),
        created_at: now,
        expires_at: now + PROMPT_LIFETIME_MS,
        state: PromptState::Pending,
        answer: None,
        meeting_id: None,
    }
}
