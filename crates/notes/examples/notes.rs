//! Every note kind of the built-in engine for one scripted meeting of
//! `bench/fixtures/action-items.json` (or the file named), chosen by title:
//! `cargo run -p recorder-notes --example notes -- "Planning call" [FILE]`.
//! Each line's speaker is the name the person gave that voice.

use recorder_domain::NoteKind;
use recorder_notes::{generate, Context, Line};
use serde_json::Value;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let title = args.first().ok_or("usage: notes TITLE [FILE]")?;
    let path = args.get(1).cloned().unwrap_or("bench/fixtures/action-items.json".into());
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let fixtures: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let meetings = fixtures["meetings"].as_array().ok_or("no meetings")?;
    let meeting = meetings
        .iter()
        .find(|m| m["title"].as_str() == Some(title.as_str()))
        .ok_or(format!("no meeting titled {title:?}"))?;
    let lines: Vec<Line> = meeting["lines"]
        .as_array()
        .ok_or("no lines")?
        .iter()
        .enumerate()
        .map(|(at, pair)| Line {
            speaker: pair[0].as_str().unwrap_or_default().to_owned(),
            start_ms: at as i64 * 5_000,
            end_ms: at as i64 * 5_000 + 4_000,
            text: pair[1].as_str().unwrap_or_default().to_owned(),
        })
        .collect();
    let people = meeting["people"].as_array().ok_or("no people")?;
    let context = Context {
        user_name: "Me".into(),
        attendees: people.iter().filter_map(|p| p.as_str().map(str::to_owned)).collect(),
        title: title.clone(),
        ..Context::default()
    };
    for kind in NoteKind::ALL {
        let note = generate(kind, &lines, &context);
        println!("## {}\n\n{}\n", kind.as_str(), note.content_md);
    }
    Ok(())
}
