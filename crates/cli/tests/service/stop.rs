//! `recorder serve` stops when told: SIGTERM and SIGINT end it within 2 s with
//! exit status 0, whether its stdin is a pipe left open (a terminal, a parent
//! that never writes) or at its end (/dev/null, as systemd gives it), and with
//! an event stream open. Its journal and ledger are closed as on any shutdown
//! (`events.rs`, `embedded_notes.rs` cover in-flight work and children).

use std::time::Duration;

use recorder_test_support::{Options, TestService};

/// What the issue asks of every process: gone within 2 s of the signal.
const LIMIT: Duration = Duration::from_secs(2);

async fn stops_on(signal: &str, stdin_closed: bool) {
    let mut service =
        TestService::start(crate::BIN, Options { stdin_closed, ..Options::default() });
    let health = crate::get(&service, "/v1/health").await;
    assert_eq!(health.status, 200, "{}", health.text);
    let events = reqwest::Client::new()
        .get(service.url("/v1/events"))
        .bearer_auth(&service.api_token)
        .send()
        .await
        .expect("an event stream");
    assert_eq!(events.status(), 200);
    let (exit, took) = service.signal(signal, LIMIT);
    assert!(exit.success(), "SIG{signal}, stdin closed: {stdin_closed}: {exit:?}");
    eprintln!("SIG{signal}, stdin closed: {stdin_closed}: stopped in {} ms", took.as_millis());
    drop(events);
}

#[tokio::test]
async fn sigterm_with_stdin_open_stops_it() {
    stops_on("TERM", false).await;
}

#[tokio::test]
async fn sigterm_with_stdin_closed_stops_it() {
    stops_on("TERM", true).await;
}

#[tokio::test]
async fn sigint_with_stdin_open_stops_it() {
    stops_on("INT", false).await;
}

#[tokio::test]
async fn sigint_with_stdin_closed_stops_it() {
    stops_on("INT", true).await;
}
