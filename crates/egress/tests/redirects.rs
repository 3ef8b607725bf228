//! Redirects against small HTTP servers on loopback: a download follows them
//! hop by hop, each hop its own ledger entry and nothing meant for the first
//! host carried to the next; a request with a body (a notes provider, with its
//! key) never follows one, so its body and key reach only the configured host.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use recorder_egress::MemoryLedger as Memory;
use recorder_egress::{Egress, Method, OutboundRequest, Verdict};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

/// Every request head a server saw.
type Heads = Arc<Mutex<Vec<String>>>;

/// A server on 127.0.0.1 that answers every request with `answer(head)`.
async fn server(answer: impl Fn(&str) -> String + Send + Sync + 'static) -> (u16, Heads) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    let heads: Heads = Arc::default();
    let (log, answer) = (heads.clone(), Arc::new(answer));
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let (log, answer) = (log.clone(), answer.clone());
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).await.unwrap_or(0) == 1
                {
                    head.push(byte[0]);
                }
                let head = String::from_utf8_lossy(&head).to_string();
                log.lock().expect("lock").push(head.clone());
                let _ = stream.write_all(answer(&head).as_bytes()).await;
            });
        }
    });
    (port, heads)
}

fn redirect_to(status: &str, location: String) -> impl Fn(&str) -> String {
    let status = status.to_string();
    move |_| {
        format!("HTTP/1.1 {status}\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }
}

fn file_server(_: &str) -> String {
    "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nmodel".to_string()
}

fn request(method: Method, url: &str) -> OutboundRequest {
    let mut request = OutboundRequest::new(method, Url::parse(url).expect("url"), "test");
    request.timeout = Duration::from_secs(5);
    request
}

#[tokio::test]
async fn a_download_follows_a_redirect_with_each_hop_in_the_ledger() {
    let (target, target_heads) = server(file_server).await;
    // The second hop is another host (localhost, not 127.0.0.1).
    let (first, _) =
        server(redirect_to("302 Found", format!("http://localhost:{target}/blob/model.bin"))).await;
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    let folder = tempfile::tempdir().expect("temp");
    let path = folder.path().join("model.bin.part");
    let mut file = tokio::fs::File::create(&path).await.expect("file");
    let mut download = request(Method::GET, &format!("http://127.0.0.1:{first}/model.bin"));
    download.headers.push(("x-mirror-key".into(), "MIRROR-SECRET".into()));
    let outcome =
        egress.download(download, Verdict::Allow, &mut file, 0, |_, _| {}).await.expect("ok");
    assert_eq!((outcome.status, outcome.file_size), (200, 5));
    assert_eq!(std::fs::read(&path).expect("read"), b"model");
    // In the order they were first written: each before its hop was sent.
    let entries = ledger.entries();
    let hops: Vec<(&str, Option<u16>, &str)> = entries
        .iter()
        .map(|entry| (entry.host.as_str(), entry.status, entry.outcome.as_str()))
        .collect();
    assert_eq!(hops, [("127.0.0.1", Some(302), "ok"), ("localhost", Some(200), "ok")]);
    let head = target_heads.lock().expect("lock").join("\n").to_ascii_lowercase();
    assert!(!head.contains("mirror-secret"), "a header for the first host went on: {head}");
}

#[tokio::test]
async fn a_request_with_a_body_never_follows_a_redirect() {
    let (elsewhere, elsewhere_heads) = server(file_server).await;
    let (provider, provider_heads) = server(redirect_to(
        "307 Temporary Redirect",
        format!("http://localhost:{elsewhere}/v1/chat/completions"),
    ))
    .await;
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    let mut notes =
        request(Method::POST, &format!("http://127.0.0.1:{provider}/v1/chat/completions"));
    notes.headers.push(("x-api-key".into(), "PROVIDER-SECRET".into()));
    notes.body = b"{\"messages\": \"the transcript\"}".to_vec();
    let error = egress.send(notes, Verdict::Allow).await.expect_err("refused");
    assert!(error.to_string().contains("redirect"), "{error}");
    assert_eq!(provider_heads.lock().expect("lock").len(), 1);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(elsewhere_heads.lock().expect("lock").is_empty(), "the redirect was followed");
    let entries = ledger.entries();
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0].status, entries[0].outcome.as_str()), (Some(307), "error"));
}

#[tokio::test]
async fn a_redirect_loop_ends_after_five_hops() {
    // A server that sends every request back to itself.
    let location = Arc::new(Mutex::new(String::new()));
    let target = location.clone();
    let (port, heads) = server(move |_| {
        let location = target.lock().expect("lock").clone();
        format!("HTTP/1.1 301 Moved\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    })
    .await;
    *location.lock().expect("lock") = format!("http://127.0.0.1:{port}/again");
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    let folder = tempfile::tempdir().expect("temp");
    let mut file = tokio::fs::File::create(folder.path().join("f")).await.expect("file");
    let download = request(Method::GET, &format!("http://127.0.0.1:{port}/start"));
    let error = egress
        .download(download, Verdict::Allow, &mut file, 0, |_, _| {})
        .await
        .expect_err("a loop fails");
    assert!(error.to_string().contains("more than 5 redirects"), "{error}");
    assert_eq!(heads.lock().expect("lock").len(), 6, "the first request and five hops");
    assert_eq!(ledger.entries().len(), 6);
}
