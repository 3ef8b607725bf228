//! The GGUF check (`gguf.rs`) against files made byte by byte: whole, cut, other
//! formats, other versions and absurd counts.

use std::io::Write;

use super::*;

/// A small GGUF file: metadata, two tensors (F32 4, Q8_0 32) and their data.
fn model_bytes() -> Vec<u8> {
    fn string(out: &mut Vec<u8>, text: &str) {
        out.extend((text.len() as u64).to_le_bytes());
        out.extend(text.as_bytes());
    }
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend(2u64.to_le_bytes()); // tensors
    out.extend(4u64.to_le_bytes()); // keys
    string(&mut out, "general.architecture");
    out.extend(8u32.to_le_bytes());
    string(&mut out, "llama");
    string(&mut out, "tokenizer.ggml.tokens");
    out.extend(9u32.to_le_bytes());
    out.extend(8u32.to_le_bytes());
    out.extend(2u64.to_le_bytes());
    string(&mut out, "a");
    string(&mut out, "bc");
    string(&mut out, "llama.context_length");
    out.extend(4u32.to_le_bytes());
    out.extend(2048u32.to_le_bytes());
    string(&mut out, "general.license");
    out.extend(8u32.to_le_bytes());
    string(&mut out, "apache-2.0");
    for (name, kind, dims, offset) in [("a", 0u32, 4u64, 0u64), ("b", 8, 32, 32)] {
        string(&mut out, name);
        out.extend(1u32.to_le_bytes());
        out.extend(dims.to_le_bytes());
        out.extend(kind.to_le_bytes());
        out.extend(offset.to_le_bytes());
    }
    while !out.len().is_multiple_of(32) {
        out.push(0);
    }
    out.extend([0u8; 32 + 34]);
    out
}

fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(bytes).expect("write");
    file
}

#[test]
fn a_whole_model_reads_with_its_metadata() {
    let bytes = model_bytes();
    let info = inspect(file(&bytes).path()).expect("a model");
    assert_eq!(info.architecture.as_deref(), Some("llama"));
    assert_eq!(info.license.as_deref(), Some("apache-2.0"));
    assert_eq!(info.context_length, Some(2048));
    assert_eq!((info.version, info.tensors), (3, 2));
    assert_eq!(info.needed_bytes, bytes.len() as u64);
}

#[test]
fn a_truncated_model_is_refused_with_the_sizes() {
    let bytes = model_bytes();
    let error = inspect(file(&bytes[..bytes.len() - 10]).path()).expect_err("truncated");
    let shown = error.to_string();
    assert!(matches!(error, GgufError::Truncated { .. }), "{shown}");
    assert!(shown.contains(&format!("need {}", bytes.len())), "{shown}");
    let error = inspect(file(&bytes[..40]).path()).expect_err("header cut");
    assert!(error.to_string().contains("the header ends early"), "{error}");
}

#[test]
fn other_files_are_refused_plainly() {
    let error = inspect(file(b"ggml\x00\x00\x00\x00 not a model").path()).expect_err("ggml");
    assert!(error.to_string().contains("is not a GGUF model file"), "{error}");
    assert!(matches!(inspect(file(b"").path()), Err(GgufError::NotGguf(_))));
    let mut v1 = model_bytes();
    v1[4] = 1;
    assert!(matches!(inspect(file(&v1).path()), Err(GgufError::Version(_, 1))));
    let mut huge = model_bytes();
    huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    let error = inspect(file(&huge).path()).expect_err("absurd count");
    assert!(error.to_string().contains("claims"), "{error}");
    let missing = inspect(Path::new("/nonexistent/model.gguf")).expect_err("missing");
    assert!(matches!(missing, GgufError::Io(..)), "{missing}");
}
