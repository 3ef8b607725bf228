//! The task store: every task the A2A server knows, its state, its answer, and
//! the fan-out of its updates to stream subscribers.
//!
//! A task runs its skill on a tokio task of its own, so a client that stops
//! waiting does not stop the skill; `cancel` aborts it. The store is bounded:
//! past its capacity it drops finished tasks older than `max_age`, then the
//! oldest finished ones; a running task is never dropped. The lock is a std
//! mutex, never held across an `.await`.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use chrono::{SecondsFormat, Utc};
use futures_util::FutureExt;
use serde_json::Value;
use tokio::sync::broadcast;
use tokio::task::AbortHandle;

use crate::skills::{Progress, SkillCall, SkillResult, SkillRunner};

/// At most this many tasks are kept (more only while they are running).
pub const CAPACITY: usize = 1_000;
/// Finished tasks older than this go first when the store is full.
pub const MAX_AGE: Duration = Duration::from_secs(3_600);

/// Room for every update of one run (submitted, working, artifact, final).
const UPDATES: usize = 16;

/// Which protocol created a task; it is answered in that protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// The early A2A protocol (`tasks/send`, `type` discriminators, `sessionId`).
    Early,
    /// A2A v0.3 (`message/send`, `kind` discriminators, `contextId`).
    V03,
    /// A2A 1.0 (`SendMessage`, parts without discriminators, `ROLE_*` and
    /// `TASK_STATE_*` enums, results wrapped as `{task}` or `{statusUpdate}`).
    V10,
}

/// The states this server uses (both dialects spell them alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    Submitted,
    Working,
    Completed,
    Failed,
    Canceled,
}

impl TaskState {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Submitted => "submitted",
            TaskState::Working => "working",
            TaskState::Completed => "completed",
            TaskState::Failed => "failed",
            TaskState::Canceled => "canceled",
        }
    }

    /// The 1.0 spelling (`TASK_STATE_WORKING`).
    pub fn as_v10(self) -> &'static str {
        match self {
            TaskState::Submitted => "TASK_STATE_SUBMITTED",
            TaskState::Working => "TASK_STATE_WORKING",
            TaskState::Completed => "TASK_STATE_COMPLETED",
            TaskState::Failed => "TASK_STATE_FAILED",
            TaskState::Canceled => "TASK_STATE_CANCELED",
        }
    }

    /// Reads either spelling (a `ListTasks` filter).
    pub fn parse(text: &str) -> Option<TaskState> {
        [
            TaskState::Submitted,
            TaskState::Working,
            TaskState::Completed,
            TaskState::Failed,
            TaskState::Canceled,
        ]
        .into_iter()
        .find(|state| state.as_str() == text || state.as_v10() == text)
    }

    pub fn is_final(self) -> bool {
        matches!(self, TaskState::Completed | TaskState::Failed | TaskState::Canceled)
    }
}

/// The answer of a completed task: the text, and the data part
/// `{ skill, meeting_ids, timestamps }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub text: String,
    pub data: Value,
}

/// A task as clients see it, at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub id: String,
    /// `sessionId` (early) or `contextId` (v0.3).
    pub context_id: String,
    pub dialect: Dialect,
    pub state: TaskState,
    /// When the state was entered (RFC 3339, UTC).
    pub timestamp: String,
    /// The agent's status message (why it failed, that it was canceled).
    pub reason: Option<Arc<str>>,
    /// The v0.3 `messageId` of the agent's status message.
    pub agent_message_id: String,
    pub answer: Option<Arc<Outcome>>,
    /// The v0.3 `artifactId` of the answer.
    pub artifact_id: String,
    /// The client's message, as kept in the history.
    pub user_message: Arc<Value>,
    /// The request's `metadata`, when it was an object.
    pub metadata: Option<Arc<Value>>,
}

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateKind {
    /// The state changed (`final` when it is a final state).
    Status,
    /// The answer is there (sent just before the `completed` status).
    Artifact,
}

/// One change of a task, as sent to its subscribers.
#[derive(Debug, Clone)]
pub struct Update {
    pub kind: UpdateKind,
    pub task: Snapshot,
}

/// What a new task is made of.
#[derive(Debug, Clone)]
pub struct NewTask {
    pub id: String,
    pub context_id: String,
    pub dialect: Dialect,
    pub user_message: Value,
    pub metadata: Option<Value>,
}

/// A task now, and the updates after that moment.
#[derive(Debug)]
pub struct Watch {
    pub task: Snapshot,
    pub updates: broadcast::Receiver<Update>,
}

/// What [`Store::launch`] did.
#[derive(Debug)]
pub enum Begun {
    /// A new run started; `task` is `submitted`.
    Started(Watch),
    /// A task with this id is still running: that one, unchanged.
    Joined(Watch),
}

/// Why [`Store::cancel`] did nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum CancelError {
    NotFound,
    /// Already in this final state.
    Final(TaskState),
}

/// What [`Store::join`] found.
#[derive(Debug)]
pub enum Joined {
    NotFound,
    Running(Watch),
    Final(Snapshot),
}

struct Record {
    task: Snapshot,
    /// Which run of this id the record holds (an id can be run again).
    run: u64,
    created: Instant,
    /// When the state last changed (the moment of `task.timestamp`).
    changed: Instant,
    finished: Option<Instant>,
    abort: Option<AbortHandle>,
    updates: broadcast::Sender<Update>,
}

impl Record {
    /// Stamps a change of state: `task.timestamp`, and `changed` to sort by.
    fn touch(&mut self) {
        self.task.timestamp = now();
        self.changed = Instant::now();
    }

    fn publish(&self, kind: UpdateKind) {
        // Nobody listening is fine.
        let _ = self.updates.send(Update { kind, task: self.task.clone() });
    }

    fn watch(&self) -> Watch {
        Watch { task: self.task.clone(), updates: self.updates.subscribe() }
    }
}

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, Record>,
    runs: u64,
}

/// The tasks, shared by every request.
pub struct Store {
    inner: Mutex<Inner>,
    capacity: usize,
    max_age: Duration,
}

impl Default for Store {
    fn default() -> Store {
        Store::new(CAPACITY, MAX_AGE)
    }
}

/// A fresh id (tasks, contexts, messages, artifacts).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

impl Store {
    pub fn new(capacity: usize, max_age: Duration) -> Store {
        Store { inner: Mutex::new(Inner::default()), capacity, max_age }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many tasks are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().tasks.len()
    }

    /// Every task of `dialect`, the most recently updated first: sorted by
    /// the time of the status (1.0 §3.1.4, "sorted by their status timestamp
    /// time in descending order"), then by creation, newest first.
    pub fn list(&self, dialect: Dialect) -> Vec<Snapshot> {
        let inner = self.lock();
        let mut found: Vec<((Instant, Instant), Snapshot)> = inner
            .tasks
            .values()
            .filter(|record| record.task.dialect == dialect)
            .map(|record| ((record.changed, record.created), record.task.clone()))
            .collect();
        found.sort_by_key(|(when, _)| std::cmp::Reverse(*when));
        found.into_iter().map(|(_, task)| task).collect()
    }

    pub fn get(&self, id: &str) -> Option<Snapshot> {
        self.lock().tasks.get(id).map(|record| record.task.clone())
    }

    /// The task now and the updates after that moment.
    pub fn watch(&self, id: &str) -> Option<Watch> {
        self.lock().tasks.get(id).map(Record::watch)
    }

    /// A task to follow, if it is still running.
    pub fn join(&self, id: &str) -> Joined {
        match self.lock().tasks.get(id) {
            None => Joined::NotFound,
            Some(record) if record.task.state.is_final() => Joined::Final(record.task.clone()),
            Some(record) => Joined::Running(record.watch()),
        }
    }

    /// Starts running `call` as task `new.id`, unless a task with that id is
    /// still running (then that task is returned, and `call` is dropped). A
    /// finished task with that id is replaced by the new run.
    pub fn launch(
        self: &Arc<Self>,
        runner: Arc<dyn SkillRunner>,
        call: SkillCall,
        new: NewTask,
    ) -> Begun {
        let (watch, run) = {
            let mut inner = self.lock();
            if let Some(record) = inner.tasks.get(&new.id) {
                if !record.task.state.is_final() {
                    return Begun::Joined(record.watch());
                }
            }
            inner.runs += 1;
            let run = inner.runs;
            let (updates, receiver) = broadcast::channel(UPDATES);
            let task = Snapshot {
                id: new.id.clone(),
                context_id: new.context_id,
                dialect: new.dialect,
                state: TaskState::Submitted,
                timestamp: now(),
                reason: None,
                agent_message_id: new_id(),
                answer: None,
                artifact_id: new_id(),
                user_message: Arc::new(new.user_message),
                metadata: new.metadata.map(Arc::new),
            };
            let watch = Watch { task: task.clone(), updates: receiver };
            // A new channel: its only receiver is the caller's, which starts
            // after `submitted` (the state `watch.task` shows).
            let created = Instant::now();
            let record = Record {
                task,
                run,
                created,
                changed: created,
                finished: None,
                abort: None,
                updates,
            };
            inner.tasks.insert(new.id.clone(), record);
            self.evict(&mut inner, Instant::now());
            (watch, run)
        };
        let store = Arc::clone(self);
        let id = new.id.clone();
        let progress = self.progress(&id, run);
        let handle = tokio::spawn(async move {
            store.set_working(&id, run);
            let result = AssertUnwindSafe(runner.run(call, progress)).catch_unwind().await;
            let result = result.unwrap_or_else(|_| {
                Err(crate::skills::SkillError::Failed(
                    "Internal error: the skill stopped unexpectedly.".to_string(),
                ))
            });
            store.finish(&id, run, result);
        });
        self.attach(&new.id, run, handle.abort_handle());
        Begun::Started(watch)
    }

    /// Keeps the handle that aborts run `run`, or aborts it at once when the
    /// run is already over (canceled before the handle arrived).
    fn attach(&self, id: &str, run: u64, abort: AbortHandle) {
        let mut inner = self.lock();
        match inner.tasks.get_mut(id) {
            Some(record) if record.run == run && !record.task.state.is_final() => {
                record.abort = Some(abort);
            }
            Some(record) if record.run == run && record.task.state == TaskState::Canceled => {
                abort.abort();
            }
            _ => {}
        }
    }

    fn set_working(&self, id: &str, run: u64) {
        let mut inner = self.lock();
        if let Some(record) = inner.tasks.get_mut(id) {
            if record.run == run && record.task.state == TaskState::Submitted {
                record.task.state = TaskState::Working;
                record.touch();
                record.publish(UpdateKind::Status);
            }
        }
    }

    /// Where run `run` of task `id` reports its steps: each one is a `working`
    /// status update whose message says what is happening.
    fn progress(self: &Arc<Self>, id: &str, run: u64) -> Progress {
        let store = Arc::downgrade(self);
        let id = id.to_string();
        Progress::to(move |step| {
            if let Some(store) = store.upgrade() {
                store.set_step(&id, run, &step.message);
            }
        })
    }

    fn set_step(&self, id: &str, run: u64, message: &str) {
        let mut inner = self.lock();
        if let Some(record) = inner.tasks.get_mut(id) {
            if record.run == run && !record.task.state.is_final() {
                record.task.state = TaskState::Working;
                record.touch();
                record.task.reason = Some(Arc::from(message));
                record.task.agent_message_id = new_id();
                record.publish(UpdateKind::Status);
            }
        }
    }

    /// Records the skill's result, unless the run was canceled (or replaced).
    fn finish(&self, id: &str, run: u64, result: SkillResult) {
        let mut inner = self.lock();
        let Some(record) = inner.tasks.get_mut(id) else { return };
        if record.run != run || record.task.state.is_final() {
            return;
        }
        record.abort = None;
        record.finished = Some(Instant::now());
        record.touch();
        match result {
            Ok(answer) => {
                let data = answer.data_part();
                record.task.state = TaskState::Completed;
                record.task.reason = None;
                record.task.answer = Some(Arc::new(Outcome { text: answer.text, data }));
                record.publish(UpdateKind::Artifact);
            }
            Err(error) => {
                record.task.state = TaskState::Failed;
                record.task.reason = Some(Arc::from(error.to_string()));
            }
        }
        record.publish(UpdateKind::Status);
    }

    /// Cancels a task that is not in a final state, aborting its skill.
    pub fn cancel(&self, id: &str) -> Result<Snapshot, CancelError> {
        let mut inner = self.lock();
        let record = inner.tasks.get_mut(id).ok_or(CancelError::NotFound)?;
        if record.task.state.is_final() {
            return Err(CancelError::Final(record.task.state));
        }
        if let Some(abort) = record.abort.take() {
            abort.abort();
        }
        record.finished = Some(Instant::now());
        record.task.state = TaskState::Canceled;
        record.touch();
        record.task.reason = Some(Arc::from("The task was canceled at the client's request."));
        record.publish(UpdateKind::Status);
        Ok(record.task.clone())
    }

    /// Drops every finished task older than `max_age`, then, past the capacity,
    /// the oldest finished tasks until the store fits. Running tasks stay.
    fn evict(&self, inner: &mut Inner, now: Instant) {
        let max_age = self.max_age;
        inner.tasks.retain(|_, record| {
            record.finished.is_none_or(|finished| now.saturating_duration_since(finished) < max_age)
        });
        let excess = inner.tasks.len().saturating_sub(self.capacity);
        if excess == 0 {
            return;
        }
        let mut finished: Vec<(Instant, Instant, String)> = inner
            .tasks
            .iter()
            .filter_map(|(id, record)| record.finished.map(|at| (at, record.created, id.clone())))
            .collect();
        finished.sort();
        for (_, _, id) in finished.into_iter().take(excess) {
            inner.tasks.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn snapshot(id: &str, state: TaskState) -> Snapshot {
        Snapshot {
            id: id.to_string(),
            context_id: "c".into(),
            dialect: Dialect::Early,
            state,
            timestamp: now(),
            reason: None,
            agent_message_id: new_id(),
            answer: None,
            artifact_id: new_id(),
            user_message: Arc::new(json!({})),
            metadata: None,
        }
    }

    /// Puts a task in the store as if it had finished `age` ago (or still runs).
    fn put(store: &Store, id: &str, age: Option<Duration>) {
        let mut inner = store.lock();
        inner.runs += 1;
        let run = inner.runs;
        let now = Instant::now();
        let finished = age.map(|age| now.checked_sub(age).unwrap_or(now));
        let state = if finished.is_some() { TaskState::Completed } else { TaskState::Working };
        let (updates, _) = broadcast::channel(UPDATES);
        let record = Record {
            task: snapshot(id, state),
            run,
            created: finished.unwrap_or(now),
            changed: finished.unwrap_or(now),
            finished,
            abort: None,
            updates,
        };
        inner.tasks.insert(id.to_string(), record);
        store.evict(&mut inner, now);
    }

    #[test]
    fn eviction_keeps_the_bound_and_running_tasks() {
        let store = Store::new(4, Duration::from_secs(3_600));
        put(&store, "old-1", Some(Duration::from_secs(7_200)));
        // Finished tasks older than an hour go at once, whatever the count.
        assert_eq!(store.len(), 0);
        put(&store, "recent-1", Some(Duration::from_secs(60)));
        put(&store, "running-1", None);
        put(&store, "recent-2", Some(Duration::from_secs(30)));
        assert_eq!(store.len(), 3);
        assert!(store.get("old-1").is_none());
        put(&store, "running-2", None);
        // Then the oldest finished.
        put(&store, "running-3", None);
        assert_eq!(store.len(), 4);
        assert!(store.get("recent-1").is_none());
        assert!(store.get("recent-2").is_some());
        // Running tasks are never dropped, even past the bound.
        put(&store, "running-4", None);
        put(&store, "running-5", None);
        assert_eq!(store.len(), 5);
        assert!(store.get("recent-2").is_none());
        for id in ["running-1", "running-2", "running-3", "running-4", "running-5"] {
            assert!(store.get(id).is_some(), "{id} kept");
        }
    }

    #[test]
    fn default_bound_is_a_thousand() {
        let store = Store::default();
        for n in 0..1_005 {
            put(&store, &format!("t{n}"), Some(Duration::from_secs(1_005 - n)));
        }
        assert_eq!(store.len(), CAPACITY);
        assert!(store.get("t0").is_none() && store.get("t1004").is_some());
    }

    #[test]
    fn cancel_rules() {
        let store = Store::default();
        put(&store, "done", Some(Duration::from_secs(1)));
        put(&store, "busy", None);
        assert_eq!(store.cancel("nope").expect_err("unknown"), CancelError::NotFound);
        assert_eq!(
            store.cancel("done").expect_err("finished"),
            CancelError::Final(TaskState::Completed)
        );
        assert_eq!(store.cancel("busy").expect("running").state, TaskState::Canceled);
        assert_eq!(
            store.cancel("busy").expect_err("canceled"),
            CancelError::Final(TaskState::Canceled)
        );
    }
}
