//! Another program holding the service's port (the service is down, something
//! else took 127.0.0.1:PORT): it answers every request with a forged identity
//! proof and `ok`, and keeps every request it gets, so a test can show that no
//! client of ours handed it a token.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

pub struct Impostor {
    pub port: u16,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Impostor {
    /// Listens on 127.0.0.1:`port` (0: any free port) on a thread of its own.
    pub fn listen(port: u16) -> Impostor {
        let socket = TcpListener::bind(("127.0.0.1", port)).expect("the port is free");
        let port = socket.local_addr().expect("address").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for mut stream in socket.incoming().flatten() {
                let mut buffer = vec![0u8; 16 * 1024];
                let read = stream.read(&mut buffer).unwrap_or(0);
                let request = String::from_utf8_lossy(&buffer[..read]).to_string();
                log.lock().unwrap_or_else(|p| p.into_inner()).push(request);
                let body = r#"{"service":"recorder","version":"0.1.0","proof":"forged","ok":true}"#;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Impostor { port, seen }
    }

    /// Every request it got, head and body as text.
    pub fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Asserts it was asked (the identity challenge) and never given any of
    /// `tokens` nor an `Authorization` header.
    pub fn assert_got_no_token(&self, tokens: &[&str]) {
        let requests = self.requests();
        assert!(!requests.is_empty(), "nobody asked the listener to prove itself");
        for request in &requests {
            assert!(!request.to_ascii_lowercase().contains("authorization"), "{request}");
            for token in tokens {
                assert!(!request.contains(token), "a token reached the listener: {request}");
            }
        }
    }
}
