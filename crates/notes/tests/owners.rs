//! Who owes what: owners from who is asked and who volunteers, whatever the
//! labels (named speakers, anonymous "Speaker N" voices, everything "Them"),
//! and the names of anonymous voices told by the conversation.

use recorder_notes::{action_items, ActionItemDraft, Context, Line};

/// Lines from (speaker, text) pairs, two seconds apart.
fn script(turns: &[(&str, &str)]) -> Vec<Line> {
    turns
        .iter()
        .enumerate()
        .map(|(at, (speaker, text))| Line {
            speaker: (*speaker).to_string(),
            start_ms: at as i64 * 2000,
            end_ms: at as i64 * 2000 + 1800,
            text: (*text).to_string(),
        })
        .collect()
}

fn with_attendees(attendees: &[&str]) -> Context {
    Context {
        user_name: "Me".into(),
        attendees: attendees.iter().map(|a| (*a).to_string()).collect(),
        title: String::new(),
    }
}

fn pairs(items: &[ActionItemDraft]) -> Vec<(&str, &str)> {
    items.iter().map(|item| (item.text.as_str(), item.owner.as_str())).collect()
}

const BOB: &str = "Bob, can you book the meeting room for Tuesday? I will send the report.";

#[test]
fn bob_books_the_room_and_the_speaker_sends_the_report_in_one_turn() {
    let context = with_attendees(&["Bob", "Alma"]);
    for label in ["Alma", "Speaker 1", "Them"] {
        let items = action_items(&script(&[(label, BOB)]), &context);
        let want_report = if label == "Speaker 1" { "Speaker 1" } else { label };
        assert_eq!(
            pairs(&items),
            [("Book the meeting room for Tuesday", "Bob"), ("Send the report", want_report)],
            "{label}"
        );
    }
}

#[test]
fn bob_and_the_report_survive_an_answer_with_a_pronoun() {
    let context = with_attendees(&["Bob", "Alma"]);
    for (asker, other) in [("Alma", "Bob"), ("Them", "Them")] {
        let lines = script(&[
            (asker, "Bob, can you book the meeting room for Tuesday?"),
            (asker, "I will send them the report."),
            (other, "Sure, I'll book it."),
        ]);
        let items = action_items(&lines, &context);
        assert_eq!(
            pairs(&items),
            [("Book the meeting room for Tuesday", "Bob"), ("Send them the report", asker)],
            "{asker}"
        );
    }
}
