//! End-to-end behaviour of the built-in notes engine on realistic transcripts.

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
    Context {
        user_name: "Me".to_string(),
        attendees: vec!["alice.wong@example.com".to_string(), "Carol Diaz".to_string()],
        title: "Q3 launch planning".to_string(),
        ..Context::default()
    }
}

/// A planning call between the user ("Me") and the remote side ("Them").
fn meeting() -> Vec<Line> {
    script(&[
        ("Me", "Hi, can you hear me okay?"),
        ("Them", "Yes, loud and clear. Thanks for joining."),
        ("Me", "So the main goal today is to lock the Q3 launch plan and the launch budget."),
        (
            "Them",
            "The launch budget is tight because the marketing budget was cut by twenty percent.",
        ),
        ("Me", "I'll be honest, it was hard."),
        ("Me", "I'll send the budget report to the finance team by Friday."),
        ("Them", "Good. The launch date depends on the pull request for the new checkout flow."),
        ("Them", "Can you review the pull request before tomorrow's standup?"),
        ("Me", "Sure."),
        ("Me", "The checkout flow is the riskiest part of the launch, so testing matters."),
        ("Them", "Alice, please update the roadmap slides."),
        ("Them", "Action item: Bob will book the venue for the offsite."),
        ("Me", "For the launch design we looked at two options, blue and green."),
        ("Them", "We decided to go with the blue design."),
        ("Me", "Let's finalize the hiring plan by next Wednesday."),
        ("Them", "The hiring plan needs two engineers for the launch."),
        ("Me", "I had a sandwich for lunch, by the way."),
        ("Them", "Okay, thanks everyone, talk soon."),
    ])
}

fn owner_of<'a>(items: &'a [ActionItemDraft], key: &str) -> &'a str {
    items
        .iter()
        .find(|item| item.text.contains(key))
        .map(|item| item.owner.as_str())
        .unwrap_or_else(|| panic!("no item containing {key:?} in {items:#?}"))
}

#[test]
fn action_items_of_a_planning_call() {
    let note = generate(NoteKind::ActionItems, &meeting(), &context());
    let items = note.action_items.clone().expect("action items are structured");
    assert_eq!(items.len(), 5, "{items:#?}");
    assert_eq!(owner_of(&items, "budget report"), "Me");
    assert_eq!(owner_of(&items, "pull request"), "Me", "Them asked, so the user owns it");
    assert_eq!(owner_of(&items, "roadmap slides"), "Alice");
    assert_eq!(owner_of(&items, "venue"), "Bob");
    assert_eq!(owner_of(&items, "hiring plan"), "Everyone");
    assert_eq!(items[0].text, "Send the budget report to the finance team by Friday");
    assert_eq!(items[1].text, "Review the pull request before tomorrow's standup");
    assert_eq!(items[2].text, "Update the roadmap slides");
    assert_eq!(items[3].text, "Book the venue for the offsite");
    assert_eq!(items[4].text, "Finalize the hiring plan by next Wednesday");
    assert!(items.iter().all(|item| !item.text.contains("hear") && !item.text.contains("honest")));
    assert_eq!(
        note.content_md.lines().next(),
        Some("- [ ] Send the budget report to the finance team by Friday (Me)")
    );
    assert_eq!(note.content_md.lines().count(), 5);
    assert_eq!(action_items(&meeting(), &context()), items);
}

#[test]
fn small_talk_and_figures_of_speech_are_not_action_items() {
    let lines = script(&[
        ("Me", "Can you hear me okay?"),
        ("Them", "I'll be honest, it was hard."),
        ("Me", "Can you see my screen?"),
        ("Them", "I will say the numbers look better than last quarter."),
        ("Me", "I'll think about it."),
        ("Them", "Let's see. Let's start. Okay, let's get started."),
        ("Me", "I'm going to be out next week."),
        ("Them", "Could you repeat that? Can you give me an example?"),
        ("Me", "I'm going to go ahead and share my screen."),
        ("Them", "Let's take a look at the dashboard. Let's circle back to that later."),
        ("Me", "So what I'm going to do is walk through the slides."),
        ("Them", "I'll keep you posted. Will you be at the offsite?"),
        ("Me", "How can you tell? We should probably get going."),
    ]);
    let note = generate(NoteKind::ActionItems, &lines, &context());
    assert_eq!(note.action_items, Some(Vec::new()));
    assert_eq!(note.content_md, "_No action items were found._");
}

#[test]
fn owners_follow_who_asked_whom() {
    let context = Context {
        user_name: "Ada".to_string(),
        attendees: vec!["Carol Diaz".to_string()],
        title: String::new(),
        ..Context::default()
    };
    let lines = script(&[
        ("Ada", "Could you send me the signed contract?"),
        ("Them", "Would you please share the deck with legal by Thursday?"),
        ("Ada", "Can you check the server logs, Dana?"),
        ("Them", "carol can you draft the press release"),
        ("Ada", "Action item for Carol: renew the domain before it expires in June."),
        ("Them", "Let's have Carol organize the team dinner."),
        ("Ada", "Make sure to update the changelog."),
        ("Them", "Todo: fix the flaky login test."),
        ("Ada", "We need to renew the SSL certificate by the end of the month."),
        ("Them", "I'm going to set up the staging environment next week."),
        ("Ada", "I'll forward the invoice to Dana, can you approve it by Monday?"),
    ]);
    let items = action_items(&lines, &context);
    assert_eq!(owner_of(&items, "signed contract"), "Them");
    assert_eq!(owner_of(&items, "deck with legal"), "Ada");
    assert_eq!(owner_of(&items, "server logs"), "Dana");
    assert_eq!(owner_of(&items, "press release"), "Carol");
    assert_eq!(owner_of(&items, "domain"), "Carol");
    assert_eq!(owner_of(&items, "team dinner"), "Carol");
    assert_eq!(owner_of(&items, "changelog"), "Them");
    assert_eq!(owner_of(&items, "flaky login test"), "Everyone");
    assert_eq!(owner_of(&items, "SSL certificate"), "Everyone");
    assert_eq!(owner_of(&items, "staging environment"), "Them");
    assert_eq!(owner_of(&items, "Forward the invoice to Dana"), "Ada");
    assert_eq!(owner_of(&items, "Approve it by Monday"), "Them");
    assert_eq!(items.len(), 12, "{items:#?}");
    assert_eq!(items[2].text, "Check the server logs");
    assert_eq!(items[1].text, "Share the deck with legal by Thursday");
}

#[test]
fn asr_output_without_punctuation_or_capitals() {
    let context = Context {
        user_name: "Me".to_string(),
        attendees: vec!["Bob".to_string()],
        title: String::new(),
        ..Context::default()
    };
    let lines = script(&[
        ("Me", "i'll send the notes tomorrow"),
        ("Them", "ok so can you review the design doc and i'll book the room for friday"),
        ("Me", "bob will order the new laptops"),
        ("Them", "we decided to go with the blue design"),
    ]);
    let items = action_items(&lines, &context);
    let expected = [
        ("Send the notes tomorrow", "Me"),
        ("Review the design doc", "Me"),
        ("Book the room for friday", "Them"),
        ("Order the new laptops", "Bob"),
    ];
    let actual: Vec<(&str, &str)> =
        items.iter().map(|item| (item.text.as_str(), item.owner.as_str())).collect();
    assert_eq!(actual, expected);
    let decisions = generate(NoteKind::Decisions, &lines, &context).content_md;
    assert_eq!(decisions, "- **Them:** Go with the blue design.");
}

#[test]
fn sentences_split_across_segments_are_rejoined() {
    let lines = script(&[
        ("Me", "I'll send the budget report to the"),
        ("Me", "finance team by Friday."),
        ("Them", "We decided to go with"),
        ("Them", "the blue design for the launch."),
    ]);
    let items = action_items(&lines, &context());
    assert_eq!(
        items,
        [ActionItemDraft {
            text: "Send the budget report to the finance team by Friday".to_string(),
            owner: "Me".to_string(),
        }]
    );
    let decisions = generate(NoteKind::Decisions, &lines, &context()).content_md;
    assert_eq!(decisions, "- **Them:** Go with the blue design for the launch.");
    let points = generate(NoteKind::KeyPoints, &lines, &context()).content_md;
    assert_eq!(points, "_Nothing was discussed beyond the decisions and action items._");
}

#[test]
fn deadlines_said_first_are_kept_and_repeats_are_dropped() {
    let lines = script(&[
        ("Them", "By Friday, I'll circulate the memo."),
        ("Me", "Tomorrow I'll ping the vendor about pricing, okay?"),
        ("Them", "I'll circulate the memo by Friday!"),
    ]);
    let items = action_items(&lines, &context());
    let texts: Vec<&str> = items.iter().map(|item| item.text.as_str()).collect();
    assert_eq!(texts, ["Circulate the memo by Friday", "Ping the vendor about pricing tomorrow"]);
}

#[test]
fn summary_names_topics_and_outcomes_instead_of_copying_sentences() {
    let lines = meeting();
    let note = generate(NoteKind::Summary, &lines, &context());
    assert_eq!(note.action_items, None);
    let summary = note.content_md;
    assert!(summary.starts_with("Topics: Q3 launch plan, "), "{summary}");
    assert!(
        summary.contains(
            "Agreed: go with the blue design; finalize the hiring plan by next Wednesday."
        ),
        "{summary}"
    );
    assert!(
        summary.contains("Next: send the budget report to the finance team by Friday (Me); "),
        "{summary}"
    );
    assert!(summary.ends_with("and 1 more task."), "the hiring plan is said once: {summary}");
    for line in &lines {
        assert!(!summary.contains(line.text.trim_end_matches('.')), "copied {:?}", line.text);
    }
    for chatter in ["hear me", "sandwich", "talk soon", "honest"] {
        assert!(!summary.contains(chatter), "{chatter} in {summary}");
    }
    assert!(!summary.starts_with("- ") && !summary.contains('\n'), "a paragraph, not a list");
}

#[test]
fn key_points_are_condensed_attributed_and_distinct() {
    let mut lines = meeting();
    lines.push(Line {
        speaker: "Me".to_string(),
        start_ms: 99_000,
        end_ms: 99_900,
        text:
            "So the launch budget is tight because the marketing budget was cut by twenty percent."
                .to_string(),
    });
    let points = generate(NoteKind::KeyPoints, &lines, &context()).content_md;
    let bullets: Vec<&str> = points.lines().collect();
    assert!((3..=6).contains(&bullets.len()), "{points}");
    assert!(bullets.iter().all(|b| b.starts_with("- ") && !b.contains("**")), "{points}");
    assert!(bullets.iter().all(|b| b.ends_with(" (Me)") || b.ends_with(" (Them)")), "{points}");
    assert!(points.contains("- The main goal today is to lock the Q3 launch plan"), "{points}");
    assert_eq!(points.matches("marketing budget was cut").count(), 1, "{points}");
    for elsewhere in ["blue design", "budget report", "roadmap", "sandwich", "Sure"] {
        assert!(!points.contains(elsewhere), "{elsewhere} in {points}");
    }
}

#[test]
fn decisions_are_found_and_absent_ones_reported() {
    let decisions = generate(NoteKind::Decisions, &meeting(), &context()).content_md;
    assert_eq!(
        decisions,
        "- **Them:** Go with the blue design.\n- **Me:** Finalize the hiring plan by next Wednesday."
    );
    let agreed = script(&[
        ("Me", "Should we ship the beta to the pilot customers on Monday?"),
        ("Them", "Agreed."),
        ("Me", "We'll see how it goes. Final answer: we'll use Postgres for the reports."),
    ]);
    let decisions = generate(NoteKind::Decisions, &agreed, &context()).content_md;
    assert_eq!(
        decisions,
        "- **Me:** Ship the beta to the pilot customers on Monday. _(agreed by Them)_\n\
         - **Me:** Final answer: we'll use Postgres for the reports."
    );
    let undecided = script(&[
        ("Me", "We haven't decided on the vendor yet."),
        ("Them", "Have we agreed on a price? We'll talk about it next time."),
    ]);
    let note = generate(NoteKind::Decisions, &undecided, &context());
    assert_eq!(note.content_md, "_No decisions were recorded._");
}

#[test]
fn empty_transcript_says_nothing_was_transcribed() {
    for lines in [Vec::new(), script(&[("Me", "  "), ("Them", "[BLANK_AUDIO]")])] {
        for kind in NoteKind::ALL {
            let note = generate(kind, &lines, &context());
            assert_eq!(note.content_md, "_No speech was transcribed._");
            let expected = (kind == NoteKind::ActionItems).then(Vec::new);
            assert_eq!(note.action_items, expected);
        }
        assert!(action_items(&lines, &context()).is_empty());
    }
}

#[test]
fn output_is_deterministic() {
    let lines = meeting();
    for kind in NoteKind::ALL {
        let first = generate(kind, &lines, &context());
        let second = generate(kind, &lines.clone(), &context());
        assert_eq!(first, second, "{}", kind.as_str());
        assert!(!first.content_md.is_empty());
    }
    assert_eq!(action_items(&lines, &context()), action_items(&lines, &context()));
}

/// A call whose other side was told apart and named (issue 18).
fn named(turns: &[(&str, &str)]) -> Vec<ActionItemDraft> {
    let context = Context { user_name: "Me".into(), ..Context::default() };
    action_items(&script(turns), &context)
}

#[test]
fn a_request_without_a_name_is_owned_by_the_speaker_who_answers_it() {
    let items = named(&[
        ("Dana", "Marketing wants the launch moved."),
        ("Dana", "Could you fix the payment bug by next Friday?"),
        ("Eli", "Sure, that is fine."),
    ]);
    assert_eq!(owner_of(&items, "Fix the payment bug"), "Eli");
}

#[test]
fn a_name_a_speaker_was_given_is_a_name_requests_are_addressed_to() {
    let items = named(&[
        ("Omar", "Karen, could you review the security document this week?"),
        ("Omar", "Lunch is at noon."),
        ("Karen", "The document is still a draft."),
    ]);
    assert_eq!(owner_of(&items, "Review the security document"), "Karen");
}

#[test]
fn an_answer_with_a_pronoun_gives_the_request_its_owner_and_deadline_not_a_second_item() {
    let items = named(&[
        ("Grace", "Could you draft an agenda for the webinar?"),
        ("Hugo", "Sure, I'll draft it by Monday."),
        ("Grace", "Send it right after this call."),
    ]);
    assert_eq!(items.len(), 1, "{items:#?}");
    assert_eq!(items[0].text, "Draft an agenda for the webinar by Monday");
    assert_eq!(items[0].owner, "Hugo");
}

#[test]
fn a_commitment_that_says_more_than_its_pronoun_is_a_task_of_its_own() {
    let items = named(&[
        ("Anya", "Felix, could you convert the dates before we run it again?"),
        ("Felix", "Yes. I'm going to test it on a copy of production first."),
        ("Felix", "I'll send it after this call."),
    ]);
    let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
    assert_eq!(
        texts,
        ["Convert the dates before we run it again", "Test it on a copy of production first"]
    );
    assert!(items.iter().all(|i| i.owner == "Felix"), "{items:#?}");
}

#[test]
fn hypothetical_questions_and_a_task_said_again_in_full_are_not_items() {
    let items = named(&[
        ("Pete", "Would you sign the renewal if they match last year's price?"),
        ("Olga", "Probably."),
        ("Ben", "The search story is too big. We should split it in two."),
        ("Ivy", "Ben, could you split the search story after the meeting?"),
    ]);
    let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
    assert_eq!(texts, ["Split the search story after the meeting"], "{items:#?}");
    assert_eq!(items[0].owner, "Ben");
}
