//! From transcript to note: one request for a transcript that fits the budget;
//! otherwise map (notes per chunk) and reduce (merge the partial notes, in groups
//! while they exceed the budget; action-item lists are merged without a request).
//! Action-item JSON that cannot be read gets one repair request.

use recorder_domain::NoteKind;
use recorder_notes::{ActionItemDraft, Generated};

use crate::prompt::{self, Chat};
use crate::{actions, chunk, AiError, NotesRequest};

/// Something that answers a chat: the real server, or a stand-in in tests.
pub(crate) trait Model {
    async fn ask(&self, chat: &Chat) -> Result<String, AiError>;

    /// Whether policy refuses every request (each is still sent to be recorded).
    fn refuses(&self) -> bool {
        false
    }
}

/// Generates the note with chunks of at most `budget` characters of transcript.
pub(crate) async fn run(
    model: &impl Model,
    request: &NotesRequest<'_>,
    budget: usize,
) -> Result<Generated, AiError> {
    let lines = prompt::transcript(request.lines);
    if lines.is_empty() && !model.refuses() {
        // Nothing was said: the built-in engine's "no speech" note, no request.
        return Ok(recorder_notes::generate(request.kind, request.lines, request.context));
    }
    // Under a refusal even silence makes its (refused, recorded) request.
    let chunks = if lines.is_empty() { vec![String::new()] } else { chunk::split(&lines, budget) };
    if request.kind == NoteKind::ActionItems {
        let items = action_items(model, request, &chunks).await?;
        return Ok(Generated { content_md: actions::checklist(&items), action_items: Some(items) });
    }
    let content_md = text_note(model, request, &chunks, budget).await?;
    Ok(Generated { content_md, action_items: None })
}

async fn text_note(
    model: &impl Model,
    request: &NotesRequest<'_>,
    chunks: &[String],
    budget: usize,
) -> Result<String, AiError> {
    let mut notes = Vec::with_capacity(chunks.len());
    for (at, text) in chunks.iter().enumerate() {
        let chat = prompt::part(request, text, (at + 1, chunks.len()));
        notes.push(non_empty(model.ask(&chat).await?)?);
    }
    while notes.len() > 1 {
        let mut merged = Vec::new();
        for group in chunk::groups(notes, budget) {
            merged.push(match group.as_slice() {
                [single] => single.clone(),
                _ => non_empty(model.ask(&prompt::merge(request, &group)).await?)?,
            });
        }
        notes = merged;
    }
    notes.pop().ok_or_else(|| AiError::Unusable("the model gave no notes".into()))
}

/// The note in a text answer: without a reasoning block or an enclosing code fence.
fn non_empty(answer: String) -> Result<String, AiError> {
    let answer = unfence(without_reasoning(&answer));
    if answer.is_empty() {
        return Err(AiError::Unusable("the model gave an empty answer".into()));
    }
    Ok(answer.to_string())
}

/// Drops a leading `<think>…</think>` block, as reasoning models served by Ollama
/// or llama.cpp put in front of their answer.
fn without_reasoning(answer: &str) -> &str {
    let answer = answer.trim();
    match answer.strip_prefix("<think>").and_then(|rest| rest.split_once("</think>")) {
        Some((_, after)) => after.trim(),
        None => answer,
    }
}

/// The inside of an answer wrapped whole in one ``` fence (e.g. ```markdown).
fn unfence(answer: &str) -> &str {
    let inner = answer.strip_prefix("```").and_then(|rest| rest.strip_suffix("```"));
    match inner.and_then(|inner| inner.split_once('\n')) {
        Some((_, body)) if !body.contains("```") => body.trim(),
        _ => answer,
    }
}

async fn action_items(
    model: &impl Model,
    request: &NotesRequest<'_>,
    chunks: &[String],
) -> Result<Vec<ActionItemDraft>, AiError> {
    let mut lists = Vec::with_capacity(chunks.len());
    for (at, text) in chunks.iter().enumerate() {
        let answer = model.ask(&prompt::part(request, text, (at + 1, chunks.len()))).await?;
        lists.push(read_items(model, &answer).await?);
    }
    Ok(actions::merge(lists))
}

/// Reads the items, asking the model once to repair JSON that cannot be read.
async fn read_items(model: &impl Model, answer: &str) -> Result<Vec<ActionItemDraft>, AiError> {
    let error = match actions::parse(without_reasoning(answer)) {
        Ok(items) => return Ok(items),
        Err(error) => error,
    };
    tracing::info!(%error, "the model's action items were malformed; asking for a repair");
    let repaired = model.ask(&prompt::repair(answer, &error)).await?;
    actions::parse(without_reasoning(&repaired)).map_err(|error| {
        AiError::Unusable(format!("the model's action items were not valid JSON: {error}"))
    })
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::Mutex;

    use recorder_notes::{Context, Line};

    use super::*;

    /// Answers from a script, in order, and remembers what it was asked.
    struct Script {
        answers: Mutex<VecDeque<Result<String, AiError>>>,
        asked: Mutex<Vec<Chat>>,
    }

    impl Script {
        fn new(answers: &[&str]) -> Self {
            let answers = answers.iter().map(|a| Ok(a.to_string())).collect();
            Script { answers: Mutex::new(answers), asked: Mutex::default() }
        }

        fn asked(&self) -> Vec<Chat> {
            self.asked.lock().expect("lock").clone()
        }
    }

    impl Model for Script {
        async fn ask(&self, chat: &Chat) -> Result<String, AiError> {
            self.asked.lock().expect("lock").push(chat.clone());
            self.answers.lock().expect("lock").pop_front().expect("a scripted answer")
        }
    }

    fn lines(count: usize) -> Vec<Line> {
        (0..count)
            .map(|at| Line {
                speaker: "Ada".into(),
                start_ms: at as i64 * 1000,
                end_ms: at as i64 * 1000 + 900,
                text: format!("Sentence number {at} about the budget."),
            })
            .collect()
    }

    fn request<'a>(kind: NoteKind, lines: &'a [Line], context: &'a Context) -> NotesRequest<'a> {
        NotesRequest { kind, lines, context, template: None }
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().build().expect("runtime").block_on(future)
    }

    #[test]
    fn a_short_transcript_is_one_request() {
        let (lines, context) = (lines(3), Context::default());
        let model = Script::new(&["  The budget was reviewed.\n"]);
        let note = block_on(run(&model, &request(NoteKind::Summary, &lines, &context), 10_000));
        assert_eq!(note.expect("note").content_md, "The budget was reviewed.");
        assert_eq!(model.asked().len(), 1);
    }

    #[test]
    fn long_transcripts_are_mapped_then_reduced_in_groups() {
        // Each line is ~45 characters: a budget of 100 gives two lines per chunk.
        let (lines, context) = (lines(8), Context::default());
        let partial = "p".repeat(60);
        let model = Script::new(&[&partial, &partial, &partial, &partial, "AB", "CD", "FINAL"]);
        let note = block_on(run(&model, &request(NoteKind::KeyPoints, &lines, &context), 100));
        assert_eq!(note.expect("note").content_md, "FINAL");
        let asked = model.asked();
        assert_eq!(asked.len(), 7, "4 chunks, 2 group merges, 1 final merge");
        assert!(asked[0].user.contains("part 1 of 4") && asked[3].user.contains("part 4 of 4"));
        assert!(
            asked[0].user.contains("Sentence number 1 ") && !asked[0].user.contains("number 2 ")
        );
        assert!(
            asked[4].user.contains("<part number=\"2\">")
                && !asked[4].user.contains("number=\"3\"")
        );
        assert!(asked[6].user.contains("AB") && asked[6].user.contains("CD"));
    }

    #[test]
    fn reasoning_blocks_and_enclosing_fences_are_dropped() {
        assert_eq!(non_empty("<think>\nhmm {x}\n</think>\n\nNotes.".into()), Ok("Notes.".into()));
        assert_eq!(non_empty("```markdown\n- a\n- b\n```".into()), Ok("- a\n- b".into()));
        let inner = "Intro\n```\ncode\n```";
        assert_eq!(non_empty(inner.into()), Ok(inner.into()), "only a fence around everything");
        let two = "```\na\n```\ntext\n```\nb\n```";
        assert_eq!(non_empty(two.into()), Ok(two.into()));
        assert!(non_empty("<think>all thinking</think>".into()).is_err());
        let items = block_on(read_items(
            &Script::new(&[]),
            "<think>{not json}</think>{\"action_items\":[]}",
        ));
        assert_eq!(items, Ok(vec![]));
    }

    #[test]
    fn empty_answers_are_unusable() {
        let (lines, context) = (lines(2), Context::default());
        let model = Script::new(&[" \n "]);
        let result = block_on(run(&model, &request(NoteKind::Decisions, &lines, &context), 1000));
        assert!(matches!(result, Err(AiError::Unusable(_))), "{result:?}");
    }

    #[test]
    fn silence_needs_no_request() {
        let silent =
            [Line { speaker: "Ada".into(), text: "[BLANK_AUDIO]".into(), ..Line::default() }];
        let context = Context::default();
        let model = Script::new(&[]);
        let note = block_on(run(&model, &request(NoteKind::ActionItems, &silent, &context), 1000));
        let note = note.expect("note");
        assert_eq!(note.action_items, Some(vec![]));
        assert!(!note.content_md.is_empty() && model.asked().is_empty());
    }

    /// A model under a Block verdict: every request is refused.
    struct Refusing(Script);

    impl Model for Refusing {
        async fn ask(&self, chat: &Chat) -> Result<String, AiError> {
            self.0.asked.lock().expect("lock").push(chat.clone());
            Err(AiError::Blocked("policy".into()))
        }

        fn refuses(&self) -> bool {
            true
        }
    }

    #[test]
    fn silence_under_a_refusal_still_makes_its_refused_request() {
        let silent = [Line { speaker: "Ada".into(), text: " ".into(), ..Line::default() }];
        let context = Context::default();
        let model = Refusing(Script::new(&[]));
        let result = block_on(run(&model, &request(NoteKind::Summary, &silent, &context), 1000));
        assert_eq!(result, Err(AiError::Blocked("policy".into())));
        assert_eq!(model.0.asked().len(), 1);
    }

    #[test]
    fn action_items_of_chunks_are_merged_and_repaired_once() {
        let (lines, context) = (lines(4), Context::default());
        let model = Script::new(&[
            r#"{"action_items":[{"text":"Send the report","owner":"Ada"}]}"#,
            "Sure! The items are: send the report",
            r#"```json
            {"action_items":[{"text":"send the  report","owner":"Bob"},{"text":"Book a room"}]}
            ```"#,
        ]);
        let note = block_on(run(&model, &request(NoteKind::ActionItems, &lines, &context), 100));
        let note = note.expect("note");
        let items: Vec<(&str, &str)> = note
            .action_items
            .as_deref()
            .expect("items")
            .iter()
            .map(|item| (item.text.as_str(), item.owner.as_str()))
            .collect();
        assert_eq!(items, [("Send the report", "Ada"), ("Book a room", "Everyone")]);
        assert_eq!(note.content_md, "- [ ] Send the report (Ada)\n- [ ] Book a room (Everyone)");
        let asked = model.asked();
        assert_eq!(asked.len(), 3);
        assert!(asked[2].user.contains("Sure! The items are") && asked.iter().all(|c| c.json));
    }

    #[test]
    fn action_items_that_stay_malformed_are_unusable() {
        let (lines, context) = (lines(2), Context::default());
        let model = Script::new(&["not json", "{\"action_items\": 3}"]);
        let result = block_on(run(&model, &request(NoteKind::ActionItems, &lines, &context), 1000));
        match result {
            Err(AiError::Unusable(message)) => {
                assert!(message.contains("not valid JSON"), "{message}")
            }
            other => panic!("expected Unusable, got {other:?}"),
        }
        assert_eq!(model.asked().len(), 2, "exactly one repair");
    }

    #[test]
    fn errors_stop_the_run_at_once() {
        let (lines, context) = (lines(8), Context::default());
        let model = Script {
            answers: Mutex::new(VecDeque::from([Err(AiError::Blocked("policy".into()))])),
            asked: Mutex::default(),
        };
        let result = block_on(run(&model, &request(NoteKind::Summary, &lines, &context), 100));
        assert_eq!(result, Err(AiError::Blocked("policy".into())));
        assert_eq!(model.asked().len(), 1);
    }
}
