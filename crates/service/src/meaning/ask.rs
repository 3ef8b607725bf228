//! `POST /v1/ask`: a question answered from the meetings. Meetings not
//! embedded yet are embedded first (within a bound; the rest are searched by
//! words); the lines holding the question's words and the passages nearest it
//! in meaning are fused and cut around their best lines (`gather`). Those that
//! pass the relevance floor go to the notes provider the person chose, under
//! the same policy, keys and ledger as notes; with the built-in engine, or
//! when the provider cannot answer, the answer is their best lines. When none
//! passes, the closest lines are shown under a plain notice. Every answer
//! comes with the lines it comes from.

use recorder_api_types::{AskAnswer, AskRequest, Citation};
use recorder_domain::MeetingStatus;
use recorder_egress::Verdict;
use recorder_embed::index::Scope;
use recorder_store::Store;

use crate::base::error::{ApiError, ApiResult};
use crate::meaning::answer;
use crate::meaning::background::embed_now;
use crate::meaning::gather::{self, Answerable, Gathered, Question};
use crate::meaning::pending;
use crate::meaning::retrieve::{self, Found};
use crate::pipeline::provider::{self, Refusal};
use crate::state::AppState;

/// Longest question, in characters.
pub const MAX_QUESTION: usize = 2_000;
/// Passages a provider is given.
const GIVEN: usize = 6;
/// Passages taken by meaning, to be fused with the lines found by words.
const BY_MEANING: usize = 24;

/// What retrieval found.
struct Retrieved {
    gathered: Gathered,
    /// Meetings in scope searched by their words alone (not embedded yet).
    by_words_only: usize,
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
    let Retrieved { gathered, by_words_only } = retrieved;
    let user_name = state.effective_settings().general.user_name;
    let (text, citations, fallback, closest) = if gathered.answering.is_empty() {
        let (text, citations) = answer::closest(&gathered.closest, &user_name);
        let closest = !citations.is_empty();
        (text, citations, None, closest)
    } else {
        let asked = provider_answer(state, &question, &gathered.answering, &user_name, steps).await;
        let fallback = match asked {
            Ok(Some(mut answered)) => {
                answered.by_words_only = by_words_only;
                return Ok(answered);
            }
            Ok(None) => None,
            Err(reason) => Some(reason),
        };
        let (text, citations) = answer::builtin(&gathered.answering, &user_name);
        (text, citations, fallback, false)
    };
    let _ = steps.send(Step::Citations { citations: citations.clone() });
    for line in text.lines() {
        let _ = steps.send(Step::Delta { text: format!("{line}\n") });
    }
    Ok(AskAnswer {
        answer: text,
        citations,
        provider: "builtin".into(),
        fallback,
        closest,
        by_words_only,
    })
}

async fn retrieve_for(
    state: &AppState,
    question: &str,
    request: &AskRequest,
) -> ApiResult<Retrieved> {
    let (state, question, request) = (state.clone(), question.to_string(), request.clone());
    tokio::task::spawn_blocking(move || retrieve_blocking(&state, &question, &request))
        .await
        .map_err(|e| ApiError::internal("searching by meaning", e))?
}

fn retrieve_blocking(
    state: &AppState,
    question: &str,
    request: &AskRequest,
) -> ApiResult<Retrieved> {
    let store = &state.core.store;
    let meeting = match &request.meeting_id {
        Some(id) => {
            Some(store.embedding_source(id).map_err(|e| ApiError::from_store("meeting", e))?)
        }
        None => None,
    };
    let scope =
        Scope { meeting: meeting.as_ref().map(|m| m.meeting), from: request.from, to: request.to };
    let embedder = state.models.meaning.embedder();
    let mut by_words_only = 0;
    let mut vector = None;
    let mut by_meaning = Vec::new();
    if let Some(embedder) = &embedder {
        let embedded = embedder.embed(&[question]).remove(0);
        by_meaning = match meeting {
            Some(source) => one_meeting(state, embedder, source, &embedded)?,
            None => {
                by_words_only = pending::embed_first(state, embedder, request.from, request.to)
                    .map_err(|e| ApiError::from_store("search by meaning", e))?;
                nearest(state, &embedded, scope)?
            }
        };
        vector = Some(embedded);
    }
    let asked = Question {
        text: question,
        vector: vector.as_deref(),
        embedder: embedder.as_deref(),
        scope,
        meeting: request.meeting_id.as_ref(),
        floor: state.core.environment.ask_floor(gather::FLOOR),
    };
    let gathered =
        gather::gather(store, &asked, by_meaning).map_err(|e| ApiError::from_store("search", e))?;
    Ok(Retrieved { gathered, by_words_only })
}

fn nearest(state: &AppState, question: &[f32], scope: Scope) -> ApiResult<Vec<Found>> {
    retrieve::nearest(&state.core.store, &state.models.meaning, question, scope, BY_MEANING)
        .map_err(|e| ApiError::from_store("search by meaning", e))
}

/// One meeting's passages nearest the question: embedded and kept first when
/// it is ready but not embedded yet; embedded on the spot, not kept, while it
/// is still recorded or transcribed.
fn one_meeting(
    state: &AppState,
    embedder: &recorder_embed::Embedder,
    source: recorder_store::EmbeddingSource,
    question: &[f32],
) -> ApiResult<Vec<Found>> {
    let store: &Store = &state.core.store;
    let record =
        store.meeting(&source.meeting_id).map_err(|e| ApiError::from_store("meeting", e))?;
    let scope = Scope { meeting: Some(source.meeting), from: None, to: None };
    if !source.dirty {
        return nearest(state, question, scope);
    }
    if record.status == MeetingStatus::Ready {
        embed_now(state, embedder, source, || state.core.shutdown.is_cancelled());
        state
            .models
            .meaning
            .catch_up(store)
            .map_err(|e| ApiError::from_store("search by meaning", e))?;
        return nearest(state, question, scope);
    }
    Ok(retrieve::within_unembedded(
        &source,
        &record.title,
        record.started_at,
        embedder,
        question,
        BY_MEANING,
    ))
}

/// The chosen provider's answer from the passages that answer: `Ok(None)`
/// when the built-in engine is the choice, `Err` with the reason it stood in.
async fn provider_answer(
    state: &AppState,
    question: &str,
    answering: &[Answerable],
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
    let given: Vec<&Answerable> = answering.iter().take(GIVEN).collect();
    let passages: Vec<recorder_ai::ask::Passage> =
        given.iter().map(|a| answer::given(a, user_name)).collect();
    let verdict = match &choice.refusal {
        None => Verdict::Allow,
        Some(Refusal::Policy(reason)) => Verdict::Block(reason.clone()),
        Some(Refusal::Unusable(reason)) => return Err(reason.clone()),
    };
    let citations: Vec<Citation> = given.iter().map(|a| answer::citation(a, user_name)).collect();
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
            closest: false,
            by_words_only: 0,
        })),
        Err(error) => Err(error.reason().to_string()),
    }
}
