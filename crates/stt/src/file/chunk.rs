//! One speech chunk through the engine, with the repairs whisper needs: the
//! prompt kept only where it helped, a window that stopped early finished, a
//! sparse segment transcribed again.

use crate::hallucination;
use crate::transcriber::{ChunkResult, RawSegment, SttError, Transcriber};

/// Untranscribed audio longer than this after the last segment is tried again.
const TAIL_GAP_MS: i64 = 3_000;
const TAIL_RETRIES: usize = 2;

/// Transcribes one chunk. whisper.cpp sometimes stops early in a window and
/// skips the rest of it (a "single timestamp ending"); since a chunk is one
/// window, that would silently lose speech. When the text ends well before the
/// chunk does, the rest of the chunk is transcribed on its own. It can also
/// run over speech with one long segment of a few words; such a sparse
/// segment is transcribed again on its own and replaced when that finds more.
pub fn transcribe_chunk(
    engine: &mut dyn Transcriber,
    samples: &[f32],
) -> Result<ChunkResult, SttError> {
    let mut result = finished(engine, samples, Prompt::Given)?;
    if !engine.prompt().is_empty() {
        // Each version finished before they are weighed: a prompt that makes
        // whisper stop early ("Aurelien said Ye…") is not a prompt that lost
        // the rest of the chunk.
        let plain = finished(engine, samples, Prompt::Without)?;
        let (with, without) = (&result.segments, &plain.segments);
        if more_prompt_words(with, without, engine.prompt()) && !kept_letters(with, without) {
            result = last_heard_again(engine, samples, result)?;
        }
        result = weighed(result, plain, engine.prompt());
    }
    result.segments = redo_sparse(engine, samples, std::mem::take(&mut result.segments))?;
    Ok(result)
}

/// With the engine's prompt or without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prompt {
    Given,
    Without,
}

fn once(
    engine: &mut dyn Transcriber,
    samples: &[f32],
    prompt: Prompt,
) -> Result<ChunkResult, SttError> {
    match prompt {
        Prompt::Given => engine.transcribe(samples),
        Prompt::Without => engine.transcribe_plain(samples),
    }
}

/// The chunk transcribed, and where the text ends well before the chunk
/// does, the rest transcribed on its own (at most [`TAIL_RETRIES`] times).
fn finished(
    engine: &mut dyn Transcriber,
    samples: &[f32],
    prompt: Prompt,
) -> Result<ChunkResult, SttError> {
    let length_ms = samples.len() as i64 / 16;
    let mut result = once(engine, samples, prompt)?;
    for _ in 0..TAIL_RETRIES {
        let covered_ms = result.segments.iter().map(|s| s.end_ms).max().unwrap_or(0);
        if covered_ms == 0 || length_ms - covered_ms <= TAIL_GAP_MS {
            break;
        }
        let tail = once(engine, span(samples, covered_ms, length_ms), prompt)?;
        if tail.segments.is_empty() {
            break;
        }
        result.segments.extend(shifted(tail.segments, covered_ms));
    }
    Ok(result)
}

/// The text written with the prompt where it is the better one. When both
/// versions split the chunk alike (as many segments, each starting and
/// ending within [`SAME_SPLIT_MS`] of the other's), each segment is weighed
/// on its own: a prompt that made whisper drop words in one sentence
/// ("Thandiwe, Aurelien, have finished the budget.") still spells the names
/// of the next. Otherwise the whole chunk is weighed.
fn weighed(prompted: ChunkResult, plain: ChunkResult, prompt: &str) -> ChunkResult {
    if !split_alike(&prompted.segments, &plain.segments) {
        let helped = prompt_helped(&prompted.segments, &plain.segments, prompt);
        return if helped { prompted } else { plain };
    }
    let segments = prompted
        .segments
        .into_iter()
        .zip(plain.segments)
        .map(|(with, without)| {
            if prompt_helped(std::slice::from_ref(&with), std::slice::from_ref(&without), prompt) {
                with
            } else {
                without
            }
        })
        .collect();
    ChunkResult { segments, language: prompted.language }
}

/// Segments whose starts and ends differ by no more than this are the same
/// stretch of speech.
const SAME_SPLIT_MS: i64 = 1_000;

fn split_alike(a: &[RawSegment], b: &[RawSegment]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(a, b)| {
            (a.start_ms - b.start_ms).abs() <= SAME_SPLIT_MS
                && (a.end_ms - b.end_ms).abs() <= SAME_SPLIT_MS
        })
}

/// Whether the text written with the prompt is the better one: it has more
/// of the prompt's words (a name spelled right) and lost nothing (at least
/// 90 % of the letters written without it; a name spelled right is often
/// fewer words than its mishearing). A prompt helps names but costs whisper
/// accuracy elsewhere (tiny.en: WER 0.083 → 0.112 on bench/out/stt/speech.wav
/// with another meeting's names), so the text without it is kept unless the
/// prompt earned its place.
fn prompt_helped(prompted: &[RawSegment], plain: &[RawSegment], prompt: &str) -> bool {
    more_prompt_words(prompted, plain, prompt) && kept_letters(prompted, plain)
}

fn more_prompt_words(prompted: &[RawSegment], plain: &[RawSegment], prompt: &str) -> bool {
    let heard = |segments: &[RawSegment]| -> usize {
        segments.iter().map(|s| hallucination::prompt_words_heard(&s.text, prompt)).sum()
    };
    heard(prompted) > heard(plain)
}

/// At least 90 % of the letters written without the prompt.
fn kept_letters(prompted: &[RawSegment], plain: &[RawSegment]) -> bool {
    letters_in(prompted) * 10 >= letters_in(plain) * 9
}

/// The last segment transcribed again from its start to the chunk's end:
/// with a prompt, whisper sometimes stops inside it ("Aurelien said Ye"),
/// its times still reaching the end. Kept when it has more letters.
fn last_heard_again(
    engine: &mut dyn Transcriber,
    samples: &[f32],
    mut result: ChunkResult,
) -> Result<ChunkResult, SttError> {
    let Some(last) = result.segments.last() else { return Ok(result) };
    let from = last.start_ms.max(0);
    let again = engine.transcribe(span(samples, from, samples.len() as i64 / 16))?;
    if letters_in(&again.segments) > letters_in(std::slice::from_ref(last)) {
        result.segments.pop();
        result.segments.extend(shifted(again.segments, from));
    }
    Ok(result)
}

fn letters_in(segments: &[RawSegment]) -> usize {
    segments.iter().map(|s| s.text.chars().filter(|c| c.is_alphanumeric()).count()).sum()
}

/// A segment this long with fewer words per second than this skipped speech.
const SPARSE_MIN_MS: i64 = 6_000;
const SPARSE_WORDS_PER_S: f64 = 1.0;

fn redo_sparse(
    engine: &mut dyn Transcriber,
    samples: &[f32],
    segments: Vec<RawSegment>,
) -> Result<Vec<RawSegment>, SttError> {
    let audio_ms = samples.len() as i64 / 16;
    let mut out = Vec::with_capacity(segments.len());
    for segment in segments {
        // Only the part inside the chunk counts (whisper's times can run
        // past its end), so every piece sent again holds ≥ 3 s of audio.
        let (from, to) = (segment.start_ms.clamp(0, audio_ms), segment.end_ms.clamp(0, audio_ms));
        let length_ms = to - from;
        let words = segment.text.split_whitespace().count();
        let sparse = length_ms >= SPARSE_MIN_MS
            && (words as f64) < SPARSE_WORDS_PER_S * length_ms as f64 / 1000.0;
        if !sparse {
            out.push(segment);
            continue;
        }
        // Again on its own, then in two halves if that is no better.
        let middle = from + length_ms / 2;
        let tries = [vec![(from, to)], vec![(from, middle), (middle, to)]];
        let mut best = (words, vec![segment.clone()]);
        for pieces in tries {
            let mut found = Vec::new();
            for (start, end) in pieces {
                let again = engine.transcribe(span(samples, start, end))?;
                found.extend(shifted(again.segments, start));
            }
            let count: usize = found.iter().map(|s| s.text.split_whitespace().count()).sum();
            if count > best.0 {
                best = (count, found);
            }
            if best.0 as f64 >= SPARSE_WORDS_PER_S * length_ms as f64 / 1000.0 {
                break;
            }
        }
        out.extend(best.1);
    }
    Ok(out)
}

fn span(samples: &[f32], from_ms: i64, to_ms: i64) -> &[f32] {
    let at = |ms: i64| usize::try_from(ms * 16).unwrap_or(0).min(samples.len());
    &samples[at(from_ms)..at(to_ms).max(at(from_ms))]
}

fn shifted(segments: Vec<RawSegment>, by_ms: i64) -> impl Iterator<Item = RawSegment> {
    segments.into_iter().map(move |mut segment| {
        segment.start_ms += by_ms;
        segment.end_ms += by_ms;
        segment
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(start_ms: i64, end_ms: i64, text: &str) -> RawSegment {
        RawSegment { start_ms, end_ms, text: text.into(), no_speech_probability: 0.0 }
    }

    /// Writes `with` when called with its prompt, `without` when not.
    struct Prompted {
        with: &'static str,
        without: &'static str,
    }

    impl Transcriber for Prompted {
        fn transcribe(&mut self, _samples: &[f32]) -> Result<ChunkResult, SttError> {
            Ok(said(self.with))
        }
        fn prompt(&self) -> &str {
            "Siobhan Gallagher, Tran Nguyen."
        }
        fn transcribe_plain(&mut self, _samples: &[f32]) -> Result<ChunkResult, SttError> {
            Ok(said(self.without))
        }
    }

    fn said(text: &str) -> ChunkResult {
        ChunkResult { segments: vec![segment(0, 4_000, text)], language: None }
    }

    fn chosen(with: &'static str, without: &'static str) -> String {
        let mut engine = Prompted { with, without };
        let result = transcribe_chunk(&mut engine, &vec![0.0; 16 * 4_000]).expect("ok");
        result.segments[0].text.clone()
    }

    #[test]
    fn the_prompt_is_kept_only_where_it_spelled_its_words_and_lost_nothing() {
        let names = "Siobhan and Tran Nguyen will review it.";
        let misheard = "Shinvall and Tran Nuyen will renew it.";
        assert_eq!(chosen(names, misheard), names, "the names it knew");
        let other = "We moved the launch to March.";
        assert_eq!(chosen("We moved the launch.", other), other, "no name, the plain text");
        let dropped = "Siobhan agreed.";
        let whole = "Shivon agreed, and the rest of the team will review the budget on Friday.";
        assert_eq!(chosen(dropped, whole), whole, "a name is not worth a lost sentence");
    }

    /// Two sentences split alike with the prompt and without: the prompt
    /// dropped words in the first and spelled the names of the second.
    struct HelpsInOneSentence;

    fn two(first: &str, second: &str) -> ChunkResult {
        let segments = vec![segment(0, 3_300, first), segment(3_300, 6_000, second)];
        ChunkResult { segments, language: None }
    }

    impl Transcriber for HelpsInOneSentence {
        fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
            if samples.len() < 16 * 6_000 {
                // The last sentence heard again on its own: the same.
                let segments =
                    vec![segment(0, 2_700, "Aurelien said Yevgenia still needs that week.")];
                return Ok(ChunkResult { segments, language: None });
            }
            Ok(two(
                "Thandiwe, Aurelien, have finished the budget.",
                "Aurelien said Yevgenia still needs that week.",
            ))
        }
        fn prompt(&self) -> &str {
            "Thandiwe, Aurelien, Yevgenia."
        }
        fn transcribe_plain(&mut self, _samples: &[f32]) -> Result<ChunkResult, SttError> {
            Ok(two(
                "And it asked whether a million had finished the budget.",
                "Or a million said you have genius still needs a week.",
            ))
        }
    }

    #[test]
    fn versions_split_alike_are_weighed_sentence_by_sentence() {
        let result = transcribe_chunk(&mut HelpsInOneSentence, &vec![0.0; 16 * 6_000]).expect("ok");
        let text: Vec<&str> = result.segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            text,
            [
                "And it asked whether a million had finished the budget.",
                "Aurelien said Yevgenia still needs that week."
            ],
            "the sentence the prompt cut short as heard without it, the next with its names"
        );
    }

    /// With its prompt, stops inside its last segment when given the whole
    /// chunk (its times still reaching the end), and says that segment
    /// whole when given it from its start.
    struct StopsInsideTheLast {
        calls: Vec<usize>,
    }

    impl Transcriber for StopsInsideTheLast {
        fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
            self.calls.push(samples.len());
            let segments = if samples.len() == 16 * 6_000 {
                vec![
                    segment(0, 3_000, "Thandiwe asked whether Aurelien had finished the budget."),
                    segment(3_000, 6_000, "Aurelien said Ye"),
                ]
            } else {
                vec![segment(0, 3_000, "Aurelien said Yevgenia still needs a week.")]
            };
            Ok(ChunkResult { segments, language: None })
        }
        fn prompt(&self) -> &str {
            "Thandiwe Nkosi, Aurelien Giraud, Yevgenia Kuznetsova."
        }
        fn transcribe_plain(&mut self, _samples: &[f32]) -> Result<ChunkResult, SttError> {
            let text = "And it asked whether a million had finished the budget. Or a million said \
                        you have genius still needs a week.";
            Ok(ChunkResult { segments: vec![segment(0, 6_000, text)], language: None })
        }
    }

    #[test]
    fn a_prompted_text_cut_short_inside_its_last_segment_has_that_segment_heard_again() {
        let mut engine = StopsInsideTheLast { calls: Vec::new() };
        let result = transcribe_chunk(&mut engine, &vec![0.0; 16 * 6_000]).expect("ok");
        let text: Vec<&str> = result.segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            text,
            [
                "Thandiwe asked whether Aurelien had finished the budget.",
                "Aurelien said Yevgenia still needs a week."
            ],
            "the names, and nothing lost"
        );
        assert_eq!(result.segments[1].start_ms, 3_000, "in the chunk's time");
        assert_eq!(engine.calls, [16 * 6_000, 16 * 3_000], "the last segment's audio once more");
    }

    /// Says one segment of 4 s per call, then stops, like a window that ends early.
    struct StopsEarly {
        calls: Vec<usize>,
    }

    impl Transcriber for StopsEarly {
        fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
            self.calls.push(samples.len());
            let segment = RawSegment {
                start_ms: 0,
                end_ms: 4_000,
                text: format!("part {}", self.calls.len()),
                no_speech_probability: 0.0,
            };
            Ok(ChunkResult { segments: vec![segment], language: None })
        }
    }

    #[test]
    fn a_window_that_stops_early_is_finished_from_where_it_stopped() {
        let mut engine = StopsEarly { calls: Vec::new() };
        let result = transcribe_chunk(&mut engine, &vec![0.0; 16 * 20_000]).expect("ok");
        let times: Vec<(i64, i64)> =
            result.segments.iter().map(|s| (s.start_ms, s.end_ms)).collect();
        assert_eq!(times, [(0, 4_000), (4_000, 8_000), (8_000, 12_000)]);
        assert_eq!(engine.calls, [16 * 20_000, 16 * 16_000, 16 * 12_000]);
    }

    /// One segment of few words over the whole window, and times past its
    /// end, as whisper gives when it skips speech.
    struct Sparse {
        calls: Vec<usize>,
    }

    impl Transcriber for Sparse {
        fn transcribe(&mut self, samples: &[f32]) -> Result<ChunkResult, SttError> {
            assert!(!samples.is_empty(), "never called without audio");
            self.calls.push(samples.len());
            let length_ms = samples.len() as i64 / 16;
            let text = if self.calls.len() == 1 {
                "Hello."
            } else {
                "one two three four five six seven eight"
            };
            let first = self.calls.len() == 1;
            let segment = RawSegment {
                start_ms: if first { 2_000 } else { 0 },
                end_ms: length_ms + if first { 7_000 } else { 0 },
                text: text.into(),
                no_speech_probability: 0.0,
            };
            Ok(ChunkResult { segments: vec![segment], language: None })
        }
    }

    #[test]
    fn a_sparse_segment_is_transcribed_again_within_the_chunk() {
        let mut engine = Sparse { calls: Vec::new() };
        let result = transcribe_chunk(&mut engine, &vec![0.0; 16 * 8_000]).expect("ok");
        assert_eq!(engine.calls, [16 * 8_000, 16 * 6_000], "once more, never past the end");
        let texts: Vec<&str> = result.segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            ["one two three four five six seven eight"],
            "the version with more words"
        );
    }

    #[test]
    fn a_chunk_covered_to_its_end_is_transcribed_once() {
        let mut engine = StopsEarly { calls: Vec::new() };
        let result = transcribe_chunk(&mut engine, &vec![0.0; 16 * 6_000]).expect("ok");
        assert_eq!(result.segments.len(), 1);
        assert_eq!(engine.calls.len(), 1);
    }
}
