//! The notes models the app offers to download: small instruction models in
//! GGUF, each pinned by size and SHA-256 (from the publisher's Hugging Face
//! repository at a fixed revision, cross-checked against two independent
//! catalogues: LocalAI's gallery and PocketPal's defaults; see
//! bench/results/notes-2026-11-27.md). A download that does not match is
//! discarded. Any other GGUF file can be added with `recorder models add-notes`.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// One downloadable notes model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotesModelEntry {
    /// What the person types: `recorder models install-notes qwen3-1.7b`.
    pub id: &'static str,
    pub name: &'static str,
    /// The file in the data folder's `models/notes/`.
    pub file_name: &'static str,
    pub url: &'static str,
    pub sha256: &'static str,
    pub size_bytes: u64,
    pub licence: &'static str,
    pub parameters: &'static str,
    pub quantization: &'static str,
    /// Tokens the model was trained for.
    pub context: u32,
    /// Memory a notes run takes, estimated: the weights, an 8 192-token f16 KV
    /// cache and llama.cpp's compute buffers.
    pub memory_bytes: u64,
}

const MIB: u64 = 1024 * 1024;

pub const CATALOGUE: &[NotesModelEntry] = &[
    NotesModelEntry {
        id: "qwen3-1.7b",
        name: "Qwen3 1.7B",
        file_name: "Qwen3-1.7B-Q8_0.gguf",
        url: "https://huggingface.co/Qwen/Qwen3-1.7B-GGUF/resolve/90862c4b9d2787eaed51d12237eafdfe7c5f6077/Qwen3-1.7B-Q8_0.gguf",
        sha256: "061b54daade076b5d3362dac252678d17da8c68f07560be70818cace6590cb1a",
        size_bytes: 1_834_426_016,
        licence: "Apache-2.0",
        parameters: "1.7B",
        quantization: "Q8_0",
        context: 32_768,
        memory_bytes: 1_834_426_016 + 896 * MIB + 300 * MIB,
    },
    NotesModelEntry {
        id: "qwen3-4b-instruct-2507",
        name: "Qwen3 4B Instruct 2507",
        file_name: "Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf",
        url: "https://huggingface.co/bartowski/Qwen_Qwen3-4B-Instruct-2507-GGUF/resolve/ae44f08e1392f39c0e474af10c3ff8355c8b6688/Qwen_Qwen3-4B-Instruct-2507-Q4_K_M.gguf",
        sha256: "2fde00ce69dd4899c70d020845e2638353015bba0fdf161b3eb965f2bca4464e",
        size_bytes: 2_497_280_736,
        licence: "Apache-2.0",
        parameters: "4.0B",
        quantization: "Q4_K_M",
        context: 262_144,
        memory_bytes: 2_497_280_736 + 1152 * MIB + 300 * MIB,
    },
    NotesModelEntry {
        id: "llama-3.2-1b",
        name: "Llama 3.2 1B Instruct",
        file_name: "llama-3.2-1b-instruct-q8_0.gguf",
        url: "https://huggingface.co/hugging-quants/Llama-3.2-1B-Instruct-Q8_0-GGUF/resolve/main/llama-3.2-1b-instruct-q8_0.gguf",
        sha256: "ba345c83bf5cc679c653b853c46517eea5a34f03ed2205449db77184d9ae62a9",
        size_bytes: 1_321_079_200,
        licence: "Llama 3.2 Community License",
        parameters: "1.24B",
        quantization: "Q8_0",
        context: 131_072,
        memory_bytes: 1_321_079_200 + 256 * MIB + 300 * MIB,
    },
    NotesModelEntry {
        id: "llama-3.2-3b",
        name: "Llama 3.2 3B Instruct",
        file_name: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        url: "https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/5ab33fa94d1d04e903623ae72c95d1696f09f9e8/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        sha256: "6c1a2b41161032677be168d354123594c0e6e67d2b9227c84f296ad037c728ff",
        size_bytes: 2_019_377_696,
        licence: "Llama 3.2 Community License",
        parameters: "3.21B",
        quantization: "Q4_K_M",
        context: 131_072,
        memory_bytes: 2_019_377_696 + 896 * MIB + 300 * MIB,
    },
    NotesModelEntry {
        id: "gemma-3-1b",
        name: "Gemma 3 1B IT",
        file_name: "gemma-3-1b-it-Q8_0.gguf",
        url: "https://huggingface.co/ggml-org/gemma-3-1b-it-GGUF/resolve/f9c28bcd85737ffc5aef028638d3341d49869c27/gemma-3-1b-it-Q8_0.gguf",
        sha256: "b205840c5dcef55078e37d344677869a714ffd42a4ae448c48dcfb52e4bb10d5",
        size_bytes: 1_069_306_368,
        licence: "Gemma Terms of Use",
        parameters: "1.0B",
        quantization: "Q8_0",
        context: 32_768,
        memory_bytes: 1_069_306_368 + 208 * MIB + 300 * MIB,
    },
];

/// The catalogue entry `id` (or its file name).
pub fn find(id: &str) -> Option<&'static NotesModelEntry> {
    CATALOGUE.iter().find(|entry| entry.id == id || entry.file_name == id)
}

/// The entry's download address, from `base` instead of Hugging Face when given
/// (a mirror, or a test server): `<base>/<file name>`.
pub fn url_with_base(entry: &NotesModelEntry, base: Option<&str>) -> String {
    match base {
        Some(base) => format!("{}/{}", base.trim_end_matches('/'), entry.file_name),
        None => entry.url.to_string(),
    }
}

/// Checks a downloaded file's SHA-256 (and size).
pub fn verify_file(entry: &NotesModelEntry, path: &Path) -> Result<(), String> {
    let size = std::fs::metadata(path).map_err(|error| error.to_string())?.len();
    let actual = sha256_file(path).map_err(|error| error.to_string())?;
    if !actual.eq_ignore_ascii_case(entry.sha256) {
        tracing::warn!(file = entry.file_name, %actual, "a notes model download has the wrong SHA-256");
        return Err(format!(
            "{} does not match its published SHA-256 ({size} of {} bytes received)",
            entry.file_name, entry.size_bytes
        ));
    }
    if size != entry.size_bytes {
        return Err(format!(
            "{} has {size} bytes, not the {} published",
            entry.file_name, entry.size_bytes
        ));
    }
    Ok(())
}

/// A file's SHA-256, lowercase hex, read in 1 MiB blocks.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut digest = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            return Ok(hex::encode(digest.finalize()));
        }
        digest.update(&buffer[..read]);
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn entries_are_whole_and_distinct() {
        let mut ids = std::collections::HashSet::new();
        for entry in CATALOGUE {
            assert!(ids.insert(entry.id) && ids.insert(entry.file_name), "{}", entry.id);
            assert_eq!(entry.sha256.len(), 64, "{}", entry.id);
            assert!(entry.sha256.chars().all(|c| c.is_ascii_hexdigit()), "{}", entry.id);
            assert!(entry.url.starts_with("https://huggingface.co/"), "{}", entry.id);
            assert!(entry.url.ends_with(entry.file_name), "{}", entry.id);
            assert!(entry.file_name.ends_with(".gguf") && entry.memory_bytes > entry.size_bytes);
        }
        assert_eq!(find("gemma-3-1b").map(|e| e.file_name), Some("gemma-3-1b-it-Q8_0.gguf"));
        assert!(find("gpt-5").is_none());
    }

    #[test]
    fn a_mirror_serves_the_same_file_name() {
        let entry = &CATALOGUE[0];
        assert_eq!(
            url_with_base(entry, Some("http://127.0.0.1:9/models/")),
            "http://127.0.0.1:9/models/Qwen3-1.7B-Q8_0.gguf"
        );
        assert_eq!(url_with_base(entry, None), entry.url);
    }

    #[test]
    fn a_file_must_match_size_and_checksum() {
        let mut file = tempfile::NamedTempFile::new().expect("file");
        file.write_all(b"abc").expect("write");
        let entry = NotesModelEntry {
            size_bytes: 3,
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ..CATALOGUE[0].clone()
        };
        assert_eq!(verify_file(&entry, file.path()), Ok(()));
        let wrong = NotesModelEntry { sha256: CATALOGUE[0].sha256, ..entry.clone() };
        let error = verify_file(&wrong, file.path()).expect_err("checksum");
        assert!(error.contains("does not match its published SHA-256"), "{error}");
        let short = NotesModelEntry { size_bytes: 4, ..entry };
        assert!(verify_file(&short, file.path()).expect_err("size").contains("has 3 bytes"));
    }
}
