//! Answers written by the built-in engine: the best line of each passage
//! that answers (who said it, where), each citing its passage: the line with
//! the lines said before and after it. When nothing answers, the closest
//! passages under a plain notice. And what a provider is given: each passage
//! with its meeting's title, date and speakers.

use recorder_api_types::Citation;
use recorder_domain::text::clock;

use crate::meaning::gather::{Answerable, Part};

/// Passages the built-in answer quotes at most.
const QUOTED: usize = 3;
/// Passages quoted answer at least this share of the best one's relevance.
const NEAR_BEST: f32 = 0.6;

pub const NOTHING: &str = "Nothing in your meetings answers that.";
/// The notice over the closest lines when none passes the floor.
pub const CLOSEST: &str =
    "Nothing in your meetings clearly answers that. These are the closest lines; judge for yourself.";

/// The built-in answer from `answering` (best first).
pub fn builtin(answering: &[Answerable], user_name: &str) -> (String, Vec<Citation>) {
    let Some(best) = answering.first().map(|a| a.relevance) else {
        return (NOTHING.to_string(), Vec::new());
    };
    let quoted: Vec<&Answerable> =
        answering.iter().filter(|a| a.relevance >= best * NEAR_BEST).take(QUOTED).collect();
    let text = quoted
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{} [{}]", quote(a, user_name), i + 1))
        .collect::<Vec<_>>()
        .join("\n");
    (text, quoted.iter().map(|a| citation(a, user_name)).collect())
}

/// The closest passages when none answers, under [`CLOSEST`].
pub fn closest(closest: &[Answerable], user_name: &str) -> (String, Vec<Citation>) {
    if closest.is_empty() {
        return (NOTHING.to_string(), Vec::new());
    }
    (CLOSEST.to_string(), closest.iter().map(|a| citation(a, user_name)).collect())
}

/// The answering sentence of a passage.
fn quote(answer: &Answerable, user_name: &str) -> String {
    match &answer.part {
        Part::Lines { lines, best } => {
            let line = &lines[*best];
            format!(
                "{} said in “{}” at {}: “{}”",
                line.speaker_name(user_name),
                answer.title,
                clock(line.start_ms),
                line.text.trim()
            )
        }
        Part::Note { text, .. } => format!("The notes of “{}”: “{text}”", answer.title),
        Part::Item { .. } => format!("An action item of “{}”: {}", answer.title, item_text(answer)),
    }
}

fn item_text(answer: &Answerable) -> String {
    let Part::Item { text, owner, due } = &answer.part else { return String::new() };
    let owner = if owner.trim().is_empty() { String::new() } else { format!("{owner}: ") };
    let due = due.as_deref().map(|d| format!(" (due {d})")).unwrap_or_default();
    format!("{owner}{text}{due}")
}

/// A passage as a citation: its whole lines (their span, the best line's
/// speaker), or the note item, or the action item.
pub fn citation(answer: &Answerable, user_name: &str) -> Citation {
    let at_ms = match &answer.part {
        Part::Lines { lines, best } if lines.len() > 1 => lines.get(*best).map(|l| l.start_ms),
        _ => None,
    };
    let (start_ms, end_ms, speaker, text) = match &answer.part {
        Part::Lines { lines, best } => (
            lines.first().map_or(0, |l| l.start_ms),
            lines.iter().map(|l| l.end_ms).max().unwrap_or(0),
            lines.get(*best).map(|l| l.speaker_name(user_name)).unwrap_or_default(),
            lines.iter().map(|l| l.text.trim()).collect::<Vec<_>>().join(" "),
        ),
        Part::Note { text, .. } => (0, 0, "Notes".to_string(), text.clone()),
        Part::Item { .. } => (0, 0, "Action item".to_string(), item_text(answer)),
    };
    Citation {
        meeting_id: answer.meeting_id.clone(),
        title: answer.title.clone(),
        start_ms,
        end_ms,
        speaker,
        text,
        at_ms,
    }
}

/// A passage as a provider is given it: its meeting's title, date and
/// speakers over `Speaker: text` lines (or the note or action item).
pub fn given(answer: &Answerable, user_name: &str) -> recorder_ai::ask::Passage {
    let date = chrono::DateTime::from_timestamp_millis(answer.started_at)
        .map(|d| d.with_timezone(&chrono::Local).format("%-d %B %Y").to_string())
        .unwrap_or_default();
    let (at, speakers, text) = match &answer.part {
        Part::Lines { lines, .. } => {
            let mut speakers: Vec<String> = Vec::new();
            for line in lines {
                let name = line.speaker_name(user_name);
                if !speakers.contains(&name) {
                    speakers.push(name);
                }
            }
            let text = lines
                .iter()
                .map(|l| format!("{}: {}", l.speaker_name(user_name), l.text.trim()))
                .collect::<Vec<_>>()
                .join("\n");
            let at = lines.first().map(|l| format!(", {}", clock(l.start_ms))).unwrap_or_default();
            (at, format!("; speakers: {}", speakers.join(", ")), text)
        }
        Part::Note { text, kind, .. } => {
            let kind = if kind.is_empty() {
                String::new()
            } else {
                format!(" ({})", kind.replace('_', " "))
            };
            (String::new(), String::new(), format!("Notes{kind}: {text}"))
        }
        Part::Item { .. } => {
            (String::new(), String::new(), format!("Action item: {}", item_text(answer)))
        }
    };
    recorder_ai::ask::Passage { heading: format!("{}, {date}{at}{speakers}", answer.title), text }
}

/// The citations an answer refers to as `[n]`; all of them when it names none.
pub fn referenced(answer: &str, citations: Vec<Citation>) -> Vec<Citation> {
    let named: Vec<usize> =
        (1..=citations.len()).filter(|n| answer.contains(&format!("[{n}]"))).collect();
    if named.is_empty() {
        return citations;
    }
    citations
        .into_iter()
        .enumerate()
        .filter(|(i, _)| named.contains(&(i + 1)))
        .map(|(_, c)| c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_store::SegmentRecord;

    fn citation(text: &str) -> Citation {
        Citation {
            meeting_id: recorder_domain::MeetingId::generate(),
            title: "t".into(),
            start_ms: 0,
            end_ms: 1,
            speaker: "Dana".into(),
            text: text.into(),
            at_ms: None,
        }
    }

    fn line(id: i64, speaker: Option<&str>, text: &str) -> SegmentRecord {
        SegmentRecord {
            id,
            edited: false,
            channel: recorder_domain::Channel::Sys,
            start_ms: id * 4_000,
            end_ms: id * 4_000 + 3_000,
            text: text.into(),
            speaker: speaker.map(String::from),
        }
    }

    #[test]
    fn an_answer_keeps_the_citations_it_names_or_all() {
        let all = vec![citation("a"), citation("b"), citation("c")];
        let kept = referenced("We move in May [2], says Dana [3].", all.clone());
        assert_eq!(kept.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["b", "c"]);
        assert_eq!(referenced("No numbers here.", all).len(), 3);
    }

    #[test]
    fn a_passage_is_cited_whole_and_given_with_its_meeting_and_speakers() {
        let lines = vec![
            line(1, Some("Sam"), "I am away in August."),
            line(2, Some("Dana"), "Priya covers for you."),
            line(3, None, "Good, thanks."),
        ];
        let answer = Answerable {
            meeting_id: recorder_domain::MeetingId::generate(),
            title: "Planning".into(),
            started_at: 1_780_000_000_000,
            part: Part::Lines { lines, best: 1 },
            relevance: 0.5,
        };
        let cited = super::citation(&answer, "Me");
        assert_eq!((cited.start_ms, cited.end_ms), (4_000, 15_000));
        assert_eq!((cited.speaker.as_str(), cited.at_ms), ("Dana", Some(8_000)));
        assert_eq!(cited.text, "I am away in August. Priya covers for you. Good, thanks.");
        let (text, citations) = builtin(std::slice::from_ref(&answer), "Me");
        assert_eq!(text, "Dana said in “Planning” at 00:08: “Priya covers for you.” [1]");
        assert_eq!(citations.len(), 1);
        let passage = given(&answer, "Me");
        assert!(passage.heading.starts_with("Planning, "), "{}", passage.heading);
        assert!(
            passage.heading.ends_with("2026, 00:04; speakers: Sam, Dana, Them"),
            "{}",
            passage.heading
        );
        assert_eq!(
            passage.text,
            "Sam: I am away in August.\nDana: Priya covers for you.\nThem: Good, thanks."
        );
        assert_eq!(builtin(&[], "Me").0, NOTHING);
        assert_eq!(closest(&[answer], "Me").0, CLOSEST);
    }
}
