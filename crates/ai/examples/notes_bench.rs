//! What `bench/notes.py` measures, for the built-in engine or a GGUF model run
//! by the notes model inside (`recorder-llm`): the action items of the scripted
//! meetings in `bench/fixtures/action-items.json` as JSON lines
//! `{"meeting": i, "text", "owner"}` (as the notes of a transcription make them:
//! the model's structured answer), then one line `{"hour": {"seconds", "peak_bytes",
//! "parts"}}`: the four notes of one hour of meeting (the scripted meetings
//! repeated, 150 words a minute).
//!
//! Usage: notes_bench FIXTURES [--model GGUF --worker PATH [--threads N]]

use std::time::Instant;

use recorder_ai::embedded::{self, Embedded};
use recorder_domain::NoteKind;
use recorder_llm::worker::Launch;
use recorder_notes::{Context, Line};
use serde_json::{json, Value};

/// Words spoken a minute, for the hour's clock.
const WORDS_A_MINUTE: i64 = 150;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|at| args.get(at + 1));
    let path = args.first().cloned().unwrap_or("bench/fixtures/action-items.json".into());
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let fixtures: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let meetings: Vec<(Vec<Line>, Context)> =
        fixtures["meetings"].as_array().ok_or("no meetings")?.iter().map(meeting).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    match value("--model") {
        Some(model) => {
            let threads = value("--threads").and_then(|n| n.parse().ok()).unwrap_or(2);
            let worker = value("--worker").ok_or("--worker PATH is needed with --model")?;
            let launch =
                Launch { program: worker.into(), model: model.into(), threads, context: None };
            runtime.block_on(with_model(&launch, &meetings))
        }
        None => {
            builtin(&meetings);
            Ok(())
        }
    }
}

fn meeting(meeting: &Value) -> (Vec<Line>, Context) {
    let mut at = 0i64;
    let lines = meeting["lines"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|pair| {
            let text = pair[1].as_str().unwrap_or_default().to_owned();
            let length = text.split_whitespace().count() as i64 * 60_000 / WORDS_A_MINUTE;
            let line = Line {
                speaker: pair[0].as_str().unwrap_or_default().to_owned(),
                start_ms: at,
                end_ms: at + length,
                text,
            };
            at += length + 500;
            line
        })
        .collect();
    let people = meeting["people"].as_array().into_iter().flatten();
    let context = Context {
        user_name: "Me".into(),
        attendees: people.filter_map(|p| p.as_str().map(str::to_owned)).collect(),
        title: meeting["title"].as_str().unwrap_or_default().to_owned(),
        ..Context::default()
    };
    (lines, context)
}

/// The scripted meetings one after another until an hour is spoken.
fn an_hour(meetings: &[(Vec<Line>, Context)]) -> Vec<Line> {
    let mut hour = Vec::new();
    let mut offset = 0;
    while offset < 3_600_000 {
        for (lines, _) in meetings {
            let end = lines.last().map_or(0, |line| line.end_ms);
            hour.extend(lines.iter().map(|line| Line {
                start_ms: line.start_ms + offset,
                end_ms: line.end_ms + offset,
                ..line.clone()
            }));
            offset += end + 1_000;
        }
    }
    hour
}

fn print_items(index: usize, items: &[recorder_notes::ActionItemDraft]) {
    for item in items {
        println!("{}", json!({"meeting": index, "text": item.text, "owner": item.owner}));
    }
}

fn builtin(meetings: &[(Vec<Line>, Context)]) {
    for (index, (lines, context)) in meetings.iter().enumerate() {
        print_items(index, &recorder_notes::action_items(lines, context));
    }
    let hour = an_hour(meetings);
    let started = Instant::now();
    for kind in NoteKind::ALL {
        let _ = recorder_notes::generate(kind, &hour, &meetings[0].1);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{}", json!({"hour": {"seconds": seconds, "peak_bytes": own_peak(), "parts": 1}}));
}

async fn with_model(launch: &Launch, meetings: &[(Vec<Line>, Context)]) -> Result<(), String> {
    let model = Embedded::start(launch, Box::new(|_| {})).await.map_err(|e| e.to_string())?;
    for (index, (lines, context)) in meetings.iter().enumerate() {
        match embedded::all_notes(&model, lines, context).await {
            Ok(notes) => {
                let items = notes.into_iter().find_map(|(_, note)| note.ok()?.action_items);
                print_items(index, &items.unwrap_or_default());
            }
            Err(error) => eprintln!("meeting {index}: {error}"),
        }
    }
    let hour = an_hour(meetings);
    let started = Instant::now();
    let result = embedded::all_notes(&model, &hour, &meetings[0].1).await;
    let seconds = started.elapsed().as_secs_f64();
    let peak = model.handle().peak_memory_bytes();
    model.stop().await;
    let error = result.err().map(|e| e.to_string());
    println!("{}", json!({"hour": {"seconds": seconds, "peak_bytes": peak, "error": error}}));
    Ok(())
}

/// This process's peak resident memory (VmHWM), where the OS tells it.
fn own_peak() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}
