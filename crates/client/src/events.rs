//! The service's event stream (`GET /v1/events` or `/ui/events`, Server-Sent Events) as a
//! sequence of `(type, data)` pairs, for commands that follow progress.
//!
//! The stream is read as bytes ([`EventDecoder`]): lines end with LF, CRLF or CR, a blank
//! line ends an event, `data:` lines are joined with LF, comments (`: keep-alive`) and
//! other fields are skipped, and UTF-8 is decoded once an event is whole, so the events
//! are the same however the bytes were split into chunks. An event that grows past
//! [`MAX_EVENT_BYTES`] without ending is an error, not a buffer without bound.

use serde_json::Value;

use crate::{Client, ClientError, ClientResult};

/// The most bytes one event (its lines, before the blank line that ends it) may take.
/// The service's events are a few KiB at most.
pub const MAX_EVENT_BYTES: usize = 1 << 20;

/// One event: its type and the `data` of its envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: String,
    pub data: Value,
}

/// An open event stream.
pub struct EventStream {
    response: reqwest::Response,
    decoder: EventDecoder,
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
        Ok(EventStream { response, decoder: EventDecoder::default() })
    }
}

impl EventStream {
    /// The next event, or None when the service closes the stream.
    pub async fn next(&mut self) -> ClientResult<Option<Event>> {
        loop {
            if let Some(event) = self.decoder.next_event()? {
                return Ok(Some(event));
            }
            let chunk =
                self.response.chunk().await.map_err(|e| ClientError::Decode(e.to_string()))?;
            match chunk {
                Some(bytes) => self.decoder.push(&bytes),
                None => return Ok(None),
            }
        }
    }
}

/// Server-Sent Events framing over bytes as they arrive: [`EventDecoder::push`] what
/// came, then take [`EventDecoder::next_event`] until it has none.
#[derive(Debug, Default)]
pub struct EventDecoder {
    /// Bytes received and not yet read as lines: `buffer[start..]`.
    buffer: Vec<u8>,
    start: usize,
    /// `buffer[start..scanned]` holds no line end (a CR at its end may be half a CRLF).
    scanned: usize,
    /// The current event's `data` lines, each followed by LF.
    data: Vec<u8>,
    /// After a CR ending a line, an LF right after it belongs to that line end.
    after_cr: bool,
}

impl EventDecoder {
    /// Adds bytes received from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 {
            self.buffer.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
        }
        self.buffer.extend_from_slice(bytes);
    }

    /// The bytes held for the event in progress (its lines so far and what is not yet
    /// a line): at most [`MAX_EVENT_BYTES`] once [`EventDecoder::next_event`] has
    /// answered without an error.
    pub fn pending_bytes(&self) -> usize {
        self.data.len() + (self.buffer.len() - self.start)
    }

    /// The next whole event received, if any. An event longer than
    /// [`MAX_EVENT_BYTES`] is refused (and the decoder is of no further use).
    pub fn next_event(&mut self) -> ClientResult<Option<Event>> {
        while let Some(line) = self.next_line() {
            let (from, to) = line;
            if from == to {
                if let Some(event) = self.dispatch() {
                    return Ok(Some(event));
                }
                continue;
            }
            let line = &self.buffer[from..to];
            let (field, value) = match line.iter().position(|b| *b == b':') {
                Some(colon) => {
                    let value = &line[colon + 1..];
                    (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
                }
                None => (line, &[][..]),
            };
            if field == b"data" {
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            if self.data.len() > MAX_EVENT_BYTES {
                return Err(too_long());
            }
        }
        if self.pending_bytes() > MAX_EVENT_BYTES {
            return Err(too_long());
        }
        Ok(None)
    }

    /// The next whole line as a range of `buffer`, without its line end.
    fn next_line(&mut self) -> Option<(usize, usize)> {
        if self.after_cr && self.start < self.buffer.len() {
            self.after_cr = false;
            if self.buffer[self.start] == b'\n' {
                self.start += 1;
                self.scanned = self.scanned.max(self.start);
            }
        }
        let from = self.start;
        let offset = self.buffer[self.scanned..].iter().position(|b| matches!(b, b'\n' | b'\r'));
        let Some(offset) = offset else {
            self.scanned = self.buffer.len();
            return None;
        };
        let end = self.scanned + offset;
        self.start = end + 1;
        self.scanned = self.start;
        // A CR may be followed by an LF that has not arrived yet.
        self.after_cr = self.buffer[end] == b'\r';
        Some((from, end))
    }

    /// A blank line: the event so far, if it has data that is an envelope.
    fn dispatch(&mut self) -> Option<Event> {
        if self.data.is_empty() {
            return None;
        }
        self.data.pop();
        let envelope = serde_json::from_slice::<Value>(&self.data).ok();
        self.data.clear();
        let envelope = envelope?;
        let kind = envelope["type"].as_str().unwrap_or_default().to_owned();
        Some(Event { kind, data: envelope["data"].clone() })
    }
}

fn too_long() -> ClientError {
    ClientError::Decode(format!("an event of the stream is longer than {MAX_EVENT_BYTES} bytes"))
}
