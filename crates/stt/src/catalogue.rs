//! The catalogue of public whisper.cpp ggml models: the files
//! `ggml-<name>[-<quantization>].bin` published at
//! <https://huggingface.co/ggerganov/whisper.cpp>, with their sizes and checksums,
//! how a configured model name maps to files in `models/`, and the checks a file
//! must pass before it is installed.
//!
//! Where the checksums come from (none is made up; an entry carries only what was
//! found published):
//! - SHA-256 and exact sizes: the Hugging Face API's answer for
//!   `ggerganov/whisper.cpp` at revision `5359861c739e955e79d9a303bcbc70fb988958b1`
//!   (`siblings[].lfs.sha256` and `.size` of all 33 model files), as captured
//!   verbatim in a public project's tests (a Swift `ModelUpdateTests` suite).
//!   Cross-checked against independent lists: all 33 agree with the codictate
//!   speech-model catalogue (`src/shared/speech-models.ts`, pinned to the same
//!   revision); 22 agree with the SRI hashes of `haennes/signal-whisper`
//!   `flake.nix` (decoded from base64); tiny, base, small, medium and large-v2
//!   agree with `chidiwilliams/buzz` `buzz/model_loader.py`
//!   (`WHISPER_CPP_MODELS_SHA256`).
//! - SHA-1: the "Available models" table of whisper.cpp's `models/README.md`
//!   (`ggml-org/whisper.cpp` at `41e789ee591d054769a2fa3ebd9f0a8bc6d6d5fa`, same
//!   values in `ggerganov/whisper.cpp` at `06b3eb05a48ba6ecce64b378d05a35a2f9d3ebe8`).
//!   It lists f16 files and a few q5_0 ones only.

use std::io::Read;
use std::path::Path;

use sha1::Sha1;
use sha2::{Digest, Sha256};

/// Where the catalogue's files are downloaded from.
pub const DEFAULT_BASE_URL: &str = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";

/// The weight type of a ggml file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantization {
    F16,
    Q8_0,
    Q5_1,
    Q5_0,
}

impl Quantization {
    pub const ALL: [Quantization; 4] =
        [Quantization::F16, Quantization::Q8_0, Quantization::Q5_1, Quantization::Q5_0];

    pub fn as_str(self) -> &'static str {
        match self {
            Quantization::F16 => "f16",
            Quantization::Q8_0 => "q8_0",
            Quantization::Q5_1 => "q5_1",
            Quantization::Q5_0 => "q5_0",
        }
    }

    /// `f16`, `q8_0`, `q5_1` or `q5_0` (any case).
    pub fn parse(text: &str) -> Option<Quantization> {
        let text = text.trim().to_ascii_lowercase();
        Quantization::ALL.into_iter().find(|q| q.as_str() == text)
    }

    /// What the file name adds after the model name: nothing for f16.
    pub fn file_suffix(self) -> &'static str {
        match self {
            Quantization::F16 => "",
            Quantization::Q8_0 => "-q8_0",
            Quantization::Q5_1 => "-q5_1",
            Quantization::Q5_0 => "-q5_0",
        }
    }
}

/// One published model file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueEntry {
    /// The model without its quantization, e.g. `base.en`.
    pub name: &'static str,
    pub quantization: Quantization,
    /// e.g. `ggml-base.en-q8_0.bin`
    pub file_name: &'static str,
    pub url: &'static str,
    pub size_bytes: Option<u64>,
    /// Lowercase hex.
    pub sha256: Option<&'static str>,
    /// Lowercase hex.
    pub sha1: Option<&'static str>,
    pub english_only: bool,
}

impl CatalogueEntry {
    /// The file name without `ggml-` and `.bin`, e.g. `base.en-q8_0`.
    pub fn id(&self) -> &'static str {
        file_id(self.file_name).unwrap_or(self.file_name)
    }

    /// Whether the entry can be verified, and so installed.
    pub fn has_checksum(&self) -> bool {
        self.sha256.is_some() || self.sha1.is_some()
    }

    /// The download URL under another base (e.g. a mirror or a test server).
    pub fn url_with_base(&self, base: Option<&str>) -> String {
        match base {
            Some(base) => format!("{}/{}", base.trim_end_matches('/'), self.file_name),
            None => self.url.to_string(),
        }
    }
}

const fn ends_with_en(name: &str) -> bool {
    let bytes = name.as_bytes();
    let n = bytes.len();
    n >= 3 && bytes[n - 3] == b'.' && bytes[n - 2] == b'e' && bytes[n - 1] == b'n'
}

macro_rules! entry {
    ($name:literal, F16, $($rest:tt)*) => { entry!(@ $name, "", F16, $($rest)*) };
    ($name:literal, Q8_0, $($rest:tt)*) => { entry!(@ $name, "-q8_0", Q8_0, $($rest)*) };
    ($name:literal, Q5_1, $($rest:tt)*) => { entry!(@ $name, "-q5_1", Q5_1, $($rest)*) };
    ($name:literal, Q5_0, $($rest:tt)*) => { entry!(@ $name, "-q5_0", Q5_0, $($rest)*) };
    (@ $name:literal, $suffix:literal, $q:ident, $size:literal, $sha256:literal, $sha1:expr) => {
        CatalogueEntry {
            name: $name,
            quantization: Quantization::$q,
            file_name: concat!("ggml-", $name, $suffix, ".bin"),
            url: concat!(
                "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-",
                $name,
                $suffix,
                ".bin"
            ),
            size_bytes: Some($size),
            sha256: Some($sha256),
            sha1: $sha1,
            english_only: ends_with_en($name),
        }
    };
}

#[rustfmt::skip]
static ENTRIES: [CatalogueEntry; 33] = [
    entry!("tiny", F16, 77_691_713, "be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21", Some("bd577a113a864445d4c299885e0cb97d4ba92b5f")),
    entry!("tiny", Q8_0, 43_537_433, "c2085835d3f50733e2ff6e4b41ae8a2b8d8110461e18821b09a15c40c42d1cca", None),
    entry!("tiny", Q5_1, 32_152_673, "818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7", None),
    entry!("tiny.en", F16, 77_704_715, "921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f", Some("c78c86eb1a8faa21b369bcd33207cc90d64ae9df")),
    entry!("tiny.en", Q8_0, 43_550_795, "5bc2b3860aa151a4c6e7bb095e1fcce7cf12c7b020ca08dcec0c6d018bb7dd94", None),
    entry!("tiny.en", Q5_1, 32_166_155, "c77c5766f1cef09b6b7d47f21b546cbddd4157886b3b5d6d4f709e91e66c7c2b", None),
    entry!("base", F16, 147_951_465, "60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe", Some("465707469ff3a37a2b9b8d8f89f2f99de7299dac")),
    entry!("base", Q8_0, 81_768_585, "c577b9a86e7e048a0b7eada054f4dd79a56bbfa911fbdacf900ac5b567cbb7d9", None),
    entry!("base", Q5_1, 59_707_625, "422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898", None),
    entry!("base.en", F16, 147_964_211, "a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002", Some("137c40403d78fd54d454da0f9bd998f78703390c")),
    entry!("base.en", Q8_0, 81_781_811, "a4d4a0768075e13cfd7e19df3ae2dbc4a68d37d36a7dad45e8410c9a34f8c87e", None),
    entry!("base.en", Q5_1, 59_721_011, "4baf70dd0d7c4247ba2b81fafd9c01005ac77c2f9ef064e00dcf195d0e2fdd2f", None),
    entry!("small", F16, 487_601_967, "1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b", Some("55356645c2b361a969dfd0ef2c5a50d530afd8d5")),
    entry!("small", Q8_0, 264_464_607, "49c8fb02b65e6049d5fa6c04f81f53b867b5ec9540406812c643f177317f779f", None),
    entry!("small", Q5_1, 190_085_487, "ae85e4a935d7a567bd102fe55afc16bb595bdb618e11b2fc7591bc08120411bb", None),
    entry!("small.en", F16, 487_614_201, "c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d", Some("db8a495a91d927739e50b3fc1cc4c6b8f6c2d022")),
    entry!("small.en", Q8_0, 264_477_561, "67a179f608ea6114bd3fdb9060e762b588a3fb3bd00c4387971be4d177958067", None),
    entry!("small.en", Q5_1, 190_098_681, "bfdff4894dcb76bbf647d56263ea2a96645423f1669176f4844a1bf8e478ad30", None),
    entry!("medium", F16, 1_533_763_059, "6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208", Some("fd9727b6e1217c2f614f9b698455c4ffd82463b4")),
    entry!("medium", Q8_0, 823_369_779, "42a1ffcbe4167d224232443396968db4d02d4e8e87e213d3ee2e03095dea6502", None),
    entry!("medium", Q5_0, 539_212_467, "19fea4b380c3a618ec4723c3eef2eb785ffba0d0538cf43f8f235e7b3b34220f", None),
    entry!("medium.en", F16, 1_533_774_781, "cc37e93478338ec7700281a7ac30a10128929eb8f427dda2e865faa8f6da4356", Some("8c30f0e44ce9560643ebd10bbe50cd20eafd3723")),
    entry!("medium.en", Q8_0, 823_382_461, "43fa2cd084de5a04399a896a9a7a786064e221365c01700cea4666005218f11c", None),
    entry!("medium.en", Q5_0, 539_225_533, "76733e26ad8fe1c7a5bf7531a9d41917b2adc0f20f2e4f5531688a8c6cd88eb0", None),
    entry!("large-v1", F16, 3_094_623_691, "7d99f41a10525d0206bddadd86760181fa920438b6b33237e3118ff6c83bb53d", Some("b1caaf735c4cc1429223d5a74f0f4d0b9b59a299")),
    entry!("large-v2", F16, 3_094_623_691, "9a423fe4d40c82774b6af34115b8b935f34152246eb19e80e376071d3f999487", Some("0f4c8e34f21cf1a914c59d8b3ce882345ad349d6")),
    entry!("large-v2", Q8_0, 1_656_129_691, "fef54e6d898246a65c8285bfa83bd1807e27fadf54d5d4e81754c47634737e8c", None),
    entry!("large-v2", Q5_0, 1_080_732_091, "3a214837221e4530dbc1fe8d734f302af393eb30bd0ed046042ebf4baf70f6f2", Some("00e39f2196344e901b3a2bd5814807a769bd1630")),
    entry!("large-v3", F16, 3_095_033_483, "64d182b440b98d5203c4f9bd541544d84c605196c4f7b845dfa11fb23594d1e2", Some("ad82bf6a9043ceed055076d0fd39f5f186ff8062")),
    entry!("large-v3", Q5_0, 1_081_140_203, "d75795ecff3f83b5faa89d1900604ad8c780abd5739fae406de19f23ecd98ad1", Some("e6e2ed78495d403bef4b7cff42ef4aaadcfea8de")),
    entry!("large-v3-turbo", F16, 1_624_555_275, "1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69", Some("4af2b29d7ec73d781377bfd1758ca957a807e941")),
    entry!("large-v3-turbo", Q8_0, 874_188_075, "317eb69c11673c9de1e1f0d459b253999804ec71ac4c23c17ecf5fbe24e259a1", None),
    entry!("large-v3-turbo", Q5_0, 574_041_195, "394221709cd5ad1f40c46e6031ca61bce88931e6e088c188294c6d5a55ffa7e2", Some("e050f7970618a659205450ad97eb95a18d69c9ee")),
];

/// Every catalogued file, smallest model first; within a model f16, q8_0, q5.
pub fn entries() -> &'static [CatalogueEntry] {
    &ENTRIES
}

/// The order installed files are preferred in when a name carries no quantization.
const PREFERENCE: [Quantization; 4] =
    [Quantization::Q8_0, Quantization::F16, Quantization::Q5_1, Quantization::Q5_0];

/// Splits `base.en-q8_0` into (`base.en`, Some(Q8_0)); also accepts a file name
/// (`ggml-base.en-q8_0.bin`).
pub fn split_name(name: &str) -> (String, Option<Quantization>) {
    let name = name.trim();
    let name = file_id(name).unwrap_or(name);
    for quantization in [Quantization::Q8_0, Quantization::Q5_1, Quantization::Q5_0] {
        if let Some(base) = name.strip_suffix(quantization.file_suffix()) {
            return (base.to_string(), Some(quantization));
        }
    }
    match name.strip_suffix("-f16") {
        Some(base) => (base.to_string(), Some(Quantization::F16)),
        None => (name.to_string(), None),
    }
}

/// The catalogue entry for `name` (`base.en`, `base.en-q8_0`, `ggml-base.en.bin`).
/// An explicit `quantization` wins over one in the name; with neither, q8_0 is
/// preferred when published, else f16.
pub fn find(name: &str, quantization: Option<Quantization>) -> Option<&'static CatalogueEntry> {
    let (base, in_name) = split_name(name);
    let base = base.to_ascii_lowercase();
    let matching = |q: Quantization| ENTRIES.iter().find(|e| e.name == base && e.quantization == q);
    match quantization.or(in_name) {
        Some(q) => matching(q),
        None => matching(Quantization::Q8_0).or_else(|| matching(Quantization::F16)),
    }
}

/// Whether `name` is a catalogued model (with or without quantization).
pub fn is_catalogued(name: &str) -> bool {
    let (base, _) = split_name(name);
    ENTRIES.iter().any(|entry| entry.name == base.to_ascii_lowercase())
}

/// The files in `models/` that hold model `name`, most preferred first: for a
/// catalogued name without quantization q8_0, f16, q5_1, q5_0; otherwise the one
/// file `ggml-<name>.bin` (a custom model added by the person).
pub fn candidate_files(name: &str) -> Vec<String> {
    let name = name.trim();
    if let Some(id) = file_id(name) {
        return vec![format!("ggml-{id}.bin")];
    }
    let (base, quantization) = split_name(name);
    if let (Some(_), Some(entry)) = (quantization, find(name, None)) {
        return vec![entry.file_name.to_string()];
    }
    if quantization.is_none() && is_catalogued(&base) {
        let base = base.to_ascii_lowercase();
        return PREFERENCE.iter().map(|q| format!("ggml-{base}{}.bin", q.file_suffix())).collect();
    }
    vec![format!("ggml-{name}.bin")]
}

/// `ggml-base.en-q8_0.bin` → `base.en-q8_0`; `None` for other names.
pub fn file_id(file_name: &str) -> Option<&str> {
    file_name.strip_prefix("ggml-")?.strip_suffix(".bin").filter(|id| !id.is_empty())
}

/// Whether a model id names an English-only model: a catalogue name
/// (`base.en`), an installed one (`base.en-q8_0`) or a file's own id
/// (`distil-small.en-q5_1`). Its name, less a quantization suffix, ends in
/// `.en`.
pub fn is_english_only(id: &str) -> bool {
    let name = match id.rsplit_once('-') {
        Some((name, suffix)) if is_quantization_suffix(suffix) => name,
        _ => id,
    };
    name.ends_with(".en")
}

/// `f16`, `f32`, or `q` and a digit (`q8_0`, `q5_1`, `q4_k`: whisper.cpp
/// quantizes to more kinds than the catalogue ships).
fn is_quantization_suffix(suffix: &str) -> bool {
    let suffix = suffix.to_ascii_lowercase();
    matches!(suffix.as_str(), "f16" | "f32")
        || suffix
            .strip_prefix('q')
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether `name` can be a model name and part of a file name: 1 to 100 of
/// `A-Z a-z 0-9 . _ -`, not starting with `.` or `-`.
pub fn is_valid_name(name: &str) -> bool {
    (1..=100).contains(&name.len())
        && !name.starts_with(['.', '-'])
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The magic number every whisper.cpp ggml model starts with (`ggml`, stored as a
/// little-endian u32).
pub const GGML_MAGIC: u32 = 0x6767_6d6c;

/// Whether `header` (the first bytes of a file) starts with the ggml magic.
/// A model name for a file: its stem without `ggml-`, other characters made `-`.
pub fn name_from_stem(stem: &str) -> String {
    let text = stem.strip_prefix("ggml-").unwrap_or(stem);
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' })
        .collect();
    cleaned.trim_start_matches(['.', '-']).chars().take(100).collect()
}

pub fn is_ggml_file(header: &[u8]) -> bool {
    header.get(..4).and_then(|bytes| <[u8; 4]>::try_from(bytes).ok()).map(u32::from_le_bytes)
        == Some(GGML_MAGIC)
}

/// Why a file is not the catalogued one.
#[derive(Debug, thiserror::Error)]
pub enum ChecksumError {
    #[error("{file} has no published checksum, so it cannot be verified or installed")]
    NoChecksum { file: String },
    #[error("{file} failed its {algorithm} check (expected {expected}, got {actual})")]
    Mismatch { file: String, algorithm: &'static str, expected: String, actual: String },
    #[error("cannot read {file}: {source}")]
    Io { file: String, source: std::io::Error },
}

/// Checks the file at `path` against every checksum `entry` has.
pub fn verify_file(entry: &CatalogueEntry, path: &Path) -> Result<(), ChecksumError> {
    let file = entry.file_name.to_string();
    if !entry.has_checksum() {
        return Err(ChecksumError::NoChecksum { file });
    }
    let (sha256, sha1) =
        digest_file(path).map_err(|source| ChecksumError::Io { file: file.clone(), source })?;
    for (algorithm, expected, actual) in
        [("SHA-256", entry.sha256, sha256), ("SHA-1", entry.sha1, sha1)]
    {
        if let Some(expected) = expected.filter(|e| !e.eq_ignore_ascii_case(&actual)) {
            let expected = expected.to_string();
            return Err(ChecksumError::Mismatch { file, algorithm, expected, actual });
        }
    }
    Ok(())
}

/// SHA-256 and SHA-1 of a file, lowercase hex, read once in 1 MiB blocks.
fn digest_file(path: &Path) -> std::io::Result<(String, String)> {
    let mut file = std::fs::File::open(path)?;
    let (mut sha256, mut sha1) = (Sha256::new(), Sha1::new());
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        sha256.update(&buffer[..read]);
        sha1.update(&buffer[..read]);
    }
    Ok((hex::encode(sha256.finalize()), hex::encode(sha1.finalize())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_consistent_and_installable() {
        for entry in entries() {
            let expected = format!("ggml-{}{}.bin", entry.name, entry.quantization.file_suffix());
            assert_eq!(entry.file_name, expected);
            assert_eq!(entry.url, format!("{DEFAULT_BASE_URL}/{}", entry.file_name));
            assert!(entry.has_checksum(), "{}", entry.file_name);
            assert!(entry.sha256.is_some_and(|h| h.len() == 64 && is_lower_hex(h)));
            assert!(entry.sha1.is_none_or(|h| h.len() == 40 && is_lower_hex(h)));
            assert_eq!(entry.english_only, entry.name.ends_with(".en"));
            assert!(is_valid_name(entry.id()), "{}", entry.id());
        }
        let mut files: Vec<_> = entries().iter().map(|e| e.file_name).collect();
        files.sort();
        files.dedup();
        assert_eq!(files.len(), entries().len(), "no file twice");
        for name in ["tiny", "base.en", "medium", "large-v1", "large-v2", "large-v3-turbo"] {
            assert!(find(name, Some(Quantization::F16)).is_some(), "{name}");
        }
    }

    #[test]
    fn english_only_is_read_from_the_name_less_its_quantization() {
        for id in
            ["tiny.en", "base.en-q8_0", "small.en-f16", "distil-small.en-q5_1", "medium.en-q4_k"]
        {
            assert!(is_english_only(id), "{id}");
        }
        for id in
            ["base", "base-q8_0", "large-v3-turbo", "large-v3-q5_0", "my.en-model", "tiny.english"]
        {
            assert!(!is_english_only(id), "{id}");
        }
    }

    fn is_lower_hex(text: &str) -> bool {
        text.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
    }

    #[test]
    fn find_prefers_q8_0_then_f16_and_reads_names_and_file_names() {
        let id = |name: &str, q| find(name, q).map(CatalogueEntry::id);
        assert_eq!(id("base.en", None), Some("base.en-q8_0"));
        assert_eq!(id("Base.EN", None), Some("base.en-q8_0"));
        assert_eq!(id("base.en", Some(Quantization::F16)), Some("base.en"));
        assert_eq!(id("base.en-q5_1", None), Some("base.en-q5_1"));
        assert_eq!(id("base.en-f16", None), Some("base.en"));
        assert_eq!(id("ggml-small-q8_0.bin", None), Some("small-q8_0"));
        assert_eq!(id("large-v1", None), Some("large-v1"), "no q8_0: f16");
        assert_eq!(id("large-v3", None), Some("large-v3"));
        assert_eq!(id("large-v3-turbo", None), Some("large-v3-turbo-q8_0"));
        assert_eq!(id("large-v3", Some(Quantization::Q8_0)), None, "not published");
        assert_eq!(id("huge", None), None);
        assert_eq!(split_name("medium.en-q5_0"), ("medium.en".into(), Some(Quantization::Q5_0)));
    }

    #[test]
    fn candidate_files_put_q8_0_first_and_cover_custom_names() {
        assert_eq!(
            candidate_files("base.en"),
            [
                "ggml-base.en-q8_0.bin",
                "ggml-base.en.bin",
                "ggml-base.en-q5_1.bin",
                "ggml-base.en-q5_0.bin"
            ]
        );
        assert_eq!(candidate_files("base.en-q5_1"), ["ggml-base.en-q5_1.bin"]);
        assert_eq!(candidate_files("base.en-f16"), ["ggml-base.en.bin"]);
        assert_eq!(candidate_files("ggml-base.en.bin"), ["ggml-base.en.bin"]);
        assert_eq!(candidate_files("my-finetune"), ["ggml-my-finetune.bin"]);
    }

    #[test]
    fn names_are_checked_before_they_touch_the_file_system() {
        for good in ["base.en", "ct2-whisper_small", "A1"] {
            assert!(is_valid_name(good), "{good}");
        }
        for bad in ["", "..", ".hidden", "-x", "a/b", "a\\b", "a b", "é", &"x".repeat(101)] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn ggml_magic_is_little_endian_ggml() {
        assert!(is_ggml_file(b"lmgg\x00\x01"));
        assert!(is_ggml_file(&GGML_MAGIC.to_le_bytes()));
        assert!(!is_ggml_file(b"GGUF\x03\x00"));
        assert!(!is_ggml_file(b"lmg"));
        assert!(!is_ggml_file(b""));
    }

    #[test]
    fn verification_checks_every_checksum_an_entry_has() {
        let folder = tempfile::tempdir().expect("temp");
        let path = folder.path().join("model.bin");
        std::fs::write(&path, b"abc").expect("write");
        // Well-known digests of "abc".
        let sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let sha1 = "a9993e364706816aba3e25717850c26c9cd0d89d";
        let mut entry = ENTRIES[0].clone();
        entry.sha256 = Some(sha256);
        entry.sha1 = Some(sha1);
        assert!(verify_file(&entry, &path).is_ok());
        entry.sha1 = Some("0000000000000000000000000000000000000000");
        let error = verify_file(&entry, &path).expect_err("sha1 mismatch");
        assert!(error.to_string().contains("SHA-1"), "{error}");
        entry.sha1 = None;
        assert!(verify_file(&entry, &path).is_ok(), "sha256 alone");
        entry.sha256 = Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ae");
        let error = verify_file(&entry, &path).expect_err("sha256 mismatch");
        assert!(error.to_string().contains("SHA-256"), "{error}");
        entry.sha256 = None;
        assert!(matches!(verify_file(&entry, &path), Err(ChecksumError::NoChecksum { .. })));
        assert!(entry.url_with_base(Some("http://127.0.0.1:9/m/")).ends_with("/m/ggml-tiny.bin"));
    }
}
