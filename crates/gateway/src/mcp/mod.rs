//! The MCP server (official Rust SDK, `rmcp`), over stdio or Streamable HTTP:
//!
//! - the twelve tools of the catalogue, each with an `outputSchema`. A successful
//!   call answers with the text for a person plus `structuredContent`; a refusal
//!   (plan, policy, setting, state) or any other failure is a tool error
//!   (`isError: true`) whose text says why and whose `structuredContent` is
//!   `{ error: { code, gate?, message } }`; a tool that does not exist is a
//!   protocol error (-32602). A call with a `progressToken` gets
//!   `notifications/progress` while `regenerate_notes` waits for the notes. A
//!   call is made for the MCP client by its name (`clientInfo.name`, from the
//!   request's `_meta` or the session's `initialize`): the service's history
//!   names what it changed `agent:<name>` (`X-Recorder-Agent`);
//! - resources (`resources.rs`), with `resources/subscribe` updates driven by
//!   the service's events;
//! - prompts (`prompts.rs`);
//! - `logging` (`logging.rs`): the gateway's tracing, at the level a client sets;
//! - over HTTP, resumable streams (`replay.rs`): a client whose connection
//!   dropped reconnects with `Last-Event-ID` and gets the events it missed,
//!   the tool's answer included, for 5 minutes (at most 1 024 events and
//!   16 MiB kept across sessions).
#![allow(deprecated)] // resources/subscribe and logging: legacy in rmcp, current in MCP 2025-11-25.

pub mod logging;
mod prompts;
mod replay;
mod resources;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::Router;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, Implementation, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ReadResourceRequestParams, ReadResourceResponse,
    ResourceUpdatedNotificationParam, ServerCapabilities, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, Tool, ToolAnnotations, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::Peer;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::catalogue::{self, Entry};
use crate::guard::{check_host, check_token, Token};
use crate::skills::{Progress, Skill, SkillCall, SkillError, SkillRunner};

const INSTRUCTIONS: &str = "Meetings recorded and transcribed on this machine by recorder. \
    Find meetings with list_meetings (by date or words) or search_meetings (exact moments), then \
    read one with get_meeting or get_transcript. ask_meetings answers a question from what was \
    said, citing the lines it comes from. get_action_items gives who does what; add_action_item \
    and update_action_item add one or change it (owner, due date, done). Recording, regenerating \
    notes and changing action items need Recorder Pro and the person's consent; refusals say why. \
    The same meetings are resources (recorder://meetings, recorder://meetings/{id}, \
    …/{id}/transcript, …/{id}/notes), and the prompts summarise_my_week, prepare_for_meeting and \
    open_action_items put the tools to work.";

/// The MCP server: one per connection (stdio) or session (HTTP).
#[derive(Clone)]
pub struct RecorderMcp {
    runner: Arc<dyn SkillRunner>,
    session: Arc<Session>,
}

/// What one session asked to be told.
#[derive(Default)]
struct Session {
    /// Resource URIs subscribed to.
    subscribed: Mutex<HashSet<String>>,
    /// The task that follows the service's events has started.
    watching: AtomicBool,
    /// The minimum log level (its rank), once `logging/setLevel` was called.
    log_level: Mutex<Option<tokio::sync::watch::Sender<u8>>>,
}

impl Session {
    fn subscribed(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.subscribed.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl RecorderMcp {
    pub fn new(runner: Arc<dyn SkillRunner>) -> RecorderMcp {
        RecorderMcp { runner, session: Arc::default() }
    }

    /// Serves MCP on stdin/stdout until the client closes it.
    pub async fn serve_stdio(self) -> anyhow::Result<()> {
        let running = self.serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        Ok(())
    }

    /// Answers one tool call.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        progress: Progress,
    ) -> CallToolResult {
        self.call_as(name, arguments, progress, None).await
    }

    /// Answers one tool call made by the MCP client named `agent`.
    pub async fn call_as(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        progress: Progress,
        agent: Option<String>,
    ) -> CallToolResult {
        let args = arguments.map(Value::Object).unwrap_or_else(|| json!({}));
        let call = Skill::from_tool_name(name)
            .ok_or_else(|| SkillError::InvalidArguments(format!("Unknown tool: {name}")))
            .and_then(|skill| SkillCall::new(skill, args))
            .map(|call| call.for_agent(agent));
        let outcome = match call {
            Ok(call) => self.runner.run(call, progress).await,
            Err(error) => Err(error),
        };
        match outcome {
            Ok(answer) => {
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(answer.text.clone())]);
                result.structured_content = Some(answer.structured());
                result
            }
            Err(error) => tool_error(&error),
        }
    }
}

/// A tool that does not exist is a protocol error (-32602), as the MCP
/// specification has it, not a tool result.
fn unknown_tool(name: &str) -> ErrorData {
    let names: Vec<&str> = Skill::ALL.iter().map(|skill| skill.tool_name()).collect();
    ErrorData::invalid_params(format!("Unknown tool: {name}"), Some(json!({ "tools": names })))
}

fn tool_error(error: &SkillError) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(error.to_string())]);
    result.structured_content = Some(error.to_json());
    result
}

/// The MCP client's own name: `clientInfo` of the request's `_meta` (MCP
/// 2026-07-28), else of the session's `initialize` (stdio and HTTP sessions).
fn client_name(context: &RequestContext<RoleServer>) -> Option<String> {
    let name = match context.meta.client_info() {
        Some(info) => info.name,
        None => context.peer.peer_info()?.client_info.name.clone(),
    };
    (!name.trim().is_empty()).then_some(name)
}

/// The tool list: name, title, description, input schema and hints.
pub fn tools() -> Vec<Tool> {
    catalogue::entries().iter().map(tool).collect()
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn tool(entry: &Entry) -> Tool {
    let schema = object(entry.input_schema());
    let hints = ToolAnnotations::with_title(entry.title)
        .read_only(entry.read_only)
        .destructive(false)
        .idempotent(entry.read_only)
        .open_world(false);
    Tool::new(entry.tool_name(), entry.description, Arc::new(schema))
        .with_title(entry.title)
        .with_annotations(hints)
        .with_raw_output_schema(Arc::new(object(crate::output::schema(entry.skill))))
}

/// Progress of one call, sent as `notifications/progress` with `token` (0 to
/// 100, in order: a forwarding task sends them one by one).
fn progress_to(peer: Peer<RoleServer>, token: ProgressToken) -> Progress {
    let (sender, mut steps) = tokio::sync::mpsc::unbounded_channel::<crate::skills::Step>();
    tokio::spawn(async move {
        let mut last = -1.0_f64;
        while let Some(step) = steps.recv().await {
            let progress = (step.done * 100.0).round();
            if progress <= last {
                continue;
            }
            last = progress;
            let param = ProgressNotificationParam::new(token.clone(), progress)
                .with_total(100.0)
                .with_message(step.message);
            if peer.notify_progress(param).await.is_err() {
                return;
            }
        }
    });
    Progress::to(move |step| {
        // The call has ended when nobody forwards any more.
        let _ = sender.send(step);
    })
}

/// Does a change of `meeting_id` change what `uri` reads?
fn touches(uri: &str, meeting_id: &str) -> bool {
    match resources::Target::parse(uri) {
        Some(resources::Target::Meetings) => true,
        Some(target) => target.meeting_id().is_some_and(|id| id == meeting_id || id == "latest"),
        None => false,
    }
}

impl RecorderMcp {
    /// Starts (once per session) the task that tells `peer` when a subscribed
    /// resource changed.
    fn watch_changes(&self, peer: Peer<RoleServer>) {
        if self.session.watching.swap(true, Ordering::SeqCst) {
            return;
        }
        let server = self.clone();
        tokio::spawn(async move {
            let Some(mut changes) = server.runner.changes().await else {
                server.session.watching.store(false, Ordering::SeqCst);
                return;
            };
            while let Some(meeting_id) = changes.recv().await {
                let uris: Vec<String> = server
                    .session
                    .subscribed()
                    .iter()
                    .filter(|uri| touches(uri, &meeting_id))
                    .cloned()
                    .collect();
                for uri in uris {
                    let param = ResourceUpdatedNotificationParam::new(uri);
                    if peer.notify_resource_updated(param).await.is_err() {
                        return;
                    }
                }
            }
            server.session.watching.store(false, Ordering::SeqCst);
        });
    }
}

impl ServerHandler for RecorderMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_prompts()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new("recorder-gateway", env!("CARGO_PKG_VERSION"))
                    .with_title("Recorder meetings"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        catalogue::entries().iter().find(|entry| entry.tool_name() == name).map(tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if Skill::from_tool_name(&request.name).is_none() {
            tracing::info!(tool = %request.name, "tools/call of an unknown tool");
            return Err(unknown_tool(&request.name));
        }
        let agent = client_name(&context);
        tracing::info!(tool = %request.name, agent = agent.as_deref().unwrap_or("-"), "tools/call");
        let progress = match context.meta.get_progress_token() {
            Some(token) => progress_to(context.peer.clone(), token),
            None => Progress::none(),
        };
        // A client's `notifications/cancelled` drops the call (a regeneration
        // then cancels the service's notes run too).
        tokio::select! {
            result = self.call_as(&request.name, request.arguments, progress, agent) => {
                Ok(result.into())
            }
            () = context.ct.cancelled() => {
                tracing::info!(tool = %request.name, "tools/call canceled by the client");
                Err(ErrorData::internal_error("the client canceled the call", None))
            }
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        resources::list(&*self.runner).await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        tracing::info!(uri = %request.uri, "resources/read");
        Ok(resources::read(&*self.runner, &request.uri).await?.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if resources::Target::parse(&request.uri).is_none() {
            return Err(ErrorData::resource_not_found(
                format!("Resource not found: {}", request.uri),
                None,
            ));
        }
        self.session.subscribed().insert(request.uri);
        self.watch_changes(context.peer);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.subscribed().remove(&request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(prompts::list())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arguments: HashMap<String, String> = request
            .arguments
            .unwrap_or_default()
            .into_iter()
            .map(|(key, value)| match value {
                Value::String(text) => (key, text),
                other => (key, other.to_string()),
            })
            .collect();
        Ok(prompts::get(&request.name, &arguments, chrono::Local::now())?.into())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let rank = logging::rank(&request.level);
        let mut level = self.session.log_level.lock().unwrap_or_else(PoisonError::into_inner);
        match level.as_ref() {
            Some(sender) => {
                sender.send_replace(rank);
            }
            None => {
                let (sender, receiver) = tokio::sync::watch::channel(rank);
                logging::forward(context.peer, receiver);
                *level = Some(sender);
            }
        }
        Ok(())
    }
}

/// MCP Streamable HTTP at `/mcp`, behind the Host check and the bearer token.
pub fn http_app(runner: Arc<dyn SkillRunner>, token: Token, shutdown: CancellationToken) -> Router {
    let mut config = StreamableHttpServerConfig::default();
    config.sse_keep_alive = Some(Duration::from_secs(15));
    config.cancellation_token = shutdown;
    // Our own check runs first and answers in the API's error shape; this list is
    // the SDK's own second line against DNS rebinding.
    config.allowed_hosts =
        vec!["127.0.0.1".into(), "localhost".into(), "[::1]".into(), "::1".into()];
    // Every stream's events are kept a while, so that a client that lost its
    // stream gets them again after `Last-Event-ID` (`replay.rs`).
    let sessions = LocalSessionManager::default()
        .with_event_store(Arc::new(replay::Replay::new(replay::Limits::default())));
    let service: StreamableHttpService<RecorderMcp, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(RecorderMcp::new(runner.clone())),
            Arc::new(sessions),
            config,
        );
    Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(session_end_is_no_content))
        .layer(axum::middleware::from_fn_with_state(token, check_token))
        .layer(axum::middleware::from_fn(check_host))
}

/// The SDK answers a session's DELETE with 202; MCP clients (the Python SDK
/// among them) expect 200 or 204 and warn otherwise. The session is closed
/// either way, so say so with 204.
async fn session_end_is_no_content(request: Request, next: Next) -> Response {
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::{Answer, Gate, SkillResult, Used};
    use futures_util::StreamExt;
    use std::future::Future;
    use std::pin::Pin;

    struct Fixed;

    impl SkillRunner for Fixed {
        fn run(
            &self,
            call: SkillCall,
            _progress: Progress,
        ) -> Pin<Box<dyn Future<Output = SkillResult> + Send + '_>> {
            Box::pin(async move {
                match call.skill {
                    Skill::StartRecording => Err(SkillError::Refused {
                        gate: Gate::Plan,
                        code: "pro_required".into(),
                        message: "Cannot start a recording: needs Recorder Pro".into(),
                    }),
                    skill => Ok(Answer {
                        skill,
                        text: "two meetings".into(),
                        result: json!({ "total": 2 }),
                        used: Used { meeting_ids: vec!["m1".into()], timestamps: vec![] },
                    }),
                }
            })
        }
    }

    /// The SSE events of a body, read until one carries `"id":<id>` (or 10 s
    /// pass): `(id:, data:)` of each.
    async fn sse_until(body: axum::body::Body, id: u64) -> Vec<(String, String)> {
        let mut stream = body.into_data_stream();
        let mut text = String::new();
        let needle = format!("\"id\":{id}");
        let read = async {
            while let Some(Ok(chunk)) = stream.next().await {
                text.push_str(&String::from_utf8_lossy(&chunk));
                if text.contains(&needle) && text.ends_with("\n\n") {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
        sse_events(&text)
    }

    /// `(id:, data:)` of each SSE event in `text`.
    fn sse_events(text: &str) -> Vec<(String, String)> {
        text.split("\n\n")
            .filter(|event| !event.trim().is_empty())
            .map(|event| {
                let field = |name: &str| {
                    event
                        .lines()
                        .filter_map(|line| line.strip_prefix(name))
                        .map(str::trim_start)
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                (field("id:"), field("data:"))
            })
            .collect()
    }

    /// Once released, reports a step and answers (like [`Fixed`]) a moment later.
    struct Held(Arc<tokio::sync::Notify>);

    impl SkillRunner for Held {
        fn run(
            &self,
            call: SkillCall,
            progress: Progress,
        ) -> Pin<Box<dyn Future<Output = SkillResult> + Send + '_>> {
            Box::pin(async move {
                self.0.notified().await;
                progress.report(0.5, "half way");
                tokio::time::sleep(Duration::from_millis(100)).await;
                Fixed.run(call, progress).await
            })
        }
    }

    /// The HTTP app over a [`Held`] runner, as a client sees it.
    struct Client {
        app: Router,
        release: Arc<tokio::sync::Notify>,
    }

    impl Client {
        fn new() -> Client {
            let release = Arc::new(tokio::sync::Notify::new());
            let runner = Arc::new(Held(Arc::clone(&release)));
            let app = http_app(runner, Token::new("t"), CancellationToken::new());
            Client { app, release }
        }

        fn request(method: Method, session: Option<&str>) -> axum::http::request::Builder {
            let accept = if method == Method::GET {
                "text/event-stream"
            } else {
                "application/json, text/event-stream"
            };
            let mut builder = axum::http::Request::builder()
                .method(method)
                .uri("/mcp")
                .header("host", "127.0.0.1:47322")
                .header("authorization", "Bearer t")
                .header("accept", accept)
                .header("content-type", "application/json")
                .header("mcp-protocol-version", "2025-06-18");
            if let Some(session) = session {
                builder = builder.header("mcp-session-id", session);
            }
            builder
        }

        async fn post(&self, session: Option<&str>, message: Value) -> Response {
            use tower::ServiceExt as _;
            let body = axum::body::Body::from(message.to_string());
            let request = Client::request(Method::POST, session).body(body).expect("request");
            self.app.clone().oneshot(request).await.expect("response")
        }

        /// `GET /mcp` with `Last-Event-ID`.
        async fn resume(&self, session: &str, last_event_id: &str) -> Response {
            use tower::ServiceExt as _;
            let request = Client::request(Method::GET, Some(session))
                .header("last-event-id", last_event_id)
                .body(axum::body::Body::empty())
                .expect("request");
            self.app.clone().oneshot(request).await.expect("response")
        }

        /// An initialized session's id.
        async fn session(&self) -> String {
            let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": { "name": "test", "version": "1" } } });
            let response = self.post(None, init).await;
            let session =
                response.headers()["mcp-session-id"].to_str().expect("session id").to_string();
            sse_until(response.into_body(), 1).await;
            let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
            let response = self.post(Some(&session), initialized).await;
            assert!(response.status().is_success(), "{}", response.status());
            session
        }

        /// Calls `list_meetings` (id 2, with a progress token), reads the
        /// stream's first event (the priming one: an id, a retry and no data),
        /// loses the stream and returns the priming event's id.
        async fn call_and_lose_the_stream(&self, session: &str) -> String {
            let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": { "name": "list_meetings", "arguments": {},
                    "_meta": { "progressToken": "p" } } });
            let response = self.post(Some(session), call).await;
            assert_eq!(response.status(), StatusCode::OK);
            let mut stream = response.into_body().into_data_stream();
            let first = tokio::time::timeout(Duration::from_secs(10), stream.next())
                .await
                .expect("a first event in time")
                .expect("a first event")
                .expect("a chunk");
            let first = String::from_utf8_lossy(&first).to_string();
            assert!(first.contains("retry:") && !first.contains("data: {"), "{first}");
            first
                .lines()
                .find_map(|line| line.strip_prefix("id:"))
                .map(str::trim)
                .expect("the priming event has an id")
                .to_string()
        }
    }

    /// The JSON-RPC messages among SSE events.
    fn messages(events: &[(String, String)]) -> Vec<Value> {
        events.iter().filter_map(|(_, data)| serde_json::from_str(data).ok()).collect()
    }

    fn the_answer(messages: &[Value]) -> &Value {
        let answer = messages.iter().find(|message| message["id"] == 2);
        let answer = answer.unwrap_or_else(|| panic!("no answer after reconnecting: {messages:?}"));
        assert_eq!(answer["result"]["structuredContent"]["skill"], "list_meetings", "{answer}");
        answer
    }

    /// A client whose stream drops while a tool runs reconnects with
    /// `Last-Event-ID` and gets what it missed, then the answer when it comes.
    #[tokio::test]
    async fn a_client_that_lost_the_stream_gets_the_answer_after_last_event_id() {
        let client = Client::new();
        let session = client.session().await;
        let priming = client.call_and_lose_the_stream(&session).await;

        let response = client.resume(&session, &priming).await;
        assert_eq!(response.status(), StatusCode::OK);
        client.release.notify_one();
        let messages = messages(&sse_until(response.into_body(), 2).await);
        the_answer(&messages);
        assert!(
            messages.iter().any(|message| message["method"] == "notifications/progress"),
            "{messages:?}"
        );
    }

    /// The same when the tool answered while the client was away (rmcp alone
    /// forgets a request's events once it answers): the missed progress, the
    /// answer, and the stream ends; resuming after the answer gets nothing.
    #[tokio::test]
    async fn a_client_that_comes_back_after_the_answer_still_gets_it() {
        let client = Client::new();
        let session = client.session().await;
        let priming = client.call_and_lose_the_stream(&session).await;
        client.release.notify_one();
        tokio::time::sleep(Duration::from_millis(500)).await;

        let response = client.resume(&session, &priming).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body = tokio::time::timeout(
            Duration::from_secs(10),
            axum::body::to_bytes(response.into_body(), usize::MAX),
        )
        .await
        .expect("the resumed stream ends after the answer")
        .expect("a body");
        let events = sse_events(&String::from_utf8_lossy(&body));
        let messages = messages(&events);
        let first = messages.first().map(|message| &message["method"]);
        assert_eq!(first, Some(&json!("notifications/progress")), "{messages:?}");
        assert_eq!(messages.len(), 2, "{messages:?}");
        the_answer(&messages);
        assert!(events.iter().all(|(id, _)| !id.is_empty() && *id != priming), "{events:?}");

        let (answer_id, _) = events.last().expect("the answer");
        let response = client.resume(&session, answer_id).await;
        let body = tokio::time::timeout(
            Duration::from_secs(10),
            axum::body::to_bytes(response.into_body(), usize::MAX),
        )
        .await
        .expect("an ended stream")
        .expect("a body");
        assert!(messages_in(&body).is_empty(), "{}", String::from_utf8_lossy(&body));
    }

    fn messages_in(body: &[u8]) -> Vec<Value> {
        messages(&sse_events(&String::from_utf8_lossy(body)))
    }

    #[test]
    fn twelve_tools_with_object_schemas_and_descriptions() {
        let tools = tools();
        assert_eq!(tools.len(), 12);
        for tool in &tools {
            assert_eq!(tool.input_schema.get("type"), Some(&json!("object")), "{}", tool.name);
            assert!(tool.description.as_ref().is_some_and(|d| d.len() > 60), "{}", tool.name);
        }
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert!(names.contains(&"get_action_items") && names.contains(&"add_marker"));
        assert!(names.contains(&"add_action_item") && names.contains(&"update_action_item"));
        let update = tools.iter().find(|t| t.name == "update_action_item").expect("listed");
        assert_eq!(update.input_schema["required"], json!(["meeting_id", "item_id"]));
        assert_eq!(update.input_schema["properties"]["due"]["type"], json!(["string", "null"]));
        assert_eq!(update.annotations.as_ref().and_then(|a| a.read_only_hint), Some(false));
        // The contract names the tool `ask_meetings` (the A2A skill is `ask`).
        assert!(names.contains(&"ask_meetings") && !names.contains(&"ask"));
        assert!(Skill::from_tool_name("ask").is_none());
    }

    /// Remembers the agent each call was made for.
    #[derive(Default)]
    struct Agents(Mutex<Vec<Option<String>>>);

    impl SkillRunner for Agents {
        fn run(
            &self,
            call: SkillCall,
            _progress: Progress,
        ) -> Pin<Box<dyn Future<Output = SkillResult> + Send + '_>> {
            self.0.lock().unwrap_or_else(PoisonError::into_inner).push(call.agent.clone());
            Box::pin(async move {
                Ok(Answer {
                    skill: call.skill,
                    text: "done".into(),
                    result: json!({}),
                    used: Used::default(),
                })
            })
        }
    }

    /// A tool call is made for the client that `initialize` named, or the one
    /// its own `_meta` names.
    #[tokio::test]
    async fn calls_are_made_for_the_client_by_its_name() {
        use tower::ServiceExt as _;
        let runner = Arc::new(Agents::default());
        let app = http_app(runner.clone(), Token::new("t"), CancellationToken::new());
        let post = |session: Option<String>, message: Value| {
            let app = app.clone();
            async move {
                let request = Client::request(Method::POST, session.as_deref())
                    .body(axum::body::Body::from(message.to_string()))
                    .expect("request");
                app.oneshot(request).await.expect("response")
            }
        };
        let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": { "name": "Claude Desktop", "version": "1" } } });
        let response = post(None, init).await;
        let session = response.headers()["mcp-session-id"].to_str().expect("id").to_string();
        sse_until(response.into_body(), 1).await;
        let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        post(Some(session.clone()), initialized).await;
        let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "list_meetings", "arguments": {} } });
        sse_until(post(Some(session.clone()), call).await.into_body(), 2).await;
        let call = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": { "name": "list_meetings", "arguments": {}, "_meta": {
                "io.modelcontextprotocol/clientInfo": { "name": "cursor", "version": "2" } } } });
        sse_until(post(Some(session), call).await.into_body(), 3).await;
        let agents = runner.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
        assert_eq!(agents, [Some("Claude Desktop".to_string()), Some("cursor".to_string())]);
        // Without a session (a direct call), no name.
        let server = RecorderMcp::new(runner.clone());
        server.call("list_meetings", None, Progress::none()).await;
        assert_eq!(runner.0.lock().unwrap_or_else(PoisonError::into_inner).last(), Some(&None));
    }

    #[tokio::test]
    async fn answers_carry_text_and_structured_content() {
        let server = RecorderMcp::new(Arc::new(Fixed));
        let result = server.call("list_meetings", None, Progress::none()).await;
        assert_eq!(result.is_error, Some(false));
        let structured = result.structured_content.expect("structured");
        assert_eq!(structured["total"], 2);
        assert_eq!(structured["skill"], "list_meetings");
        assert_eq!(structured["meeting_ids"], json!(["m1"]));
    }

    #[tokio::test]
    async fn ask_is_a_tool_by_its_contract_name_only() {
        let server = RecorderMcp::new(Arc::new(Fixed));
        let mut args = JsonObject::new();
        args.insert("question".into(), json!("When will the replica be added?"));
        let result = server.call("ask_meetings", Some(args.clone()), Progress::none()).await;
        assert_eq!(result.is_error, Some(false));
        assert_eq!(result.structured_content.expect("structured")["skill"], "ask_meetings");
        let wrong = server.call("ask", Some(args), Progress::none()).await;
        assert_eq!(wrong.is_error, Some(true));
        let schema = crate::output::schema(Skill::Ask);
        assert_eq!(schema["properties"]["skill"]["const"], "ask_meetings");
        assert_eq!(schema["properties"]["citations"]["items"]["required"][0], "meeting_id");
    }

    #[tokio::test]
    async fn refusals_and_bad_arguments_are_tool_errors_that_say_why() {
        let server = RecorderMcp::new(Arc::new(Fixed));
        let refused = server.call("start_recording", None, Progress::none()).await;
        assert_eq!(refused.is_error, Some(true));
        let error = &refused.structured_content.expect("structured")["error"];
        assert_eq!(error["code"], "pro_required");
        assert_eq!(error["gate"], "plan");
        let mut args = JsonObject::new();
        args.insert("meetingId".into(), json!("x"));
        let bad = server.call("get_meeting", Some(args), Progress::none()).await;
        assert_eq!(bad.is_error, Some(true));
        let unknown = unknown_tool("delete_everything");
        assert_eq!(unknown.code.0, -32602);
        assert_eq!(unknown.message, "Unknown tool: delete_everything");
    }
}
