//! Typed HTTP client for the local API (`/v1`) and the person's channel (`/ui`),
//! used by the CLI and the gateway. It talks to loopback only: it refuses any base
//! URL that is not 127.0.0.1, localhost or [::1], so it can never carry a token off
//! the machine (outbound requests are the egress crate's alone).

#[cfg(feature = "docs")]
pub mod docs;
mod events;
mod identity;
pub mod links;
pub mod stop;

pub use events::{Event, EventDecoder, EventStream, MAX_EVENT_BYTES};

use recorder_api_types as api;
use reqwest::{Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use url::Url;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("the recorder service is not running at {0} (start it with `recorder serve`)")]
    Unreachable(String),
    #[error("{message}")]
    Api { status: u16, code: String, message: String },
    #[error("unexpected answer from the service: {0}")]
    Decode(String),
    #[error("refusing to send a token to {0}: only loopback addresses are allowed")]
    NotLoopback(String),
    #[error(
        "something else is listening on port {0}; it is not this Recorder (no token was sent)"
    )]
    Impostor(u16),
}

pub type ClientResult<T> = Result<T, ClientError>;

/// A client bound to one base URL and one bearer token.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: Url,
    token: String,
    extra_headers: Vec<(String, String)>,
}

impl Client {
    pub fn new(base: &str, token: &str) -> ClientResult<Self> {
        let base = Url::parse(base).map_err(|_| ClientError::NotLoopback(base.to_string()))?;
        let loopback = match base.host() {
            Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(address)) => address.is_loopback(),
            Some(url::Host::Ipv6(address)) => address.is_loopback(),
            None => false,
        };
        if !loopback || base.scheme() != "http" {
            return Err(ClientError::NotLoopback(base.to_string()));
        }
        let http = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| ClientError::Decode(error.to_string()))?;
        Ok(Client { http, base, token: token.to_string(), extra_headers: Vec::new() })
    }

    /// Adds a header to every request (the gateway marks itself with it).
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.extra_headers.push((name.to_string(), value.to_string()));
        self
    }

    /// The same client, naming the agent it acts for in `X-Recorder-Agent`
    /// (the history writes its changes as `agent:<name>`). The name keeps
    /// letters, digits, spaces and `-_.` only, at most 64 characters, as the
    /// service reads it; a name with none of those sends no header. A name
    /// given before is replaced.
    pub fn with_agent(mut self, name: &str) -> Self {
        self.extra_headers.retain(|(header, _)| !header.eq_ignore_ascii_case(api::AGENT_HEADER));
        if let Some(name) = agent_name(name) {
            self.extra_headers.push((api::AGENT_HEADER.to_string(), name));
        }
        self
    }

    /// The agent named by [`Client::with_agent`], if any.
    pub fn agent(&self) -> Option<&str> {
        self.extra_headers
            .iter()
            .find(|(header, _)| header.eq_ignore_ascii_case(api::AGENT_HEADER))
            .map(|(_, value)| value.as_str())
    }

    pub fn base(&self) -> &Url {
        &self.base
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let mut url = self.base.clone();
        url.set_path(path);
        let mut builder = self.http.request(method, url).bearer_auth(&self.token);
        for (name, value) in &self.extra_headers {
            builder = builder.header(name, value);
        }
        builder
    }

    async fn send(&self, builder: RequestBuilder) -> ClientResult<Response> {
        self.verify_service().await?;
        let response =
            builder.send().await.map_err(|_| ClientError::Unreachable(self.base.to_string()))?;
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        let body = response.bytes().await.unwrap_or_default();
        Err(match serde_json::from_slice::<api::ErrorBody>(&body) {
            Ok(error) => {
                ClientError::Api { status, code: error.error.code, message: error.error.message }
            }
            Err(_) => ClientError::Api {
                status,
                code: "unknown".into(),
                message: format!("HTTP {status}"),
            },
        })
    }

    async fn json<T: DeserializeOwned>(&self, builder: RequestBuilder) -> ClientResult<T> {
        let response = self.send(builder).await?;
        response.json().await.map_err(|error| ClientError::Decode(error.to_string()))
    }

    pub async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> ClientResult<T> {
        self.json(self.request(Method::GET, path).query(query)).await
    }

    pub async fn get_text(&self, path: &str, query: &[(&str, String)]) -> ClientResult<String> {
        let response = self.send(self.request(Method::GET, path).query(query)).await?;
        response.text().await.map_err(|error| ClientError::Decode(error.to_string()))
    }

    pub async fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> ClientResult<T> {
        self.json(self.request(Method::POST, path).json(body)).await
    }

    pub async fn patch<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> ClientResult<T> {
        self.json(self.request(Method::PATCH, path).json(body)).await
    }

    /// A PUT whose success has no body (204).
    pub async fn put<B: Serialize>(&self, path: &str, body: &B) -> ClientResult<()> {
        self.send(self.request(Method::PUT, path).json(body)).await.map(|_| ())
    }

    pub async fn delete(&self, path: &str) -> ClientResult<()> {
        self.send(self.request(Method::DELETE, path)).await.map(|_| ())
    }

    // Typed calls of the local API.

    pub async fn health(&self) -> ClientResult<api::Health> {
        self.get("/v1/health", &[]).await
    }

    pub async fn meetings(&self, query: &[(&str, String)]) -> ClientResult<api::MeetingList> {
        self.get("/v1/meetings", query).await
    }

    pub async fn meeting(&self, id: &str) -> ClientResult<api::Meeting> {
        self.get(&format!("/v1/meetings/{}", segment(id)), &[]).await
    }

    pub async fn delete_meeting(&self, id: &str) -> ClientResult<()> {
        self.delete(&format!("/v1/meetings/{}", segment(id))).await
    }

    pub async fn transcript_text(&self, id: &str, format: &str) -> ClientResult<String> {
        let path = format!("/v1/meetings/{}/transcript", segment(id));
        self.get_text(&path, &[("format", format.to_string())]).await
    }

    pub async fn transcript(&self, id: &str) -> ClientResult<api::Transcript> {
        let path = format!("/v1/meetings/{}/transcript", segment(id));
        self.get(&path, &[("format", "json".to_string())]).await
    }

    pub async fn regenerate_notes(
        &self,
        id: &str,
        request: &api::NotesRequest,
    ) -> ClientResult<api::NotesAccepted> {
        self.post(&format!("/v1/meetings/{}/notes", segment(id)), request).await
    }

    /// Cancels the meeting's notes regeneration (queued or being written).
    pub async fn cancel_notes(&self, id: &str) -> ClientResult<()> {
        self.delete(&format!("/v1/meetings/{}/notes", segment(id))).await
    }

    pub async fn start_recording(&self, request: &api::StartRequest) -> ClientResult<api::Meeting> {
        self.post("/v1/recording/start", request).await
    }

    pub async fn stop_recording(&self) -> ClientResult<api::StopReply> {
        self.post("/v1/recording/stop", &serde_json::json!({})).await
    }

    pub async fn add_marker(&self, request: &api::MarkerRequest) -> ClientResult<api::Marker> {
        self.post("/v1/recording/marker", request).await
    }

    /// Adds an action item to a meeting (201: the new item).
    pub async fn add_action_item(
        &self,
        meeting_id: &str,
        item: &api::NewActionItem,
    ) -> ClientResult<api::ActionItem> {
        self.post(&format!("/v1/meetings/{}/action_items", segment(meeting_id)), item).await
    }

    /// Changes an action item of a meeting (its words, owner, due date or
    /// whether it is done); the item as it now is.
    pub async fn update_action_item(
        &self,
        meeting_id: &str,
        item_id: &str,
        patch: &api::ActionItemPatch,
    ) -> ClientResult<api::ActionItem> {
        let path =
            format!("/v1/meetings/{}/action_items/{}", segment(meeting_id), segment(item_id));
        self.patch(&path, patch).await
    }

    pub async fn search(&self, q: &str, limit: Option<i64>) -> ClientResult<api::SearchResults> {
        let mut query = vec![("q", q.to_string())];
        if let Some(limit) = limit {
            query.push(("limit", limit.to_string()));
        }
        self.get("/v1/search", &query).await
    }

    /// A question answered from the meetings, with the lines it comes from.
    pub async fn ask(&self, request: &api::AskRequest) -> ClientResult<api::AskAnswer> {
        self.post("/v1/ask", request).await
    }

    pub async fn settings(&self) -> ClientResult<Value> {
        self.get("/v1/settings", &[]).await
    }

    pub async fn policy(&self) -> ClientResult<api::PolicyReport> {
        self.get("/v1/policy", &[]).await
    }

    pub async fn ledger(&self) -> ClientResult<api::Ledger> {
        self.get("/v1/ledger", &[]).await
    }

    // The person's channel (with `ui_token`).

    /// A one-time login link that opens `page` of the app (`/` when `None`).
    pub async fn login_link(&self, page: Option<&str>) -> ClientResult<api::LoginLink> {
        let request = api::LoginLinkRequest { page: page.map(str::to_string), source: None };
        self.post("/ui/login-links", &request).await
    }

    /// A one-time login link for the desktop app's own window (listed as such
    /// among the signed-in sessions).
    pub async fn window_login_link(&self, page: &str) -> ClientResult<api::LoginLink> {
        let request = api::LoginLinkRequest {
            page: Some(page.to_string()),
            source: Some(api::SessionSource::AppWindow),
        };
        self.post("/ui/login-links", &request).await
    }

    pub async fn pairing_code(&self) -> ClientResult<api::PairingCode> {
        self.post("/ui/pairing-code", &serde_json::json!({})).await
    }

    pub async fn pairings(&self) -> ClientResult<api::Pairings> {
        self.get("/ui/pairings", &[]).await
    }

    pub async fn revoke_pairing(&self, id: &str) -> ClientResult<()> {
        self.delete(&format!("/ui/pairings/{}", segment(id))).await
    }

    pub async fn patch_settings(&self, patch: &Value) -> ClientResult<Value> {
        self.patch("/ui/settings", patch).await
    }

    pub async fn install_license(
        &self,
        license: &api::LicenseFile,
    ) -> ClientResult<api::PlanReply> {
        self.post("/ui/license", &api::LicenseRequest { license: license.clone() }).await
    }

    /// The model catalogue, what is installed and active, and downloads in progress.
    pub async fn models(&self) -> ClientResult<api::ModelList> {
        self.get("/ui/models", &[]).await
    }

    /// Starts downloading a catalogue model (or answers that it is installed).
    pub async fn install_model(
        &self,
        request: &api::ModelInstallRequest,
    ) -> ClientResult<api::ModelInstallReply> {
        self.post("/ui/models/install", request).await
    }

    /// Removes the installed files of a model.
    pub async fn remove_model(&self, name: &str) -> ClientResult<api::ModelRemoval> {
        self.json(self.request(Method::DELETE, &format!("/ui/models/{}", segment(name)))).await
    }

    /// The notes-model catalogue and what is installed.
    pub async fn notes_models(&self) -> ClientResult<api::NotesModelList> {
        self.get("/ui/notes-models", &[]).await
    }

    /// Starts downloading a catalogue notes model (or answers that it is installed).
    pub async fn install_notes_model(&self, name: &str) -> ClientResult<api::ModelInstallReply> {
        let request = api::NotesModelInstallRequest { name: name.to_string() };
        self.post("/ui/notes-models/install", &request).await
    }

    /// Has the service copy a GGUF file into its data folder.
    pub async fn add_notes_model(
        &self,
        request: &api::NotesModelAddRequest,
    ) -> ClientResult<api::ModelAdded> {
        self.post("/ui/notes-models/add", request).await
    }

    /// Removes an installed notes model.
    pub async fn remove_notes_model(&self, name: &str) -> ClientResult<api::ModelRemoval> {
        let path = format!("/ui/notes-models/{}", segment(name));
        self.json(self.request(Method::DELETE, &path)).await
    }
}

/// An agent's name as a header value: letters, digits, spaces and `-_.`,
/// at most 64 characters, trimmed; `None` when nothing is left.
fn agent_name(name: &str) -> Option<String> {
    let kept: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '))
        .take(64)
        .collect();
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_string())
}

/// Percent-encodes an id for use as one path segment.
fn segment(id: &str) -> String {
    url::form_urlencoded::byte_serialize(id.as_bytes()).collect::<String>().replace('+', "%20")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_bases_are_accepted() {
        assert!(Client::new("http://127.0.0.1:47321", "t").is_ok());
        assert!(Client::new("http://localhost:1", "t").is_ok());
        assert!(Client::new("http://[::1]:1", "t").is_ok());
        for bad in
            ["http://example.com", "https://127.0.0.1", "http://127.0.0.1.nip.io", "nonsense"]
        {
            assert!(matches!(Client::new(bad, "t"), Err(ClientError::NotLoopback(_))), "{bad}");
        }
    }

    #[test]
    fn the_agent_header_carries_a_clean_name_once() {
        let client = Client::new("http://127.0.0.1:1", "t").expect("client");
        assert_eq!(client.agent(), None);
        let named = client.clone().with_agent("Claude Desktop");
        assert_eq!(named.agent(), Some("Claude Desktop"));
        let renamed = named.with_agent(" cursor/1.0\r\n\u{1F600} ");
        assert_eq!(renamed.agent(), Some("cursor1.0"));
        assert_eq!(renamed.extra_headers.iter().filter(|(h, _)| h == api::AGENT_HEADER).count(), 1);
        assert_eq!(renamed.clone().with_agent("\u{1F600}").agent(), None);
        assert_eq!(client.with_agent(&"a".repeat(100)).agent().map(str::len), Some(64));
    }

    #[test]
    fn ids_cannot_escape_their_path_segment() {
        assert_eq!(segment("../x y"), "..%2Fx%20y");
    }
}
