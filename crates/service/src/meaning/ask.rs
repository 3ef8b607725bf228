//! `POST /v1/ask`: a question answered from the meetings. The passages nearest
//! the question (by meaning when the model is installed, else the lines with
//! most of its words) go to the notes provider the person chose, under the
//! same policy, keys and ledger as notes; with the built-in engine, or when the
//! provider cannot answer, the answer is the best lines themselves. Every
//! answer comes with the lines it comes from.

use recorder_api_types::{AskAnswer, AskRequest, Citation};
use recorder_domain::text::clock;
use recorder_egress::Verdict;
use recorder_embed::index::Scope;
use recorder_store::{MeetingId, Store};

use crate::base::error::{ApiError, ApiResult};
use crate::meaning::answer::{self, NOTHING};
use crate::meaning::retrieve::{self, Found};
use crate::meaning::words;
use crate::pipeline::provider::{self, Refusal};
use crate::state::AppState;

/// Longest question, in characters.
pub const MAX_QUESTION: usize = 2_000;
/// Passages a provider is given.
const GIVEN: usize = 6;

/// What retrieval found, and the question's embedding when there is a model.
struct Retrieved {
    found: Vec<Found>,
    question: Option<Vec<f32>>,
    embedder: Option<std::sync::Arc<recorder_embed::Embedder>>,
}

/// What an answer is being written from: the question and what was found.
pub struct Prepared {
    question: String,
    retrieved: Retrieved,
}

/// A step of a streamed answer (`Accept: application/x-ndjson`), one JSON line each.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Step {
    /// What the answer is made from (a provider: the passages it was given).
    Citations { citations: Vec<Citation> },
    /// The next piece of the answer's text.
    Delta { text: String },
    /// The whole answer, as `POST /v1/ask` returns it.
    Done(AskAnswer),
    /// The answer failed after the stream began.
    Error { error: recorder_api_types::ErrorDetail },
}

/// The question checked and the passages found (errors here are the
/// request's: 400, 404).
pub async fn prepare(state: &AppState, request: AskRequest) -> ApiResult<Prepared> {
    let question = request.question.trim().to_string();
    if question.is_empty() {
        return Err(ApiError::invalid("`question` must not be empty"));
    }
    if question.chars().count() > MAX_QUESTION {
        return Err(ApiError::invalid(format!(
            "`question` must be at most {MAX_QUESTION} characters"
        )));
    }
    if let (Some(from), Some(to)) = (request.from, request.to) {
        if from >= to {
            return Err(ApiError::invalid("`from` must be before `to`"));
        }
    }
    let retrieved = retrieve_for(state, &question, &request).await?;
    Ok(Prepared { question, retrieved })
}

/// The answer, its steps sent to `steps` as they come (ignored when the
/// receiver is gone).
pub async fn answer(
    state: &AppState,
    prepared: Prepared,
    steps: &tokio::sync::mpsc::UnboundedSender<Step>,
) -> ApiResult<AskAnswer> {
    let Prepared { question, retrieved } = prepared;
    let user_name = state.effective_settings().general.user_name;
    let relevant: Vec<Found> =
        retrieved.found.into_iter().filter(|f| f.score >= answer::RELEVANT).collect();
    let fallback = match provider_answer(state, &question, &relevant, &user_name, steps).await {
        Ok(Some(answered)) => return Ok(answered),
        Ok(None) => None,
        Err(reason) => Some(reason),
    };
    let question_vector = retrieved.question.unwrap_or_default();
    let embedder = retrieved.embedder;
    let (text, citations) = tokio::task::spawn_blocking(move || {
        answer::builtin(&question_vector, &relevant, embedder.as_deref(), &user_name)
    })
    .await
    .map_err(|e| ApiError::internal("answering", e))?;
    let _ = steps.send(Step::Citations { citations: citations.clone() });
    for line in text.lines() {
        let _ = steps.send(Step::Delta { text: format!("{line}\n") });
    }
    Ok(AskAnswer { answer: text, citations, provider: "builtin".into(), fallback })
}

async fn retrieve_for(
    state: &AppState,
    question: &str,
    request: &AskRequest,
) -> ApiResult<Retrieved> {
    let (state, question, request) = (state.clone(), question.to_string(), request.clone());
    tokio::task::spawn_blocking(move || {
        let store = &state.core.store;
        let meeting = match &request.meeting_id {
            Some(id) => Some(meeting_scope(store, id)?),
            None => None,
        };
        let scope =
            Scope { meeting: meeting.as_ref().map(|m| m.0), from: request.from, to: request.to };
        let Some(embedder) = state.models.meaning.embedder() else {
            let found =
                words::lines_with_most_words(store, &question, scope, request.meeting_id.as_ref())
                    .map_err(|e| ApiError::from_store("search index", e))?;
            return Ok(Retrieved { found, question: None, embedder: None });
        };
        let vector = embedder.embed(&[question.as_str()]).remove(0);
        let found = match meeting {
            Some((_, Some(id))) => unembedded(store, &id, &embedder, &vector)?,
            _ => retrieve::nearest(store, &state.models.meaning, &vector, scope, GIVEN)
                .map_err(|e| ApiError::from_store("search by meaning", e))?,
        };
        Ok(Retrieved { found, question: Some(vector), embedder: Some(embedder) })
    })
    .await
    .map_err(|e| ApiError::internal("searching by meaning", e))?
}

/// The meeting's row number, and the meeting itself when its passages are
/// not embedded yet (a recording, or one just finished).
fn meeting_scope(store: &Store, id: &MeetingId) -> ApiResult<(i64, Option<MeetingId>)> {
    let source = store.embedding_source(id).map_err(|e| ApiError::from_store("meeting", e))?;
    Ok((source.meeting, source.dirty.then(|| id.clone())))
}

fn unembedded(
    store: &Store,
    id: &MeetingId,
    embedder: &recorder_embed::Embedder,
    question: &[f32],
) -> ApiResult<Vec<Found>> {
    let meeting = store.meeting(id).map_err(|e| ApiError::from_store("meeting", e))?;
    let source = store.embedding_source(id).map_err(|e| ApiError::from_store("meeting", e))?;
    Ok(retrieve::within_unembedded(
        &source,
        &meeting.title,
        meeting.started_at,
        embedder,
        question,
        GIVEN,
    ))
}

/// The chosen provider's answer: `Ok(None)` when the built-in engine is the
/// choice (or nothing was found), `Err` with the reason it stood in.
async fn provider_answer(
    state: &AppState,
    question: &str,
    found: &[Found],
    user_name: &str,
    steps: &tokio::sync::mpsc::UnboundedSender<Step>,
) -> Result<Option<AskAnswer>, String> {
    let runtime = tokio::runtime::Handle::current();
    let chooser = state.clone();
    let choice = tokio::task::spawn_blocking(move || provider::choose(&chooser, &runtime))
        .await
        .map_err(|_| "the provider could not be chosen".to_string())?;
    let Some(choice) = choice else {
        if state.config.settings.typed().ai.provider == "embedded" {
            return Err(
                "the notes model inside writes notes only; the built-in engine answers questions"
                    .into(),
            );
        }
        return Ok(None);
    };
    if found.is_empty() {
        return Ok(Some(AskAnswer {
            answer: NOTHING.into(),
            citations: Vec::new(),
            provider: choice.config.kind.as_str().into(),
            fallback: None,
        }));
    }
    let given: Vec<&Found> = found.iter().take(GIVEN).collect();
    let passages: Vec<recorder_ai::ask::Passage> = given
        .iter()
        .map(|f| recorder_ai::ask::Passage {
            heading: format!("{}, {}", f.record.meeting_title, clock(f.record.start_ms)),
            text: spoken(f, user_name),
        })
        .collect();
    let verdict = match &choice.refusal {
        None => Verdict::Allow,
        Some(Refusal::Policy(reason)) => Verdict::Block(reason.clone()),
        Some(Refusal::Unusable(reason)) => return Err(reason.clone()),
    };
    let citations: Vec<Citation> =
        given.iter().map(|f| answer::passage_citation(f, user_name)).collect();
    if verdict == Verdict::Allow {
        let _ = steps.send(Step::Citations { citations: citations.clone() });
    }
    let (deltas, mut arriving) = tokio::sync::mpsc::unbounded_channel::<String>();
    let forward = steps.clone();
    let relay = tokio::spawn(async move {
        while let Some(text) = arriving.recv().await {
            let _ = forward.send(Step::Delta { text });
        }
    });
    let egress = &state.core.egress;
    let asked =
        recorder_ai::ask::ask(egress, &choice.config, verdict, question, &passages, deltas).await;
    let _ = relay.await;
    match asked {
        Ok(text) => Ok(Some(AskAnswer {
            citations: answer::referenced(&text, citations),
            answer: text,
            provider: choice.config.kind.as_str().into(),
            fallback: None,
        })),
        Err(error) => Err(error.reason().to_string()),
    }
}

/// A passage as `Speaker: text` lines.
fn spoken(found: &Found, user_name: &str) -> String {
    match &found.record.content {
        recorder_store::PassageContent::Transcript(lines) => lines
            .iter()
            .map(|l| format!("{}: {}", l.speaker_name(user_name), l.text.trim()))
            .collect::<Vec<_>>()
            .join("\n"),
        recorder_store::PassageContent::Note { .. } => format!("Notes: {}", found.text()),
    }
}
