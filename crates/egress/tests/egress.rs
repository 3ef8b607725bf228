//! Egress against a real HTTP server on loopback: what is sent, refused or failed
//! is in the ledger, and nothing secret is.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::routing::post;
use axum::Router;
use recorder_domain::LedgerEntry;
use recorder_egress::{Egress, LedgerSink, Method, OutboundRequest, Verdict};
use url::Url;

use recorder_egress::MemoryLedger as Memory;

async fn server(hits: Arc<AtomicUsize>) -> String {
    let app = Router::new().route(
        "/echo",
        post(move |body: String| {
            let hits = hits.clone();
            async move {
                hits.fetch_add(1, Ordering::SeqCst);
                format!("got {}", body.len())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://user:secret@{address}/echo?token=SECRET")
}

#[tokio::test]
async fn sent_blocked_and_failed_requests_are_all_in_the_ledger() {
    let hits = Arc::new(AtomicUsize::new(0));
    let base = server(hits.clone()).await;
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");

    let mut request = OutboundRequest::new(Method::POST, Url::parse(&base).expect("url"), "notes");
    request.body = b"hello".to_vec();
    let response = egress.send(request.clone(), Verdict::Allow).await.expect("sent");
    assert_eq!(response.status, 200);
    assert_eq!(response.body, b"got 5");

    let blocked = egress.send(request, Verdict::Block("ForceLocalModel".into())).await;
    assert!(blocked.is_err());
    assert_eq!(hits.load(Ordering::SeqCst), 1, "a blocked request never leaves");

    let closed = Url::parse("http://127.0.0.1:9/none").expect("url");
    let failed = egress
        .send(OutboundRequest::new(Method::GET, closed, "model-download"), Verdict::Allow)
        .await;
    assert!(failed.is_err());

    let entries = ledger.entries();
    let outcomes: Vec<&str> = entries.iter().map(|e| e.outcome.as_str()).collect();
    assert_eq!(outcomes, ["ok", "blocked", "error"]);
    let sent = &entries[0];
    assert_eq!(
        (sent.method.as_str(), sent.status, sent.bytes_sent, sent.bytes_received),
        ("POST", Some(200), 5, 5)
    );
    assert_eq!(sent.purpose, "notes");
    assert_eq!(sent.host, "127.0.0.1");
    for entry in &entries {
        assert!(!entry.url.contains("SECRET") && !entry.url.contains("secret"), "{}", entry.url);
        assert!(!entry.url.contains('?'), "{}", entry.url);
    }
}

#[tokio::test]
async fn a_pinned_request_reaches_only_its_pinned_address() {
    let hits = Arc::new(AtomicUsize::new(0));
    let base = Url::parse(&server(hits.clone()).await).expect("url");
    let address = std::net::SocketAddr::new(
        base.host_str().expect("host").parse().expect("ip"),
        base.port().expect("port"),
    );
    let ledger = Arc::new(Memory::default());
    let egress = Egress::new(ledger.clone()).expect("egress");
    // `.invalid` never resolves (RFC 6761): only the pin can lead to the server.
    let url = Url::parse(&format!("http://pinned.invalid:{}/echo?k=SECRET", address.port()))
        .expect("url");

    let unpinned = OutboundRequest::new(Method::POST, url.clone(), "notes");
    assert!(egress.send(unpinned, Verdict::Allow).await.is_err(), "the name must not resolve");
    assert_eq!(hits.load(Ordering::SeqCst), 0);

    let mut pinned = OutboundRequest::new(Method::POST, url, "notes");
    pinned.pinned_addrs = vec![address];
    pinned.body = b"abc".to_vec();
    let response = egress.send(pinned, Verdict::Allow).await.expect("sent");
    assert_eq!((response.status, response.body), (200, b"got 3".to_vec()));
    assert_eq!(hits.load(Ordering::SeqCst), 1);

    let entries = ledger.entries();
    let outcomes: Vec<&str> = entries.iter().map(|e| e.outcome.as_str()).collect();
    assert_eq!(outcomes, ["error", "ok"]);
    assert_eq!(entries[1].host, "pinned.invalid");
    assert_eq!(entries[1].url, format!("http://pinned.invalid:{}/echo", address.port()));
}

/// A sink that fails every write, as a full or read-only disk would.
struct Broken;

impl LedgerSink for Broken {
    fn write(&self, _entry: &LedgerEntry) -> Result<(), String> {
        Err("disk full".into())
    }
}

#[tokio::test]
async fn the_entry_is_written_before_the_request_leaves() {
    let ledger = Arc::new(Memory::default());
    let seen_by_server = Arc::new(Mutex::new(Vec::new()));
    let app = {
        let (ledger, seen) = (ledger.clone(), seen_by_server.clone());
        Router::new().route(
            "/echo",
            post(move || {
                // What the ledger held when the request arrived.
                let (ledger, seen) = (ledger.clone(), seen.clone());
                async move {
                    seen.lock().expect("lock").extend(ledger.entries());
                    "ok"
                }
            }),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = Url::parse(&format!("http://{}/echo", listener.local_addr().expect("address")))
        .expect("url");
    tokio::spawn(async move { axum::serve(listener, app).await });
    let egress = Egress::new(ledger.clone()).expect("egress");

    egress
        .send(OutboundRequest::new(Method::POST, url, "notes"), Verdict::Allow)
        .await
        .expect("sent");

    let seen = seen_by_server.lock().expect("lock").clone();
    assert_eq!(seen.len(), 1, "the entry was on record when the request arrived");
    assert_eq!((seen[0].outcome.as_str(), seen[0].status), ("error", None));
    let entries = ledger.entries();
    assert_eq!(entries.len(), 1, "the outcome completed the same entry");
    assert_eq!((entries[0].id.as_str(), entries[0].outcome.as_str()), (seen[0].id.as_str(), "ok"));
    assert_eq!(entries[0].status, Some(200));
}

#[tokio::test]
async fn a_request_the_ledger_cannot_record_is_not_sent() {
    let hits = Arc::new(AtomicUsize::new(0));
    let base = server(hits.clone()).await;
    let egress = Egress::new(Arc::new(Broken)).expect("egress");
    let request = OutboundRequest::new(Method::POST, Url::parse(&base).expect("url"), "notes");
    let error = egress.send(request, Verdict::Allow).await.expect_err("refused");
    assert!(error.to_string().contains("Privacy Ledger"), "{error}");
    assert_eq!(hits.load(Ordering::SeqCst), 0, "nothing left the machine");
}
