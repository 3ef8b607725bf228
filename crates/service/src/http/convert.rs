//! From store records to wire types.

use recorder_api_types as api;
use recorder_domain::NoteKind;
use recorder_store::{
    ActionItemRecord, HitSource, MarkerRecord, MeetingRecord, NoteRecord, SearchHit, SegmentRecord,
};

pub fn meeting(record: MeetingRecord) -> api::Meeting {
    api::Meeting {
        id: record.id,
        title: record.title,
        source_app: record.source_app,
        started_at: record.started_at,
        ended_at: record.ended_at,
        duration_ms: record.duration_ms,
        status: record.status,
        language: record.language,
        attendees: record.attendees.into_iter().map(|name| api::Attendee { name }).collect(),
        tags: record.tags,
        starred: record.starred,
        processing_error: record.processing_error,
        vocabulary: record.vocabulary,
        notes: None,
        action_items: None,
        markers: None,
    }
}

pub fn meeting_with_parts(
    record: MeetingRecord,
    (notes, items, markers): (Vec<NoteRecord>, Vec<ActionItemRecord>, Vec<MarkerRecord>),
) -> api::Meeting {
    api::Meeting {
        notes: Some(notes.into_iter().map(note).collect()),
        action_items: Some(items.into_iter().map(action_item).collect()),
        markers: Some(markers.into_iter().map(marker).collect()),
        ..meeting(record)
    }
}

pub fn note(record: NoteRecord) -> api::Note {
    // A kind this version does not know (none is written) reads as custom.
    let kind = match record.kind.as_str() {
        "mine" => NoteKind::Mine,
        other => NoteKind::parse(other).unwrap_or(NoteKind::Custom),
    };
    api::Note {
        id: record.id,
        kind,
        content_md: record.content_md,
        written_by: record.written_by,
        fallback: record.fallback,
        line_moments: record.line_moments,
    }
}

pub fn action_item(record: ActionItemRecord) -> api::ActionItem {
    api::ActionItem {
        id: record.id,
        text: record.text,
        owner: record.owner,
        done: record.done,
        due: record.due,
    }
}

pub fn marker(record: MarkerRecord) -> api::Marker {
    api::Marker { id: record.id, at_ms: record.at_ms, label: record.label }
}

pub fn segment(record: SegmentRecord, user_name: &str) -> api::Segment {
    api::Segment {
        id: record.id.to_string(),
        speaker: record.speaker_name(user_name),
        channel: record.channel,
        start_ms: record.start_ms,
        end_ms: record.end_ms,
        text: record.text,
        edited: record.edited,
    }
}

pub fn search_result(hit: SearchHit, user_name: &str) -> api::SearchResult {
    let snippet = recorder_domain::text::snippet_to_html(&hit.snippet);
    let mut result = api::SearchResult {
        meeting_id: hit.meeting_id,
        meeting_title: hit.meeting_title,
        started_at: hit.started_at,
        source: api::PassageSource::Transcript,
        start_ms: None,
        end_ms: None,
        speaker: None,
        note_id: None,
        snippet,
    };
    match hit.source {
        HitSource::Transcript { start_ms, end_ms, channel, speaker } => {
            result.start_ms = Some(start_ms);
            result.end_ms = Some(end_ms);
            result.speaker = Some(speaker.unwrap_or_else(|| channel.speaker(user_name)));
        }
        HitSource::Note { note_id } => {
            result.source = api::PassageSource::Note;
            result.note_id = Some(note_id);
        }
    }
    result
}
