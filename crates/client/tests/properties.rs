//! Property tests of the event-stream reader (`EventDecoder`, what `EventStream`
//! reads the service's Server-Sent Events with): a valid stream gives the same
//! events however it is cut into chunks and whichever line ends it uses; any
//! bytes at all give events or an error, never a panic, and the bytes it holds
//! stay bounded.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use recorder_client::{Event, EventDecoder, MAX_EVENT_BYTES};
use serde_json::{json, Value};

/// Feeds `chunks` one at a time, taking every event after each.
fn decode(chunks: &[&[u8]]) -> Result<Vec<Event>, String> {
    let mut decoder = EventDecoder::default();
    let mut events = Vec::new();
    for chunk in chunks {
        decoder.push(chunk);
        loop {
            match decoder.next_event() {
                Ok(Some(event)) => events.push(event),
                Ok(None) => break,
                Err(error) => return Err(error.to_string()),
            }
        }
        if decoder.pending_bytes() > MAX_EVENT_BYTES {
            return Err(format!("{} bytes held", decoder.pending_bytes()));
        }
    }
    Ok(events)
}

/// `bytes` cut at `cuts` (positions, any order, clamped).
fn split<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut chunks = Vec::new();
    let mut from = 0;
    for cut in cuts {
        chunks.push(&bytes[from..cut]);
        from = cut;
    }
    chunks.push(&bytes[from..]);
    chunks
}

fn any_data() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<i64>().prop_map(Value::from),
        // Any text, multi-byte characters and line ends included (JSON escapes them).
        any::<String>().prop_map(Value::from),
        "[a-zé€😀 :]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        prop::collection::btree_map("[a-z_]{1,6}", inner, 0..3)
            .prop_map(|map| Value::Object(map.into_iter().collect()))
    })
}

/// What the service sends (CONTRACT §6): `retry:` first, then for each event
/// `id:`, `event:` and `data:` (the envelope), comments now and then; with one
/// of the three line ends SSE allows.
fn stream(events: &[(String, Value)], line_end: &str, comments: &[bool]) -> Vec<u8> {
    let mut text = format!("retry: 2000{line_end}{line_end}");
    for (at, (kind, data)) in events.iter().enumerate() {
        if comments.get(at).copied().unwrap_or(false) {
            text.push_str(&format!(": keep-alive{line_end}{line_end}"));
        }
        let envelope = json!({"type": kind, "data": data, "at": 1_700_000_000_000i64 + at as i64});
        text.push_str(&format!("id: {at}{line_end}event: {kind}{line_end}"));
        text.push_str(&format!("data: {envelope}{line_end}{line_end}"));
    }
    text.into_bytes()
}

fn line_end() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["\n", "\r\n", "\r"])
}

fn kind() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["meeting.updated", "notes.progress", "segment.new", "é.ü"])
        .prop_map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_valid_stream_gives_its_events_however_it_is_cut(
        events in prop::collection::vec((kind(), any_data()), 0..6),
        line_end in line_end(),
        comments in prop::collection::vec(any::<bool>(), 0..6),
        cuts in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let bytes = stream(&events, line_end, &comments);
        let expected: Vec<Event> =
            events.iter().map(|(kind, data)| Event { kind: kind.clone(), data: data.clone() }).collect();
        prop_assert_eq!(&decode(&[&bytes]).map_err(TestCaseError::fail)?, &expected);
        prop_assert_eq!(&decode(&split(&bytes, &cuts)).map_err(TestCaseError::fail)?, &expected);
        // A byte at a time: every CR/LF and every UTF-8 sequence is cut.
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        prop_assert_eq!(&decode(&bytewise).map_err(TestCaseError::fail)?, &expected);
    }

    #[test]
    fn any_bytes_give_events_or_an_error_with_bounded_buffers(
        bytes in prop::collection::vec(any::<u8>(), 0..4_000),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        // An error is only for an event that grew too long, which 4 kB cannot.
        let whole = decode(&[&bytes]).map_err(TestCaseError::fail)?;
        let cut = decode(&split(&bytes, &cuts)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(whole, cut, "the same events however cut");
    }

    #[test]
    fn mutated_streams_give_events_or_an_error(
        events in prop::collection::vec((kind(), any_data()), 1..5),
        line_end in line_end(),
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        cut in any::<usize>(),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let mut bytes = stream(&events, line_end, &[]);
        for (at, value) in flips {
            let at = at % bytes.len();
            bytes[at] = value;
        }
        bytes.truncate(cut % (bytes.len() + 1));
        let whole = decode(&[&bytes]).map_err(TestCaseError::fail)?;
        prop_assert!(whole.len() <= events.len() + 8, "no more events than blank lines allow");
        prop_assert_eq!(whole, decode(&split(&bytes, &cuts)).map_err(TestCaseError::fail)?);
    }
}

/// Regression: each chunk used to be decoded as UTF-8 on its own, so a
/// character cut between two chunks became U+FFFD.
#[test]
fn a_character_cut_between_chunks_arrives_whole() {
    let bytes = "data: {\"type\":\"segment.new\",\"data\":{\"text\":\"café\"}}\n\n".as_bytes();
    let at = bytes.iter().position(|b| *b == 0xc3).expect("é") + 1;
    let events = decode(&[&bytes[..at], &bytes[at..]]).expect("decodes");
    assert_eq!(events, vec![Event { kind: "segment.new".into(), data: json!({"text": "café"}) }]);
}

/// Regression: only "\n\n" ended an event, so a stream with CRLF line ends gave
/// nothing and its buffer grew for as long as the stream lasted.
#[test]
fn crlf_line_ends_end_events() {
    let bytes = b"retry: 2000\r\n\r\ndata: {\"type\":\"a\",\"data\":1}\r\n\r\n";
    let events = decode(&[bytes]).expect("decodes");
    assert_eq!(events, vec![Event { kind: "a".into(), data: json!(1) }]);
}

/// An event that never ends is refused once it passes the limit, quickly,
/// however small the chunks it trickles in.
#[test]
fn an_endless_event_is_refused_at_the_limit() {
    let started = Instant::now();
    let mut decoder = EventDecoder::default();
    let chunk = [b'x'; 1000];
    let mut pushed = 0;
    let refused = loop {
        decoder.push(&chunk);
        pushed += chunk.len();
        if let Err(error) = decoder.next_event() {
            break error;
        }
        assert!(pushed <= MAX_EVENT_BYTES + chunk.len(), "still held after {pushed} bytes");
    };
    assert!(refused.to_string().contains("longer than"), "{refused}");
    assert!(pushed > MAX_EVENT_BYTES);
    // Many data lines without the blank line that ends the event, too.
    let mut decoder = EventDecoder::default();
    let refused = (0..MAX_EVENT_BYTES / 2 + 2).find_map(|_| {
        decoder.push(b"data: x\n");
        decoder.next_event().err()
    });
    assert!(refused.is_some(), "data lines add up to the limit");
    // Scanning is linear: a quarter of the limit a byte at a time is quick.
    let mut decoder = EventDecoder::default();
    for _ in 0..MAX_EVENT_BYTES / 4 {
        decoder.push(b"y");
        decoder.next_event().expect("not yet too long");
    }
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
}
