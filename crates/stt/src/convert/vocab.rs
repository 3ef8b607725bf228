//! The tokenizer's vocabulary as whisper.cpp wants it: raw bytes per token, in
//! rank order, up to (not including) `<|endoftext|>`; whisper.cpp adds the
//! special tokens itself. CTranslate2 stores tokens in GPT-2's byte-to-unicode
//! encoding (`vocabulary.txt`, one per line, or `vocabulary.json`, a list).

use std::collections::HashMap;
use std::path::Path;

use super::ConvertError;

const END_OF_TEXT: &str = "<|endoftext|>";

/// Reads `vocabulary.txt` or `vocabulary.json` from one of `folders`.
pub fn read_tokens(folders: &[&Path]) -> Result<Vec<Vec<u8>>, ConvertError> {
    for folder in folders {
        let text = folder.join("vocabulary.txt");
        if text.is_file() {
            let content = std::fs::read_to_string(&text)?;
            return decode_all(content.lines().map(str::to_owned).collect());
        }
        let json = folder.join("vocabulary.json");
        if json.is_file() {
            let content = std::fs::read_to_string(&json)?;
            let tokens: Vec<String> = serde_json::from_str(&content)
                .map_err(|e| ConvertError::Format(format!("vocabulary.json: {e}")))?;
            return decode_all(tokens);
        }
    }
    Err(ConvertError::Format("no vocabulary.txt or vocabulary.json beside model.bin".into()))
}

fn decode_all(tokens: Vec<String>) -> Result<Vec<Vec<u8>>, ConvertError> {
    let end = tokens
        .iter()
        .position(|token| token == END_OF_TEXT)
        .ok_or_else(|| ConvertError::Format("the vocabulary has no <|endoftext|> token".into()))?;
    let table = unicode_to_byte();
    tokens[..end].iter().map(|token| decode(token, &table)).collect()
}

fn decode(token: &str, table: &HashMap<char, u8>) -> Result<Vec<u8>, ConvertError> {
    token
        .chars()
        .map(|c| {
            table.get(&c).copied().ok_or_else(|| {
                ConvertError::Format(format!("token {token:?} is not GPT-2 byte-encoded"))
            })
        })
        .collect()
}

/// The inverse of GPT-2's `bytes_to_unicode`: printable bytes map to
/// themselves, the others to U+0100 onwards in byte order.
fn unicode_to_byte() -> HashMap<char, u8> {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    let mut table = HashMap::with_capacity(256);
    let mut next = 0u32;
    for byte in 0..=255u8 {
        let code = if printable(byte) {
            u32::from(byte)
        } else {
            next += 1;
            255 + next
        };
        if let Some(c) = char::from_u32(code) {
            table.insert(c, byte);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_gpt2_byte_encoding() {
        let table = unicode_to_byte();
        assert_eq!(table.len(), 256);
        assert_eq!(decode("Ġhello", &table).ok(), Some(b" hello".to_vec()));
        assert_eq!(decode("Ċ", &table).ok(), Some(b"\n".to_vec()));
        // "é" in UTF-8 is C3 A9, encoded by GPT-2 as "Ã©".
        assert_eq!(decode("Ã©", &table).ok(), Some("é".as_bytes().to_vec()));
    }

    #[test]
    fn stops_before_end_of_text() {
        let tokens = ["a", "Ġb", END_OF_TEXT, "<|startoftranscript|>"].map(String::from).to_vec();
        assert_eq!(decode_all(tokens).ok(), Some(vec![b"a".to_vec(), b" b".to_vec()]));
    }
}
