//! Human-readable output: aligned tables, dates in local time, and JSON for scripts.

use chrono::{Local, TimeZone};
use recorder_api_types::{Meeting, MeetingList, Pairings, PolicyReport, SearchResults};
use serde::Serialize;
use serde_json::Value;

use clap::Args;

use crate::context::Failure;

pub fn json<T: Serialize>(value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(Failure::general)?;
    println!("{text}");
    Ok(())
}

/// A JSON value as a person would write it: strings without quotes.
pub fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "null".to_string(),
        other => other.to_string(),
    }
}

fn date(ms: i64) -> String {
    Local
        .timestamp_millis_opt(ms)
        .single()
        .map(|time| time.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_else(|| "-".to_string())
}

fn duration(ms: i64) -> String {
    let minutes = ms.max(0) / 60_000;
    if minutes >= 60 {
        format!("{}h {:02}m", minutes / 60, minutes % 60)
    } else {
        format!("{minutes}m")
    }
}

/// Prints rows with each column padded to its widest cell.
pub(crate) fn table(header: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let padded: Vec<String> =
            cells.iter().zip(&widths).map(|(cell, width)| format!("{cell:<width$}")).collect();
        println!("{}", padded.join("  ").trim_end());
    };
    line(header.iter().map(|h| h.to_string()).collect());
    for row in rows {
        line(row.clone());
    }
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

pub fn meeting_table(list: &MeetingList) {
    if list.meetings.is_empty() {
        println!("No meetings.");
        return;
    }
    let rows: Vec<Vec<String>> = list
        .meetings
        .iter()
        .map(|m| {
            vec![
                m.id.to_string(),
                date(m.started_at),
                duration(m.duration_ms),
                m.status.to_string(),
                if m.starred { "★".into() } else { String::new() },
                shorten(&m.title, 50),
            ]
        })
        .collect();
    table(&["ID", "STARTED", "LENGTH", "STATUS", "", "TITLE"], &rows);
    let shown = list.offset + list.meetings.len() as i64;
    if shown < list.total {
        println!(
            "({} of {} shown; use --offset {shown} for more)",
            list.meetings.len(),
            list.total
        );
    }
}

pub fn meeting_details(meeting: &Meeting) {
    println!("{}", meeting.title);
    println!("  id:        {}", meeting.id);
    println!("  started:   {} ({})", date(meeting.started_at), duration(meeting.duration_ms));
    println!("  status:    {}", meeting.status);
    println!("  from:      {}", meeting.source_app);
    if !meeting.attendees.is_empty() {
        let names: Vec<&str> = meeting.attendees.iter().map(|a| a.name.as_str()).collect();
        println!("  attendees: {}", names.join(", "));
    }
    if !meeting.tags.is_empty() {
        println!("  tags:      {}", meeting.tags.join(", "));
    }
    if let Some(error) = &meeting.processing_error {
        println!("  error:     {error}");
    }
    for note in meeting.notes.iter().flatten() {
        println!("\n## {}\n{}", note.kind, note.content_md.trim_end());
    }
    let items = meeting.action_items.as_deref().unwrap_or_default();
    if !items.is_empty() {
        println!("\n## Action items");
        for item in items {
            let mark = if item.done { "x" } else { " " };
            println!("- [{mark}] {} ({})", item.text, item.owner);
        }
    }
    let markers = meeting.markers.as_deref().unwrap_or_default();
    if !markers.is_empty() {
        println!("\n## Markers");
        for marker in markers {
            let seconds = marker.at_ms / 1000;
            println!("- [{:02}:{:02}] {}", seconds / 60, seconds % 60, marker.label);
        }
    }
}

pub fn search_results(results: &SearchResults) {
    if results.results.is_empty() {
        println!("No matches.");
        return;
    }
    for result in &results.results {
        let place = match (result.start_ms, &result.speaker) {
            (Some(start), Some(speaker)) => {
                format!("{speaker} at {:02}:{:02}", start / 60_000, start / 1000 % 60)
            }
            _ => "notes".to_string(),
        };
        let snippet = result.snippet.replace("<mark>", "[").replace("</mark>", "]");
        println!("{}  {}  ({place})", date(result.started_at), result.meeting_title);
        println!("    {}", unescape(&snippet));
    }
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

pub fn pairing_table(pairings: &Pairings) {
    if pairings.pairings.is_empty() {
        println!("No paired extensions.");
        return;
    }
    let rows: Vec<Vec<String>> = pairings
        .pairings
        .iter()
        .map(|p| {
            vec![
                p.id.to_string(),
                date(p.created_at),
                p.last_used_at.map(date).unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    table(&["ID", "PAIRED", "LAST USED"], &rows);
}

pub fn policy_table(report: &PolicyReport) {
    let rows: Vec<Vec<String>> = report
        .keys
        .iter()
        .map(|k| {
            let value =
                if k.value.is_null() { "Not Configured".to_string() } else { plain(&k.value) };
            vec![k.key.clone(), value]
        })
        .collect();
    table(&["KEY", "VALUE"], &rows);
    for invalid in &report.invalid {
        println!("ignored {}: {}", invalid.key, invalid.reason);
    }
    let configured = report.keys.iter().any(|k| !k.value.is_null());
    if configured {
        println!("Managed by {}", report.managed_by);
    }
}

/// `mm:ss`, or `h:mm:ss` past an hour.
pub fn clock(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

/// `--json` of the commands that print.
#[derive(Args)]
pub struct JsonFlag {
    /// Print JSON for scripts
    #[arg(long)]
    pub json: bool,
}

/// 1 MiB = 1 048 576 bytes, as whisper.cpp lists its models.
pub(crate) fn size(bytes: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    let mib = bytes as f64 / MIB;
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else if mib >= 10.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{mib:.1} MiB")
    }
}

/// A model's INSTALLED column: `downloading 40%`, `yes`, `failed` or `-`.
pub(crate) fn install_state(
    downloading: Option<recorder_api_types::DownloadProgress>,
    installed: bool,
    error: &Option<String>,
) -> String {
    match (downloading, installed, error) {
        (Some(progress), _, _) => match progress.total.filter(|total| *total > 0) {
            Some(total) => format!("downloading {}%", progress.received * 100 / total),
            None => "downloading".to_string(),
        },
        (None, true, _) => "yes".to_string(),
        (None, false, Some(_)) => "failed".to_string(),
        (None, false, None) => "-".to_string(),
    }
}
