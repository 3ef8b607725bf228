//! Writer for whisper.cpp's ggml model file: hyper-parameters, mel filters,
//! vocabulary, then tensors (dims innermost first, then name, then data), with
//! the tensor types that `convert-pt-to-ggml.py` and `quantize` produce.

use std::io::Write;

use half::f16;

use super::{ConvertError, OutputType};

const MAGIC: u32 = 0x6767_6d6c;
const GGML_QNT_VERSION: i32 = 2;
const GGML_QNT_VERSION_FACTOR: i32 = 1000;
const FTYPE_MOSTLY_Q8_0: i32 = 7;
const Q8_0_BLOCK: usize = 32;

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
    Q8_0 = 8,
}

pub fn write_header(
    out: &mut impl Write,
    hparams: &HyperParameters,
    output: OutputType,
    filters: &[f32],
    tokens: &[Vec<u8>],
) -> Result<(), ConvertError> {
    let ftype = match output {
        OutputType::F16 => 1,
        OutputType::Q8_0 => GGML_QNT_VERSION * GGML_QNT_VERSION_FACTOR + FTYPE_MOSTLY_Q8_0,
    };
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
        TensorType::Q8_0 => quantize_q8_0(&tensor.values),
    };
    out.write_all(&data)?;
    Ok((12 + 4 * tensor.dims.len() + name.len() + data.len()) as u64)
}

/// f32 for vectors, conv biases and positional embeddings (as the reference
/// converter does); f16 for the rest, or q8_0 for matrices when quantizing
/// (whisper.cpp's `quantize` leaves the 3-D conv kernels in f16).
fn tensor_type(tensor: &Tensor, output: OutputType) -> TensorType {
    let keep_f32 = tensor.dims.len() < 2
        || tensor.name.ends_with("conv1.bias")
        || tensor.name.ends_with("conv2.bias")
        || tensor.name.ends_with("positional_embedding");
    let row_length = tensor.dims.last().copied().unwrap_or(0);
    match output {
        _ if keep_f32 => TensorType::F32,
        OutputType::Q8_0 if tensor.dims.len() == 2 && row_length.is_multiple_of(Q8_0_BLOCK) => {
            TensorType::Q8_0
        }
        _ => TensorType::F16,
    }
}

/// ggml's `quantize_row_q8_0_ref`: per block of 32, an f16 scale
/// `max|x| / 127` and 32 signed bytes `round(x / scale)`.
pub fn quantize_q8_0(values: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / Q8_0_BLOCK * (2 + Q8_0_BLOCK));
    for block in values.chunks(Q8_0_BLOCK) {
        let max = block.iter().fold(0.0_f32, |max, v| max.max(v.abs()));
        let scale = max / 127.0;
        let inverse = if scale != 0.0 { 1.0 / scale } else { 0.0 };
        out.extend_from_slice(&f16::from_f32(scale).to_le_bytes());
        out.extend(block.iter().map(|v| ((v * inverse).round() as i8) as u8));
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
