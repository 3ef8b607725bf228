//! The built-in engine on short conversations: a planning call, requests put to
//! someone, agreements, small talk and hypotheticals.

use recorder_domain::NoteKind;
use recorder_notes::{action_items, generate, ActionItemDraft, Context, Line};

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

fn context() -> Context {
    Context { user_name: "Me".into(), ..Context::default() }
}

fn note(kind: NoteKind, lines: &[Line]) -> String {
    generate(kind, lines, &context()).content_md
}

fn pairs(items: &[ActionItemDraft]) -> Vec<(&str, &str)> {
    items.iter().map(|item| (item.text.as_str(), item.owner.as_str())).collect()
}

/// The one-minute planning call of the issue; `other` is the other side's label.
fn planning_call(other: &str) -> Vec<Line> {
    script(&[
        (other, "Hi, thanks for making time. How did the budget look last quarter?"),
        (
            "Me",
            "Sure, marketing spent about 12% less than planned, mostly because the trade show \
             was cancelled.",
        ),
        (other, "Good, so we have some room for the offsite this year."),
        (
            "Me",
            "One more thing, the new hire starts on Monday and I think she needs an onboarding \
             buddy.",
        ),
        (other, "Right, Sam can be her buddy for the first two weeks."),
        ("Me", "When should we do the offsite?"),
        (other, "Let's plan it for the second week of next month."),
        (other, "Can you send me a short proposal by Friday?"),
        ("Me", "Sure, will do."),
    ])
}

#[test]
fn the_planning_call_gets_topics_outcomes_and_the_right_owner() {
    let lines = planning_call("Dana");
    assert_eq!(
        note(NoteKind::Summary, &lines),
        "Topics: budget, offsite, new hire. Agreed: plan the offsite for the second week of next \
         month. Next: send Dana a short proposal by Friday (Me)."
    );
    assert_eq!(
        note(NoteKind::Decisions, &lines),
        "- **Dana:** Plan the offsite for the second week of next month."
    );
    assert_eq!(
        pairs(&action_items(&lines, &context())),
        [("Send Dana a short proposal by Friday", "Me")]
    );
    assert_eq!(
        note(NoteKind::KeyPoints, &lines),
        "- Marketing spent about 12% less than planned (Me)\n\
         - We have some room for the offsite this year (Dana)\n\
         - The new hire starts on Monday and she needs an onboarding buddy (Me)\n\
         - Sam can be her buddy for the first two weeks (Dana)"
    );
}

#[test]
fn the_planning_call_with_an_unnamed_voice_drops_me_from_the_task() {
    let lines = planning_call("Speaker 1");
    let summary = note(NoteKind::Summary, &lines);
    assert!(summary.contains("Next: send a short proposal by Friday (Me)."), "{summary}");
    assert!(!summary.contains("Sure, marketing spent"), "{summary}");
    let points = note(NoteKind::KeyPoints, &lines);
    assert!(points.lines().all(|p| p.starts_with("- ") && !p.contains("Speaker 1:")), "{points}");
    assert!(points.contains("- Sam can be her buddy for the first two weeks (Speaker 1)"));
}

#[test]
fn a_request_the_user_makes_is_owned_by_the_other_side() {
    let lines = script(&[
        ("Me", "Can you send me a short proposal by Friday?"),
        ("Speaker 1", "Sure, will do."),
    ]);
    assert_eq!(
        pairs(&action_items(&lines, &context())),
        [("Send me a short proposal by Friday", "Speaker 1")]
    );
}

#[test]
fn requests_put_to_someone_are_theirs_and_worded_for_them() {
    let lines = script(&[
        ("Dana", "The customer demo is on Thursday."),
        ("Dana", "Sam, can you send me the slides by Wednesday?"),
        ("Sam", "Yes, no problem."),
        ("Dana", "Could you book the meeting room?"),
        ("Lee", "Sure, I'll do it now."),
        ("Lee", "Can you check the projector, Sam?"),
        ("Sam", "Will do."),
        ("Dana", "Please review my talking points before the demo."),
        ("Lee", "Okay."),
    ]);
    assert_eq!(
        pairs(&action_items(&lines, &context())),
        [
            ("Send Dana the slides by Wednesday", "Sam"),
            ("Book the meeting room", "Lee"),
            ("Check the projector", "Sam"),
            ("Review Dana's talking points before the demo", "Lee"),
        ]
    );
}

#[test]
fn a_request_answering_a_question_goes_to_the_one_who_asked_it() {
    let lines = script(&[
        ("Aisha", "Carmen, would you schedule the kickoff call for next week?"),
        ("Carmen", "Yes. Should we invite their IT lead too?"),
        ("Aisha", "Yes, please add him to the invite."),
        ("Ben", "I'm off on Friday, by the way."),
    ]);
    let items = action_items(&lines, &context());
    assert_eq!(pairs(&items)[1], ("Add him to the invite", "Carmen"));
}

#[test]
fn an_accepted_offer_is_a_task_of_the_one_who_offered() {
    let lines = script(&[
        ("Grace", "We agreed to keep the travel budget flat."),
        ("Tomas", "Do you want me to cancel the unused licenses too?"),
        ("Grace", "Yes, please do."),
        ("Tomas", "Should I also call the vendor?"),
        ("Grace", "No, I'll call them myself."),
    ]);
    assert_eq!(
        pairs(&action_items(&lines, &context())),
        [("Cancel the unused licenses too", "Tomas")]
    );
}

#[test]
fn agreements_are_decisions_written_as_statements() {
    let lines = script(&[
        ("Omar", "We have two offers for the new laptops."),
        ("Sofia", "Brightline is cheaper and delivers faster."),
        ("Omar", "Okay, we'll go with Brightline."),
        ("Sofia", "Agreed."),
        ("Omar", "For the retro, should we move it to Friday?"),
        ("Sofia", "Yes, let's do that."),
        ("Omar", "Sounds good, let's keep the budget flat this quarter."),
        ("Sofia", "We decided to hire two contractors for the migration."),
        ("Omar", "Okay, so we'll announce the change on Monday."),
        ("Sofia", "Let us move the all-hands to the big room."),
    ]);
    assert_eq!(
        note(NoteKind::Decisions, &lines),
        "- **Omar:** Go with Brightline. _(agreed by Sofia)_\n\
         - **Omar:** Move the retro to Friday. _(agreed by Sofia)_\n\
         - **Omar:** Keep the budget flat this quarter.\n\
         - **Sofia:** Hire two contractors for the migration.\n\
         - **Omar:** Announce the change on Monday.\n\
         - **Sofia:** Move the all-hands to the big room."
    );
    let summary = note(NoteKind::Summary, &lines);
    assert!(
        summary.contains(
            "Agreed: go with Brightline; move the retro to Friday; keep the budget flat this \
             quarter; and 3 more decisions."
        ),
        "{summary}"
    );
    assert!(!summary.contains("Next:"), "the flat budget is said once, as agreed: {summary}");
}

#[test]
fn small_talk_gives_no_tasks_and_no_decisions() {
    let lines = script(&[
        ("Ella", "How was your weekend?"),
        ("Noah", "Pretty good, we took the kids to the zoo on Saturday."),
        ("Ella", "Nice! I'm going to the beach next weekend if the weather holds."),
        ("Noah", "Lucky you. I will probably just sleep all Sunday."),
        ("Ella", "Let's grab lunch sometime next week."),
        ("Noah", "Sure, sounds good."),
        ("Ella", "I'm going to go back to the lake with my kids next month."),
        ("Noah", "Okay, talk to you later."),
    ]);
    assert_eq!(action_items(&lines, &context()), []);
    assert_eq!(note(NoteKind::Decisions, &lines), "_No decisions were recorded._");
    let summary = note(NoteKind::Summary, &lines);
    assert!(summary.starts_with("Topics: weekend, "), "{summary}");
    assert!(summary.ends_with(". A short conversation with no decisions or tasks."), "{summary}");
}

#[test]
fn hypotheticals_and_open_questions_are_neither_decisions_nor_tasks_but_polite_ifs_are() {
    let lines = script(&[
        ("Ava", "What if we moved the launch to June?"),
        ("Leo", "If we moved it, we would need to tell the partners."),
        ("Ava", "Should we go with the cheaper vendor?"),
        ("Leo", "I'm not sure, let's think about it."),
        ("Ava", "If I had more time, I would rewrite the onboarding guide."),
        ("Leo", "Would you sign the contract if they cut the price?"),
        ("Ava", "Maybe, it depends on the terms."),
        ("Leo", "Let's say we hire two people, what then?"),
        ("Ava", "If we get the extra budget, would you hire a second designer?"),
        ("Leo", "If you have a minute, would you check the budget sheet?"),
    ]);
    assert_eq!(pairs(&action_items(&lines, &context())), [("Check the budget sheet", "Ava")]);
    assert_eq!(note(NoteKind::Decisions, &lines), "_No decisions were recorded._");
}

#[test]
fn filler_alone_says_so_plainly() {
    let lines = script(&[("Me", "Yeah."), ("Them", "Okay."), ("Me", "Right, sure.")]);
    assert_eq!(note(NoteKind::Summary, &lines), "A short conversation with no decisions or tasks.");
    assert_eq!(note(NoteKind::KeyPoints, &lines), "_No key points were found._");
}
