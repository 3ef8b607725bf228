//! CTranslate2 Whisper models (as faster-whisper uses them) to whisper.cpp's
//! ggml format, in f16, q8_0, q5_0 or q4_0.
//!
//! CTranslate2 fuses self-attention Q/K/V and cross-attention K/V into one
//! matrix each, stores zero key biases (whisper has none), and keeps conv
//! biases as vectors; whisper.cpp wants them split, without key biases, and
//! conv biases as `[d, 1]`. Models shipped in parts (`model.bin.*`, possibly
//! spread over several folders) are joined by plain concatenation in name order.

mod ct2;
mod ggml;
mod mel;
mod vocab;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use ct2::Ct2Model;
use ggml::{HyperParameters, Tensor};

pub use ggml::{quantize_q4_0, quantize_q5_0, quantize_q8_0};

/// The weight type of the converted file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputType {
    F16,
    Q8_0,
    Q5_0,
    Q4_0,
}

/// What a conversion wrote.
#[derive(Debug, Clone)]
pub struct ConvertReport {
    pub tensors: usize,
    pub n_vocab: u32,
    pub bytes: u64,
    pub multilingual: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    #[error("{0}")]
    Format(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Converts the model found in `inputs` (folders or files) to `output`. The
/// file appears only when complete: it is written beside it and renamed.
pub fn convert_ct2(
    inputs: &[PathBuf],
    output: &Path,
    output_type: OutputType,
) -> Result<ConvertReport, ConvertError> {
    let (bytes, folders) = read_model_bytes(inputs)?;
    let model = Ct2Model::parse(bytes)?;
    if model.spec != "WhisperSpec" {
        return Err(ConvertError::Format(format!(
            "model.bin holds a {}, not a Whisper model",
            model.spec
        )));
    }
    let folder_refs: Vec<&Path> = folders.iter().map(PathBuf::as_path).collect();
    let tokens = vocab::read_tokens(&folder_refs)?;
    let hparams = hyper_parameters(&model)?;
    let filters = mel::filters(hparams.n_mels as usize, 400);
    let partial = output.with_extension("bin.partial");
    let result = write_model(&model, &hparams, &filters, &tokens, &partial, output_type);
    match result {
        Ok(mut report) => {
            std::fs::rename(&partial, output)?;
            report.multilingual = hparams.n_vocab >= 51865;
            Ok(report)
        }
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            Err(error)
        }
    }
}

fn write_model(
    model: &Ct2Model,
    hparams: &HyperParameters,
    filters: &[f32],
    tokens: &[Vec<u8>],
    path: &Path,
    output_type: OutputType,
) -> Result<ConvertReport, ConvertError> {
    let mut out = BufWriter::new(File::create(path)?);
    ggml::write_header(&mut out, hparams, output_type, filters, tokens)?;
    let mut report = ConvertReport {
        tensors: 0,
        n_vocab: hparams.n_vocab as u32,
        bytes: 0,
        multilingual: false,
    };
    let mut emit = |tensor: Tensor| -> Result<(), ConvertError> {
        report.bytes += ggml::write_tensor(&mut out, &tensor, output_type)?;
        report.tensors += 1;
        Ok(())
    };
    encoder_tensors(model, hparams.n_audio_layer as usize, &mut emit)?;
    decoder_tensors(model, hparams.n_text_layer as usize, &mut emit)?;
    let mut file = out.into_inner().map_err(|e| ConvertError::Io(e.into_error()))?;
    file.flush()?;
    file.sync_all()?;
    Ok(report)
}

type Emit<'a> = dyn FnMut(Tensor) -> Result<(), ConvertError> + 'a;

fn encoder_tensors(model: &Ct2Model, layers: usize, emit: &mut Emit) -> Result<(), ConvertError> {
    emit(plain(model, "encoder/position_encodings/encodings", "encoder.positional_embedding")?)?;
    for conv in ["conv1", "conv2"] {
        emit(plain(model, &format!("encoder/{conv}/weight"), &format!("encoder.{conv}.weight"))?)?;
        let mut bias =
            plain(model, &format!("encoder/{conv}/bias"), &format!("encoder.{conv}.bias"))?;
        bias.dims.push(1);
        emit(bias)?;
    }
    for layer in 0..layers {
        let from = format!("encoder/layer_{layer}");
        let to = format!("encoder.blocks.{layer}");
        self_attention(model, &from, &to, emit)?;
        feed_forward(model, &from, &to, emit)?;
    }
    layer_norm(model, "encoder/layer_norm", "encoder.ln_post", emit)
}

fn decoder_tensors(model: &Ct2Model, layers: usize, emit: &mut Emit) -> Result<(), ConvertError> {
    emit(plain(model, "decoder/position_encodings/encodings", "decoder.positional_embedding")?)?;
    emit(plain(model, "decoder/embeddings/weight", "decoder.token_embedding.weight")?)?;
    for layer in 0..layers {
        let from = format!("decoder/layer_{layer}");
        let to = format!("decoder.blocks.{layer}");
        self_attention(model, &from, &to, emit)?;
        cross_attention(model, &from, &to, emit)?;
        feed_forward(model, &from, &to, emit)?;
    }
    layer_norm(model, "decoder/layer_norm", "decoder.ln", emit)
}

fn self_attention(
    model: &Ct2Model,
    from: &str,
    to: &str,
    emit: &mut Emit,
) -> Result<(), ConvertError> {
    let from = format!("{from}/self_attention");
    layer_norm(model, &format!("{from}/layer_norm"), &format!("{to}.attn_ln"), emit)?;
    let fused = split(model, &format!("{from}/linear_0"), 3)?;
    emit_projections(fused, &format!("{to}.attn"), &["query", "key", "value"], emit)?;
    linear(model, &format!("{from}/linear_1"), &format!("{to}.attn.out"), emit)
}

fn cross_attention(
    model: &Ct2Model,
    from: &str,
    to: &str,
    emit: &mut Emit,
) -> Result<(), ConvertError> {
    let from = format!("{from}/attention");
    layer_norm(model, &format!("{from}/layer_norm"), &format!("{to}.cross_attn_ln"), emit)?;
    linear(model, &format!("{from}/linear_0"), &format!("{to}.cross_attn.query"), emit)?;
    let fused = split(model, &format!("{from}/linear_1"), 2)?;
    emit_projections(fused, &format!("{to}.cross_attn"), &["key", "value"], emit)?;
    linear(model, &format!("{from}/linear_2"), &format!("{to}.cross_attn.out"), emit)
}

fn feed_forward(
    model: &Ct2Model,
    from: &str,
    to: &str,
    emit: &mut Emit,
) -> Result<(), ConvertError> {
    let from = format!("{from}/ffn");
    layer_norm(model, &format!("{from}/layer_norm"), &format!("{to}.mlp_ln"), emit)?;
    linear(model, &format!("{from}/linear_0"), &format!("{to}.mlp.0"), emit)?;
    linear(model, &format!("{from}/linear_1"), &format!("{to}.mlp.2"), emit)
}

/// Whisper's key projections have no bias: CTranslate2 stores zeros there.
fn emit_projections(
    parts: Vec<(Tensor, Tensor)>,
    to: &str,
    names: &[&str],
    emit: &mut Emit,
) -> Result<(), ConvertError> {
    for ((mut weight, mut bias), name) in parts.into_iter().zip(names) {
        weight.name = format!("{to}.{name}.weight");
        emit(weight)?;
        if *name != "key" {
            bias.name = format!("{to}.{name}.bias");
            emit(bias)?;
        }
    }
    Ok(())
}

/// Splits a fused linear layer's weight rows and bias into `count` equal parts.
fn split(
    model: &Ct2Model,
    from: &str,
    count: usize,
) -> Result<Vec<(Tensor, Tensor)>, ConvertError> {
    let weight = plain(model, &format!("{from}/weight"), "")?;
    let bias = plain(model, &format!("{from}/bias"), "")?;
    let (rows, columns) = match weight.dims[..] {
        [rows, columns] if rows % count == 0 && bias.values.len() == rows => {
            (rows / count, columns)
        }
        _ => {
            return Err(ConvertError::Format(format!(
                "{from} is not a fused {count}-way projection"
            )))
        }
    };
    let parts = (0..count)
        .map(|part| {
            let values = weight.values[part * rows * columns..(part + 1) * rows * columns].to_vec();
            let bias_values = bias.values[part * rows..(part + 1) * rows].to_vec();
            (
                Tensor { name: String::new(), dims: vec![rows, columns], values },
                Tensor { name: String::new(), dims: vec![rows], values: bias_values },
            )
        })
        .collect();
    Ok(parts)
}

fn linear(model: &Ct2Model, from: &str, to: &str, emit: &mut Emit) -> Result<(), ConvertError> {
    emit(plain(model, &format!("{from}/weight"), &format!("{to}.weight"))?)?;
    emit(plain(model, &format!("{from}/bias"), &format!("{to}.bias"))?)
}

fn layer_norm(model: &Ct2Model, from: &str, to: &str, emit: &mut Emit) -> Result<(), ConvertError> {
    emit(plain(model, &format!("{from}/gamma"), &format!("{to}.weight"))?)?;
    emit(plain(model, &format!("{from}/beta"), &format!("{to}.bias"))?)
}

fn plain(model: &Ct2Model, from: &str, to: &str) -> Result<Tensor, ConvertError> {
    let dims = model.variable(from)?.dims.clone();
    Ok(Tensor { name: to.to_owned(), dims, values: model.floats(from)? })
}

fn hyper_parameters(model: &Ct2Model) -> Result<HyperParameters, ConvertError> {
    let dims = |name: &str| model.variable(name).map(|v| v.dims.clone());
    let count_layers = |prefix: &str| {
        (0..).take_while(|i| model.has(&format!("{prefix}/layer_{i}/ffn/linear_0/weight"))).count()
    };
    let embeddings = dims("decoder/embeddings/weight")?;
    let audio_positions = dims("encoder/position_encodings/encodings")?;
    let text_positions = dims("decoder/position_encodings/encodings")?;
    let conv1 = dims("encoder/conv1/weight")?;
    let as_i32 = |value: usize| {
        i32::try_from(value).map_err(|_| ConvertError::Format("a dimension is too large".into()))
    };
    let heads = |name: &str| model.integer(name).and_then(|v| as_i32(v as usize));
    match (&embeddings[..], &audio_positions[..], &text_positions[..], &conv1[..]) {
        ([vocab, text_state], [audio_ctx, audio_state], [text_ctx, _], [_, mels, _]) => {
            Ok(HyperParameters {
                n_vocab: as_i32(*vocab)?,
                n_audio_ctx: as_i32(*audio_ctx)?,
                n_audio_state: as_i32(*audio_state)?,
                n_audio_head: heads("encoder/num_heads")?,
                n_audio_layer: as_i32(count_layers("encoder"))?,
                n_text_ctx: as_i32(*text_ctx)?,
                n_text_state: as_i32(*text_state)?,
                n_text_head: heads("decoder/num_heads")?,
                n_text_layer: as_i32(count_layers("decoder"))?,
                n_mels: as_i32(*mels)?,
            })
        }
        _ => Err(ConvertError::Format("unexpected tensor shapes for a Whisper model".into())),
    }
}

/// Finds `model.bin`, or its parts, in the inputs; returns its bytes and the
/// folders to look for the vocabulary in.
fn read_model_bytes(inputs: &[PathBuf]) -> Result<(Vec<u8>, Vec<PathBuf>), ConvertError> {
    let mut parts = Vec::new();
    let mut folders = Vec::new();
    for input in inputs {
        if input.is_dir() {
            folders.push(input.clone());
            for entry in std::fs::read_dir(input)? {
                let path = entry?.path();
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                if name == "model.bin" || name.starts_with("model.bin.") {
                    parts.push(path);
                }
            }
        } else if input.is_file() {
            folders.extend(input.parent().map(Path::to_path_buf));
            parts.push(input.clone());
        } else {
            return Err(ConvertError::Format(format!("{} does not exist", input.display())));
        }
    }
    parts.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    if parts.is_empty() {
        return Err(ConvertError::Format("no model.bin (or model.bin.* parts) found".into()));
    }
    let mut bytes = Vec::new();
    for part in &parts {
        bytes.extend(std::fs::read(part)?);
    }
    Ok((bytes, folders))
}
