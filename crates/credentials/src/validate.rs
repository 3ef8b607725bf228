//! Rules for provider names and keys. Errors name the rule, never the input.

use crate::{CredentialError, Secret};

pub const MAX_PROVIDER_LEN: usize = 40;
pub const MAX_KEY_CHARS: usize = 4096;

/// Provider names are `[a-z_]{1,40}`: they become part of a keyring user name
/// and a JSON key, so nothing that needs quoting or escaping anywhere.
pub fn provider(name: &str) -> Result<(), CredentialError> {
    let rule = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > MAX_PROVIDER_LEN {
        Some("it is longer than 40 characters")
    } else if !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
        Some("only lowercase letters a-z and '_' are allowed")
    } else {
        None
    };
    match rule {
        Some(rule) => Err(CredentialError::InvalidProvider { rule }),
        None => Ok(()),
    }
}

/// Trims surrounding whitespace, then checks 1..=4096 characters with no
/// control characters or line breaks.
pub fn key(key: &str) -> Result<Secret, CredentialError> {
    let key = key.trim();
    let rule = if key.is_empty() {
        Some("it is empty")
    } else if key.chars().count() > MAX_KEY_CHARS {
        Some("it is longer than 4096 characters")
    } else if key.chars().any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}') {
        Some("it contains a control character or a line break")
    } else {
        None
    };
    match rule {
        Some(rule) => Err(CredentialError::InvalidKey { rule }),
        None => Ok(Secret::new(key)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_names() {
        for good in ["openai", "anthropic", "open_router", "_", &"a".repeat(40)] {
            assert!(provider(good).is_ok(), "{good}");
        }
        for bad in ["", "OpenAI", "open-ai", "open ai", "openai1", "ключ", &"a".repeat(41)] {
            assert!(matches!(provider(bad), Err(CredentialError::InvalidProvider { .. })), "{bad}");
        }
    }

    #[test]
    fn keys_are_trimmed_and_checked() {
        assert_eq!(key("  sk-abc \n").expect("valid").expose(), "sk-abc");
        assert_eq!(key(&"é".repeat(4096)).expect("4096 chars").expose().chars().count(), 4096);
        let cases = [
            ("", "empty"),
            (" \t\n ", "empty"),
            (&*"k".repeat(4097), "longer than 4096"),
            ("sk-a\nb", "line break"),
            ("sk-a\rb", "control"),
            ("sk-a\u{0}b", "control"),
            ("sk-a\u{7f}b", "control"),
            ("sk-a\u{2028}b", "line break"),
        ];
        for (input, rule) in cases {
            match key(input) {
                Err(error @ CredentialError::InvalidKey { .. }) => {
                    assert!(error.to_string().contains(rule), "{input:?}: {error}")
                }
                other => panic!("{input:?}: expected InvalidKey, got {other:?}"),
            }
        }
    }
}
