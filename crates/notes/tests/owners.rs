//! Who owes what: owners from who is asked and who volunteers, whatever the
//! labels (named speakers, anonymous "Speaker N" voices, everything "Them"),
//! and the names of anonymous voices told by the conversation.

use recorder_notes::{action_items, speaker_names, ActionItemDraft, Context, Line};

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
        ..Context::default()
    }
}

fn pairs(items: &[ActionItemDraft]) -> Vec<(&str, &str)> {
    items.iter().map(|item| (item.text.as_str(), item.owner.as_str())).collect()
}

fn named(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(label, name)| ((*label).to_string(), (*name).to_string())).collect()
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

#[test]
fn bob_is_named_by_his_answer_and_the_one_who_asked_by_elimination() {
    let context = with_attendees(&["Alma", "Bob"]);
    let lines = script(&[("Speaker 1", BOB), ("Speaker 2", "Sure thing.")]);
    assert_eq!(
        speaker_names(&lines, &context),
        named(&[("Speaker 1", "Alma"), ("Speaker 2", "Bob")])
    );
    assert_eq!(
        pairs(&action_items(&lines, &context)),
        [("Book the meeting room for Tuesday", "Bob"), ("Send the report", "Alma")]
    );
}

#[test]
fn anonymous_voices_are_named_from_their_introductions() {
    let lines = script(&[
        ("Speaker 1", "Hello, my name is Nadia, I run the events team."),
        ("Speaker 2", "Nice to meet you, I'm Oscar from marketing."),
        ("Speaker 1", "I'm going to order the banners for the conference."),
        ("Speaker 2", "Could you also share the floor map of the venue?"),
        ("Speaker 1", "Sure, I'll send it after this call."),
    ]);
    let context = with_attendees(&[]);
    assert_eq!(
        speaker_names(&lines, &context),
        named(&[("Speaker 1", "Nadia"), ("Speaker 2", "Oscar")])
    );
    let items = action_items(&lines, &context);
    assert_eq!(
        pairs(&items),
        [
            ("Order the banners for the conference", "Nadia"),
            ("Share the floor map of the venue", "Nadia")
        ]
    );
}

#[test]
fn the_voice_that_answers_a_name_is_that_name_in_a_three_way_call() {
    let lines = script(&[
        ("Speaker 1", "We have three candidates for the backend role."),
        ("Speaker 2", "I liked the second one."),
        ("Speaker 3", "Me too. Elif, will you schedule the final interviews?"),
        ("Speaker 1", "Yes, I'll schedule them this week."),
        ("Speaker 2", "Gwen, can you send me her portfolio?"),
        ("Speaker 3", "Sure."),
    ]);
    let context = with_attendees(&["Elif", "Farid", "Gwen"]);
    assert_eq!(
        speaker_names(&lines, &context),
        named(&[("Speaker 1", "Elif"), ("Speaker 2", "Farid"), ("Speaker 3", "Gwen")])
    );
    let items = action_items(&lines, &context);
    assert_eq!(
        pairs(&items),
        [("Schedule the final interviews this week", "Elif"), ("Send Farid her portfolio", "Gwen")]
    );
}

#[test]
fn thanks_by_name_at_the_end_names_both_voices() {
    let lines = script(&[
        ("Speaker 1", "Can you ask facilities for the final floor plan?"),
        ("Speaker 2", "Yes, I'll ask them tomorrow morning."),
        ("Speaker 2", "Thanks, Grace."),
        ("Speaker 1", "Thanks, Hugo, talk soon."),
    ]);
    let context = with_attendees(&[]);
    assert_eq!(
        speaker_names(&lines, &context),
        named(&[("Speaker 1", "Grace"), ("Speaker 2", "Hugo")])
    );
}

#[test]
fn conflicting_evidence_names_nobody() {
    let context = with_attendees(&["Dana", "Erin"]);
    // Both voices say they are Dana: neither is named, and elimination cannot decide.
    let twice = script(&[("Speaker 1", "Hi, I'm Dana."), ("Speaker 2", "Hello, I'm Dana.")]);
    assert_eq!(speaker_names(&twice, &context), named(&[]));
    // A voice that calls Dana by name is not Dana, whatever it said before.
    let denied = script(&[
        ("Speaker 1", "This is Dana."),
        ("Speaker 1", "Dana, can you send the deck?"),
        ("Speaker 2", "Okay."),
    ]);
    assert_eq!(speaker_names(&denied, &context), named(&[("Speaker 2", "Dana")]));
}

#[test]
fn elimination_needs_as_many_voices_as_attendees() {
    let lines = script(&[
        ("Speaker 1", "Hi, it's Lena. Have you seen the travel budget?"),
        ("Speaker 2", "Yes, we're over by about ten percent."),
    ]);
    let two = with_attendees(&["Lena", "Marco"]);
    assert_eq!(
        speaker_names(&lines, &two),
        named(&[("Speaker 1", "Lena"), ("Speaker 2", "Marco")])
    );
    let three = with_attendees(&["Lena", "Marco", "Nils"]);
    assert_eq!(speaker_names(&lines, &three), named(&[("Speaker 1", "Lena")]));
}

#[test]
fn named_labels_and_them_are_never_renamed() {
    let context = with_attendees(&["Dana", "Erin"]);
    let lines = script(&[("Them", "Hi, I'm Erin."), ("Dana", "Hi Erin."), ("Speaker 2", "Okay.")]);
    assert_eq!(speaker_names(&lines, &context), named(&[]));
}

#[test]
fn a_dated_commitment_with_a_pronoun_is_a_task_when_it_answers_no_request() {
    let context = with_attendees(&["Hana", "Ilja"]);
    let lines = script(&[
        ("Hana", "I have the tile samples. I'll bring them on Saturday."),
        ("Ilja", "Great, see you then."),
    ]);
    assert_eq!(pairs(&action_items(&lines, &context)), [("Bring them on Saturday", "Hana")]);
    let after_request = script(&[
        ("Rafael", "Pia, can you proofread the newsletter? I'll schedule it for Thursday."),
        ("Pia", "Sure."),
    ]);
    assert_eq!(
        pairs(&action_items(&after_request, &context)),
        [("Proofread the newsletter", "Pia"), ("Schedule it for Thursday", "Rafael")]
    );
}

#[test]
fn under_them_a_pronoun_answer_gives_the_request_its_owner_not_a_second_item() {
    let lines = script(&[
        ("Them", "Could you draft an agenda for the webinar?"),
        ("Them", "Sure, I'll draft it by Monday."),
        ("Them", "Lars, can you check the payment terms?"),
        ("Them", "I'll ask them today."),
    ]);
    assert_eq!(
        pairs(&action_items(&lines, &with_attendees(&["Lars"]))),
        [
            ("Draft an agenda for the webinar by Monday", "Them"),
            ("Check the payment terms today", "Lars")
        ]
    );
}

#[test]
fn an_open_task_is_owned_by_the_one_who_takes_it() {
    let context = with_attendees(&["Nadia", "Oscar"]);
    for (asker, taker, owner) in [
        ("Nadia", "Oscar", "Oscar"),
        ("Speaker 1", "Speaker 2", "Speaker 2"),
        ("Them", "Them", "Them"),
    ] {
        let lines = script(&[
            (asker, "We need someone to design the booth for the conference."),
            (taker, "Sure, I'll take that."),
        ]);
        assert_eq!(
            pairs(&action_items(&lines, &context)),
            [("Design the booth for the conference", owner)],
            "{asker}"
        );
    }
    let nobody = script(&[("Nadia", "We need someone to design the booth."), ("Oscar", "Hmm.")]);
    assert_eq!(pairs(&action_items(&nobody, &context)), []);
}

#[test]
fn in_an_import_the_person_is_not_given_a_request_nobody_answers() {
    let lines = script(&[("Them", "Could you send the signed contract by Friday?")]);
    let recorded = with_attendees(&[]);
    let items = action_items(&lines, &recorded);
    assert_eq!(pairs(&items), [("Send the signed contract by Friday", "Me")]);
    // An imported file, where no speaker is named as the person.
    let imported = Context { person_absent: true, ..with_attendees(&[]) };
    let items = action_items(&lines, &imported);
    assert_eq!(pairs(&items), [("Send the signed contract by Friday", "Them")]);
}
