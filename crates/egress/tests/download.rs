//! Streaming downloads against a small HTTP server on loopback: whole files,
//! resumption with `Range` (206), servers that ignore it (200), failures, refusals
//! and abandoned downloads, each with exactly one ledger entry.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use recorder_egress::{Egress, Method, OutboundRequest, Verdict};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

use recorder_egress::MemoryLedger as Memory;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Honours `Range`.
    Ranges,
    /// Always sends the whole file with 200.
    IgnoresRanges,
    /// Sends half the body, then stalls.
    Stalls,
    NotFound,
}

/// What the server saw: the `Range` header of each request (or "").
type Seen = Arc<Mutex<Vec<String>>>;

async fn serve(body: Vec<u8>, mode: Mode) -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let seen: Seen = Arc::default();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let (body, log) = (body.clone(), log.clone());
            tokio::spawn(async move {
                let head = read_head(&mut stream).await;
                let range = head
                    .lines()
                    .find_map(|line| line.strip_prefix("range: ").or(line.strip_prefix("Range: ")))
                    .unwrap_or("")
                    .to_string();
                log.lock().expect("lock").push(range.clone());
                let answer = answer(&body, &range, mode);
                let _ = stream.write_all(&answer).await;
                if mode == Mode::Stalls {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                }
            });
        }
    });
    (format!("http://user:secret@{address}/models/file.bin?token=SECRET"), seen)
}

async fn read_head(stream: &mut tokio::net::TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).await.unwrap_or(0) == 1 {
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).to_string()
}

fn answer(body: &[u8], range: &str, mode: Mode) -> Vec<u8> {
    let start = range.strip_prefix("bytes=").and_then(|r| r.trim_end_matches('-').parse().ok());
    let (status, headers, part): (&str, String, &[u8]) = match (mode, start) {
        (Mode::NotFound, _) => ("404 Not Found", String::new(), b"no"),
        (Mode::Ranges, Some(start)) if start >= body.len() => {
            ("416 Range Not Satisfiable", format!("Content-Range: bytes */{}\r\n", body.len()), b"")
        }
        (Mode::Ranges, Some(start)) => (
            "206 Partial Content",
            format!("Content-Range: bytes {start}-{}/{}\r\n", body.len() - 1, body.len()),
            &body[start..],
        ),
        _ => ("200 OK", String::new(), body),
    };
    let sent = if mode == Mode::Stalls { &part[..part.len() / 2] } else { part };
    let mut answer = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\n{headers}Connection: close\r\n\r\n",
        part.len()
    )
    .into_bytes();
    answer.extend_from_slice(sent);
    answer
}

fn body() -> Vec<u8> {
    (0..100_000u32).map(|i| (i % 251) as u8).collect()
}

fn request(url: &str) -> OutboundRequest {
    let mut request =
        OutboundRequest::new(Method::GET, Url::parse(url).expect("url"), "model download");
    request.timeout = Duration::from_secs(5);
    request
}

async fn file_with(contents: &[u8]) -> (tempfile::TempDir, std::path::PathBuf, tokio::fs::File) {
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("file.bin.part");
    std::fs::write(&path, contents).expect("write");
    let file =
        tokio::fs::OpenOptions::new().read(true).write(true).open(&path).await.expect("open");
    (folder, path, file)
}

#[tokio::test]
async fn a_whole_file_streams_to_disk_with_progress_and_one_ledger_entry() {
    let (url, seen) = serve(body(), Mode::Ranges).await;
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    let (_folder, path, mut file) = file_with(b"").await;
    let mut reports = Vec::new();
    let outcome = egress
        .download(request(&url), Verdict::Allow, &mut file, 0, |done, total| {
            reports.push((done, total))
        })
        .await
        .expect("downloaded");
    assert_eq!((outcome.status, outcome.received, outcome.resumed), (200, 100_000, false));
    assert_eq!(std::fs::read(&path).expect("read"), body());
    assert_eq!(reports.last(), Some(&(100_000, Some(100_000))));
    assert_eq!(seen.lock().expect("lock").as_slice(), [""], "no Range for a fresh file");
    let entries = ledger.entries();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(
        (entry.status, entry.bytes_received, entry.outcome.as_str()),
        (Some(200), 100_000, "ok")
    );
    assert_eq!(entry.purpose, "model download");
    assert!(
        entry.url.ends_with("/models/file.bin") && !entry.url.contains("secret"),
        "{}",
        entry.url
    );
    assert!(!entry.url.contains('?'), "{}", entry.url);
}

#[tokio::test]
async fn a_partial_file_is_resumed_with_range_and_appended() {
    let (url, seen) = serve(body(), Mode::Ranges).await;
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    let (_folder, path, mut file) = file_with(&body()[..30_000]).await;
    let outcome = egress
        .download(request(&url), Verdict::Allow, &mut file, 30_000, |_, _| {})
        .await
        .expect("resumed");
    assert_eq!((outcome.status, outcome.received, outcome.resumed), (206, 70_000, true));
    assert_eq!(outcome.file_size, 100_000);
    assert_eq!(std::fs::read(&path).expect("read"), body());
    assert_eq!(seen.lock().expect("lock").as_slice(), ["bytes=30000-"]);
    assert_eq!(ledger.entries()[0].bytes_received, 70_000);

    // Asking past the end of a complete file: 416, nothing to do.
    let outcome = egress
        .download(request(&url), Verdict::Allow, &mut file, 100_000, |_, _| {})
        .await
        .expect("already whole");
    assert_eq!((outcome.status, outcome.received, outcome.file_size), (416, 0, 100_000));
    assert_eq!(ledger.entries().len(), 2);
}

#[tokio::test]
async fn a_server_that_ignores_range_restarts_the_file() {
    let (url, seen) = serve(body(), Mode::IgnoresRanges).await;
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    let (_folder, path, mut file) = file_with(b"garbage that must go").await;
    let outcome = egress
        .download(request(&url), Verdict::Allow, &mut file, 21, |_, _| {})
        .await
        .expect("restarted");
    assert_eq!((outcome.status, outcome.received, outcome.resumed), (200, 100_000, false));
    assert_eq!(std::fs::read(&path).expect("read"), body());
    assert_eq!(seen.lock().expect("lock").as_slice(), ["bytes=21-"]);
}

#[tokio::test]
async fn failures_refusals_and_abandoned_downloads_are_recorded_once() {
    let ledger = Arc::new(Memory::default());
    let egress = Arc::new(Egress::new(ledger.clone()).expect("egress"));

    let (missing, _) = serve(body(), Mode::NotFound).await;
    let (_folder, _path, mut file) = file_with(b"").await;
    let error = egress.download(request(&missing), Verdict::Allow, &mut file, 0, |_, _| {}).await;
    assert!(error.expect_err("404").to_string().contains("HTTP 404"));

    let (url, seen) = serve(body(), Mode::Ranges).await;
    let blocked = egress
        .download(request(&url), Verdict::Block("policy".into()), &mut file, 0, |_, _| {})
        .await;
    assert!(blocked.is_err());
    assert!(seen.lock().expect("lock").is_empty(), "a refused download never leaves");

    let (stalls, _) = serve(body(), Mode::Stalls).await;
    let task = {
        let egress = egress.clone();
        tokio::spawn(async move {
            let (_folder, _path, mut file) = file_with(b"").await;
            egress.download(request(&stalls), Verdict::Allow, &mut file, 0, |_, _| {}).await
        })
    };
    // Half the body arrives at once; then the server stalls and the download is abandoned.
    tokio::time::sleep(Duration::from_millis(500)).await;
    task.abort();
    let _ = task.await;

    let entries = ledger.entries();
    let outcomes: Vec<(&str, Option<u16>)> =
        entries.iter().map(|e| (e.outcome.as_str(), e.status)).collect();
    assert_eq!(outcomes, [("error", Some(404)), ("blocked", None), ("error", Some(200))]);
    assert_eq!(entries[2].bytes_received, 50_000, "what arrived before it was abandoned");
}
