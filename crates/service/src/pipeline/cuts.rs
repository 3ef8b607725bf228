//! A line holds one speaker: a line that runs across a turn is cut in two
//! where the speaker changes, at the end of the sentence nearest that moment
//! (whisper's lines carry no word times, so the words are shared by time).
//! A line is cut only when both speakers hold a real share of it, and only
//! at a sentence end near the change: a cut in mid-sentence would put words
//! in the wrong mouth more often than it would fix them.

use recorder_stt::speaker::diarize::Turn;

/// Each side of a cut holds at least this much of its own speaker (ms).
const LEAST_MS: i64 = 1_200;
/// The sentence end may lie this share of the line's characters from where
/// the time of the change says the words change.
const REACH: f32 = 0.25;

/// Where a line is cut, what each half says and which voice says it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    pub at_ms: i64,
    pub first: String,
    pub second: String,
    pub voices: (usize, usize),
}

/// The cut of the line `text` over `start_ms..end_ms`, given the channel's
/// turns (in 16 kHz samples), if it runs across one.
pub fn cut(text: &str, (start_ms, end_ms): (i64, i64), turns: &[Turn]) -> Option<Cut> {
    let pieces = pieces(turns, start_ms, end_ms);
    let talk = |voice: usize, from: i64, to: i64| -> i64 {
        pieces
            .iter()
            .filter(|p| p.2 == voice)
            .map(|p| p.1.min(to).saturating_sub(p.0.max(from)).max(0))
            .sum()
    };
    let (at_ms, voices) = pieces
        .windows(2)
        .filter(|pair| pair[0].2 != pair[1].2)
        .map(|pair| {
            let at = pair[1].0;
            let held = talk(pair[0].2, start_ms, at).min(talk(pair[1].2, at, end_ms));
            (held, at, (pair[0].2, pair[1].2))
        })
        .filter(|(held, _, _)| *held >= LEAST_MS)
        .max_by_key(|(held, _, _)| *held)
        .map(|(_, at, voices)| (at, voices))?;
    let share = (at_ms - start_ms) as f32 / (end_ms - start_ms).max(1) as f32;
    let (first, second) = split_text(text, share)?;
    Some(Cut { at_ms, first, second, voices })
}

/// The turns within `start_ms..end_ms`, clipped, in ms: (start, end, voice).
fn pieces(turns: &[Turn], start_ms: i64, end_ms: i64) -> Vec<(i64, i64, usize)> {
    let ms = |samples: usize| i64::try_from(samples / 16).unwrap_or(i64::MAX);
    let mut pieces: Vec<(i64, i64, usize)> = turns
        .iter()
        .map(|t| (ms(t.start).max(start_ms), ms(t.end).min(end_ms), t.speaker))
        .filter(|(from, to, _)| to > from)
        .collect();
    pieces.sort_by_key(|p| p.0);
    pieces
}

/// `text` cut after the sentence end nearest `share` of its characters,
/// within [`REACH`]; `None` when no sentence ends there.
fn split_text(text: &str, share: f32) -> Option<(String, String)> {
    let chars: Vec<char> = text.chars().collect();
    let target = share * chars.len() as f32;
    let reach = REACH * chars.len() as f32;
    let ends = (1..chars.len())
        .filter(|&i| matches!(chars[i - 1], '.' | '?' | '!') && chars[i].is_whitespace());
    let best = ends
        .map(|i| (i, (i as f32 - target).abs()))
        .filter(|(_, off)| *off <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))?
        .0;
    let first: String = chars[..best].iter().collect::<String>().trim().to_string();
    let second: String = chars[best..].iter().collect::<String>().trim().to_string();
    (!first.is_empty() && !second.is_empty()).then_some((first, second))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(start_ms: usize, end_ms: usize, speaker: usize) -> Turn {
        Turn { start: start_ms * 16, end: end_ms * 16, speaker }
    }

    #[test]
    fn a_line_across_a_turn_is_cut_at_the_sentence_end_nearest_the_change() {
        let text = "Yes, I can do that by Friday. Great, then let us move on to hiring.";
        let turns = [turn(0, 3_900, 0), turn(3_900, 9_000, 1)];
        let made = cut(text, (1_000, 8_000), &turns).expect("a cut");
        assert_eq!(made.at_ms, 3_900);
        assert_eq!(made.first, "Yes, I can do that by Friday.");
        assert_eq!(made.second, "Great, then let us move on to hiring.");
        assert_eq!(made.voices, (0, 1));
    }

    #[test]
    fn a_brief_other_voice_or_a_sentence_without_an_end_near_the_change_is_not_cut() {
        let text = "Yes, I can do that by Friday. Great, then let us move on to hiring.";
        let brief = [turn(0, 7_500, 0), turn(7_500, 9_000, 1)];
        assert_eq!(cut(text, (1_000, 8_000), &brief), None);
        let one_sentence = "We should ship the release on Friday after the review";
        let turns = [turn(0, 4_000, 0), turn(4_000, 9_000, 1)];
        assert_eq!(cut(one_sentence, (1_000, 8_000), &turns), None);
        assert_eq!(cut(text, (1_000, 8_000), &[turn(0, 9_000, 0)]), None);
    }
}
