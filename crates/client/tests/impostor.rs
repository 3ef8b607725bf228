//! Another program on the service's port (the service is down, something else
//! took 127.0.0.1:47321) never receives a token from this client, the one the
//! CLI, the gateway and the desktop app use: every call first asks the listener
//! to prove it holds the token, and an impostor cannot.

use std::sync::{Arc, Mutex};

use recorder_api_types::identity::{key_id, proof, token_digest, IdentityProof};
use recorder_client::{Client, ClientError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const TOKEN: &str = "the-real-token-abcdefghijklmnopqrstuvwxyz01";

/// Every request the listener saw, whole (head and body).
type Seen = Arc<Mutex<Vec<String>>>;

/// A listener that answers every request with `answer(port, request)`.
async fn listener(answer: fn(u16, &str) -> String) -> (u16, Seen) {
    let socket = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = socket.local_addr().expect("address").port();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = socket.accept().await {
            let log = log.clone();
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 64 * 1024];
                let read = stream.read(&mut buffer).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&buffer[..read]).to_string();
                log.lock().expect("lock").push(request.clone());
                let _ = stream.write_all(answer(port, &request).as_bytes()).await;
            });
        }
    });
    (port, seen)
}

fn json_answer(body: &str) -> String {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Says "ok" to everything, as a careless or malicious program would.
fn yes_man(_: u16, _: &str) -> String {
    json_answer(r#"{"service":"recorder","version":"0.1.0","proof":"AAAA","ok":true}"#)
}

/// Knows the protocol but not the token: answers with a proof under a guess.
fn guesser(port: u16, request: &str) -> String {
    let nonce = request.split("nonce=").nth(1).and_then(|rest| rest.split('&').next());
    let forged = proof(&token_digest("a guess"), port, nonce.unwrap_or_default());
    json_answer(&format!(r#"{{"service":"recorder","version":"0.1.0","proof":"{forged}"}}"#))
}

/// The real service's answer to the challenge (and `{}` to anything else).
fn genuine(port: u16, request: &str) -> String {
    let query = request.split_whitespace().nth(1).unwrap_or_default();
    if !query.starts_with("/.well-known/recorder-identity?") {
        return json_answer(r#"{"ok":true,"version":"0.1.0","recording":{"active":false}}"#);
    }
    let nonce = query.split("nonce=").nth(1).and_then(|rest| rest.split('&').next());
    let key = query.split("key=").nth(1).and_then(|rest| rest.split('&').next());
    assert_eq!(key, Some(key_id(&token_digest(TOKEN)).as_str()), "the key id names the token");
    let answer = IdentityProof {
        service: "recorder".into(),
        version: "0.1.0".into(),
        proof: proof(&token_digest(TOKEN), port, nonce.unwrap_or_default()),
    };
    json_answer(&serde_json::to_string(&answer).expect("json"))
}

fn no_token_in(seen: &Seen) {
    for request in seen.lock().expect("lock").iter() {
        assert!(!request.contains(TOKEN), "the token reached the listener: {request}");
        assert!(!request.to_ascii_lowercase().contains("authorization"), "{request}");
    }
}

#[tokio::test]
async fn an_impostor_gets_no_token_and_the_caller_is_told() {
    for impostor in [yes_man as fn(u16, &str) -> String, guesser] {
        let (port, seen) = listener(impostor).await;
        let client = Client::new(&format!("http://127.0.0.1:{port}"), TOKEN).expect("client");
        let health = client.health().await.expect_err("refused");
        assert!(matches!(health, ClientError::Impostor(p) if p == port), "{health}");
        assert_eq!(
            health.to_string(),
            format!("something else is listening on port {port}; it is not this Recorder (no token was sent)")
        );
        assert!(matches!(client.settings().await, Err(ClientError::Impostor(_))));
        assert!(matches!(client.login_link(None).await, Err(ClientError::Impostor(_))));
        assert!(matches!(client.events().await, Err(ClientError::Impostor(_))));
        assert!(matches!(client.pairing_code().await, Err(ClientError::Impostor(_))));
        assert!(!seen.lock().expect("lock").is_empty(), "the challenge was asked");
        no_token_in(&seen);
    }
}

#[tokio::test]
async fn the_real_service_proves_itself_and_then_gets_the_token() {
    let (port, seen) = listener(genuine).await;
    let client = Client::new(&format!("http://127.0.0.1:{port}"), TOKEN).expect("client");
    let health = client.health().await.expect("proved, then asked");
    assert!(health.ok);
    let requests = seen.lock().expect("lock").clone();
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert!(!requests[0].contains(TOKEN), "the challenge carries no token");
    assert!(requests[1].contains(&format!("Bearer {TOKEN}")), "then the request does");
}

#[tokio::test]
async fn nothing_listening_is_unreachable_not_an_impostor() {
    let port = {
        let socket = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        socket.local_addr().expect("address").port()
    };
    let client = Client::new(&format!("http://127.0.0.1:{port}"), TOKEN).expect("client");
    assert!(matches!(client.health().await, Err(ClientError::Unreachable(_))));
}
