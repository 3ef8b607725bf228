//! The built-in notes engine: turns a meeting transcript into Markdown notes with no
//! model, no network and no file access.
//!
//! Every function here is pure and deterministic: the same lines and context always
//! give byte-identical notes (no hash-map order, no clock, no randomness).
//!
//! The pipeline: Whisper segments are joined per speaker turn and split into whole
//! sentences (`transcript`), ranked extractively (`scoring`), scanned for noun phrases
//! (`phrases`) and cut into topics (`topics`), for decisions (`decisions`, written as
//! statements by `statement`) and for action items (`actions`, with `triggers`, `task`
//! wording, `owners`, `addressee`, and `speakers` for the names of anonymous voices).
//! The summary is written from the topics, decisions and tasks (`outline`); key points
//! are condensed sentences (`points`, `condense`); everything is written as Markdown
//! (`render`).

mod actions;
mod addressee;
mod condense;
mod decisions;
mod outline;
mod owners;
mod phrases;
mod points;
mod render;
mod scoring;
mod speakers;
mod statement;
mod task;
mod text;
mod topics;
mod transcript;
mod triggers;

use recorder_domain::NoteKind;

use crate::outline::Outline;
use crate::phrases::Lexicon;

/// One transcript segment as the speech recogniser produced it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    pub speaker: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

/// What the engine knows about the meeting besides its words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Context {
    /// The user's own speaker name (the microphone channel).
    pub user_name: String,
    /// Invitees as names or email addresses; used to recognise action-item owners.
    pub attendees: Vec<String>,
    pub title: String,
    /// The person's own notes, line by line, each with the moment of the
    /// meeting it was typed at: their own points, for the notes to build on.
    pub my_notes: Vec<MyNote>,
    /// The person is not one of the speakers (an imported file where no
    /// speaker is named as them): a request nobody answers is the other
    /// party's, never theirs.
    pub person_absent: bool,
}

/// One line of the person's own notes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MyNote {
    /// The moment of the meeting it was typed at (ms), if during the meeting.
    pub at_ms: Option<i64>,
    pub text: String,
}

/// An action item found in the transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionItemDraft {
    /// The task as a short imperative ("Send the budget report by Friday").
    pub text: String,
    /// A speaker, an addressed name, "Them", or "Everyone".
    pub owner: String,
}

/// One generated note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// Never empty.
    pub content_md: String,
    pub action_items: Option<Vec<ActionItemDraft>>,
}

/// Generates one note kind. `action_items` is Some only for NoteKind::ActionItems.
/// Custom is treated like Summary.
pub fn generate(kind: NoteKind, lines: &[Line], context: &Context) -> Generated {
    let sentences = transcript::sentences(lines);
    let wants_items = matches!(kind, NoteKind::ActionItems);
    if sentences.is_empty() {
        let action_items = wants_items.then(Vec::new);
        return Generated { content_md: render::NO_SPEECH.to_string(), action_items };
    }
    let content_md = match kind {
        NoteKind::Summary | NoteKind::Custom | NoteKind::Mine => {
            render::paragraph(&Outline::new(&sentences, context).summary(sentences.len()))
        }
        NoteKind::KeyPoints => key_points(&sentences, lines, context),
        NoteKind::Decisions => {
            let lexicon = Lexicon::new(&sentences, context);
            render::decisions(&decisions::find(&sentences, &lexicon))
        }
        NoteKind::ActionItems => {
            let items = actions::find(&sentences, context);
            let content_md = render::checklist(&items);
            return Generated { content_md, action_items: Some(items) };
        }
    };
    Generated { content_md, action_items: None }
}

/// The action items of a transcript, in spoken order.
pub fn action_items(lines: &[Line], context: &Context) -> Vec<ActionItemDraft> {
    actions::find(&transcript::sentences(lines), context)
}

/// The names the conversation gives anonymous voices ("Speaker 2" → "Dana"): who
/// introduces themself, who answers when a name is called, who is greeted by name,
/// and, among the attendees, who is left. Labels it cannot tell are left out; "Them"
/// and labels that are already names never appear. For suggesting speaker names.
pub fn speaker_names(lines: &[Line], context: &Context) -> Vec<(String, String)> {
    speakers::speaker_names(&transcript::sentences(lines), context)
}

/// Condensed points, or a note on why there are none.
/// The key points the transcript makes, then each of the person's own notes
/// with a link to what was being said when it was typed.
fn key_points(sentences: &[transcript::Sentence], lines: &[Line], context: &Context) -> String {
    let outline = Outline::new(sentences, context);
    let points = points::key_points(sentences, &outline);
    let outcomes = !outline.decisions.is_empty() || !outline.items.is_empty();
    let empty = if outcomes { render::ONLY_OUTCOMES } else { render::NO_KEY_POINTS };
    let mine = render::my_notes(&context.my_notes, lines);
    match (points.is_empty(), mine.is_empty()) {
        (true, false) => mine,
        (false, false) => format!("{}\n{mine}", render::bullets(&points, empty)),
        _ => render::bullets(&points, empty),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(speaker: &str, text: &str) -> Line {
        Line { speaker: speaker.into(), text: text.into(), ..Line::default() }
    }

    #[test]
    fn the_persons_own_notes_are_key_points_linked_to_their_moment() {
        let lines = [
            Line {
                speaker: "Dana".into(),
                start_ms: 0,
                end_ms: 4_000,
                text: "The budget for March is approved.".into(),
            },
            Line {
                speaker: "Me".into(),
                start_ms: 5_000,
                end_ms: 8_000,
                text: "Good, I will send the proposal.".into(),
            },
        ];
        let my_notes = vec![
            MyNote { at_ms: Some(6_000), text: "- ask about *hiring*".into() },
            MyNote { at_ms: None, text: "follow up".into() },
            MyNote { at_ms: None, text: "  ".into() },
        ];
        let context = Context { user_name: "Me".into(), my_notes, ..Context::default() };
        let note = generate(NoteKind::KeyPoints, &lines, &context);
        let expected = "- **Your note:** ask about \\*hiring\\* ([at 00:06](?t=6000), while Me said “Good, I will send the proposal.”)\n- **Your note:** follow up";
        assert!(note.content_md.ends_with(expected), "{}", note.content_md);
    }

    #[test]
    fn every_kind_says_so_when_nothing_was_said() {
        let silence = [line("Me", "[BLANK_AUDIO]"), line("Them", "   ")];
        for kind in NoteKind::ALL {
            let note = generate(kind, &silence, &Context::default());
            assert_eq!(note.content_md, render::NO_SPEECH, "{}", kind.as_str());
            assert_eq!(note.action_items.is_some(), kind == NoteKind::ActionItems);
        }
    }

    #[test]
    fn custom_is_a_summary() {
        let lines = [
            line("Me", "The onboarding flow loses half of new users at the payment step."),
            line("Them", "Moving the payment step later in the onboarding flow should help."),
        ];
        let context = Context::default();
        assert_eq!(
            generate(NoteKind::Custom, &lines, &context),
            generate(NoteKind::Summary, &lines, &context)
        );
    }

    #[test]
    fn only_filler_still_gives_a_note() {
        let lines = [line("Me", "Yeah."), line("Them", "Okay.")];
        for kind in NoteKind::ALL {
            assert!(!generate(kind, &lines, &Context::default()).content_md.is_empty());
        }
    }
}
