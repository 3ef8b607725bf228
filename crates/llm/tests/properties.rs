//! Property tests of the GGUF check (`gguf::inspect`), which reads notes-model
//! files from outside (a download, `recorder models add-notes FILE`) before
//! llama.cpp may: any bytes, and a valid file with bytes overwritten, cut short
//! or with huge values spliced into its counts and lengths, are read or refused
//! with a `GgufError`; never a panic, never a read or allocation sized by a
//! claim larger than the file, and quickly.

use std::io::{Cursor, Read, Seek, SeekFrom};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use recorder_llm::gguf::{inspect_reader, GgufError, GgufInfo, MAX_NESTING};

fn string(out: &mut Vec<u8>, text: &str) {
    out.extend((text.len() as u64).to_le_bytes());
    out.extend(text.as_bytes());
}

fn key(out: &mut Vec<u8>, name: &str, kind: u32) {
    string(out, name);
    out.extend(kind.to_le_bytes());
}

/// A valid GGUF file with metadata of most types (strings, numbers, a string
/// array, a number array, an array of arrays) and three tensors with data.
fn model() -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend(3u64.to_le_bytes()); // tensors
    out.extend(9u64.to_le_bytes()); // keys
    key(&mut out, "general.architecture", 8);
    string(&mut out, "llama");
    key(&mut out, "general.name", 8);
    string(&mut out, "Tiny test");
    key(&mut out, "llama.context_length", 4);
    out.extend(2048u32.to_le_bytes());
    key(&mut out, "general.alignment", 4);
    out.extend(32u32.to_le_bytes());
    key(&mut out, "tokenizer.ggml.tokens", 9);
    out.extend(8u32.to_le_bytes());
    out.extend(3u64.to_le_bytes());
    for token in ["a", "bc", "déf"] {
        string(&mut out, token);
    }
    key(&mut out, "tokenizer.ggml.token_type", 9);
    out.extend(5u32.to_le_bytes());
    out.extend(3u64.to_le_bytes());
    out.extend([1u8; 12]);
    key(&mut out, "test.nested", 9);
    out.extend(9u32.to_le_bytes());
    out.extend(2u64.to_le_bytes());
    for _ in 0..2 {
        out.extend(0u32.to_le_bytes());
        out.extend(2u64.to_le_bytes());
        out.extend([7u8, 8]);
    }
    key(&mut out, "test.flag", 7);
    out.push(1);
    key(&mut out, "test.big", 10);
    out.extend(u64::MAX.to_le_bytes());
    // (name, type, dims, offset from the data start): F32 4, Q8_0 32x2, F16 8.
    let tensors: [(&str, u32, &[u64], u64); 3] =
        [("a", 0, &[4], 0), ("b", 8, &[32, 2], 32), ("c", 1, &[8], 128)];
    for (name, kind, dims, offset) in tensors {
        string(&mut out, name);
        out.extend((dims.len() as u32).to_le_bytes());
        for dim in dims {
            out.extend(dim.to_le_bytes());
        }
        out.extend(kind.to_le_bytes());
        out.extend(offset.to_le_bytes());
    }
    while !out.len().is_multiple_of(32) {
        out.push(0);
    }
    out.extend([0u8; 128 + 16]);
    out
}

/// A reader over bytes that notes the largest read asked of it: a buffer read
/// into whole (a string, say) is asked for at its full size.
struct Watched {
    inner: Cursor<Vec<u8>>,
    largest_read: usize,
}

impl Read for Watched {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.largest_read = self.largest_read.max(buffer.len());
        self.inner.read(buffer)
    }
}

impl Seek for Watched {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(to)
    }
}

/// Inspects `bytes`, checking the answer's shape, the reads and the time.
fn check(bytes: &[u8]) -> Result<Result<GgufInfo, GgufError>, TestCaseError> {
    let mut watched = Watched { inner: Cursor::new(bytes.to_vec()), largest_read: 0 };
    let started = Instant::now();
    let result = inspect_reader(&mut watched, bytes.len() as u64, "model.gguf");
    prop_assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    // BufReader's own reads are 8 KiB; anything larger was sized by the file.
    prop_assert!(
        watched.largest_read <= 8192usize.max(bytes.len()),
        "a read of {} bytes from a file of {}",
        watched.largest_read,
        bytes.len()
    );
    match &result {
        Ok(info) => {
            prop_assert!(info.needed_bytes <= bytes.len() as u64);
            prop_assert!(info.tensors > 0 && (2..=3).contains(&info.version));
        }
        Err(error) => {
            let shown = error.to_string();
            prop_assert!(shown.starts_with("model.gguf "), "{shown}");
        }
    }
    Ok(result)
}

/// One way to damage a file.
#[derive(Debug, Clone)]
enum Mutation {
    /// Overwrite a byte.
    Set(usize, u8),
    /// Write a huge value over 4 or 8 bytes (a count, a length, a dimension).
    Huge(usize, u64, bool),
    /// Cut the file here.
    Cut(usize),
    /// Insert bytes here.
    Insert(usize, Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let huge = prop_oneof![
        Just(u64::MAX),
        Just(u64::from(u32::MAX)),
        Just(i64::MAX as u64),
        Just(0x8000_0000),
        Just(1 << 40),
        0u64..100_000,
    ];
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set(at, byte)),
        3 => (any::<usize>(), huge, any::<bool>()).prop_map(|(at, value, wide)| Mutation::Huge(at, value, wide)),
        1 => any::<usize>().prop_map(Mutation::Cut),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16)).prop_map(|(at, bytes)| Mutation::Insert(at, bytes)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
    for mutation in mutations {
        let at = |at: &usize| at % (bytes.len() + 1);
        match mutation {
            Mutation::Set(position, byte) if !bytes.is_empty() => {
                let position = position % bytes.len();
                bytes[position] = *byte;
            }
            Mutation::Set(..) => {}
            Mutation::Huge(position, value, wide) => {
                let width = if *wide { 8 } else { 4 };
                let position = at(position).min(bytes.len().saturating_sub(width));
                let value = value.to_le_bytes();
                let end = (position + width).min(bytes.len());
                bytes[position..end].copy_from_slice(&value[..end - position]);
            }
            Mutation::Cut(position) => {
                let position = at(position);
                bytes.truncate(position);
            }
            Mutation::Insert(position, extra) => {
                let position = at(position);
                bytes.splice(position..position, extra.iter().copied());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..2_000)) {
        let _answer = check(&bytes)?;
    }

    #[test]
    fn any_bytes_after_a_gguf_header_are_read_or_refused(
        version in prop_oneof![Just(2u32), Just(3)],
        bytes in prop::collection::vec(any::<u8>(), 0..2_000),
    ) {
        let mut file = b"GGUF".to_vec();
        file.extend(version.to_le_bytes());
        file.extend(bytes);
        let _answer = check(&file)?;
    }

    #[test]
    fn a_damaged_model_is_read_or_refused(mutations in prop::collection::vec(mutation(), 1..6)) {
        let mut bytes = model();
        apply(&mut bytes, &mutations);
        let _answer = check(&bytes)?;
    }
}

#[test]
fn the_valid_model_reads_whole() {
    let bytes = model();
    let info = check(&bytes).expect("checked").expect("a model");
    assert_eq!(info.architecture.as_deref(), Some("llama"));
    assert_eq!(info.name.as_deref(), Some("Tiny test"));
    assert_eq!((info.context_length, info.tensors), (Some(2048), 3));
    assert_eq!(info.needed_bytes, bytes.len() as u64);
}

/// Every 4- and 8-byte field of the file, overwritten with each huge value and
/// each value just past what is left of the file: read or refused, quickly.
#[test]
fn a_huge_value_in_any_field_is_refused_quickly() {
    let valid = model();
    for at in 0..valid.len() {
        for (value, width) in [
            (u64::MAX, 8),
            (u64::from(u32::MAX), 4),
            ((valid.len() - at) as u64, 8),
            (1 << 26, 8),
            (0x8000_0000, 4),
        ] {
            let mut bytes = valid.clone();
            let end = (at + width).min(bytes.len());
            bytes[at..end].copy_from_slice(&value.to_le_bytes()[..end - at]);
            if let Err(error) = check(&bytes) {
                panic!("at {at}, {value}: {error}");
            }
        }
    }
}

/// Regression (found by the sweep above): a tensor's byte size was its element
/// count times its type's bytes unchecked, so a dimension near 2^62 overflowed
/// (a panic in debug builds; in release the size wrapped to one the file held,
/// and a file far too short for its tensors passed).
#[test]
fn a_tensor_size_that_overflows_is_refused() {
    let mut bytes = b"GGUF".to_vec();
    bytes.extend(3u32.to_le_bytes());
    bytes.extend(1u64.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    string(&mut bytes, "huge");
    bytes.extend(1u32.to_le_bytes());
    bytes.extend((1u64 << 62).to_le_bytes()); // 2^62 F32 values: 2^64 bytes
    bytes.extend(0u32.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    bytes.extend([0u8; 64]);
    let error = check(&bytes).expect("checked").expect_err("overflows");
    assert!(error.to_string().contains("size overflows"), "{error}");
}

/// Regression: arrays of arrays are skipped by recursion, and without a limit a
/// file of nested one-element arrays overflowed the stack and aborted the process.
#[test]
fn deeply_nested_arrays_are_refused_not_recursed_into() {
    let mut bytes = b"GGUF".to_vec();
    bytes.extend(3u32.to_le_bytes());
    bytes.extend(1u64.to_le_bytes());
    bytes.extend(1u64.to_le_bytes());
    key(&mut bytes, "deep", 9);
    for _ in 0..200_000 {
        bytes.extend(9u32.to_le_bytes());
        bytes.extend(1u64.to_le_bytes());
    }
    let error = check(&bytes).expect("checked").expect_err("too deep");
    assert!(error.to_string().contains(&format!("nest more than {MAX_NESTING} deep")), "{error}");
}
