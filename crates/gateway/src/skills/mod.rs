//! The twelve skills (MCP tools and A2A skills share them): what each one asks
//! the local API, and the answer it gives back, written for a person, with the
//! meetings and moments it used.

mod actions;
mod args;
mod ask;
mod changes;
mod items;
mod meetings;
mod progress;
mod recording;
pub mod text;

use std::future::Future;
use std::pin::Pin;

use recorder_client::{Client, ClientError};
use serde::Serialize;
use serde_json::{json, Value};

pub use args::{parse_args, MAX_QUESTION};
pub use progress::{Progress, Step};

/// One skill of the gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skill {
    ListMeetings,
    GetMeeting,
    GetTranscript,
    SearchMeetings,
    Ask,
    GetActionItems,
    AddActionItem,
    UpdateActionItem,
    RegenerateNotes,
    StartRecording,
    StopRecording,
    AddMarker,
}

impl Skill {
    pub const ALL: [Skill; 12] = [
        Skill::ListMeetings,
        Skill::GetMeeting,
        Skill::GetTranscript,
        Skill::SearchMeetings,
        Skill::Ask,
        Skill::GetActionItems,
        Skill::AddActionItem,
        Skill::UpdateActionItem,
        Skill::RegenerateNotes,
        Skill::StartRecording,
        Skill::StopRecording,
        Skill::AddMarker,
    ];

    /// The A2A skill id; also the MCP tool name, but for `ask` ([`Skill::tool_name`]).
    pub fn name(self) -> &'static str {
        match self {
            Skill::ListMeetings => "list_meetings",
            Skill::GetMeeting => "get_meeting",
            Skill::GetTranscript => "get_transcript",
            Skill::SearchMeetings => "search_meetings",
            Skill::Ask => "ask",
            Skill::GetActionItems => "get_action_items",
            Skill::AddActionItem => "add_action_item",
            Skill::UpdateActionItem => "update_action_item",
            Skill::RegenerateNotes => "regenerate_notes",
            Skill::StartRecording => "start_recording",
            Skill::StopRecording => "stop_recording",
            Skill::AddMarker => "add_marker",
        }
    }

    /// The MCP tool name: the contract names the tool `ask_meetings` and the
    /// A2A skill `ask`; every other skill has one name.
    pub fn tool_name(self) -> &'static str {
        match self {
            Skill::Ask => "ask_meetings",
            other => other.name(),
        }
    }

    /// A skill named by its A2A id or its MCP tool name.
    pub fn from_name(name: &str) -> Option<Skill> {
        Skill::ALL.into_iter().find(|skill| skill.name() == name || skill.tool_name() == name)
    }

    /// A skill named by its MCP tool name only.
    pub fn from_tool_name(name: &str) -> Option<Skill> {
        Skill::ALL.into_iter().find(|skill| skill.tool_name() == name)
    }
}

/// A skill with its arguments (a JSON object, checked by [`SkillCall::new`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SkillCall {
    pub skill: Skill,
    pub args: Value,
    /// The agent's own client name (an MCP host's `clientInfo.name`), sent to
    /// the service as `X-Recorder-Agent` so that its history names the
    /// changes `agent:<name>`; `None`: the service writes `agent:gateway`.
    pub agent: Option<String>,
}

impl SkillCall {
    /// Checks `args` against the skill's arguments (`null` counts as `{}`).
    pub fn new(skill: Skill, args: Value) -> Result<SkillCall, SkillError> {
        let args = if args.is_null() { json!({}) } else { args };
        parse_args(skill, &args)?;
        Ok(SkillCall { skill, args, agent: None })
    }

    /// The same call, made for the agent named `agent` (when it has a name).
    pub fn for_agent(mut self, agent: Option<String>) -> SkillCall {
        self.agent = agent.filter(|name| !name.trim().is_empty());
        self
    }

    /// A call named by a string, as agents send it.
    pub fn named(name: &str, args: Value) -> Result<SkillCall, SkillError> {
        let skill = Skill::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Skill::ALL.iter().map(|s| s.name()).collect();
            SkillError::InvalidArguments(format!(
                "unknown skill `{name}`; the skills are {}",
                names.join(", ")
            ))
        })?;
        SkillCall::new(skill, args)
    }
}

/// A moment or meeting an answer used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timestamp {
    pub meeting_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<i64>,
}

/// The meetings and moments an answer was built from.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Used {
    pub meeting_ids: Vec<String>,
    pub timestamps: Vec<Timestamp>,
}

impl Used {
    pub fn meeting(&mut self, id: &str) {
        if !self.meeting_ids.iter().any(|known| known == id) {
            self.meeting_ids.push(id.to_string());
        }
    }

    pub fn moment(&mut self, timestamp: Timestamp) {
        self.meeting(&timestamp.meeting_id.clone());
        self.timestamps.push(timestamp);
    }
}

/// What a skill answers: text for a person, structured data for a program.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub skill: Skill,
    pub text: String,
    /// A JSON object: the skill's result (MCP `structuredContent` adds `used`).
    pub result: Value,
    pub used: Used,
}

impl Answer {
    /// The A2A data part: `{ skill, meeting_ids, timestamps }`, plus the
    /// result's `citations` when it has them (`ask`).
    pub fn data_part(&self) -> Value {
        let mut data = json!({
            "skill": self.skill.name(),
            "meeting_ids": self.used.meeting_ids,
            "timestamps": self.used.timestamps,
        });
        if let Some(citations) = self.result.get("citations") {
            data["citations"] = citations.clone();
        }
        data
    }

    /// MCP `structuredContent`: the result plus `skill` (the tool's name),
    /// `meeting_ids`, `timestamps`.
    pub fn structured(&self) -> Value {
        let mut object = match &self.result {
            Value::Object(map) => map.clone(),
            other => {
                let mut map = serde_json::Map::new();
                map.insert("result".into(), other.clone());
                map
            }
        };
        if let Value::Object(data) = self.data_part() {
            object.extend(data);
        }
        object.insert("skill".into(), json!(self.skill.tool_name()));
        Value::Object(object)
    }
}

/// Which gate refused an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    Plan,
    Policy,
    Setting,
    State,
}

impl Gate {
    pub fn name(self) -> &'static str {
        match self {
            Gate::Plan => "plan",
            Gate::Policy => "policy",
            Gate::Setting => "setting",
            Gate::State => "state",
        }
    }
}

/// Why a skill gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SkillError {
    /// The service refused: Pro plan, managed policy, a setting, or the state
    /// (already recording, nothing to stop, meeting busy).
    #[error("{message}")]
    Refused { gate: Gate, code: String, message: String },
    /// The arguments do not fit the skill (unknown skill, wrong type, bad value).
    #[error("{0}")]
    InvalidArguments(String),
    /// No such meeting.
    #[error("{0}")]
    NotFound(String),
    /// The service is not running, or cannot do it now (no model installed).
    #[error("{0}")]
    Unavailable(String),
    /// Anything else: the service answered something unexpected.
    #[error("{0}")]
    Failed(String),
}

impl SkillError {
    /// A short machine-readable code (the service's `error.code` when it gave one).
    pub fn code(&self) -> &str {
        match self {
            SkillError::Refused { code, .. } => code,
            SkillError::InvalidArguments(_) => "invalid_arguments",
            SkillError::NotFound(_) => "not_found",
            SkillError::Unavailable(_) => "unavailable",
            SkillError::Failed(_) => "failed",
        }
    }

    /// `{ code, gate?, message }`, for MCP `structuredContent` of a tool error.
    pub fn to_json(&self) -> Value {
        let mut value = json!({ "code": self.code(), "message": self.to_string() });
        if let SkillError::Refused { gate, .. } = self {
            value["gate"] = json!(gate.name());
        }
        json!({ "error": value })
    }

    /// Turns a service error into the reason a person reads, prefixed by `doing`
    /// ("Cannot start a recording").
    pub fn from_client(doing: &str, error: ClientError) -> SkillError {
        let (status, code, message) = match error {
            ClientError::Api { status, code, message } => (status, code, message),
            ClientError::Unreachable(_)
            | ClientError::NotLoopback(_)
            | ClientError::Impostor(_) => return SkillError::Unavailable(error.to_string()),
            ClientError::Decode(detail) => {
                return SkillError::Failed(format!("{doing}: unexpected answer: {detail}"))
            }
        };
        let gate = match code.as_str() {
            "pro_required" => Some(Gate::Plan),
            "policy_denied" => Some(Gate::Policy),
            "remote_start_disabled" => Some(Gate::Setting),
            "already_recording" | "not_recording" | "meeting_busy" => Some(Gate::State),
            _ => None,
        };
        let text = format!("{doing}: {}", refusal_text(&code, &message));
        match (gate, status) {
            (Some(gate), _) => SkillError::Refused { gate, code, message: text },
            (None, 404) => SkillError::NotFound(text),
            (None, 400) => SkillError::InvalidArguments(text),
            (None, 503) => SkillError::Unavailable(text),
            (None, _) => SkillError::Failed(text),
        }
    }
}

/// The service's message, with what the person can do about it.
fn refusal_text(code: &str, message: &str) -> String {
    let message = message.trim_end_matches('.');
    match code {
        "pro_required" => format!("{message}: agents can do this with Recorder Pro only."),
        "remote_start_disabled" => format!(
            "{message}: the person must turn on 'Allow agents to start recordings' \
             (Settings, General) first."
        ),
        _ => format!("{message}."),
    }
}

/// Runs skills; the A2A server and the MCP server hold one.
pub trait SkillRunner: Send + Sync + 'static {
    /// Runs `call`; a long skill reports its steps to `progress`.
    fn run(
        &self,
        call: SkillCall,
        progress: Progress,
    ) -> Pin<Box<dyn Future<Output = SkillResult> + Send + '_>>;

    /// The ids of meetings as they change (created, transcribed, renamed, new
    /// notes, deleted), for MCP resource subscriptions; `None` when this
    /// runner cannot follow changes.
    fn changes(&self) -> Pin<Box<dyn Future<Output = Option<Changes>> + Send + '_>> {
        Box::pin(std::future::ready(None))
    }
}

/// Meeting ids, one per change, as they happen.
pub type Changes = tokio::sync::mpsc::Receiver<String>;

pub type SkillResult = Result<Answer, SkillError>;

/// The skills, over the local API with `X-Recorder-Client: gateway` (and
/// `X-Recorder-Agent` when the call names its agent).
#[derive(Clone)]
pub struct Skills {
    client: Client,
}

impl Skills {
    /// `client` must already carry the gateway header.
    pub fn new(client: Client) -> Skills {
        Skills { client }
    }

    pub async fn call(&self, call: SkillCall, progress: Progress) -> SkillResult {
        let args = parse_args(call.skill, &call.args)?;
        let for_agent = call.agent.as_deref().map(|name| self.client.clone().with_agent(name));
        let client = for_agent.as_ref().unwrap_or(&self.client);
        match args {
            args::Args::ListMeetings(args) => meetings::list(client, args).await,
            args::Args::GetMeeting(args) => meetings::get(client, args).await,
            args::Args::GetTranscript(args) => meetings::transcript(client, args).await,
            args::Args::SearchMeetings(args) => meetings::search(client, args).await,
            args::Args::Ask(args) => ask::ask(client, args).await,
            args::Args::GetActionItems(args) => actions::items(client, args).await,
            args::Args::AddActionItem(args) => items::add(client, args).await,
            args::Args::UpdateActionItem(args) => items::update(client, args).await,
            args::Args::RegenerateNotes(args) => actions::regenerate(client, args, &progress).await,
            args::Args::StartRecording(args) => recording::start(client, args).await,
            args::Args::StopRecording => recording::stop(client).await,
            args::Args::AddMarker(args) => recording::marker(client, args).await,
        }
    }
}

impl SkillRunner for Skills {
    fn run(
        &self,
        call: SkillCall,
        progress: Progress,
    ) -> Pin<Box<dyn Future<Output = SkillResult> + Send + '_>> {
        Box::pin(self.call(call, progress))
    }

    fn changes(&self) -> Pin<Box<dyn Future<Output = Option<Changes>> + Send + '_>> {
        Box::pin(changes::follow(self.client.clone()))
    }
}
