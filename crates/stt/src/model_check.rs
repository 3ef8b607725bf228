//! The check a whisper.cpp model file (legacy ggml format, `ggml-*.bin`) passes
//! before whisper.cpp may load it: the whole file is walked, as
//! `whisper_model_load` would read it, and every count, length, shape and size
//! is checked against the file's length and against what whisper.cpp assumes
//! without checking. whisper.cpp's loader trusts the file: a negative length
//! or a huge count becomes a huge allocation or an exception through the FFI
//! (an abort), more than four dimensions overrun a stack array, an unknown
//! `ftype` trips `GGML_ASSERT`, an unknown tensor type reads past a table, a
//! missing file section leaves values uninitialised, and a file without
//! tensors loads as a model of empty weights. Here each is refused with a
//! plain message instead, like the GGUF check of the notes models
//! (`recorder_llm::gguf`).
//!
//! Layout (all little-endian): the magic `0x67676d6c`; eleven `i32`
//! hyper-parameters (`n_vocab`, `n_audio_ctx`, `n_audio_state`,
//! `n_audio_head`, `n_audio_layer`, `n_text_ctx`, `n_text_state`,
//! `n_text_head`, `n_text_layer`, `n_mels`, `ftype`); the mel filters (`n_mel`,
//! `n_fft`, then `n_mel × n_fft` `f32`); the vocabulary (a count, then each
//! token as a `u32` length and its bytes); then tensors to the end of the file,
//! each `n_dims`, name length and type (`i32`), `n_dims` dimensions (`i32`,
//! innermost first), the name, and its data, unaligned.
//!
//! Reading is bounded: nothing is allocated for a length before it is checked
//! against a limit and the rest of the file, tokens are skipped rather than
//! held, and the tensors the hyper-parameters imply must fit in the file
//! before any is read.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

/// The first four bytes of a ggml model file (`ggml` read as a little-endian u32).
pub const MAGIC: u32 = 0x6767_6d6c;
/// whisper.cpp hard-codes its special tokens' ids for these vocabularies
/// (English-only 51864, multilingual 51865, large-v3 51866); with any other
/// size they point outside the vocabulary or at languages it does not have.
const VOCABULARIES: std::ops::RangeInclusive<i32> = 51_864..=51_866;
/// The mel filters whisper.cpp's spectrogram expects: 1 + 400 / 2 FFT bins.
const FFT_BINS: i32 = 201;
/// Sane limits, far above any Whisper model (large: 1280 wide, 32 layers,
/// contexts of 1500 and 448, 128 mels).
const MAX_STATE: i32 = 8_192;
const MAX_LAYERS: i32 = 128;
const MAX_CONTEXT: i32 = 16_384;
const MAX_MELS: i32 = 512;
/// Whisper's tokens are at most a few dozen bytes.
const MAX_TOKEN: u32 = 1_024;
/// whisper.cpp's names are at most about 40 bytes.
const MAX_NAME: i32 = 256;
const GGML_QNT_VERSION_FACTOR: i32 = 1_000;

/// What a whisper.cpp model file says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelInfo {
    pub n_vocab: i32,
    pub multilingual: bool,
    pub n_mels: i32,
    pub n_audio_state: i32,
    pub n_audio_layer: i32,
    pub n_text_layer: i32,
    /// The type of its matrices, as ggml names it (`f16`, `q8_0`, …).
    pub weight_type: &'static str,
    pub tensors: usize,
}

/// Why a file is not a usable whisper.cpp model. Messages name the problem plainly.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{0} could not be read: {1}")]
    Io(String, std::io::Error),
    #[error(
        "{0} is not a whisper.cpp ggml model (it does not start with the ggml magic number){1}"
    )]
    NotGgml(String, &'static str),
    #[error("{0} is damaged: {1}")]
    Damaged(String, String),
    #[error("{file} is truncated: it has {has} bytes, its tensors need at least {needs}")]
    Truncated { file: String, has: u64, needs: u64 },
    #[error("{0} holds no tensors: it ends after its vocabulary")]
    NoTensors(String),
}

/// Reads and checks `path`, named by its path in the errors.
pub fn inspect(path: &Path) -> Result<ModelInfo, ModelError> {
    inspect_as(path, &path.display().to_string())
}

/// Reads and checks `path`, called `name` in the errors (e.g. "the file",
/// where the caller names the path already).
pub fn inspect_as(path: &Path, name: &str) -> Result<ModelInfo, ModelError> {
    let io = |error: std::io::Error| ModelError::Io(name.to_string(), error);
    let file = File::open(path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    inspect_reader(file, length, name)
}

/// Checks the `length` bytes of `source` (a file, or bytes in memory), called
/// `name` in the errors.
pub fn inspect_reader<R: Read + Seek>(
    source: R,
    length: u64,
    name: &str,
) -> Result<ModelInfo, ModelError> {
    let name = name.to_string();
    let mut reader =
        Reader { inner: BufReader::with_capacity(1 << 16, source), length, position: 0 };
    let damaged = |error: String| ModelError::Damaged(name.clone(), error);
    match reader.bytes::<4>() {
        Ok(magic) if u32::from_le_bytes(magic) == MAGIC => {}
        Ok(magic) if &magic == b"GGUF" => {
            return Err(ModelError::NotGgml(
                name,
                "; it is a GGUF file, which whisper.cpp does not read (a notes model is added \
                 with `recorder models add-notes`)",
            ))
        }
        _ => return Err(ModelError::NotGgml(name, "")),
    }
    let shape = read_shape(&mut reader).map_err(damaged)?;
    let expected = shape.tensors();
    // Every tensor takes at least its header (one dimension) and its data.
    let least: u64 =
        expected.iter().map(|(name, tensor)| 16 + name.len() as u64 + tensor.bytes()).sum();
    if reader.rest() == 0 {
        return Err(ModelError::NoTensors(name));
    }
    if least > reader.rest() {
        let needs = reader.position + least;
        return Err(ModelError::Truncated { file: name, has: length, needs });
    }
    let mut loaded = vec![false; expected.len()];
    let index: HashMap<&[u8], usize> =
        expected.iter().enumerate().map(|(at, (name, _))| (name.as_bytes(), at)).collect();
    // The bytes the tensors not yet read take at least.
    let still_needed = |loaded: &[bool]| -> u64 {
        expected
            .iter()
            .zip(loaded)
            .filter(|(_, loaded)| !**loaded)
            .map(|((name, tensor), _)| 16 + name.len() as u64 + tensor.bytes())
            .sum()
    };
    for _ in 0..expected.len() {
        if reader.rest() < 12 {
            let needs = reader.position + still_needed(&loaded);
            return Err(ModelError::Truncated { file: name, has: length, needs });
        }
        let (at, bytes) = read_tensor(&mut reader, &expected, &index).map_err(damaged)?;
        if std::mem::replace(&mut loaded[at], true) {
            return Err(damaged(format!("the tensor {} appears twice", expected[at].0)));
        }
        if bytes > reader.rest() {
            let needs = reader.position + bytes + still_needed(&loaded);
            return Err(ModelError::Truncated { file: name, has: length, needs });
        }
        reader.skip(bytes).map_err(damaged)?;
    }
    // Each expected tensor was read once: all are there. whisper.cpp would read
    // what follows as more tensors.
    if reader.rest() > 0 {
        return Err(damaged(format!("{} bytes follow its last tensor", reader.rest())));
    }
    Ok(ModelInfo {
        n_vocab: shape.n_vocab,
        multilingual: shape.n_vocab >= 51_865,
        n_mels: shape.n_mels,
        n_audio_state: shape.n_audio_state,
        n_audio_layer: shape.n_audio_layer,
        n_text_layer: shape.n_text_layer,
        weight_type: type_name(shape.weight_type),
        tensors: expected.len(),
    })
}

/// The hyper-parameters, checked, with the mel filters and vocabulary read past.
struct Shape {
    n_vocab: i32,
    n_audio_ctx: i32,
    n_audio_state: i32,
    n_audio_layer: i32,
    n_text_ctx: i32,
    n_text_state: i32,
    n_text_layer: i32,
    n_mels: i32,
    /// ggml's type of the matrices (from `ftype`).
    weight_type: u32,
}

fn read_shape<R: Read + Seek>(reader: &mut Reader<R>) -> Result<Shape, String> {
    let mut values = [0i32; 11];
    for value in &mut values {
        *value = reader.i32()?;
    }
    let [n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype] =
        values;
    if !VOCABULARIES.contains(&n_vocab) {
        return Err(format!(
            "it has a vocabulary of {n_vocab} tokens; Whisper's have 51864 to 51866"
        ));
    }
    within("n_audio_ctx", n_audio_ctx, MAX_CONTEXT)?;
    within("n_text_ctx", n_text_ctx, MAX_CONTEXT)?;
    within("n_audio_state", n_audio_state, MAX_STATE)?;
    within("n_audio_layer", n_audio_layer, MAX_LAYERS)?;
    within("n_text_layer", n_text_layer, MAX_LAYERS)?;
    within("n_mels", n_mels, MAX_MELS)?;
    if n_text_state != n_audio_state {
        return Err(format!(
            "its decoder is {n_text_state} wide and its encoder {n_audio_state}; they must match"
        ));
    }
    // whisper.cpp divides the width by the heads.
    for (what, heads) in [("n_audio_head", n_audio_head), ("n_text_head", n_text_head)] {
        if heads < 1 || n_audio_state % heads != 0 {
            return Err(format!("{what} is {heads}, which does not divide {n_audio_state}"));
        }
    }
    let weight_type = (ftype >= 0)
        .then(|| weight_type(ftype % GGML_QNT_VERSION_FACTOR))
        .flatten()
        .ok_or_else(|| format!("its ftype {ftype} is not one ggml knows"))?;
    let (n_mel, n_fft) = (reader.i32()?, reader.i32()?);
    if n_mel != n_mels || n_fft != FFT_BINS {
        return Err(format!(
            "its mel filters are {n_mel} × {n_fft}; {n_mels} × {FFT_BINS} were expected"
        ));
    }
    reader.skip(n_mel as u64 * n_fft as u64 * 4)?;
    let tokens = reader.i32()?;
    if tokens < 0 || tokens > n_vocab {
        return Err(format!("its vocabulary claims {tokens} tokens of at most {n_vocab}"));
    }
    for _ in 0..tokens {
        let length = reader.u32()?;
        if length > MAX_TOKEN {
            return Err(format!("a token claims {length} bytes"));
        }
        reader.skip(u64::from(length))?;
    }
    let shape = Shape {
        n_vocab,
        n_audio_ctx,
        n_audio_state,
        n_audio_layer,
        n_text_ctx,
        n_text_state,
        n_text_layer,
        n_mels,
        weight_type,
    };
    let (block, _) = block(weight_type).unwrap_or((1, 1));
    if block > 1 && n_audio_state % block as i32 != 0 {
        return Err(format!(
            "its matrices are {} but their rows of {n_audio_state} are not whole blocks of {block}",
            type_name(weight_type)
        ));
    }
    Ok(shape)
}

fn within(what: &str, value: i32, limit: i32) -> Result<(), String> {
    if (1..=limit).contains(&value) {
        return Ok(());
    }
    Err(format!("its {what} is {value} (1 to {limit} are read)"))
}

/// A tensor whisper.cpp expects: ggml's type and dimensions (innermost first).
struct Tensor {
    kind: u32,
    dims: [u64; 4],
}

impl Tensor {
    fn elements(&self) -> u64 {
        self.dims.iter().product()
    }

    /// Its data's bytes (rows are whole blocks: checked with the shape).
    fn bytes(&self) -> u64 {
        let (block, bytes) = block(self.kind).unwrap_or((1, 0));
        self.elements() / block * bytes
    }
}

impl Shape {
    /// The tensors `whisper_model_load` creates for this shape, by name: the
    /// file must hold each, once, and no other.
    fn tensors(&self) -> Vec<(String, Tensor)> {
        const F32: u32 = 0;
        const F16: u32 = 1;
        let w = self.weight_type;
        let conv = if w == F32 { F32 } else { F16 };
        let (audio, text) = (self.n_audio_state as u64, self.n_text_state as u64);
        let mut out = Vec::new();
        let mut add = |name: String, kind: u32, dims: &[u64]| {
            let mut all = [1u64; 4];
            all[..dims.len()].copy_from_slice(dims);
            out.push((name, Tensor { kind, dims: all }));
        };
        add("encoder.positional_embedding".into(), F32, &[audio, self.n_audio_ctx as u64]);
        add("encoder.conv1.weight".into(), conv, &[3, self.n_mels as u64, audio]);
        add("encoder.conv1.bias".into(), F32, &[1, audio]);
        add("encoder.conv2.weight".into(), conv, &[3, audio, audio]);
        add("encoder.conv2.bias".into(), F32, &[1, audio]);
        add("encoder.ln_post.weight".into(), F32, &[audio]);
        add("encoder.ln_post.bias".into(), F32, &[audio]);
        let layer = |add: &mut dyn FnMut(String, u32, &[u64]), prefix: &str, s: u64| {
            for (part, kind, dims) in [
                ("mlp_ln.weight", F32, vec![s]),
                ("mlp_ln.bias", F32, vec![s]),
                ("mlp.0.weight", w, vec![s, 4 * s]),
                ("mlp.0.bias", F32, vec![4 * s]),
                ("mlp.2.weight", w, vec![4 * s, s]),
                ("mlp.2.bias", F32, vec![s]),
                ("attn_ln.weight", F32, vec![s]),
                ("attn_ln.bias", F32, vec![s]),
                ("attn.query.weight", w, vec![s, s]),
                ("attn.query.bias", F32, vec![s]),
                ("attn.key.weight", w, vec![s, s]),
                ("attn.value.weight", w, vec![s, s]),
                ("attn.value.bias", F32, vec![s]),
                ("attn.out.weight", w, vec![s, s]),
                ("attn.out.bias", F32, vec![s]),
            ] {
                add(format!("{prefix}{part}"), kind, &dims);
            }
        };
        for at in 0..self.n_audio_layer {
            layer(&mut add, &format!("encoder.blocks.{at}."), audio);
        }
        add("decoder.positional_embedding".into(), F32, &[text, self.n_text_ctx as u64]);
        add("decoder.token_embedding.weight".into(), w, &[text, self.n_vocab as u64]);
        add("decoder.ln.weight".into(), F32, &[text]);
        add("decoder.ln.bias".into(), F32, &[text]);
        for at in 0..self.n_text_layer {
            let prefix = format!("decoder.blocks.{at}.");
            layer(&mut add, &prefix, text);
            for (part, kind, dims) in [
                ("cross_attn_ln.weight", F32, vec![text]),
                ("cross_attn_ln.bias", F32, vec![text]),
                ("cross_attn.query.weight", w, vec![text, text]),
                ("cross_attn.query.bias", F32, vec![text]),
                ("cross_attn.key.weight", w, vec![text, text]),
                ("cross_attn.value.weight", w, vec![text, text]),
                ("cross_attn.value.bias", F32, vec![text]),
                ("cross_attn.out.weight", w, vec![text, text]),
                ("cross_attn.out.bias", F32, vec![text]),
            ] {
                add(format!("{prefix}{part}"), kind, &dims);
            }
        }
        out
    }
}

/// One tensor's header: which expected tensor it is and its data's bytes.
fn read_tensor<R: Read + Seek>(
    reader: &mut Reader<R>,
    expected: &[(String, Tensor)],
    index: &HashMap<&[u8], usize>,
) -> Result<(usize, u64), String> {
    let (n_dims, name_length, kind) = (reader.i32()?, reader.i32()?, reader.i32()?);
    if !(1..=4).contains(&n_dims) {
        return Err(format!("a tensor has {n_dims} dimensions"));
    }
    if !(1..=MAX_NAME).contains(&name_length) {
        return Err(format!("a tensor's name claims {name_length} bytes"));
    }
    let mut dims = [1u64; 4];
    for dim in dims.iter_mut().take(n_dims as usize) {
        let value = reader.i32()?;
        if value < 1 {
            return Err(format!("a tensor has a dimension of {value}"));
        }
        *dim = value as u64;
    }
    let mut name = vec![0u8; name_length as usize];
    reader.read(&mut name)?;
    let shown = String::from_utf8_lossy(&name).into_owned();
    let at = *index
        .get(name.as_slice())
        .ok_or_else(|| format!("it holds a tensor whisper.cpp does not know ({shown:?})"))?;
    let tensor = &expected[at].1;
    if dims != tensor.dims {
        return Err(format!(
            "the tensor {shown} is {dims:?}; this model's shape makes it {:?}",
            tensor.dims
        ));
    }
    // whisper.cpp's own test: the data's size by the file's type must be the
    // expected tensor's (so F32 and I32, say, may stand for each other).
    let (_, size) = u32::try_from(kind)
        .ok()
        .and_then(block)
        .ok_or_else(|| format!("the tensor {shown} has the unknown type {kind}"))?;
    let (expected_block, _) = block(tensor.kind).unwrap_or((1, 1));
    if tensor.elements() * size / expected_block != tensor.bytes() {
        return Err(format!(
            "the tensor {shown} is of type {}; {} was expected",
            type_name(kind as u32),
            type_name(tensor.kind)
        ));
    }
    Ok((at, tensor.bytes()))
}

/// ggml's type of the matrices for a file's `ftype` (without its
/// quantization version), as `ggml_ftype_to_ggml_type` maps it.
fn weight_type(ftype: i32) -> Option<u32> {
    Some(match ftype {
        0 => 0,   // F32
        1 => 1,   // F16
        2 => 2,   // Q4_0
        3 => 3,   // Q4_1
        7 => 8,   // Q8_0
        8 => 6,   // Q5_0
        9 => 7,   // Q5_1
        10 => 10, // Q2_K
        11 => 11, // Q3_K
        12 => 12, // Q4_K
        13 => 13, // Q5_K
        14 => 14, // Q6_K
        15 => 16, // IQ2_XXS
        16 => 17, // IQ2_XS
        17 => 18, // IQ3_XXS
        18 => 19, // IQ1_S
        19 => 20, // IQ4_NL
        20 => 21, // IQ3_S
        21 => 22, // IQ2_S
        22 => 23, // IQ4_XS
        23 => 29, // IQ1_M
        24 => 30, // BF16
        25 => 39, // MXFP4
        _ => return None,
    })
}

/// ggml's (elements per block, bytes per block) of each type it still has.
fn block(kind: u32) -> Option<(u64, u64)> {
    Some(match kind {
        0 => (1, 4),      // F32
        1 => (1, 2),      // F16
        2 => (32, 18),    // Q4_0
        3 => (32, 20),    // Q4_1
        6 => (32, 22),    // Q5_0
        7 => (32, 24),    // Q5_1
        8 => (32, 34),    // Q8_0
        9 => (32, 36),    // Q8_1
        10 => (256, 84),  // Q2_K
        11 => (256, 110), // Q3_K
        12 => (256, 144), // Q4_K
        13 => (256, 176), // Q5_K
        14 => (256, 210), // Q6_K
        15 => (256, 292), // Q8_K
        16 => (256, 66),  // IQ2_XXS
        17 => (256, 74),  // IQ2_XS
        18 => (256, 98),  // IQ3_XXS
        19 => (256, 50),  // IQ1_S
        20 => (32, 18),   // IQ4_NL
        21 => (256, 110), // IQ3_S
        22 => (256, 82),  // IQ2_S
        23 => (256, 136), // IQ4_XS
        24 => (1, 1),     // I8
        25 => (1, 2),     // I16
        26 => (1, 4),     // I32
        27 => (1, 8),     // I64
        28 => (1, 8),     // F64
        29 => (256, 56),  // IQ1_M
        30 => (1, 2),     // BF16
        34 => (256, 54),  // TQ1_0
        35 => (256, 66),  // TQ2_0
        39 => (32, 17),   // MXFP4
        _ => return None,
    })
}

fn type_name(kind: u32) -> &'static str {
    match kind {
        0 => "f32",
        1 => "f16",
        2 => "q4_0",
        3 => "q4_1",
        6 => "q5_0",
        7 => "q5_1",
        8 => "q8_0",
        9 => "q8_1",
        10 => "q2_k",
        11 => "q3_k",
        12 => "q4_k",
        13 => "q5_k",
        14 => "q6_k",
        15 => "q8_k",
        16 => "iq2_xxs",
        17 => "iq2_xs",
        18 => "iq3_xxs",
        19 => "iq1_s",
        20 => "iq4_nl",
        21 => "iq3_s",
        22 => "iq2_s",
        23 => "iq4_xs",
        24 => "i8",
        25 => "i16",
        26 => "i32",
        27 => "i64",
        28 => "f64",
        29 => "iq1_m",
        30 => "bf16",
        34 => "tq1_0",
        35 => "tq2_0",
        39 => "mxfp4",
        _ => "unknown",
    }
}

struct Reader<R> {
    inner: BufReader<R>,
    length: u64,
    /// How far into the file it has been read (or skipped).
    position: u64,
}

impl<R: Read + Seek> Reader<R> {
    /// What is left of the file after the position.
    fn rest(&self) -> u64 {
        self.length.saturating_sub(self.position)
    }

    fn read(&mut self, buffer: &mut [u8]) -> Result<(), String> {
        if buffer.len() as u64 > self.rest() {
            return Err("it ends early".to_string());
        }
        self.inner.read_exact(buffer).map_err(|_| "it ends early".to_string())?;
        self.position += buffer.len() as u64;
        Ok(())
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut bytes = [0u8; N];
        self.read(&mut bytes)?;
        Ok(bytes)
    }

    fn i32(&mut self) -> Result<i32, String> {
        self.bytes::<4>().map(i32::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.bytes::<4>().map(u32::from_le_bytes)
    }

    /// Skips `bytes`, which must lie inside the file.
    fn skip(&mut self, bytes: u64) -> Result<(), String> {
        if bytes > self.rest() {
            return Err("it ends early".to_string());
        }
        let offset = i64::try_from(bytes).map_err(|_| "it ends early".to_string())?;
        self.inner.seek_relative(offset).map_err(|e| e.to_string())?;
        self.position += bytes;
        Ok(())
    }
}
