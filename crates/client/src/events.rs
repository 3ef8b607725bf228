//! The service's event stream (`GET /v1/events` or `/ui/events`, Server-Sent Events) as a
//! sequence of `(type, data)` pairs, for commands that follow progress.

use serde_json::Value;

use crate::{Client, ClientError, ClientResult};

/// One event: its type and the `data` of its envelope.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: String,
    pub data: Value,
}

/// An open event stream.
pub struct EventStream {
    response: reqwest::Response,
    buffer: String,
}

impl Client {
    /// Opens the event stream; only events emitted from now on arrive.
    pub async fn events(&self) -> ClientResult<EventStream> {
        self.events_at("/v1/events").await
    }

    /// The same stream on the person's channel (`/ui/events`, with `ui_token`).
    pub async fn person_events(&self) -> ClientResult<EventStream> {
        self.events_at("/ui/events").await
    }

    async fn events_at(&self, path: &str) -> ClientResult<EventStream> {
        let request = self.request(reqwest::Method::GET, path);
        let response = self.send(request).await?;
        Ok(EventStream { response, buffer: String::new() })
    }
}

impl EventStream {
    /// The next event, or None when the service closes the stream.
    pub async fn next(&mut self) -> ClientResult<Option<Event>> {
        loop {
            if let Some(event) = self.take_frame() {
                return Ok(Some(event));
            }
            let chunk =
                self.response.chunk().await.map_err(|e| ClientError::Decode(e.to_string()))?;
            match chunk {
                Some(bytes) => self.buffer.push_str(&String::from_utf8_lossy(&bytes)),
                None => return Ok(None),
            }
        }
    }

    fn take_frame(&mut self) -> Option<Event> {
        while let Some(end) = self.buffer.find("\n\n") {
            let frame: String = self.buffer.drain(..end + 2).collect();
            let data = frame.lines().find_map(|line| line.strip_prefix("data:"));
            let envelope: Option<Value> = data.and_then(|d| serde_json::from_str(d.trim()).ok());
            if let Some(envelope) = envelope {
                let kind = envelope["type"].as_str().unwrap_or_default().to_owned();
                return Some(Event { kind, data: envelope["data"].clone() });
            }
        }
        None
    }
}
