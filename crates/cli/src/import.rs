//! `recorder import FILE`: queue an audio file for transcription and, with
//! `--wait`, follow it to the end with a progress bar. The person's own action,
//! so it goes through the person's channel (`/ui/import`, `ui_token`) and needs
//! no 'Allow remote start'.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use recorder_api_types::Meeting;
use recorder_client::{Client, EventStream};
use serde_json::json;

use crate::context::Failure;

#[derive(Args)]
pub struct ImportArgs {
    /// The audio file (WAV natively; mp3, m4a, ogg, flac… through ffmpeg)
    pub file: PathBuf,
    /// The meeting's title (default: the file's name)
    #[arg(long)]
    pub title: Option<String>,
    /// Wait until the meeting is ready, showing progress
    #[arg(long)]
    pub wait: bool,
    /// Print the meeting as JSON
    #[arg(long)]
    pub json: bool,
}

pub async fn run(client: &Client, args: ImportArgs) -> Result<(), Failure> {
    let path = absolute(&args.file)?;
    // Listen before asking, so no event of this import is missed.
    let events = if args.wait { Some(client.person_events().await?) } else { None };
    let body = json!({ "path": path, "title": args.title });
    let meeting: Meeting = client.post("/ui/import", &body).await?;
    let meeting = match events {
        Some(events) => follow(client, events, &meeting.id).await?,
        None => meeting,
    };
    if args.json {
        let text = serde_json::to_string_pretty(&meeting).map_err(Failure::general)?;
        println!("{text}");
    } else {
        println!("{}\t{}\t{}", meeting.id, meeting.status, meeting.title);
    }
    match &meeting.processing_error {
        Some(error) if args.wait => Err(Failure::general(error)),
        _ => Ok(()),
    }
}

fn absolute(file: &std::path::Path) -> Result<String, Failure> {
    let path = if file.is_absolute() {
        file.to_path_buf()
    } else {
        std::env::current_dir().map_err(Failure::general)?.join(file)
    };
    Ok(path.to_string_lossy().into_owned())
}

/// Shows transcription progress until the meeting is ready.
async fn follow(client: &Client, mut events: EventStream, id: &str) -> Result<Meeting, Failure> {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg:14} [{bar:30}] {percent:>3}% {elapsed}")
            .map_err(Failure::general)?
            .progress_chars("=> "),
    );
    bar.set_message("transcribing");
    bar.enable_steady_tick(Duration::from_millis(200));
    while let Some(event) = events.next().await? {
        if event.data["meeting_id"] != id && event.kind != "models.loading" {
            continue;
        }
        match event.kind.as_str() {
            "models.loading" => bar.set_message("loading model"),
            "transcription.progress" => {
                bar.set_message("transcribing");
                let total = event.data["duration_ms"].as_u64().unwrap_or(0);
                if total > 0 {
                    bar.set_length(total);
                    bar.set_position(event.data["position_ms"].as_u64().unwrap_or(0).min(total));
                }
            }
            "meeting.updated" if event.data["status"] == "summarising" => {
                bar.set_message("writing notes");
                bar.set_position(bar.length().unwrap_or(0));
            }
            "meeting.ready" => break,
            _ => {}
        }
    }
    bar.finish_and_clear();
    Ok(client.get(&format!("/ui/meetings/{id}"), &[]).await?)
}
