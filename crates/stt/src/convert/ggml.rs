//! Writer for whisper.cpp's ggml model file: hyper-parameters, mel filters,
//! vocabulary, then tensors (dims innermost first, then name, then data), with
//! the tensor types that `convert-pt-to-ggml.py` and `quantize` produce.

use std::io::Write;

use half::f16;

use super::{ConvertError, OutputType};

const MAGIC: u32 = 0x6767_6d6c;
const GGML_QNT_VERSION: i32 = 2;
const GGML_QNT_VERSION_FACTOR: i32 = 1000;
/// Values per quantized block (q4_0, q5_0 and q8_0 alike).
const QUANT_BLOCK: usize = 32;

/// The model's shape, in the order of the file header.
pub struct HyperParameters {
    pub n_vocab: i32,
    pub n_audio_ctx: i32,
    pub n_audio_state: i32,
    pub n_audio_head: i32,
    pub n_audio_layer: i32,
    pub n_text_ctx: i32,
    pub n_text_state: i32,
    pub n_text_head: i32,
    pub n_text_layer: i32,
    pub n_mels: i32,
}

/// A tensor to write: whisper.cpp name, dims outermost first, values.
pub struct Tensor {
    pub name: String,
    pub dims: Vec<usize>,
    pub values: Vec<f32>,
}

#[derive(Clone, Copy)]
enum TensorType {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q5_0 = 6,
    Q8_0 = 8,
}

/// ggml's `ftype` of a file whose matrices are all of one type.
fn file_type(output: OutputType) -> i32 {
    let mostly = match output {
        OutputType::F16 => return 1,
        OutputType::Q4_0 => 2,
        OutputType::Q8_0 => 7,
        OutputType::Q5_0 => 8,
    };
    GGML_QNT_VERSION * GGML_QNT_VERSION_FACTOR + mostly
}

pub fn write_header(
    out: &mut impl Write,
    hparams: &HyperParameters,
    output: OutputType,
    filters: &[f32],
    tokens: &[Vec<u8>],
) -> Result<(), ConvertError> {
    let ftype = file_type(output);
    out.write_all(&MAGIC.to_le_bytes())?;
    let h = hparams;
    for value in [
        h.n_vocab,
        h.n_audio_ctx,
        h.n_audio_state,
        h.n_audio_head,
        h.n_audio_layer,
        h.n_text_ctx,
        h.n_text_state,
        h.n_text_head,
        h.n_text_layer,
        h.n_mels,
        ftype,
    ] {
        out.write_all(&value.to_le_bytes())?;
    }
    let n_fft = filters.len() / h.n_mels as usize;
    write_i32(out, h.n_mels as usize)?;
    write_i32(out, n_fft)?;
    for weight in filters {
        out.write_all(&weight.to_le_bytes())?;
    }
    write_i32(out, tokens.len())?;
    for token in tokens {
        write_i32(out, token.len())?;
        out.write_all(token)?;
    }
    Ok(())
}

/// Writes one tensor, returning the bytes written.
pub fn write_tensor(
    out: &mut impl Write,
    tensor: &Tensor,
    output: OutputType,
) -> Result<u64, ConvertError> {
    let kind = tensor_type(tensor, output);
    let name = tensor.name.as_bytes();
    write_i32(out, tensor.dims.len())?;
    write_i32(out, name.len())?;
    write_i32(out, kind as usize)?;
    for dim in tensor.dims.iter().rev() {
        write_i32(out, *dim)?;
    }
    out.write_all(name)?;
    let data = match kind {
        TensorType::F32 => tensor.values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        TensorType::F16 => {
            tensor.values.iter().flat_map(|v| f16::from_f32(*v).to_le_bytes()).collect()
        }
        TensorType::Q4_0 => quantize_q4_0(&tensor.values),
        TensorType::Q5_0 => quantize_q5_0(&tensor.values),
        TensorType::Q8_0 => quantize_q8_0(&tensor.values),
    };
    out.write_all(&data)?;
    Ok((12 + 4 * tensor.dims.len() + name.len() + data.len()) as u64)
}

/// f32 for vectors, conv biases and positional embeddings (as the reference
/// converter does); f16 for the rest, or the quantized type for matrices when
/// quantizing (whisper.cpp's `quantize` leaves the 3-D conv kernels in f16).
/// whisper.cpp gives every matrix the file's type, so there is no mixing.
fn tensor_type(tensor: &Tensor, output: OutputType) -> TensorType {
    let keep_f32 = tensor.dims.len() < 2
        || tensor.name.ends_with("conv1.bias")
        || tensor.name.ends_with("conv2.bias")
        || tensor.name.ends_with("positional_embedding");
    let row_length = tensor.dims.last().copied().unwrap_or(0);
    let quantizable = tensor.dims.len() == 2 && row_length.is_multiple_of(QUANT_BLOCK);
    match output {
        _ if keep_f32 => TensorType::F32,
        OutputType::Q4_0 if quantizable => TensorType::Q4_0,
        OutputType::Q5_0 if quantizable => TensorType::Q5_0,
        OutputType::Q8_0 if quantizable => TensorType::Q8_0,
        _ => TensorType::F16,
    }
}

/// ggml's `quantize_row_q8_0_ref`: per block of 32, an f16 scale
/// `max|x| / 127` and 32 signed bytes `round(x / scale)`.
pub fn quantize_q8_0(values: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / QUANT_BLOCK * (2 + QUANT_BLOCK));
    for block in values.chunks(QUANT_BLOCK) {
        let max = block.iter().fold(0.0_f32, |max, v| max.max(v.abs()));
        let scale = max / 127.0;
        let inverse = if scale != 0.0 { 1.0 / scale } else { 0.0 };
        out.extend_from_slice(&f16::from_f32(scale).to_le_bytes());
        out.extend(block.iter().map(|v| ((v * inverse).round() as i8) as u8));
    }
    out
}

/// The signed value of largest magnitude in a block, and the scale that maps
/// it to `-levels` (ggml's q4_0/q5_0 choice: the extreme gets the extra level).
fn signed_scale(block: &[f32], levels: f32) -> (f32, f32) {
    let extreme = block.iter().fold(0.0_f32, |e, v| if v.abs() > e.abs() { *v } else { e });
    let scale = extreme / -levels;
    (scale, if scale != 0.0 { 1.0 / scale } else { 0.0 })
}

/// ggml's `quantize_row_q4_0_ref`: per block of 32, an f16 scale and 16
/// bytes of 4-bit values offset by 8; byte j holds value j (low nibble) and
/// value j + 16 (high nibble).
pub fn quantize_q4_0(values: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / QUANT_BLOCK * (2 + QUANT_BLOCK / 2));
    for block in values.chunks(QUANT_BLOCK) {
        let (scale, inverse) = signed_scale(block, 8.0);
        out.extend_from_slice(&f16::from_f32(scale).to_le_bytes());
        let level = |v: f32| ((v * inverse + 8.5) as i8).min(15) as u8;
        let (low, high) = block.split_at(QUANT_BLOCK / 2);
        out.extend(low.iter().zip(high).map(|(l, h)| level(*l) | (level(*h) << 4)));
    }
    out
}

/// ggml's `quantize_row_q5_0_ref`: per block of 32, an f16 scale, 32 fifth
/// bits (value j's in bit j) and 16 bytes of low nibbles laid out as q4_0's.
pub fn quantize_q5_0(values: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / QUANT_BLOCK * (6 + QUANT_BLOCK / 2));
    for block in values.chunks(QUANT_BLOCK) {
        let (scale, inverse) = signed_scale(block, 16.0);
        let levels: Vec<u8> =
            block.iter().map(|v| ((v * inverse + 16.5) as i8).min(31) as u8).collect();
        let high_bits = levels
            .iter()
            .enumerate()
            .fold(0_u32, |bits, (j, level)| bits | (u32::from(level >> 4) << j));
        out.extend_from_slice(&f16::from_f32(scale).to_le_bytes());
        out.extend_from_slice(&high_bits.to_le_bytes());
        let (low, high) = levels.split_at(QUANT_BLOCK / 2);
        out.extend(low.iter().zip(high).map(|(l, h)| (l & 0x0f) | ((h & 0x0f) << 4)));
    }
    out
}

fn write_i32(out: &mut impl Write, value: usize) -> Result<(), ConvertError> {
    let value = i32::try_from(value)
        .map_err(|_| ConvertError::Format(format!("{value} does not fit the ggml header")))?;
    out.write_all(&value.to_le_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q8_0_blocks_hold_scale_and_rounded_values() {
        let mut values = vec![0.0_f32; 32];
        values[0] = 1.27;
        values[1] = -0.635;
        values[2] = 0.005;
        let block = quantize_q8_0(&values);
        assert_eq!(block.len(), 34);
        let scale = f16::from_le_bytes([block[0], block[1]]).to_f32();
        assert!((scale - 0.01).abs() < 1e-4);
        assert_eq!(block[2] as i8, 127);
        assert_eq!(block[3] as i8, -64, "-63.5 rounds away from zero");
        assert_eq!(block[4] as i8, 1, "0.5 rounds away from zero");
        assert!(block[5..].iter().all(|b| *b == 0));
    }

    /// Values back from a q4_0 or q5_0 block, as ggml's `dequantize_row_*`.
    fn dequantize(block: &[u8], bits: u32) -> Vec<f32> {
        let scale = f16::from_le_bytes([block[0], block[1]]).to_f32();
        let (high, nibbles) = if bits == 5 {
            (u32::from_le_bytes([block[2], block[3], block[4], block[5]]), &block[6..])
        } else {
            (0, &block[2..])
        };
        let offset = if bits == 5 { 16 } else { 8 };
        (0..32)
            .map(|j| {
                let low = if j < 16 { nibbles[j] & 0x0f } else { nibbles[j - 16] >> 4 };
                let level = i32::from(low) | (((high >> j) & 1) << 4) as i32;
                (level - offset) as f32 * scale
            })
            .collect()
    }

    #[test]
    fn q4_0_and_q5_0_blocks_round_trip_within_half_a_step() {
        // -1.6 to 1.5: the extreme is negative, so the top is representable.
        let values: Vec<f32> = (0..32).map(|i| ((i * 7 % 32) as f32 - 16.0) / 10.0).collect();
        for (bits, block, size) in
            [(4, quantize_q4_0(&values), 18), (5, quantize_q5_0(&values), 22)]
        {
            assert_eq!(block.len(), size, "{bits}-bit block size");
            let scale = f16::from_le_bytes([block[0], block[1]]).to_f32();
            let levels = if bits == 5 { 16.0 } else { 8.0 };
            // The extreme value (-1.6) maps exactly to the lowest level.
            assert!((scale - 1.6 / levels).abs() < 1e-3, "{bits}-bit scale {scale}");
            for (got, want) in dequantize(&block, bits).iter().zip(&values) {
                assert!((got - want).abs() <= scale / 2.0 + 1e-3, "{bits}-bit: {got} for {want}");
            }
        }
    }

    #[test]
    fn q4_0_puts_value_j_low_and_value_j_plus_16_high() {
        let mut values = vec![0.0_f32; 32];
        values[0] = -8.0; // the extreme: scale 1, level 0
        values[16] = 7.0; // level 15
        let block = quantize_q4_0(&values);
        assert_eq!(f16::from_le_bytes([block[0], block[1]]).to_f32(), 1.0);
        assert_eq!(block[2], 0xf0, "value 0 low (level 0), value 16 high (level 15)");
        assert!(block[3..].iter().all(|b| *b == 0x88), "zeros sit at level 8");
    }

    #[test]
    fn zero_block_has_zero_scale() {
        let block = quantize_q8_0(&[0.0; 32]);
        assert!(block.iter().all(|b| *b == 0));
    }

    #[test]
    fn types_follow_the_reference_converter() {
        let tensor =
            |name: &str, dims: Vec<usize>| Tensor { name: name.into(), dims, values: vec![] };
        let q = OutputType::Q8_0;
        assert!(matches!(
            tensor_type(&tensor("encoder.conv1.bias", vec![384, 1]), q),
            TensorType::F32
        ));
        assert!(matches!(
            tensor_type(&tensor("encoder.conv1.weight", vec![384, 80, 3]), q),
            TensorType::F16
        ));
        assert!(matches!(
            tensor_type(&tensor("decoder.positional_embedding", vec![448, 384]), q),
            TensorType::F32
        ));
        assert!(matches!(
            tensor_type(&tensor("decoder.blocks.0.attn.query.weight", vec![384, 384]), q),
            TensorType::Q8_0
        ));
        assert!(matches!(
            tensor_type(
                &tensor("decoder.blocks.0.attn.query.weight", vec![384, 384]),
                OutputType::F16
            ),
            TensorType::F16
        ));
        assert!(matches!(tensor_type(&tensor("decoder.ln.bias", vec![384]), q), TensorType::F32));
    }
}
