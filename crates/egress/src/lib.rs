//! The one way out. Every request `recorder` sends off the machine goes through
//! [`Egress`], and every request it sends or refuses becomes an entry of the
//! Privacy Ledger. A tidy test fails if any other crate builds an HTTP client.
//!
//! Ledger URLs keep scheme, host, port and path only: query strings, fragments and
//! credentials never reach the ledger or the logs.

mod download;
mod memory;

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use recorder_domain::{new_id, LedgerEntry, LedgerOutcome};
pub use reqwest::Method;
use url::Url;

pub use crate::download::DownloadOutcome;
pub use crate::memory::MemoryLedger;

/// Where ledger entries go (the service writes them to the database).
pub trait LedgerSink: Send + Sync {
    /// Writes `entry` durably, replacing an earlier write with the same id.
    /// Egress calls it before a request leaves (outcome `error`, no status, so
    /// a crash mid-request still shows the request) and again with the outcome.
    /// A request whose first write fails is not sent. It blocks: egress calls it
    /// off the async runtime.
    fn write(&self, entry: &LedgerEntry) -> Result<(), String>;
}

/// Writes `entry` off the async runtime (or in place when there is none) and
/// waits for it.
async fn write_entry(ledger: &Arc<dyn LedgerSink>, entry: &LedgerEntry) -> Result<(), String> {
    if tokio::runtime::Handle::try_current().is_err() {
        return ledger.write(entry);
    }
    let (ledger, entry) = (ledger.clone(), entry.clone());
    match tokio::task::spawn_blocking(move || ledger.write(&entry)).await {
        Ok(result) => result,
        Err(_) => Err("the ledger write did not finish".to_string()),
    }
}

/// The closing write of an entry: its failure is logged, since the request
/// has already been made and its opening entry is on disk.
async fn complete_entry(ledger: &Arc<dyn LedgerSink>, entry: &LedgerEntry) {
    if let Err(error) = write_entry(ledger, entry).await {
        tracing::error!(%error, host = %entry.host, "could not complete a Privacy Ledger entry");
    }
}

/// An outbound request.
#[derive(Debug, Clone)]
pub struct OutboundRequest {
    pub method: Method,
    pub url: Url,
    /// Why the request is made, e.g. `notes` or `model-download`.
    pub purpose: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub timeout: Duration,
    /// When not empty, the only addresses the URL's host may be reached at: no DNS
    /// lookup, no proxy and no redirects, so a name checked as loopback cannot be
    /// re-pointed (DNS rebinding) between the check and the request. The URL's
    /// port is used, not the ports here.
    pub pinned_addrs: Vec<SocketAddr>,
    /// When set, each piece of the answer's body is sent here as it arrives
    /// (a streamed answer shown while it is written); the response still
    /// holds the whole body.
    pub pieces: Option<tokio::sync::mpsc::UnboundedSender<Vec<u8>>>,
}

impl OutboundRequest {
    pub fn new(method: Method, url: Url, purpose: &str) -> Self {
        OutboundRequest {
            method,
            url,
            purpose: purpose.to_string(),
            headers: Vec::new(),
            body: Vec::new(),
            timeout: Duration::from_secs(60),
            pinned_addrs: Vec::new(),
            pieces: None,
        }
    }
}

/// Whether policy lets a request go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    Block(String),
}

#[derive(Debug, Clone)]
pub struct OutboundResponse {
    pub status: u16,
    pub body: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum EgressError {
    #[error("request refused: {0}")]
    Blocked(String),
    #[error("only http and https requests are sent")]
    UnsupportedScheme,
    #[error("request to {host} failed: {message}")]
    Failed { host: String, message: String },
}

/// The outbound HTTP client and its ledger.
pub struct Egress {
    client: reqwest::Client,
    ledger: Arc<dyn LedgerSink>,
}

impl Egress {
    pub fn new(ledger: Arc<dyn LedgerSink>) -> Result<Self, EgressError> {
        let client = client_builder().build().map_err(|error| EgressError::Failed {
            host: String::new(),
            message: error.to_string(),
        })?;
        Ok(Egress { client, ledger })
    }

    /// The shared client, or for a request with pinned addresses a one-off client
    /// that reaches the URL's host only at those addresses.
    fn client_for(&self, request: &OutboundRequest) -> Result<Cow<'_, reqwest::Client>, String> {
        let Some(host) = request.url.domain().filter(|_| !request.pinned_addrs.is_empty()) else {
            // IP literals are never looked up, so there is nothing to pin.
            return Ok(Cow::Borrowed(&self.client));
        };
        let client = client_builder()
            .resolve_to_addrs(host, &request.pinned_addrs)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|_| "could not prepare the request".to_string())?;
        Ok(Cow::Owned(client))
    }

    /// Sends `request` unless `verdict` blocks it; records the outcome either
    /// way. The entry is on disk before the request leaves.
    pub async fn send(
        &self,
        request: OutboundRequest,
        verdict: Verdict,
    ) -> Result<OutboundResponse, EgressError> {
        let mut entry = self.entry_for(&request);
        self.refusal(&request, verdict, &mut entry).await?;
        self.open_entry(&entry).await?;
        let started = Instant::now();
        let result = self.perform(&request).await;
        entry.duration_ms = started.elapsed().as_millis() as u64;
        entry.bytes_sent = request.body.len() as u64;
        let outcome = match result {
            Ok(response) if (300..400).contains(&response.status) => {
                // Never followed: the body and keys were meant for this host only.
                entry.status = Some(response.status);
                entry.outcome = LedgerOutcome::Error;
                Err(EgressError::Failed {
                    host: entry.host.clone(),
                    message: format!(
                        "answered with a redirect (HTTP {}), which is not followed",
                        response.status
                    ),
                })
            }
            Ok(response) => {
                entry.status = Some(response.status);
                entry.bytes_received = response.body.len() as u64;
                entry.outcome =
                    if response.status < 400 { LedgerOutcome::Ok } else { LedgerOutcome::Error };
                Ok(response)
            }
            Err(message) => {
                entry.outcome = LedgerOutcome::Error;
                Err(EgressError::Failed { host: entry.host.clone(), message })
            }
        };
        tracing::info!(host = %entry.host, purpose = %entry.purpose, outcome = entry.outcome.as_str(), "outbound request");
        complete_entry(&self.ledger, &entry).await;
        outcome
    }

    /// A request that may not leave (not http(s), or blocked by policy) is
    /// recorded as `blocked` and refused.
    async fn refusal(
        &self,
        request: &OutboundRequest,
        verdict: Verdict,
        entry: &mut LedgerEntry,
    ) -> Result<(), EgressError> {
        let error = if !matches!(request.url.scheme(), "http" | "https") {
            EgressError::UnsupportedScheme
        } else if let Verdict::Block(reason) = verdict {
            tracing::info!(host = %entry.host, purpose = %entry.purpose, %reason, "outbound request blocked");
            EgressError::Blocked(reason)
        } else {
            return Ok(());
        };
        entry.outcome = LedgerOutcome::Blocked;
        complete_entry(&self.ledger, entry).await;
        Err(error)
    }

    /// The entry's first write, before the request leaves: when it fails the
    /// request is not sent.
    async fn open_entry(&self, entry: &LedgerEntry) -> Result<(), EgressError> {
        write_entry(&self.ledger, entry).await.map_err(|error| {
            tracing::error!(%error, host = %entry.host, "could not write a Privacy Ledger entry; the request was not sent");
            EgressError::Failed {
                host: entry.host.clone(),
                message: "the Privacy Ledger could not be written, so the request was not sent"
                    .into(),
            }
        })
    }

    async fn perform(&self, request: &OutboundRequest) -> Result<OutboundResponse, String> {
        let mut builder = self
            .client_for(request)?
            .request(request.method.clone(), request.url.clone())
            .timeout(request.timeout)
            .body(request.body.clone());
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        // Errors from reqwest may quote the URL; keep only its kind of failure.
        let mut response = builder.send().await.map_err(describe)?;
        let status = response.status().as_u16();
        let Some(pieces) = request.pieces.as_ref().filter(|_| status < 300) else {
            let body = response.bytes().await.map_err(describe)?.to_vec();
            return Ok(OutboundResponse { status, body });
        };
        let mut body = Vec::new();
        while let Some(piece) = response.chunk().await.map_err(describe)? {
            body.extend_from_slice(&piece);
            let _ = pieces.send(piece.to_vec());
        }
        Ok(OutboundResponse { status, body })
    }

    fn entry_for(&self, request: &OutboundRequest) -> LedgerEntry {
        LedgerEntry {
            id: new_id(),
            at: now_ms(),
            method: request.method.as_str().to_string(),
            url: ledger_url(&request.url),
            host: request.url.host_str().unwrap_or_default().to_string(),
            purpose: request.purpose.clone(),
            status: None,
            bytes_sent: 0,
            bytes_received: 0,
            duration_ms: 0,
            outcome: LedgerOutcome::Error,
        }
    }
}

/// Redirects are never followed by the client itself: [`Egress::send`] refuses
/// them and [`Egress::download`] follows them hop by hop, each in the ledger.
fn client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("recorder/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10))
}

fn describe(error: reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "could not connect"
    } else if error.is_body() || error.is_decode() {
        "reading the answer failed"
    } else {
        "request failed"
    };
    kind.to_string()
}

/// Scheme, host, port and path; no credentials, query or fragment.
pub fn ledger_url(url: &Url) -> String {
    let host = match url.host() {
        Some(url::Host::Ipv6(address)) => format!("[{address}]"),
        Some(host) => host.to_string(),
        None => String::new(),
    };
    let port = url.port().map(|port| format!(":{port}")).unwrap_or_default();
    format!("{}://{host}{port}{}", url.scheme(), url.path())
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ledger_urls_drop_secrets() {
        let url = Url::parse("https://user:pw@api.example.com:8443/v1/chat?key=SECRET#frag")
            .expect("url");
        assert_eq!(ledger_url(&url), "https://api.example.com:8443/v1/chat");
        let v6 = Url::parse("http://[::1]/x?y").expect("url");
        assert_eq!(ledger_url(&v6), "http://[::1]/x");
    }
}
