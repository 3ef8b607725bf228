//! Streaming downloads into a file, resumable with `Range`, for files too large
//! to hold in memory (transcription models). Like [`Egress::send`], every
//! download (sent, refused, failed or abandoned half-way) becomes exactly one
//! Privacy Ledger entry, with the bytes actually received.

use std::io::SeekFrom;
use std::sync::Arc;
use std::time::Instant;

use recorder_domain::{LedgerEntry, LedgerOutcome};
use tokio::io::{AsyncSeekExt, AsyncWriteExt};

use crate::{complete_entry, describe, Egress, EgressError, LedgerSink, OutboundRequest, Verdict};

/// How a download ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownloadOutcome {
    /// 200 (whole file), 206 (resumed) or 416 (the file was already complete).
    pub status: u16,
    /// Body bytes received by this request.
    pub received: u64,
    /// Bytes now in the file.
    pub file_size: u64,
    /// Whether the bytes already in the file were kept.
    pub resumed: bool,
}

/// The entry of a download under way: completed once, when finished, or when
/// dropped (the download was abandoned, e.g. at shutdown). Its opening write is
/// on disk before the request leaves.
struct PendingEntry {
    entry: Option<LedgerEntry>,
    ledger: Arc<dyn LedgerSink>,
    started: Instant,
}

impl PendingEntry {
    fn entry(&mut self) -> Option<&mut LedgerEntry> {
        self.entry.as_mut()
    }

    fn take(&mut self, outcome: LedgerOutcome) -> Option<LedgerEntry> {
        let mut entry = self.entry.take()?;
        entry.outcome = outcome;
        entry.duration_ms = self.started.elapsed().as_millis() as u64;
        tracing::info!(host = %entry.host, purpose = %entry.purpose, outcome = outcome.as_str(), bytes = entry.bytes_received, "download");
        Some(entry)
    }

    async fn finish(&mut self, outcome: LedgerOutcome) {
        if let Some(entry) = self.take(outcome) {
            complete_entry(&self.ledger, &entry).await;
        }
    }
}

impl Drop for PendingEntry {
    fn drop(&mut self) {
        let Some(entry) = self.take(LedgerOutcome::Error) else { return };
        let ledger = self.ledger.clone();
        let write = move || {
            if let Err(error) = ledger.write(&entry) {
                tracing::error!(%error, host = %entry.host, "could not complete a Privacy Ledger entry");
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(write)),
            Err(_) => write(),
        }
    }
}

impl Egress {
    /// Downloads `request` into `file`, streaming. With `resume_from` > 0 it asks
    /// for `Range: bytes=<resume_from>-`: a 206 answer is appended after the first
    /// `resume_from` bytes; a 200 answer restarts the file from zero. `progress`
    /// gets (bytes in the file, total size when known) after every chunk.
    /// `request.timeout` bounds each wait (for the answer, then for each chunk),
    /// not the whole download.
    pub async fn download(
        &self,
        request: OutboundRequest,
        verdict: Verdict,
        file: &mut tokio::fs::File,
        resume_from: u64,
        mut progress: impl FnMut(u64, Option<u64>),
    ) -> Result<DownloadOutcome, EgressError> {
        let (request, mut pending, mut response) =
            self.open_following_redirects(request, verdict, resume_from).await?;
        let host = request.url.host_str().unwrap_or_default().to_string();
        let failed = |message: String| EgressError::Failed { host: host.clone(), message };
        let status = response.status().as_u16();
        let start = match start_offset(&response, status, resume_from) {
            Ok(Some(start)) => start,
            Ok(None) => {
                // 416 for a range starting at the end: the file is already whole.
                pending.finish(LedgerOutcome::Ok).await;
                progress(resume_from, Some(resume_from));
                let outcome =
                    DownloadOutcome { status, received: 0, file_size: resume_from, resumed: true };
                return Ok(outcome);
            }
            Err(message) => return Err(failed(message)),
        };
        let total = total_size(&response, status, start);
        prepare(file, start).await.map_err(|e| failed(format!("cannot write the file: {e}")))?;
        let mut received = 0u64;
        loop {
            let chunk = tokio::time::timeout(request.timeout, response.chunk()).await;
            let chunk = match chunk {
                Ok(Ok(Some(chunk))) => chunk,
                Ok(Ok(None)) => break,
                Ok(Err(error)) => return Err(failed(describe(error))),
                Err(_) => return Err(failed("timed out waiting for data".into())),
            };
            file.write_all(&chunk)
                .await
                .map_err(|e| failed(format!("cannot write the file: {e}")))?;
            received += chunk.len() as u64;
            if let Some(entry) = pending.entry() {
                entry.bytes_received = received;
            }
            progress(start + received, total);
        }
        file.flush().await.map_err(|e| failed(format!("cannot write the file: {e}")))?;
        if let Some(expected) = total.filter(|total| *total != start + received) {
            return Err(failed(format!(
                "the answer ended early ({} of {expected} bytes)",
                start + received
            )));
        }
        pending.finish(LedgerOutcome::Ok).await;
        Ok(DownloadOutcome { status, received, file_size: start + received, resumed: start > 0 })
    }

    /// Sends the request and follows redirects (at most [`MAX_REDIRECTS`]): each
    /// hop is judged by the same verdict and is a ledger entry of its own, on
    /// disk before the hop is sent. No https → http hop, no hop for a request
    /// pinned to checked addresses, and no header but `Range` to another host.
    async fn open_following_redirects(
        &self,
        mut request: OutboundRequest,
        verdict: Verdict,
        resume_from: u64,
    ) -> Result<(OutboundRequest, PendingEntry, reqwest::Response), EgressError> {
        for _ in 0..=MAX_REDIRECTS {
            let mut entry = self.entry_for(&request);
            self.refusal(&request, verdict.clone(), &mut entry).await?;
            self.open_entry(&entry).await?;
            let mut pending = PendingEntry {
                entry: Some(entry),
                ledger: self.ledger.clone(),
                started: Instant::now(),
            };
            let host = request.url.host_str().unwrap_or_default().to_string();
            let failed = |message: String| EgressError::Failed { host: host.clone(), message };
            let response = self.start(&request, resume_from).await.map_err(&failed)?;
            let status = response.status().as_u16();
            if let Some(entry) = pending.entry() {
                entry.status = Some(status);
                entry.bytes_sent = request.body.len() as u64;
            }
            if !is_redirect(status) {
                return Ok((request, pending, response));
            }
            let next = redirect_target(&request, &response).map_err(&failed)?;
            pending.finish(LedgerOutcome::Ok).await;
            tracing::info!(from = %host, to = next.url.host_str().unwrap_or_default(), "download redirected");
            request = next;
        }
        let host = request.url.host_str().unwrap_or_default().to_string();
        Err(EgressError::Failed { host, message: format!("more than {MAX_REDIRECTS} redirects") })
    }

    /// Sends the request (with `Range` when resuming) and waits for the answer's head.
    async fn start(
        &self,
        request: &OutboundRequest,
        resume_from: u64,
    ) -> Result<reqwest::Response, String> {
        let mut builder = self
            .client_for(request)?
            .request(request.method.clone(), request.url.clone())
            .body(request.body.clone());
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        if resume_from > 0 {
            builder = builder.header(reqwest::header::RANGE, format!("bytes={resume_from}-"));
        }
        match tokio::time::timeout(request.timeout, builder.send()).await {
            Ok(result) => result.map_err(describe),
            Err(_) => Err("timed out".to_string()),
        }
    }
}

/// Redirects a download follows before giving up.
pub const MAX_REDIRECTS: usize = 5;

fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// The next hop of a redirect, or why it is not followed.
fn redirect_target(
    request: &OutboundRequest,
    response: &reqwest::Response,
) -> Result<OutboundRequest, String> {
    if !request.pinned_addrs.is_empty() {
        return Err("answered with a redirect, which a checked address does not follow".into());
    }
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .ok_or("answered with a redirect without a location")?;
    let url = request.url.join(location).map_err(|_| "answered with a malformed redirect")?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("answered with a redirect to something other than http(s)".into());
    }
    if request.url.scheme() == "https" && url.scheme() == "http" {
        return Err("answered with a redirect from https to http, which is not followed".into());
    }
    let mut next = request.clone();
    if url.host_str() != request.url.host_str() {
        // Nothing meant for the first host (a key, a cookie) goes to another.
        next.headers.clear();
    }
    next.url = url;
    Ok(next)
}

/// Where the answer's body starts in the file: `Some(0)` for 200, `Some(n)` for a
/// 206 that continues at `n`, `None` for a 416 saying the file is already whole.
fn start_offset(
    response: &reqwest::Response,
    status: u16,
    resume_from: u64,
) -> Result<Option<u64>, String> {
    let range = content_range(response);
    match status {
        200 => Ok(Some(0)),
        206 if resume_from > 0 => match range {
            Some((Some(first), _)) if first == resume_from => Ok(Some(resume_from)),
            _ => Err("the server resumed at the wrong place".to_string()),
        },
        416 if resume_from > 0
            && matches!(range, Some((None, Some(size))) if size == resume_from) =>
        {
            Ok(None)
        }
        other => Err(format!("answered HTTP {other}")),
    }
}

/// The whole file's size: `Content-Range`'s total for a 206, else `Content-Length`.
fn total_size(response: &reqwest::Response, status: u16, start: u64) -> Option<u64> {
    if status == 206 {
        if let Some((_, Some(total))) = content_range(response) {
            return Some(total);
        }
    }
    response.content_length().map(|length| start + length)
}

/// `Content-Range: bytes 100-199/1000` → (Some(100), Some(1000));
/// `bytes */1000` → (None, Some(1000)).
fn content_range(response: &reqwest::Response) -> Option<(Option<u64>, Option<u64>)> {
    let value = response.headers().get(reqwest::header::CONTENT_RANGE)?.to_str().ok()?;
    parse_content_range(value)
}

fn parse_content_range(value: &str) -> Option<(Option<u64>, Option<u64>)> {
    let rest = value.trim().strip_prefix("bytes")?.trim_start();
    let (range, total) = rest.split_once('/')?;
    let total = total.trim().parse().ok();
    let first = match range.trim() {
        "*" => None,
        range => Some(range.split_once('-')?.0.trim().parse().ok()?),
    };
    Some((first, total))
}

/// Keeps the first `start` bytes of the file and positions the cursor after them.
async fn prepare(file: &mut tokio::fs::File, start: u64) -> std::io::Result<()> {
    file.set_len(start).await?;
    file.seek(SeekFrom::Start(start)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_content_range;

    #[test]
    fn content_ranges_are_read() {
        assert_eq!(parse_content_range("bytes 100-199/1000"), Some((Some(100), Some(1000))));
        assert_eq!(parse_content_range("bytes 5-9/*"), Some((Some(5), None)));
        assert_eq!(parse_content_range("bytes */1000"), Some((None, Some(1000))));
        assert_eq!(parse_content_range("items 1-2/3"), None);
    }
}
