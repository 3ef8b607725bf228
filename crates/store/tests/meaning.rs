//! Passages for search by meaning against a real SQLite file: which meetings
//! need embedding, a change while embedding, and deletion.

use recorder_domain::{Channel, MeetingId, MeetingStatus, NoteId};
use recorder_store::{
    MeetingRecord, NewPassage, NewSegment, NoteRecord, PassageContent, PassageSource, Store,
};

fn open() -> (tempfile::TempDir, Store) {
    let folder = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open store");
    (folder, store)
}

fn meeting(store: &Store, status: MeetingStatus, lines: &[&str]) -> MeetingId {
    let id = MeetingId::generate();
    let record = MeetingRecord {
        id: id.clone(),
        title: "Office".into(),
        source_app: "zoom".into(),
        started_at: 5_000,
        ended_at: Some(65_000),
        duration_ms: 60_000,
        status,
        language: Some("en".into()),
        attendees: vec![],
        tags: vec![],
        vocabulary: vec![],
        starred: false,
        processing_error: None,
    };
    store.insert_meeting(&record, 5_000).expect("insert");
    let segments: Vec<NewSegment> = lines
        .iter()
        .enumerate()
        .map(|(i, text)| NewSegment {
            channel: Channel::Sys,
            start_ms: i as i64 * 10_000,
            end_ms: i as i64 * 10_000 + 9_000,
            text: text.to_string(),
            speaker: None,
        })
        .collect();
    store.insert_segments(&id, &segments).expect("segments");
    id
}

fn passage(start_ms: i64, end_ms: i64, source: PassageSource) -> NewPassage {
    NewPassage { source, start_ms, end_ms, scale: 0.01, vector: vec![1; 384] }
}

#[test]
fn ready_meetings_wait_for_embedding_until_their_passages_are_saved() {
    let (_folder, store) = open();
    meeting(&store, MeetingStatus::Transcribing, &["still going"]);
    let id = meeting(&store, MeetingStatus::Ready, &["we move to the new building", "in May"]);
    let progress = store.meaning_progress().expect("progress");
    assert_eq!((progress.remaining, progress.meetings), (1, 1), "only ready meetings count");
    let source = store.next_to_embed().expect("read").expect("one to embed");
    assert_eq!(source.meeting_id, id);
    assert_eq!(source.lines.len(), 2);
    let saved = store
        .save_passages(
            source.meeting,
            source.version,
            &[passage(0, 19_000, PassageSource::Transcript)],
        )
        .expect("save");
    assert!(saved.is_some());
    assert_eq!(store.meaning_progress().expect("progress").remaining, 0);
    assert!(store.next_to_embed().expect("read").is_none());
    let vectors = store.passage_vectors_after(0, 10).expect("vectors");
    assert_eq!(vectors.len(), 1);
    assert_eq!((vectors[0].started_at, vectors[0].vector.len()), (5_000, 384));
    let shown = store.passages(&[vectors[0].passage]).expect("passages");
    match &shown[0].content {
        PassageContent::Transcript(lines) => {
            let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(texts, ["we move to the new building", "in May"]);
        }
        other => panic!("a transcript passage, not {other:?}"),
    }
}

#[test]
fn a_change_while_embedding_keeps_the_meeting_dirty_and_deletion_takes_the_passages() {
    let (_folder, store) = open();
    let id = meeting(&store, MeetingStatus::Ready, &["first words"]);
    let source = store.next_to_embed().expect("read").expect("one");
    store
        .insert_segments(
            &id,
            &[NewSegment {
                channel: Channel::Mic,
                start_ms: 50_000,
                end_ms: 51_000,
                text: "a late line".into(),
                speaker: None,
            }],
        )
        .expect("segment");
    let stale = [passage(0, 9_000, PassageSource::Transcript)];
    assert!(store.save_passages(source.meeting, source.version, &stale).expect("save").is_none());
    assert!(store.passage_vectors_after(0, 10).expect("vectors").is_empty());
    let again = store.next_to_embed().expect("read").expect("still dirty");
    let note = NoteRecord {
        id: NoteId::generate(),
        kind: "summary".into(),
        template_id: None,
        content_md: "- We move in May".into(),
        written_by: None,
        fallback: None,
        line_moments: Vec::new(),
    };
    let first = store
        .save_passages(
            again.meeting,
            again.version,
            &[passage(0, 9_000, PassageSource::Transcript)],
        )
        .expect("save");
    store.put_note(&id, &note, 9).expect("note");
    let after_note = store.next_to_embed().expect("read").expect("a new note makes it dirty");
    assert_eq!(after_note.notes.len(), 1);
    let note_seq = after_note.notes[0].0;
    let passages = [
        passage(0, 9_000, PassageSource::Transcript),
        passage(0, 0, PassageSource::Note { note: note_seq, item: 0 }),
    ];
    let second =
        store.save_passages(after_note.meeting, after_note.version, &passages).expect("save");
    let kept = store.passage_vectors_after(0, 10).expect("vectors");
    assert_eq!(kept.len(), 2, "the earlier passages were replaced");
    assert_eq!(second, Some(kept[0].passage), "the first new id");
    assert!(first.is_some_and(|first| first < kept[0].passage));
    let shown = store.passages(&[kept[1].passage]).expect("passages");
    assert!(
        matches!(&shown[0].content, PassageContent::Note { markdown, item: 0, .. } if markdown == "- We move in May")
    );
    store.delete_meeting(&id).expect("delete");
    assert!(store.passage_vectors_after(0, 10).expect("vectors").is_empty());
    assert!(store.passages(&[kept[0].passage]).expect("read").is_empty());
    assert!(store.next_to_embed().expect("read").is_none());
    assert_eq!(store.passage_totals().expect("totals"), (0, 0));
}
