//! The built-in engine's action items for scripted meetings: reads
//! `bench/fixtures/action-items.json` (or the file named) and prints, per
//! meeting, the items found as JSON lines `{"meeting": i, "text", "owner"}`.
//! Each line is one segment; its speaker is the name the person gave that
//! voice. With `--them` every line is "Them" instead (the other side as one
//! speaker, as without the speaker model); with `--anonymous` each person's
//! lines are "Speaker N" in the order they first speak (as diarization labels
//! an import before anyone names the voices). The meeting's people are its
//! attendees in every mode, as a record card gives them. Used by
//! `bench/action_items.py`.

use recorder_notes::{action_items, Context, Line};
use serde_json::{json, Value};

/// How the lines' speakers are labelled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Labels {
    Named,
    Them,
    Anonymous,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let labels = if args.iter().any(|a| a == "--them") {
        Labels::Them
    } else if args.iter().any(|a| a == "--anonymous") {
        Labels::Anonymous
    } else {
        Labels::Named
    };
    let path = args.iter().find(|a| !a.starts_with("--")).cloned();
    let path = path.unwrap_or("bench/fixtures/action-items.json".into());
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let fixtures: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let meetings = fixtures["meetings"].as_array().ok_or("no meetings")?;
    for (index, meeting) in meetings.iter().enumerate() {
        let pairs = meeting["lines"].as_array().ok_or("no lines")?;
        let lines = lines(pairs, labels);
        let people = meeting["people"].as_array().ok_or("no people")?;
        let context = Context {
            user_name: "Me".into(),
            attendees: people.iter().filter_map(|p| p.as_str().map(str::to_owned)).collect(),
            title: meeting["title"].as_str().unwrap_or_default().to_owned(),
            ..Context::default()
        };
        for item in action_items(&lines, &context) {
            println!("{}", json!({"meeting": index, "text": item.text, "owner": item.owner}));
        }
    }
    Ok(())
}

/// One segment per `[person, text]` pair, 5 s apart, labelled as `labels` says.
fn lines(pairs: &[Value], labels: Labels) -> Vec<Line> {
    let mut order: Vec<&str> = Vec::new();
    pairs
        .iter()
        .enumerate()
        .map(|(at, pair)| {
            let person = pair[0].as_str().unwrap_or_default();
            let speaker = match labels {
                Labels::Named => person.to_owned(),
                Labels::Them => "Them".to_owned(),
                Labels::Anonymous => {
                    if !order.contains(&person) {
                        order.push(person);
                    }
                    let n = order.iter().position(|p| *p == person).unwrap_or_default() + 1;
                    format!("Speaker {n}")
                }
            };
            Line {
                speaker,
                start_ms: at as i64 * 5_000,
                end_ms: at as i64 * 5_000 + 4_000,
                text: pair[1].as_str().unwrap_or_default().to_owned(),
            }
        })
        .collect()
}
