//! The one path for every change to a meeting's record (`apply_edit`): the
//! change, its history row and the indexes' dirty marks in one transaction;
//! undo puts `before` back; the service's notes runs and a transcription
//! again keep what the person corrected.

use recorder_domain::{Channel, MeetingId, MeetingStatus};
use recorder_store::{
    ActionItemRecord, Applied, Author, Edit, JobKind, JobRecord, MeetingRecord, NewSegment,
    NoteRecord, NotesOutcome, Pass, Renamed, SpeakerRecord, Store, StoreError, TranscriptionEnd,
};

fn line(channel: Channel, start_ms: i64, text: &str) -> NewSegment {
    NewSegment { channel, start_ms, end_ms: start_ms + 3_000, text: text.into(), speaker: None }
}

/// A ready meeting with three lines: one of the person's, two of two
/// speakers on the other side (Speaker 1 and Speaker 2).
fn meeting(store: &Store) -> (MeetingId, Vec<i64>) {
    let id = MeetingId::generate();
    let record = MeetingRecord {
        id: id.clone(),
        status: MeetingStatus::Ready,
        ..MeetingRecord::new_import("planning".into(), 1_000)
    };
    store.insert_meeting(&record, 1_000).expect("meeting");
    let ids = store
        .insert_segments(
            &id,
            &[
                line(Channel::Mic, 0, "So what did they say"),
                line(Channel::Sys, 4_000, "At Scott News, the budget is approved"),
                line(Channel::Sys, 8_000, "Can you send the proposal"),
            ],
        )
        .expect("lines");
    let spans = store.sys_spans(&id).expect("spans");
    let speakers = [
        SpeakerRecord::other_side(1, None, vec![0.0; 4]),
        SpeakerRecord::other_side(2, None, vec![0.0; 4]),
    ];
    store
        .save_speakers(
            &id,
            &speakers,
            &[(spans[0].seq, Channel::Sys, 1), (spans[1].seq, Channel::Sys, 1)],
        )
        .expect("speakers");
    (id, ids)
}

fn open() -> (tempfile::TempDir, Store) {
    let folder = tempfile::tempdir().expect("temp");
    let store = Store::open(&folder.path().join("recorder.db")).expect("open");
    (folder, store)
}

fn fix(store: &Store, id: &MeetingId, segment: i64, text: &str) -> Result<Applied, StoreError> {
    let edit = Edit::Line { segment, text: Some(text.into()), speaker: None };
    store.apply_edit(id, &Author::Person, edit, 5_000)
}

#[test]
fn a_corrected_line_keeps_its_id_is_searchable_at_once_and_can_be_undone() {
    let (_folder, store) = open();
    let (id, ids) = meeting(&store);
    let Applied::Line(fixed) =
        fix(&store, &id, ids[1], "That's good news, the budget is approved").expect("fixed")
    else {
        panic!("a line")
    };
    assert_eq!((fixed.id, fixed.edited), (ids[1], true));
    assert_eq!(fixed.speaker.as_deref(), Some("Speaker 1"), "its speaker stays");
    let lines = store.segments(&id).expect("lines");
    assert_eq!(lines[1].text, "That's good news, the budget is approved");
    assert!(!lines[0].edited && !lines[2].edited, "only that line is marked");

    assert!(!store.search("good news", 10).expect("search").is_empty(), "the person's words");
    assert!(store.search("Scott", 10).expect("search").is_empty(), "not the machine's");
    let dirty = store.next_to_embed().expect("dirty").expect("the meeting is embedded again");
    assert_eq!(dirty.meeting_id, id);

    let history = store.history(&id, 50).expect("history");
    assert_eq!(history.len(), 1);
    let change = &history[0];
    assert_eq!(
        (change.by.as_str(), change.target.clone()),
        ("person", format!("segment:{}", ids[1]))
    );
    assert_eq!(
        change.before.as_ref().expect("before")["text"],
        "At Scott News, the budget is approved"
    );
    assert_eq!(
        change.after.as_ref().expect("after")["machine_text"],
        "At Scott News, the budget is approved"
    );

    let undo =
        store.undo_change(&id, &change.id, &Author::Agent("claude".into()), 6_000).expect("undo");
    assert_eq!(undo.by, "agent:claude");
    let lines = store.segments(&id).expect("lines");
    assert_eq!(
        (lines[1].text.as_str(), lines[1].edited),
        ("At Scott News, the budget is approved", false)
    );
    assert_eq!(store.history(&id, 50).expect("history").len(), 2, "the undo is a change too");
    assert!(matches!(
        store.undo_change(&id, "not-a-change", &Author::Person, 7_000),
        Err(StoreError::NotFound)
    ));
}

#[test]
fn lines_are_not_corrected_while_the_meeting_is_transcribed_and_unknown_lines_are_not_found() {
    let (_folder, store) = open();
    let (id, ids) = meeting(&store);
    assert!(matches!(fix(&store, &id, 999_999, "x"), Err(StoreError::NotFound)));
    let other = MeetingId::generate();
    assert!(matches!(fix(&store, &other, ids[0], "x"), Err(StoreError::NotFound)));
    let (other_id, other_ids) = meeting(&store);
    assert!(
        matches!(fix(&store, &id, other_ids[0], "x"), Err(StoreError::NotFound)),
        "a line of another meeting"
    );
    drop(other_id);
    let sources = [(Channel::Sys, "/data/sys.wav".to_string())];
    let pass = Pass { model: None, language: None, staged: true };
    store.enqueue_transcription_again(&id, &pass, &sources, 2_000).expect("queued");
    assert!(matches!(
        fix(&store, &id, ids[0], "x"),
        Err(StoreError::Busy(MeetingStatus::Transcribing))
    ));
    assert!(store.history(&id, 50).expect("history").is_empty(), "nothing half-written");
}

#[test]
fn a_line_or_every_line_of_a_speaker_goes_to_another_speaker() {
    let (_folder, store) = open();
    let (id, ids) = meeting(&store);
    // One line to the meeting's other speaker: it takes that speaker's number.
    let edit = Edit::Line { segment: ids[2], text: None, speaker: Some("Speaker 2".into()) };
    store.apply_edit(&id, &Author::Person, edit, 5_000).expect("moved");
    let agent = Author::Agent("claude".into());
    let renamed = Renamed { author: &agent, now: 5_500, remember: false };
    store.rename_speakers(&id, &[(2, Some("Priya".into()))], renamed).expect("named");
    let speakers: Vec<_> =
        store.segments(&id).expect("lines").into_iter().map(|l| l.speaker).collect();
    assert_eq!(speakers[2].as_deref(), Some("Priya"), "renaming the speaker renames the line");
    // The rename is in the history, by its author, and can be undone and redone.
    let history = store.history(&id, 10).expect("history");
    let rename = history.iter().find(|c| c.target == "speaker_name:2").expect("the rename");
    assert_eq!(
        (rename.by.as_str(), rename.summary.as_str()),
        ("agent:claude", "Named Speaker 2 “Priya”")
    );
    let undo = store.undo_change(&id, &rename.id, &Author::Person, 5_600).expect("undo");
    let label = |store: &Store| store.segments(&id).expect("lines")[2].speaker.clone();
    assert_eq!(label(&store).as_deref(), Some("Speaker 2"), "undone: the label is back");
    store.undo_change(&id, &undo.id, &Author::Person, 5_700).expect("redo");
    assert_eq!(label(&store).as_deref(), Some("Priya"), "the undo undone");

    // Every line of Speaker 1 to a new name, then undone.
    let edit = Edit::SpeakerLines { segment: ids[1], speaker: "Dana".into() };
    let Applied::Lines(lines) = store.apply_edit(&id, &Author::Person, edit, 6_000).expect("all")
    else {
        panic!("lines")
    };
    assert_eq!(lines.len(), 1, "Speaker 1 had one line left");
    assert_eq!(lines[0].speaker.as_deref(), Some("Dana"));
    let change = store.history(&id, 1).expect("history").remove(0);
    assert_eq!(change.target, "speaker:Speaker 1");
    store.undo_change(&id, &change.id, &Author::Person, 7_000).expect("undo");
    let lines = store.segments(&id).expect("lines");
    assert_eq!(lines[1].speaker.as_deref(), Some("Speaker 1"));

    // The person's own line can be given to someone in the room.
    let edit = Edit::SpeakerLines { segment: ids[0], speaker: "Sam".into() };
    store.apply_edit(&id, &Author::Person, edit, 8_000).expect("mic");
    assert_eq!(store.segments(&id).expect("lines")[0].speaker.as_deref(), Some("Sam"));
}

fn note(kind: &str, text: &str) -> NoteRecord {
    NoteRecord {
        id: recorder_domain::NoteId::generate(),
        kind: kind.into(),
        template_id: None,
        content_md: text.into(),
        written_by: Some("builtin".into()),
        fallback: None,
        line_moments: Vec::new(),
    }
}

fn item(text: &str) -> ActionItemRecord {
    ActionItemRecord {
        id: recorder_domain::ActionItemId::generate(),
        text: text.into(),
        owner: "Me".into(),
        done: false,
        due: None,
    }
}

/// Runs a notes job: automatic (`kind` None, as after a transcription) or
/// one kind regenerated on purpose.
fn notes_run(store: &Store, id: &MeetingId, kind: Option<&str>, outcome: NotesOutcome) {
    let job = match kind {
        Some(kind) => {
            store.enqueue_notes(id, kind, None, 9_000).expect("queued");
            store.next_job().expect("read").expect("the notes job")
        }
        None => {
            store.move_status(id, MeetingStatus::Summarising, 9_000).expect("summarising");
            JobRecord {
                seq: -1,
                meeting_id: id.clone(),
                kind: JobKind::Notes { note_kind: None, template_id: None },
                resume_ms: 0,
                pass: Pass::default(),
            }
        }
    };
    store.finish_notes(&job, &outcome, 9_500).expect("saved");
}

#[test]
fn notes_runs_keep_the_persons_summary_and_items_and_a_regeneration_on_purpose_goes_to_the_history()
{
    let (_folder, store) = open();
    let (id, _) = meeting(&store);
    let first = NotesOutcome {
        notes: vec![note("summary", "At Scott News.")],
        action_items: Some(vec![item("Send the proposal"), item("Book a room")]),
        processing_error: None,
    };
    notes_run(&store, &id, None, first);
    let (notes, items, _) = store.meeting_parts(&id).expect("parts");
    let summary_id = notes[0].id.clone();
    let edit = Edit::Note { note: summary_id.clone(), content_md: "Good news: the budget.".into() };
    let Applied::Note(written) =
        store.apply_edit(&id, &Author::Person, edit, 10_000).expect("rewritten")
    else {
        panic!("a note")
    };
    assert_eq!(written.written_by.as_deref(), Some("person"));
    let owner = Edit::UpdateItem {
        item: items[0].id.clone(),
        text: None,
        owner: Some("Priya".into()),
        due: Some(Some("2026-12-24".into())),
        done: None,
    };
    store.apply_edit(&id, &Author::Person, owner, 10_100).expect("owner");
    let added = Edit::AddItem { text: "Call Dana".into(), owner: "Me".into(), due: None };
    store.apply_edit(&id, &Author::Person, added, 10_200).expect("added");

    // An automatic run (a transcription again) keeps all three.
    let again = NotesOutcome {
        notes: vec![note("summary", "At Scott News again.")],
        action_items: Some(vec![item("Send the proposal"), item("Order lunch")]),
        processing_error: None,
    };
    notes_run(&store, &id, None, again);
    let (notes, items, _) = store.meeting_parts(&id).expect("parts");
    assert_eq!(notes[0].content_md, "Good news: the budget.");
    let texts: Vec<_> =
        items.iter().map(|i| (i.text.as_str(), i.owner.as_str(), i.due.as_deref())).collect();
    assert_eq!(
        texts,
        [
            ("Send the proposal", "Priya", Some("2026-12-24")),
            ("Call Dana", "Me", None),
            ("Order lunch", "Me", None)
        ],
        "the person's items stay, the machine's untouched one gives way, no item twice"
    );

    // Regenerating the summary on purpose replaces the person's, which the history keeps.
    notes_run(
        &store,
        &id,
        Some("summary"),
        NotesOutcome { notes: vec![note("summary", "New.")], ..Default::default() },
    );
    let (notes, _, _) = store.meeting_parts(&id).expect("parts");
    assert_eq!(notes[0].content_md, "New.");
    let history = store.history(&id, 50).expect("history");
    let replaced =
        history.iter().find(|c| c.summary.contains("replacing your edited")).expect("in history");
    assert_eq!(replaced.by, "service");
    assert_eq!(replaced.before.as_ref().expect("before")["content_md"], "Good news: the budget.");
    store.undo_change(&id, &replaced.id, &Author::Person, 12_000).expect("undo");
    let (notes, _, _) = store.meeting_parts(&id).expect("parts");
    assert_eq!(
        notes[0].content_md, "Good news: the budget.",
        "undone: the person's summary is back"
    );
    drop(summary_id);
}

#[test]
fn items_are_added_changed_removed_and_restored() {
    let (_folder, store) = open();
    let (id, _) = meeting(&store);
    let added = Edit::AddItem { text: "Send the proposal".into(), owner: "Dana".into(), due: None };
    let Applied::Item(new) = store.apply_edit(&id, &Author::Person, added, 5_000).expect("add")
    else {
        panic!("an item")
    };
    let done = Edit::UpdateItem {
        item: new.id.clone(),
        text: None,
        owner: None,
        due: None,
        done: Some(true),
    };
    store.apply_edit(&id, &Author::Agent("tracker".into()), done, 5_100).expect("done");
    let removed = Edit::RemoveItem { item: new.id.clone() };
    assert_eq!(
        store.apply_edit(&id, &Author::Person, removed, 5_200).expect("removed"),
        Applied::Removed
    );
    assert!(store.meeting_parts(&id).expect("parts").1.is_empty());
    let missing = Edit::RemoveItem { item: new.id.clone() };
    assert!(matches!(
        store.apply_edit(&id, &Author::Person, missing, 5_300),
        Err(StoreError::NotFound)
    ));

    let history = store.history(&id, 50).expect("history");
    let bys: Vec<_> = history.iter().map(|c| c.by.as_str()).collect();
    assert_eq!(bys, ["person", "agent:tracker", "person"], "newest first");
    store.undo_change(&id, &history[0].id, &Author::Person, 6_000).expect("undo the removal");
    let items = store.meeting_parts(&id).expect("parts").1;
    assert_eq!(items.len(), 1);
    assert_eq!((items[0].id.clone(), items[0].done), (new.id.clone(), true), "back as it was");
    store.undo_change(&id, &history[2].id, &Author::Person, 6_100).expect("undo the adding");
    assert!(store.meeting_parts(&id).expect("parts").1.is_empty());
}

#[test]
fn my_notes_keep_each_lines_moment_and_typing_is_one_change() {
    let (_folder, store) = open();
    let (id, _) = meeting(&store);
    let type_in = |text: &str, moment: i64, now: i64| {
        let edit = Edit::MyNotes { content_md: text.into(), moment_ms: Some(moment) };
        match store.apply_edit(&id, &Author::Person, edit, now).expect("saved") {
            Applied::Note(note) => note,
            other => panic!("{other:?}"),
        }
    };
    type_in("- budget", 4_000, 10_000);
    type_in("- budget approved", 5_000, 11_000);
    let note = type_in("- budget approved\n- ask Dana for the proposal", 9_000, 12_000);
    assert_eq!(note.kind, "mine");
    assert_eq!(note.line_moments, [Some(5_000), Some(9_000)], "an unchanged line keeps its moment");
    assert_eq!(
        store.history(&id, 50).expect("history").len(),
        1,
        "typing within a minute is one change"
    );
    let later =
        type_in("- budget approved\n- ask Dana for the proposal\n- lunch", 20_000, 12_000 + 61_000);
    assert_eq!(later.line_moments, [Some(5_000), Some(9_000), Some(20_000)]);
    assert_eq!(store.history(&id, 50).expect("history").len(), 2);
    let (notes, _, _) = store.meeting_parts(&id).expect("parts");
    assert_eq!(notes.iter().filter(|n| n.kind == "mine").count(), 1);

    // A notes run leaves them alone.
    notes_run(
        &store,
        &id,
        None,
        NotesOutcome { notes: vec![note_of("summary")], ..Default::default() },
    );
    let (notes, _, _) = store.meeting_parts(&id).expect("parts");
    assert!(notes.iter().any(|n| n.kind == "mine" && n.content_md.ends_with("- lunch")));
}

fn note_of(kind: &str) -> NoteRecord {
    note(kind, "written")
}

#[test]
fn a_transcription_again_keeps_the_corrected_lines() {
    let (_folder, store) = open();
    let (id, ids) = meeting(&store);
    fix(&store, &id, ids[1], "That's good news, the budget is approved").expect("fixed");
    let edit = Edit::Line { segment: ids[2], text: None, speaker: Some("Dana".into()) };
    store.apply_edit(&id, &Author::Person, edit, 5_000).expect("given");
    let sources = [(Channel::Sys, "/data/sys.wav".to_string())];
    let pass = Pass { model: None, language: None, staged: true };
    store.enqueue_transcription_again(&id, &pass, &sources, 6_000).expect("queued");
    let job = store.next_job().expect("read").expect("job");
    let new = [
        line(Channel::Sys, 4_200, "At Scot News, the budget is approved"),
        line(Channel::Sys, 8_100, "Could you send the proposal"),
    ];
    store.save_transcription_progress(&job, &new, 11_000, 11_000).expect("save");
    let end = TranscriptionEnd { language: None, duration_ms: 11_000, error: None };
    store.finish_transcription(&job, end, 7_000).expect("finish");
    let lines: Vec<_> = store
        .segments(&id)
        .expect("lines")
        .into_iter()
        .map(|l| (l.channel, l.text, l.speaker, l.edited))
        .collect();
    assert_eq!(
        lines,
        [
            (
                Channel::Sys,
                "That's good news, the budget is approved".to_string(),
                Some("Speaker 1".to_string()),
                true
            ),
            (
                Channel::Sys,
                "Could you send the proposal".to_string(),
                Some("Dana".to_string()),
                false
            ),
        ],
        "the corrected line stays (the new one over it is dropped); the given speaker passes on"
    );
    let change = store.history(&id, 1).expect("history").remove(0);
    assert_eq!((change.target.as_str(), change.by.as_str()), ("transcript", "service"));
    assert!(matches!(
        store.undo_change(&id, &change.id, &Author::Person, 8_000),
        Err(StoreError::Conflict(_))
    ));
}

#[test]
fn a_line_across_a_turn_is_cut_in_two_and_a_corrected_line_never_is() {
    let (_folder, store) = open();
    let (id, _) = meeting(&store);
    fix(&store, &id, store.sys_spans(&id).expect("spans")[1].seq, "Could you send the proposal")
        .expect("fix");
    let spans = store.sys_spans(&id).expect("spans");
    let cut = |seq: i64, first: &str, second: &str| recorder_store::LineCut {
        seq,
        channel: Channel::Sys,
        at_ms: spans[0].start_ms + 1_500,
        first: first.into(),
        second: second.into(),
        speakers: (Some(1), Some(2)),
    };
    let cuts = [
        cut(spans[0].seq, "At Scott News.", "The budget is approved"),
        cut(spans[1].seq, "Could you.", "Send it"),
    ];
    let speakers = [
        SpeakerRecord::other_side(1, None, vec![0.0; 4]),
        SpeakerRecord::other_side(2, None, vec![0.0; 4]),
    ];
    store.save_speakers_cutting(&id, &speakers, &[], &cuts).expect("cut");
    let lines = store.segments(&id).expect("lines");
    let theirs: Vec<(i64, i64, &str, Option<&str>)> = lines
        .iter()
        .filter(|l| l.channel == Channel::Sys)
        .map(|l| (l.start_ms, l.end_ms, l.text.as_str(), l.speaker.as_deref()))
        .collect();
    assert_eq!(
        theirs,
        [
            (4_000, 5_500, "At Scott News.", Some("Speaker 1")),
            (5_500, 7_000, "The budget is approved", Some("Speaker 2")),
            (8_000, 11_000, "Could you send the proposal", None),
        ]
    );
}
