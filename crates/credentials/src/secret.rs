//! [`Secret`]: a key that does not show itself in `Debug` output.

use serde::{Deserialize, Serialize};

/// An API key. `Debug` (and so any `{:?}` in a log line or an error) never
/// shows it; the only way to the text is [`Secret::expose`].
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The key itself. Call only where it is needed (sending it to the provider).
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let secret = Secret::new("sk-very-secret");
        let shown = format!("{secret:?} {:?}", Some(&secret));
        assert!(!shown.contains("sk-very-secret"), "{shown}");
        assert_eq!(secret.expose(), "sk-very-secret");
    }
}
