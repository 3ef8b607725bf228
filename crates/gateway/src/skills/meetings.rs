//! The reading skills: list_meetings, get_meeting, get_transcript and
//! search_meetings.

use recorder_api_types as api;
use recorder_client::Client;
use serde_json::{json, Value};

use super::args::{GetMeeting, GetTranscript, ListMeetings, SearchMeetings};
use super::text::{clock, date_time, day, duration, moment_ms, quoted, snippet, window};
use super::{Answer, Skill, SkillError, SkillResult, Timestamp, Used};

/// Transcripts longer than this come in parts.
pub const TRANSCRIPT_LIMIT: usize = 20_000;

/// The id named by `id`, with `latest` meaning the newest meeting.
pub async fn resolve(client: &Client, id: &str) -> Result<String, SkillError> {
    if !id.trim().eq_ignore_ascii_case("latest") {
        return Ok(id.trim().to_string());
    }
    let list = client
        .meetings(&[("limit", "1".into())])
        .await
        .map_err(|e| SkillError::from_client("Cannot find the latest meeting", e))?;
    match list.meetings.first() {
        Some(meeting) => Ok(meeting.id.to_string()),
        None => Err(SkillError::NotFound("There are no meetings yet.".into())),
    }
}

pub async fn fetch(client: &Client, id: &str) -> Result<api::Meeting, SkillError> {
    client.meeting(id).await.map_err(|e| match e {
        recorder_client::ClientError::Api { status: 404, .. } => SkillError::NotFound(format!(
            "There is no meeting with id {id}; list_meetings or search_meetings give the ids."
        )),
        other => SkillError::from_client("Cannot read the meeting", other),
    })
}

pub fn started(meeting: &api::Meeting) -> Timestamp {
    Timestamp {
        meeting_id: meeting.id.to_string(),
        start_ms: None,
        end_ms: None,
        started_at: Some(meeting.started_at),
    }
}

/// One line about a meeting: title, date, duration, status, attendees.
pub fn headline(meeting: &api::Meeting) -> String {
    let mut line = format!(
        "**{}** — {} · {}",
        meeting.title,
        date_time(meeting.started_at),
        duration(meeting.duration_ms)
    );
    if meeting.status != api::MeetingStatus::Ready {
        line.push_str(&format!(" · {}", meeting.status));
    }
    if !meeting.attendees.is_empty() {
        let names: Vec<&str> = meeting.attendees.iter().map(|a| a.name.as_str()).collect();
        line.push_str(&format!(" · with {}", names.join(", ")));
    }
    line
}

pub async fn list(client: &Client, args: ListMeetings) -> SkillResult {
    let limit = args.limit.unwrap_or(20);
    let offset = args.offset.unwrap_or(0);
    let mut query = vec![("limit", limit.to_string()), ("offset", offset.to_string())];
    if let Some(q) = &args.query {
        query.push(("q", q.clone()));
    }
    for (name, moment) in [("from", &args.from), ("to", &args.to)] {
        if let Some(moment) = moment {
            let ms = moment_ms(moment).map_err(|e| {
                SkillError::InvalidArguments(format!("list_meetings: `{name}`: {e}"))
            })?;
            query.push((name, ms.to_string()));
        }
    }
    let list = client
        .meetings(&query)
        .await
        .map_err(|e| SkillError::from_client("Cannot list meetings", e))?;
    let mut used = Used::default();
    list.meetings.iter().for_each(|m| used.moment(started(m)));
    Ok(Answer {
        skill: Skill::ListMeetings,
        text: list_text(&list, &args),
        result: json!({
            "meetings": list.meetings,
            "total": list.total,
            "limit": list.limit,
            "offset": list.offset,
        }),
        used,
    })
}

fn list_text(list: &api::MeetingList, args: &ListMeetings) -> String {
    let filter =
        args.query.as_ref().map(|q| format!(" matching {}", quoted(q))).unwrap_or_default();
    if list.meetings.is_empty() {
        return match list.total {
            0 => format!("No meetings{filter} in that period."),
            total => format!("No more meetings: all {total}{filter} were listed before this page."),
        };
    }
    let first = list.offset + 1;
    let last = list.offset + list.meetings.len() as i64;
    let shown = match last - first {
        0 => format!("#{first}"),
        _ => format!("{first}–{last}"),
    };
    let mut text = format!(
        "{} meeting{}{filter}; showing {shown}, newest first:\n",
        list.total,
        if list.total == 1 { "" } else { "s" }
    );
    for (index, meeting) in list.meetings.iter().enumerate() {
        text.push_str(&format!(
            "\n{}. {}\n   id: {}",
            first + index as i64,
            headline(meeting),
            meeting.id
        ));
    }
    if last < list.total {
        text.push_str(&format!("\n\nMore: call list_meetings with offset={last}."));
    }
    text
}

pub async fn get(client: &Client, args: GetMeeting) -> SkillResult {
    let id = resolve(client, &args.meeting_id).await?;
    let meeting = fetch(client, &id).await?;
    let mut used = Used::default();
    used.moment(started(&meeting));
    for marker in meeting.markers.iter().flatten() {
        used.moment(moment(&meeting.id, marker.at_ms, None));
    }
    Ok(Answer {
        skill: Skill::GetMeeting,
        text: meeting_text(&meeting),
        result: json!({ "meeting": meeting }),
        used,
    })
}

fn moment(meeting_id: &str, start_ms: i64, end_ms: Option<i64>) -> Timestamp {
    Timestamp {
        meeting_id: meeting_id.to_string(),
        start_ms: Some(start_ms),
        end_ms,
        started_at: None,
    }
}

fn meeting_text(meeting: &api::Meeting) -> String {
    let mut text = format!("{}\nid: {}", headline(meeting), meeting.id);
    if !meeting.tags.is_empty() {
        text.push_str(&format!("\nTags: {}", meeting.tags.join(", ")));
    }
    if let Some(error) = &meeting.processing_error {
        text.push_str(&format!("\nProcessing failed: {error}"));
    }
    let items = meeting.action_items.clone().unwrap_or_default();
    for note in meeting.notes.iter().flatten() {
        if note.kind == api::NoteKind::ActionItems && !items.is_empty() {
            continue;
        }
        let content = note.content_md.trim();
        match content.starts_with('#') {
            true => text.push_str(&format!("\n\n{content}")),
            false => {
                text.push_str(&format!("\n\n## {}\n{content}", note_heading(note.kind.as_str())))
            }
        }
    }
    if !items.is_empty() {
        text.push_str("\n\n## Action items");
        for item in &items {
            text.push_str(&format!("\n{}", item_line(item)));
        }
    }
    let markers = meeting.markers.clone().unwrap_or_default();
    if !markers.is_empty() {
        text.push_str("\n\n## Markers");
        for marker in &markers {
            text.push_str(&format!("\n- {} {}", clock(marker.at_ms), marker.label));
        }
    }
    if meeting.status != api::MeetingStatus::Ready
        && meeting.notes.as_ref().is_none_or(Vec::is_empty)
    {
        text.push_str(&format!("\n\nNo notes yet: the meeting is {}.", meeting.status));
    }
    text
}

pub fn note_heading(kind: &str) -> &str {
    match kind {
        "summary" => "Summary",
        "key_points" => "Key points",
        "decisions" => "Decisions",
        "action_items" => "Action items",
        _ => "Notes",
    }
}

/// `- [ ] Send the budget — Alice`, `· due Thu 24 Dec 2026` when it has a due
/// date, and `· id …`: a model that reads only the text can then name the
/// item to `update_action_item`.
pub fn item_line(item: &api::ActionItem) -> String {
    let owner = if item.owner.trim().is_empty() { "no owner" } else { item.owner.trim() };
    let due = item.due.as_deref().map(|due| format!(" · due {}", day(due))).unwrap_or_default();
    let done = if item.done { "x" } else { " " };
    format!("- [{done}] {} — {owner}{due} · id {}", item.text, item.id)
}

pub async fn transcript(client: &Client, args: GetTranscript) -> SkillResult {
    let id = resolve(client, &args.meeting_id).await?;
    let meeting = fetch(client, &id).await?;
    let format = args.format.clone().unwrap_or_else(|| "md".into());
    let offset = usize::try_from(args.offset.unwrap_or(0)).unwrap_or(usize::MAX);
    let transcript = client
        .transcript(&id)
        .await
        .map_err(|e| SkillError::from_client("Cannot read the transcript", e))?;
    let part = if format == "json" {
        json_part(&transcript.segments, offset)
    } else {
        let rendered = client
            .transcript_text(&id, &format)
            .await
            .map_err(|e| SkillError::from_client("Cannot read the transcript", e))?;
        text_part(&rendered, offset)
    };
    let mut used = Used::default();
    used.moment(started(&meeting));
    if let (Some(first), Some(last)) = (transcript.segments.first(), transcript.segments.last()) {
        used.moment(moment(&id, first.start_ms, Some(last.end_ms)));
    }
    let text = transcript_text(&meeting, &format, &part, transcript.segments.is_empty());
    let mut result = json!({
        "meeting_id": id,
        "title": meeting.title,
        "format": format,
        "text": part.text,
        "offset": offset,
        "next_offset": part.next_offset,
        "total": part.total,
        "truncated": part.next_offset.is_some(),
    });
    if let Some(segments) = part.segments {
        result["segments"] = segments;
    }
    Ok(Answer { skill: Skill::GetTranscript, text, result, used })
}

struct Part {
    text: String,
    next_offset: Option<usize>,
    total: usize,
    /// The window's segments (json only).
    segments: Option<Value>,
}

fn text_part(rendered: &str, offset: usize) -> Part {
    let piece = window(rendered, offset, TRANSCRIPT_LIMIT);
    Part {
        text: piece.text.to_string(),
        next_offset: piece.next_offset,
        total: rendered.len(),
        segments: None,
    }
}

fn json_part(segments: &[api::Segment], offset: usize) -> Part {
    let mut taken = Vec::new();
    let mut size = 0;
    for segment in segments.iter().skip(offset) {
        let value = json!(segment);
        size += value.to_string().len() + 1;
        if size > TRANSCRIPT_LIMIT && !taken.is_empty() {
            break;
        }
        taken.push(value);
    }
    let end = offset.min(segments.len()) + taken.len();
    let text = serde_json::to_string_pretty(&taken).unwrap_or_default();
    Part {
        text,
        next_offset: (end < segments.len()).then_some(end),
        total: segments.len(),
        segments: Some(Value::Array(taken)),
    }
}

fn transcript_text(meeting: &api::Meeting, format: &str, part: &Part, empty: bool) -> String {
    let head =
        format!("Transcript of {} ({})", quoted(&meeting.title), date_time(meeting.started_at));
    if empty {
        let why = match meeting.status.as_str() {
            "recording" | "transcribing" => format!("it is still {}", meeting.status),
            _ => "no speech was recognised".to_string(),
        };
        return format!("{head}: empty, {why}.");
    }
    let mut text = format!("{head}:\n\n{}", part.text.trim_end());
    if let Some(next) = part.next_offset {
        let unit = if format == "json" { "segments" } else { "characters" };
        text.push_str(&format!(
            "\n\n[Cut here: up to {next} of {} {unit}. For the rest call get_transcript with \
             {{\"meeting_id\": \"{}\", \"format\": \"{format}\", \"offset\": {next}}}.]",
            part.total, meeting.id
        ));
    }
    text
}

pub async fn search(client: &Client, args: SearchMeetings) -> SkillResult {
    let results = client
        .search(&args.query, Some(args.limit.unwrap_or(10)))
        .await
        .map_err(|e| SkillError::from_client("Cannot search", e))?
        .results;
    let mut used = Used::default();
    let mut shown = Vec::new();
    for result in &results {
        used.moment(match result.start_ms {
            Some(start) => moment(&result.meeting_id, start, result.end_ms),
            None => Timestamp {
                meeting_id: result.meeting_id.to_string(),
                start_ms: None,
                end_ms: None,
                started_at: Some(result.started_at),
            },
        });
        let mut value = json!(result);
        value["text"] = json!(snippet(&result.snippet));
        shown.push(value);
    }
    Ok(Answer {
        skill: Skill::SearchMeetings,
        text: search_text(&args.query, &results),
        result: json!({ "query": args.query, "results": shown }),
        used,
    })
}

fn search_text(query: &str, results: &[api::SearchResult]) -> String {
    if results.is_empty() {
        return format!(
            "Nothing in any transcript or note matches {}. Try fewer or other words, or a prefix like budg*.",
            quoted(query)
        );
    }
    let mut text = format!(
        "{} match{} for {}:\n",
        results.len(),
        if results.len() == 1 { "" } else { "es" },
        quoted(query)
    );
    for (index, result) in results.iter().enumerate() {
        let place = match (result.start_ms, &result.speaker) {
            (Some(start), Some(speaker)) => format!("[{}] {speaker}", clock(start)),
            (Some(start), None) => format!("[{}]", clock(start)),
            _ => "in the notes".to_string(),
        };
        text.push_str(&format!(
            "\n{}. **{}** — {} · {place}: “{}”\n   meeting_id: {}",
            index + 1,
            result.meeting_title,
            date_time(result.started_at),
            snippet(&result.snippet).trim(),
            result.meeting_id
        ));
    }
    text
}
