//! Notes from the model inside (`recorder-llm`, see the `recorder-llm` crate):
//! nothing is sent anywhere, so no egress and no ledger entry. After a
//! transcription the four notes come from one JSON answer per transcript part
//! (held to a JSON schema by llama.cpp's grammar, so they always parse); one
//! note asked for alone goes through the same prompts as a server's.

use recorder_domain::NoteKind;
use recorder_llm::protocol::{Message, Request};
use recorder_llm::worker::{Launch, LlmError, Worker, WorkerHandle};
use recorder_notes::{ActionItemDraft, Context, Generated, Line};
use serde_json::Value;
use tokio::sync::Mutex;

use crate::pipeline::{self, Model};
use crate::prompt::{self, Chat};
use crate::{actions, chunk, AiError, NotesRequest};

/// The longest answer, in tokens: room for the largest answer the notes'
/// schema allows (an answer cut short would not parse).
const MAX_ANSWER: u32 = 1536;
/// Tokens the instructions and the meeting's particulars take.
const PROMPT_TOKENS: u32 = 700;
/// Characters of transcript per token, counted low (timestamps and names are short tokens).
const CHARS_PER_TOKEN: u32 = 3;
const NO_DECISIONS: &str = "_No decisions were recorded._";

/// Where a run is: the part of the transcript and the worker's own counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// 1-based; `parts + 1` is the merge of the summaries.
    pub part: usize,
    pub parts: usize,
    pub prompt_tokens: u32,
    pub read: u32,
    pub generated: u32,
}

impl Step {
    /// The share of the run done, 0 to 99.
    pub fn percent(&self) -> u32 {
        let parts = self.parts.max(1) as f64;
        let within = if self.prompt_tokens == 0 {
            0.0
        } else {
            0.7 * f64::from(self.read) / f64::from(self.prompt_tokens)
                + 0.3 * (f64::from(self.generated) / 400.0).min(1.0)
        };
        let done = ((self.part.saturating_sub(1)) as f64 + within) / parts;
        (done * 100.0).clamp(0.0, 99.0) as u32
    }
}

type OnStep = Box<dyn Fn(Step) + Send + Sync>;

/// The worker's confinement in the log (Settings → Diagnostics): a warning
/// when it runs with the person's full rights, or with part of them.
fn log_confinement(confinement: &str) {
    if confinement.starts_with("confined:") {
        tracing::info!("the notes model's worker is {confinement}");
    } else if confinement.is_empty() {
        tracing::warn!("the notes model's worker did not say whether it is confined");
    } else {
        tracing::warn!("the notes model's worker is {confinement}");
    }
}

/// A loaded model, ready to write notes.
pub struct Embedded {
    worker: Mutex<Worker>,
    handle: WorkerHandle,
    budget: usize,
    on_step: OnStep,
    part: std::sync::Mutex<(usize, usize)>,
}

impl Embedded {
    /// Starts the worker and loads the model; `on_step` hears the progress.
    pub async fn start(launch: &Launch, on_step: OnStep) -> Result<Embedded, AiError> {
        let worker = Worker::start(launch).await.map_err(unreachable)?;
        log_confinement(&worker.info().confinement);
        let room = worker.info().context.saturating_sub(MAX_ANSWER + PROMPT_TOKENS).max(256);
        let budget = (room * CHARS_PER_TOKEN) as usize;
        let handle = worker.handle();
        let part = std::sync::Mutex::new((1, 1));
        Ok(Embedded { worker: Mutex::new(worker), handle, budget, on_step, part })
    }

    /// Pauses, resumes and measures the worker.
    pub fn handle(&self) -> WorkerHandle {
        self.handle
    }

    /// Ends the worker (its memory goes back to the system).
    pub async fn stop(self) {
        self.worker.into_inner().stop().await;
    }

    fn at(&self, part: usize, parts: usize) {
        if let Ok(mut at) = self.part.lock() {
            *at = (part, parts);
        }
    }

    async fn complete(&self, chat: &Chat) -> Result<String, AiError> {
        let request = Request {
            messages: vec![
                Message { role: "system".into(), content: chat.system.clone() },
                Message { role: "user".into(), content: chat.user.clone() },
            ],
            json_schema: chat.schema.map(str::to_string),
            max_tokens: MAX_ANSWER,
        };
        let (part, parts) = self.part.lock().map(|at| *at).unwrap_or((1, 1));
        let mut worker = self.worker.lock().await;
        let finished = worker
            .complete(&request, |prompt_tokens, read, generated| {
                (self.on_step)(Step { part, parts, prompt_tokens, read, generated })
            })
            .await
            .map_err(|error| match error {
                LlmError::Request(message) => AiError::Unusable(message),
                other => unreachable(other),
            })?;
        tracing::info!(
            prompt_tokens = finished.prompt_tokens,
            generated = finished.generated_tokens,
            prompt_ms = finished.prompt_ms,
            generate_ms = finished.generate_ms,
            truncated = finished.truncated,
            "notes model answered"
        );
        Ok(finished.text)
    }
}

fn unreachable(error: LlmError) -> AiError {
    AiError::Unreachable(error.to_string())
}

impl Model for Embedded {
    async fn ask(&self, chat: &Chat) -> Result<String, AiError> {
        self.complete(chat).await
    }
}

/// One note of `request.kind` (a regeneration, or a custom template).
pub async fn generate(model: &Embedded, request: &NotesRequest<'_>) -> Result<Generated, AiError> {
    pipeline::run(model, request, model.budget).await
}

/// Each note of [`all_notes`]: the model's, or why it was unusable (the
/// built-in engine then writes that one).
pub type Written = Vec<(NoteKind, Result<Generated, AiError>)>;

/// Summary, key points, decisions and action items, in that order. Err when the
/// model could not answer at all.
pub async fn all_notes(
    model: &Embedded,
    lines: &[Line],
    context: &Context,
) -> Result<Written, AiError> {
    let transcript = prompt::transcript(lines);
    if transcript.is_empty() {
        let kinds = [NoteKind::Summary, NoteKind::KeyPoints, NoteKind::Decisions];
        let mut notes: Written = kinds
            .into_iter()
            .map(|kind| (kind, Ok(recorder_notes::generate(kind, lines, context))))
            .collect();
        let items = recorder_notes::generate(NoteKind::ActionItems, lines, context);
        notes.push((NoteKind::ActionItems, Ok(items)));
        return Ok(notes);
    }
    let chunks = chunk::split(&transcript, model.budget);
    let mut parts = Vec::with_capacity(chunks.len());
    for (at, text) in chunks.iter().enumerate() {
        model.at(at + 1, chunks.len());
        let chat = prompt::structured(context, text, (at + 1, chunks.len()));
        parts.push(read_notes(&model.complete(&chat).await?)?);
    }
    let summary = if parts.len() == 1 {
        parts[0].summary.clone()
    } else {
        model.at(chunks.len() + 1, chunks.len() + 1);
        let summaries: Vec<String> = parts.iter().map(|part| part.summary.clone()).collect();
        let answer = model.complete(&prompt::merge_summaries(context, &summaries)).await?;
        read_summary(&answer)?
    };
    Ok(render(summary, parts, &known_names(lines, context)))
}

/// Who an action item may be for: the speakers, the attendees, the user.
fn known_names(lines: &[Line], context: &Context) -> Vec<String> {
    let speakers = lines.iter().map(|line| line.speaker.trim().to_string());
    let mut names: Vec<String> = speakers
        .chain(context.attendees.iter().cloned())
        .chain(std::iter::once(context.user_name.clone()))
        .filter(|name| !name.is_empty())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The notes of one part, as the model wrote them.
#[derive(Debug, Default, PartialEq, Eq)]
struct PartNotes {
    summary: String,
    key_points: Vec<String>,
    decisions: Vec<String>,
    action_items: Vec<ActionItemDraft>,
}

fn read_notes(answer: &str) -> Result<PartNotes, AiError> {
    let value: Value = serde_json::from_str(answer.trim())
        .map_err(|error| AiError::Unusable(format!("the notes model's JSON: {error}")))?;
    let strings = |key: &str| -> Vec<String> {
        let list = value.get(key).and_then(Value::as_array);
        list.into_iter().flatten().filter_map(Value::as_str).filter_map(tidy).collect()
    };
    let summary = value.get("summary").and_then(Value::as_str).and_then(tidy).unwrap_or_default();
    let items = value.get("action_items").map(Value::to_string).unwrap_or_default();
    let action_items = actions::parse(&format!("{{\"action_items\":{items}}}")).unwrap_or_default();
    let notes = PartNotes {
        summary,
        key_points: strings("key_points"),
        decisions: strings("decisions"),
        action_items,
    };
    if notes.summary.is_empty() && notes.key_points.is_empty() {
        return Err(AiError::Unusable("the notes model wrote an empty summary".into()));
    }
    Ok(notes)
}

fn read_summary(answer: &str) -> Result<String, AiError> {
    let value: Value = serde_json::from_str(answer.trim())
        .map_err(|error| AiError::Unusable(format!("the notes model's JSON: {error}")))?;
    value
        .get("summary")
        .and_then(Value::as_str)
        .and_then(tidy)
        .ok_or_else(|| AiError::Unusable("the notes model wrote an empty summary".into()))
}

/// One line of model text: spacing collapsed; None when empty.
fn tidy(text: &str) -> Option<String> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// The four notes as Markdown, the lists of the parts merged without repeats;
/// a note that says nothing usable is an error of its own.
fn render(summary: String, parts: Vec<PartNotes>, names: &[String]) -> Written {
    let mut key_points = Vec::new();
    let mut decisions = Vec::new();
    let mut items = Vec::new();
    for part in parts {
        key_points.extend(part.key_points.into_iter().filter(|point| sentence(point, 3)));
        decisions.extend(part.decisions.into_iter().filter(|decision| sentence(decision, 2)));
        items.push(part.action_items);
    }
    let items: Vec<ActionItemDraft> = actions::merge(items)
        .into_iter()
        .filter(|item| sentence(&item.text, 2))
        .map(|item| ActionItemDraft { owner: owner(&item.owner, names), ..item })
        .collect();
    let note = |content_md: String| Ok(Generated { content_md, action_items: None });
    let unusable = |what: &str| Err(AiError::Unusable(format!("the notes model wrote {what}")));
    let decisions = match bullets(decisions) {
        text if text.is_empty() => NO_DECISIONS.to_string(),
        text => text,
    };
    let summary = if sentence(&summary, 5) { note(summary) } else { unusable("no usable summary") };
    let key_points = match bullets(key_points) {
        text if text.is_empty() => unusable("no key points"),
        text => note(text),
    };
    let items = Generated { content_md: actions::checklist(&items), action_items: Some(items) };
    vec![
        (NoteKind::Summary, summary),
        (NoteKind::KeyPoints, key_points),
        (NoteKind::Decisions, note(decisions)),
        (NoteKind::ActionItems, Ok(items)),
    ]
}

/// Text with at least `words` words, mostly letters: not `{0:25}Me`.
fn sentence(text: &str, words: usize) -> bool {
    let counted = text.split_whitespace().filter(|w| w.chars().any(char::is_alphabetic)).count();
    let letters = text.chars().filter(|c| c.is_alphabetic() || c.is_whitespace()).count();
    counted >= words && letters * 10 >= text.chars().count() * 7
}

/// The owner as a known name (matched whole, case aside), else "Everyone".
fn owner(said: &str, names: &[String]) -> String {
    let said = said.trim();
    let known = names.iter().find(|name| name.eq_ignore_ascii_case(said));
    match known {
        Some(name) => name.clone(),
        None if said.eq_ignore_ascii_case("them") => "Them".to_string(),
        None => "Everyone".to_string(),
    }
}

/// `- item` lines, each item once (case and spacing aside).
fn bullets(items: Vec<String>) -> String {
    let mut seen = std::collections::HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.to_lowercase()))
        .map(|item| format!("- {item}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_structured_answer_becomes_four_notes() {
        let answer = r#"{"summary":"  The team  planned the offsite.","key_points":["Budget is 12% under","Budget is 12% under"],"decisions":[],"action_items":[{"text":"Send a proposal by Friday","owner":"Sam"},{"text":"","owner":"x"}]}"#;
        let names = ["Sam".to_string()];
        let parts = vec![read_notes(answer).expect("notes")];
        let notes = render("The team planned the offsite.".into(), parts, &names);
        let texts: Vec<&str> = notes
            .iter()
            .map(|(_, note)| note.as_ref().expect("usable").content_md.as_str())
            .collect();
        assert_eq!(
            texts,
            [
                "The team planned the offsite.",
                "- Budget is 12% under",
                NO_DECISIONS,
                "- [ ] Send a proposal by Friday (Sam)"
            ]
        );
        let items = notes[3].1.as_ref().expect("items").action_items.as_ref().expect("items");
        assert_eq!(items.len(), 1);
    }

    #[test]
    fn notes_that_say_nothing_are_refused_one_by_one() {
        let answer = r#"{"summary":"{0:25}Me","key_points":["ok"],"decisions":["Ship it on Monday"],"action_items":[{"text":"Send the deck","owner":"Theme: Please send"},{"text":"Call the client","owner":"sam"}]}"#;
        let names = ["Sam".to_string(), "Me".to_string()];
        let notes = render("{0:25}Me".into(), vec![read_notes(answer).expect("notes")], &names);
        assert!(matches!(notes[0].1, Err(AiError::Unusable(_))), "{:?}", notes[0]);
        assert!(matches!(notes[1].1, Err(AiError::Unusable(_))), "{:?}", notes[1]);
        assert_eq!(notes[2].1.as_ref().expect("decisions").content_md, "- Ship it on Monday");
        let items = notes[3].1.as_ref().expect("items").action_items.clone().expect("items");
        let owners: Vec<&str> = items.iter().map(|item| item.owner.as_str()).collect();
        assert_eq!(owners, ["Everyone", "Sam"]);
    }

    #[test]
    fn answers_that_say_nothing_are_unusable() {
        for answer in ["not json", r#"{"summary":" ","key_points":[]}"#, "[]"] {
            assert!(matches!(read_notes(answer), Err(AiError::Unusable(_))), "{answer}");
        }
        assert!(read_summary(r#"{"summary":""}"#).is_err());
        assert_eq!(read_summary(r#"{"summary":"All of it."}"#), Ok("All of it.".into()));
    }

    #[test]
    fn progress_counts_parts_and_tokens() {
        let step =
            |part, read, generated| Step { part, parts: 2, prompt_tokens: 100, read, generated };
        assert_eq!(step(1, 0, 0).percent(), 0);
        assert_eq!(step(1, 100, 0).percent(), 35);
        assert_eq!(step(2, 100, 400).percent(), 99);
        assert!(step(2, 50, 0).percent() > step(1, 100, 400).percent());
    }

    #[test]
    fn the_schemas_are_json() {
        for schema in [prompt::NOTES_SCHEMA, prompt::ACTION_ITEMS_SCHEMA] {
            serde_json::from_str::<Value>(schema).expect("a schema is JSON");
        }
    }
}
