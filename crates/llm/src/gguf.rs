//! The check a notes-model file passes before it is installed or used: a GGUF
//! file (version 2 or 3) whose header reads to the end, whose tensors all lie
//! inside the file (a truncated download is caught here, not by llama.cpp), and
//! what its metadata says (architecture, name, licence, context length).
//!
//! Reading is bounded: counts and lengths beyond sane limits or beyond the rest
//! of the file are refused before anything is allocated for them, arrays (the
//! tokenizer's vocabulary) are skipped, not held, and arrays of arrays may nest
//! only [`MAX_NESTING`] deep.

use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

const MAGIC: &[u8; 4] = b"GGUF";
const MAX_KEYS: u64 = 100_000;
const MAX_TENSORS: u64 = 1_000_000;
const MAX_STRING: u64 = 1 << 26;
const MAX_DIMS: u32 = 8;
/// How deep arrays of arrays may nest. Each level is a recursive call: without
/// a limit a file of nested one-element arrays overflowed the stack and aborted
/// the process (`tests/properties.rs` keeps the case). llama.cpp's own files
/// nest none.
pub const MAX_NESTING: u32 = 4;

/// What a GGUF file says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GgufInfo {
    pub version: u32,
    pub architecture: Option<String>,
    pub name: Option<String>,
    pub license: Option<String>,
    pub context_length: Option<u64>,
    pub tensors: u64,
    /// The bytes the header and tensors take (the file may be longer).
    pub needed_bytes: u64,
}

/// Why a file is not a usable GGUF model. Messages name the problem plainly.
#[derive(Debug, thiserror::Error)]
pub enum GgufError {
    #[error("{0} could not be read: {1}")]
    Io(String, std::io::Error),
    #[error("{0} is not a GGUF model file (it does not start with \"GGUF\")")]
    NotGguf(String),
    #[error("{0} is GGUF version {1}; only versions 2 and 3 are read")]
    Version(String, u32),
    #[error("{0} is damaged: {1}")]
    Damaged(String, String),
    #[error("{file} is truncated: it has {has} bytes, its tensors need {needs}")]
    Truncated { file: String, has: u64, needs: u64 },
    #[error("{0} holds no tensors: it is a vocabulary or an adapter, not a model")]
    NoTensors(String),
}

/// Reads and checks `path`.
pub fn inspect(path: &Path) -> Result<GgufInfo, GgufError> {
    let name = path.display().to_string();
    let io = |error: std::io::Error| GgufError::Io(name.clone(), error);
    let file = File::open(path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    inspect_reader(file, length, &name)
}

/// Checks the `length` bytes of `source` (a file, or bytes in memory), called
/// `name` in the errors.
pub fn inspect_reader<R: Read + Seek>(
    source: R,
    length: u64,
    name: &str,
) -> Result<GgufInfo, GgufError> {
    let name = name.to_string();
    let mut reader = Reader { inner: BufReader::new(source), length, position: 0 };
    let damaged = |error: String| GgufError::Damaged(name.clone(), error);
    if length < 4 || reader.bytes::<4>().ok().as_ref() != Some(MAGIC) {
        return Err(GgufError::NotGguf(name));
    }
    let version = reader.u32().map_err(damaged)?;
    if !(2..=3).contains(&version) {
        return Err(GgufError::Version(name, version));
    }
    let mut info = read_header(&mut reader).map_err(damaged)?;
    info.version = version;
    if info.tensors == 0 {
        return Err(GgufError::NoTensors(name));
    }
    if info.needed_bytes > length {
        return Err(GgufError::Truncated { file: name, has: length, needs: info.needed_bytes });
    }
    Ok(info)
}

fn read_header<R: Read + Seek>(reader: &mut Reader<R>) -> Result<GgufInfo, String> {
    let tensors = reader.count(MAX_TENSORS, "tensors")?;
    let keys = reader.count(MAX_KEYS, "metadata keys")?;
    let mut info = GgufInfo { tensors, ..GgufInfo::default() };
    let mut alignment = 32u64;
    let mut context_keys = Vec::new();
    for _ in 0..keys {
        let key = reader.string()?;
        let kind = reader.u32()?;
        match (key.as_str(), kind) {
            ("general.architecture", 8) => info.architecture = Some(reader.string()?),
            ("general.name", 8) => info.name = Some(reader.string()?),
            ("general.license", 8) => info.license = Some(reader.string()?),
            ("general.alignment", 4) => alignment = u64::from(reader.u32()?).max(1),
            (key, 4 | 10) if key.ends_with(".context_length") => {
                let value = if kind == 4 { u64::from(reader.u32()?) } else { reader.u64()? };
                context_keys.push((key.to_string(), value));
            }
            _ => reader.skip_value(kind)?,
        }
    }
    let wanted = info.architecture.as_deref().map(|arch| format!("{arch}.context_length"));
    info.context_length = context_keys
        .iter()
        .find(|(key, _)| Some(key) == wanted.as_ref())
        .or(context_keys.first())
        .map(|(_, value)| *value);
    let mut end_of_data = 0u64;
    for _ in 0..tensors {
        end_of_data = end_of_data.max(read_tensor(reader)?);
    }
    let data_start = reader.position.div_ceil(alignment).saturating_mul(alignment);
    info.needed_bytes = data_start.saturating_add(end_of_data);
    Ok(info)
}

/// One tensor's description; returns where its data ends (from the data start).
fn read_tensor<R: Read + Seek>(reader: &mut Reader<R>) -> Result<u64, String> {
    reader.string()?;
    let dims = reader.u32()?;
    if dims == 0 || dims > MAX_DIMS {
        return Err(format!("a tensor has {dims} dimensions"));
    }
    let mut elements = 1u64;
    let mut first = 1u64;
    for at in 0..dims {
        let size = reader.u64()?;
        if at == 0 {
            first = size;
        }
        elements = elements.checked_mul(size).ok_or("a tensor's size overflows")?;
    }
    let kind = reader.u32()?;
    let offset = reader.u64()?;
    let bytes = match block(kind) {
        // Checked: a dimension near u64::MAX wrapped the size (release builds) to
        // one a truncated file passes (`tests/properties.rs` keeps the case).
        Some((block, bytes)) if first.is_multiple_of(block) => {
            (elements / block).checked_mul(bytes).ok_or("a tensor's size overflows")?
        }
        Some(_) => return Err(format!("a tensor of type {kind} has a partial block")),
        // A type this check does not know: its start must still be in the file.
        None => 0,
    };
    offset.checked_add(bytes).ok_or_else(|| "a tensor's offset overflows".to_string())
}

/// ggml's (elements per block, bytes per block) of the tensor types in use.
fn block(kind: u32) -> Option<(u64, u64)> {
    Some(match kind {
        0 => (1, 4),     // F32
        1 => (1, 2),     // F16
        2 => (32, 18),   // Q4_0
        3 => (32, 20),   // Q4_1
        6 => (32, 22),   // Q5_0
        7 => (32, 24),   // Q5_1
        8 => (32, 34),   // Q8_0
        9 => (32, 36),   // Q8_1
        10 => (256, 84), // Q2_K
        11 => (256, 110),
        12 => (256, 144), // Q4_K
        13 => (256, 176), // Q5_K
        14 => (256, 210), // Q6_K
        15 => (256, 292), // Q8_K
        20 => (32, 18),   // IQ4_NL
        23 => (256, 136), // IQ4_XS
        24 => (1, 1),     // I8
        25 => (1, 2),     // I16
        26 => (1, 4),     // I32
        27 => (1, 8),     // I64
        28 => (1, 8),     // F64
        30 => (1, 2),     // BF16
        _ => return None,
    })
}

struct Reader<R> {
    inner: BufReader<R>,
    length: u64,
    /// How far into the file the header has been read (or skipped).
    position: u64,
}

impl<R: Read + Seek> Reader<R> {
    /// What is left of the file after the position.
    fn rest(&self) -> u64 {
        self.length.saturating_sub(self.position)
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut bytes = [0u8; N];
        self.inner.read_exact(&mut bytes).map_err(|_| "the header ends early".to_string())?;
        self.position += N as u64;
        Ok(bytes)
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.bytes::<4>().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.bytes::<8>().map(u64::from_le_bytes)
    }

    fn count(&mut self, limit: u64, what: &str) -> Result<u64, String> {
        let count = self.u64()?;
        if count > limit {
            return Err(format!("it claims {count} {what}"));
        }
        Ok(count)
    }

    /// A length read from the file: beyond the limit or the whole file it is
    /// absurd; beyond the rest of the file, the file was cut short.
    fn length(&mut self, limit: u64, what: &str) -> Result<u64, String> {
        let length = self.u64()?;
        if length > limit || length > self.length {
            return Err(format!("{what} claims {length} bytes"));
        }
        if length > self.rest() {
            return Err("the header ends early".to_string());
        }
        Ok(length)
    }

    fn string(&mut self) -> Result<String, String> {
        let length = self.length(MAX_STRING, "a string")?;
        let mut bytes = vec![0u8; length as usize];
        self.inner.read_exact(&mut bytes).map_err(|_| "the header ends early".to_string())?;
        self.position += length;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Skips `bytes`, which must lie inside the file.
    fn skip(&mut self, bytes: u64) -> Result<(), String> {
        if bytes > self.rest() {
            return Err("the header ends early".to_string());
        }
        let offset = i64::try_from(bytes).map_err(|_| "a value is too long".to_string())?;
        self.inner.seek_relative(offset).map_err(|e| e.to_string())?;
        self.position += bytes;
        Ok(())
    }

    fn skip_value(&mut self, kind: u32) -> Result<(), String> {
        self.skip_value_in(kind, 0)
    }

    fn skip_value_in(&mut self, kind: u32, depth: u32) -> Result<(), String> {
        match kind {
            0 | 1 | 7 => self.skip(1),
            2 | 3 => self.skip(2),
            4..=6 => self.skip(4),
            10..=12 => self.skip(8),
            8 => {
                let length = self.length(u64::MAX, "a string")?;
                self.skip(length)
            }
            9 if depth >= MAX_NESTING => Err(format!("arrays nest more than {MAX_NESTING} deep")),
            9 => self.skip_array(depth + 1),
            _ => Err(format!("a metadata value has the unknown type {kind}")),
        }
    }

    fn skip_array(&mut self, depth: u32) -> Result<(), String> {
        let kind = self.u32()?;
        let count = self.u64()?;
        // Every value takes at least a byte.
        if count > self.length {
            return Err(format!("an array claims {count} values"));
        }
        if count > self.rest() {
            return Err("the header ends early".to_string());
        }
        let width = match kind {
            0 | 1 | 7 => 1,
            2 | 3 => 2,
            4..=6 => 4,
            10..=12 => 8,
            _ => 0,
        };
        if width > 0 {
            return self.skip(count.saturating_mul(width));
        }
        for _ in 0..count {
            self.skip_value_in(kind, depth)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "gguf_tests.rs"]
mod tests;
