//! A question about meetings, answered by the notes provider from the passages
//! search found: only those passages are sent, each numbered, and the model is
//! told to answer from them alone and to name the passages it used.

use recorder_egress::{Egress, Verdict};

use crate::prompt::Chat;
use crate::wire::Server;
use crate::{AiError, ProviderConfig};

const SYSTEM: &str = "You answer questions about the user's meetings using only the \
numbered passages given, which are transcript excerpts and notes. Answer briefly, in the \
language of the question, and cite the passages you used as [1], [2]. If the passages do \
not answer the question, say so; never invent names, dates or facts.";

/// One passage as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passage {
    /// e.g. `Office move, 12 May 2026, 04:10`.
    pub heading: String,
    /// `Speaker: text` lines.
    pub text: String,
}

/// The user message: the numbered passages, then the question.
fn chat(question: &str, passages: &[Passage]) -> Chat {
    let mut user = String::from("Passages:\n");
    for (i, passage) in passages.iter().enumerate() {
        user.push_str(&format!("\n[{}] {}\n{}\n", i + 1, passage.heading, passage.text));
    }
    user.push_str(&format!("\nQuestion: {question}"));
    Chat { system: SYSTEM.into(), user, json: false, schema: None }
}

/// The provider's answer to `question` from `passages`, streamed: each piece
/// of text goes to `deltas` as the server writes it; the whole answer is
/// returned. Recorded in the Privacy Ledger with the purpose `ask`.
pub async fn ask(
    egress: &Egress,
    config: &ProviderConfig,
    verdict: Verdict,
    question: &str,
    passages: &[Passage],
    deltas: tokio::sync::mpsc::UnboundedSender<String>,
) -> Result<String, AiError> {
    let server = Server::new(egress, config, verdict).for_purpose("ask");
    let answer = server.ask_streamed(&chat(question, passages), deltas).await?;
    let answer = answer.trim();
    if answer.is_empty() {
        return Err(AiError::Unusable("the server answered with no text".into()));
    }
    Ok(answer.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_follows_the_numbered_passages() {
        let passages = [
            Passage { heading: "Office, 04:10".into(), text: "Dana: we move in May".into() },
            Passage { heading: "Budget, 00:30".into(), text: "Sam: fine".into() },
        ];
        let chat = chat("When do we move?", &passages);
        assert!(chat.system.contains("only the numbered passages"));
        let expected = "Passages:\n\n[1] Office, 04:10\nDana: we move in May\n\n[2] Budget, 00:30\nSam: fine\n\nQuestion: When do we move?";
        assert_eq!(chat.user, expected);
        assert!(!chat.json);
    }
}
