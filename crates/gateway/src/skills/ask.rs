//! The ask skill (MCP `ask_meetings`, A2A `ask`): a question answered from the
//! meetings by the service (`POST /v1/ask`), with the lines the answer comes from.

use recorder_api_types as api;
use recorder_client::{Client, ClientError};
use recorder_domain::MeetingId;
use serde_json::json;

use super::args::{Ask, Moment};
use super::meetings::resolve;
use super::text::{clock, moment_ms, quoted};
use super::{Answer, Skill, SkillError, SkillResult, Timestamp, Used};

pub async fn ask(client: &Client, args: Ask) -> SkillResult {
    let request = api::AskRequest {
        question: args.question.trim().to_string(),
        meeting_id: match &args.meeting_id {
            Some(id) => Some(meeting(client, id).await?),
            None => None,
        },
        from: millis("from", args.from.as_ref())?,
        to: millis("to", args.to.as_ref())?,
    };
    let reply = client.ask(&request).await.map_err(|e| match e {
        ClientError::Api { status: 404, .. } => unknown_meeting(args.meeting_id.as_deref()),
        other => SkillError::from_client("Cannot answer the question", other),
    })?;
    let mut used = Used::default();
    if let Some(id) = &request.meeting_id {
        used.meeting(id);
    }
    for citation in &reply.citations {
        used.moment(Timestamp {
            meeting_id: citation.meeting_id.to_string(),
            start_ms: Some(citation.start_ms),
            end_ms: Some(citation.end_ms),
            started_at: None,
        });
    }
    Ok(Answer {
        skill: Skill::Ask,
        text: answer_text(&reply),
        result: json!({
            "question": request.question,
            "answer": reply.answer,
            "citations": reply.citations,
            "provider": reply.provider,
            "fallback": reply.fallback,
        }),
        used,
    })
}

/// The meeting named by `id` (`latest` is the newest), as the service's id.
async fn meeting(client: &Client, id: &str) -> Result<MeetingId, SkillError> {
    let resolved = resolve(client, id).await?;
    MeetingId::parse(&resolved).ok_or_else(|| unknown_meeting(Some(id)))
}

fn unknown_meeting(id: Option<&str>) -> SkillError {
    SkillError::NotFound(format!(
        "There is no meeting with id {}; list_meetings or search_meetings give the ids.",
        id.unwrap_or("given")
    ))
}

fn millis(name: &str, moment: Option<&Moment>) -> Result<Option<i64>, SkillError> {
    moment
        .map(|moment| {
            moment_ms(moment)
                .map_err(|e| SkillError::InvalidArguments(format!("ask: `{name}`: {e}")))
        })
        .transpose()
}

/// The answer, then each citation: title, moment, speaker and the words said.
pub fn answer_text(reply: &api::AskAnswer) -> String {
    let mut text = reply.answer.trim().to_string();
    if reply.citations.is_empty() {
        return text;
    }
    text.push_str("\n\nSources:");
    for (index, citation) in reply.citations.iter().enumerate() {
        text.push_str(&format!(
            "\n{}. **{}** [{}] {}: {}\n   meeting_id: {}",
            index + 1,
            citation.title,
            clock(citation.at_ms.unwrap_or(citation.start_ms)),
            citation.speaker,
            quoted(citation.text.trim()),
            citation.meeting_id
        ));
    }
    if let Some(reason) = &reply.fallback {
        text.push_str(&format!(
            "\n\n(The notes provider could not answer, so these are the lines themselves: {reason}.)"
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(citations: Vec<api::Citation>) -> api::AskAnswer {
        api::AskAnswer {
            answer: "We will add a replica.".into(),
            citations,
            provider: "builtin".into(),
            fallback: None,
            closest: false,
            by_words_only: 0,
        }
    }

    #[test]
    fn the_answer_comes_first_then_each_citation() {
        let citation = api::Citation {
            meeting_id: MeetingId::from("0194f2d3-5e6a-7b8c-9d0e-1f2a3b4c5d6e".to_string()),
            title: "Incident review".into(),
            start_ms: 75_000,
            at_ms: None,
            end_ms: 80_000,
            speaker: "Dana".into(),
            text: "We will add a replica so it does not happen again.".into(),
        };
        let text = answer_text(&reply(vec![citation]));
        assert_eq!(
            text,
            "We will add a replica.\n\nSources:\n1. **Incident review** [01:15] Dana: \
             “We will add a replica so it does not happen again.”\n   \
             meeting_id: 0194f2d3-5e6a-7b8c-9d0e-1f2a3b4c5d6e"
        );
        assert_eq!(answer_text(&reply(vec![])), "We will add a replica.");
    }
}
