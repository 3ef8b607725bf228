//! The notes model inside for real: `recorder-llm` (built beside the tests by
//! `cargo build --workspace`) runs the SmolLM2-135M test model
//! (`scripts/notes-model.sh`); its answers are held to the notes' JSON schema,
//! so they always parse, whatever a model this small writes.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use recorder_ai::embedded::{self, Embedded, Step};
use recorder_ai::{AiError, NotesRequest};
use recorder_domain::NoteKind;
use recorder_llm::worker::{find_program, Launch};
use recorder_notes::{Context, Line};

fn test_model() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/test-models/smollm2-135m-instruct-q4_1.gguf");
    assert!(path.is_file(), "{} is missing: run scripts/notes-model.sh", path.display());
    path
}

fn launch(model: PathBuf) -> Launch {
    let program = find_program();
    assert!(program.is_file(), "{} is missing: cargo build --workspace", program.display());
    Launch { program, model, threads: 2, context: Some(2048) }
}

fn planning_call() -> (Vec<Line>, Context) {
    let said = [
        ("Dana", "Sure, marketing spent about 12% less than planned this quarter."),
        ("Me", "Good. One more thing: the new hire starts on Monday."),
        ("Dana", "Let's plan the offsite for the second week of next month."),
        ("Dana", "Can you send me a short proposal by Friday?"),
        ("Me", "Sure, I will."),
    ];
    let lines = said
        .iter()
        .enumerate()
        .map(|(at, (speaker, text))| Line {
            speaker: speaker.to_string(),
            start_ms: at as i64 * 5_000,
            end_ms: at as i64 * 5_000 + 4_000,
            text: text.to_string(),
        })
        .collect();
    let context = Context {
        user_name: "Me".into(),
        attendees: vec!["Dana".into()],
        title: "Plan".into(),
        ..Context::default()
    };
    (lines, context)
}

/// The worker confines itself before llama.cpp opens the model (Landlock,
/// seccomp, no new privileges: `recorder_sandbox`, whose own tests try the
/// escapes), says so, and still answers.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_reads_its_model_confined_and_still_answers() {
    use recorder_llm::protocol::{Message, Request};
    use recorder_llm::worker::Worker;
    let mut worker = Worker::start(&launch(test_model())).await.expect("the model loads");
    let said = worker.info().confinement.clone();
    assert!(said.starts_with("confined: files (Landlock ABI"), "{said}");
    let pid = worker.handle().pid().expect("a running worker");
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    assert!(status.contains("NoNewPrivs:\t1"), "{status}");
    assert!(status.contains("Seccomp:\t2"), "{status}");
    let request = Request {
        messages: vec![Message { role: "user".into(), content: "Say hello.".into() }],
        json_schema: None,
        max_tokens: 8,
    };
    let answer = worker.complete(&request, |_, _, _| {}).await.expect("an answer");
    assert!(answer.generated_tokens > 0, "{answer:?}");
    worker.stop().await;
}

/// SIGTERM and SIGINT end the worker within 2 s, its stdin still open (the
/// service holds it); at the end of stdin it ends by itself (`stop`, above).
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_ends_on_sigterm_and_sigint_with_its_stdin_open() {
    use recorder_llm::worker::Worker;
    for signal in ["TERM", "INT"] {
        let worker = Worker::start(&launch(test_model())).await.expect("the model loads");
        let pid = worker.handle().pid().expect("a running worker");
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .expect("kill");
        assert!(sent.success());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        // Ended: gone, or a zombie until `worker` is dropped and reaps it.
        let ended = || {
            std::fs::read_to_string(format!("/proc/{pid}/status"))
                .map_or(true, |status| status.contains("State:\tZ"))
        };
        while !ended() {
            assert!(std::time::Instant::now() < deadline, "SIG{signal}: still running after 2 s");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        drop(worker);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_test_model_writes_four_notes_that_parse_with_progress() {
    let steps: Arc<Mutex<Vec<Step>>> = Arc::default();
    let heard = steps.clone();
    let on_step = Box::new(move |step| heard.lock().expect("lock").push(step));
    let model = Embedded::start(&launch(test_model()), on_step).await.expect("the model loads");
    let (lines, context) = planning_call();
    let notes = embedded::all_notes(&model, &lines, &context).await.expect("notes");
    let kinds: Vec<NoteKind> = notes.iter().map(|(kind, _)| *kind).collect();
    assert_eq!(
        kinds,
        [NoteKind::Summary, NoteKind::KeyPoints, NoteKind::Decisions, NoteKind::ActionItems]
    );
    for (kind, note) in &notes {
        match note {
            Ok(note) => assert!(!note.content_md.trim().is_empty(), "{kind:?}: {note:?}"),
            // A model this small may write nothing usable for a note: that one
            // is refused (the built-in engine writes it in the service).
            Err(error) => assert!(matches!(error, AiError::Unusable(_)), "{kind:?}: {error}"),
        }
    }
    let items = notes[3].1.as_ref().expect("action items always parse");
    let items = items.action_items.as_ref().expect("structured action items");
    assert!(items.iter().all(|item| !item.text.is_empty() && !item.owner.is_empty()));
    let steps = steps.lock().expect("lock").clone();
    assert!(steps.iter().any(|step| step.read > 0 && step.prompt_tokens >= step.read), "{steps:?}");
    assert!(model.handle().peak_memory_bytes().is_some_and(|bytes| bytes > 50 << 20));

    let request = NotesRequest {
        kind: NoteKind::ActionItems,
        lines: &lines,
        context: &context,
        template: None,
    };
    let note = embedded::generate(&model, &request).await.expect("one kind");
    assert!(note.action_items.is_some(), "the schema holds the answer to JSON");
    model.stop().await;
}

#[tokio::test]
async fn a_file_that_is_no_model_is_refused_by_the_worker_with_its_reason() {
    let folder = tempfile::tempdir().expect("temp");
    let fake = folder.path().join("fake.gguf");
    std::fs::write(&fake, b"GGUF\x03\x00\x00\x00 but nothing else").expect("write");
    let error = Embedded::start(&launch(fake), Box::new(|_| {})).await.err().expect("refused");
    match error {
        AiError::Unreachable(message) => {
            assert!(message.contains("could not be loaded"), "{message}")
        }
        other => panic!("expected the load failure, got {other:?}"),
    }
    let missing = Launch { program: folder.path().join("no-such-worker"), ..launch(test_model()) };
    let error = Embedded::start(&missing, Box::new(|_| {})).await.err().expect("no worker");
    assert!(error.to_string().contains("could not be started"), "{error}");
}
