//! What is embedded: a meeting's transcript cut into passages of about 30 s
//! (whole lines, in time order across both channels; a long silence or a
//! passage grown past the model's input ends one early), and its notes cut
//! into their bullets and paragraphs.

/// A passage closes once it spans this long.
pub const SPAN_MS: i64 = 30_000;
/// A pause this long between lines starts a new passage.
pub const PAUSE_MS: i64 = 10_000;
/// About 256 tokens of English: a passage never grows past it.
pub const MAX_CHARS: usize = 1_000;
/// Note items shorter than this many words say too little to be found by.
const MIN_NOTE_WORDS: usize = 3;

/// A transcript line, in time order.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
}

/// Consecutive lines: `lines` indexes the input.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    pub start_ms: i64,
    pub end_ms: i64,
    pub lines: std::ops::Range<usize>,
    pub text: String,
}

/// `lines` (sorted by start) cut into passages; blank lines are skipped.
pub fn transcript(lines: &[Line]) -> Vec<Passage> {
    let mut passages = Vec::new();
    let mut open: Option<Passage> = None;
    for (i, line) in lines.iter().enumerate() {
        let text = line.text.trim();
        if text.is_empty() {
            continue;
        }
        if let Some(current) = &open {
            let full = line.end_ms - current.start_ms > SPAN_MS
                && current.end_ms - current.start_ms >= SPAN_MS / 2;
            let paused = line.start_ms - current.end_ms > PAUSE_MS;
            let long = current.text.len() + text.len() + 1 > MAX_CHARS;
            if full || paused || long {
                passages.extend(open.take());
            }
        }
        match &mut open {
            Some(current) => {
                current.text.push(' ');
                current.text.push_str(text);
                current.end_ms = current.end_ms.max(line.end_ms);
                current.lines.end = i + 1;
            }
            None => {
                open = Some(Passage {
                    start_ms: line.start_ms,
                    end_ms: line.end_ms,
                    lines: i..i + 1,
                    text: cut(text),
                })
            }
        }
    }
    passages.extend(open);
    passages
}

/// A note's Markdown as items: each bullet or paragraph, its markers removed,
/// headings and items of fewer than three words left out.
pub fn note(markdown: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    let mut paragraph = String::new();
    let flush = |paragraph: &mut String, items: &mut Vec<String>| {
        let text = paragraph.trim().to_string();
        if text.split_whitespace().count() >= MIN_NOTE_WORDS {
            items.push(cut(&text));
        }
        paragraph.clear();
    };
    for raw in markdown.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            flush(&mut paragraph, &mut items);
            continue;
        }
        let (bullet, rest) = strip_marker(line);
        if bullet {
            flush(&mut paragraph, &mut items);
        }
        if !paragraph.is_empty() {
            paragraph.push(' ');
        }
        paragraph.push_str(&plain(rest));
    }
    flush(&mut paragraph, &mut items);
    items
}

/// A list marker (`-`, `*`, `+`, `1.`, a task box) taken off.
fn strip_marker(line: &str) -> (bool, &str) {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = if let Some(rest) = line.strip_prefix(['-', '*', '+']).filter(|r| r.starts_with(' '))
    {
        rest
    } else if digits > 0 && line[digits..].starts_with(". ") {
        &line[digits + 1..]
    } else {
        return (false, line);
    };
    let rest = rest.trim_start();
    let rest = ["[ ] ", "[x] ", "[X] "].iter().find_map(|b| rest.strip_prefix(b)).unwrap_or(rest);
    (true, rest)
}

/// Emphasis and code marks removed.
fn plain(text: &str) -> String {
    text.replace("**", "").replace('`', "").replace("__", "")
}

fn cut(text: &str) -> String {
    if text.len() <= MAX_CHARS {
        return text.to_string();
    }
    let mut end = MAX_CHARS;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn line(start_s: i64, seconds: i64, text: &str) -> Line {
        Line { start_ms: start_s * 1000, end_ms: (start_s + seconds) * 1000, text: text.into() }
    }

    #[test]
    fn lines_are_grouped_into_about_thirty_seconds() {
        let lines: Vec<Line> = (0..12).map(|i| line(i * 5, 4, &format!("line {i}"))).collect();
        let passages = transcript(&lines);
        assert_eq!(passages.len(), 2, "{passages:?}");
        assert_eq!(passages[0].lines, 0..6);
        assert_eq!((passages[0].start_ms, passages[0].end_ms), (0, 29_000));
        assert_eq!(passages[0].text, "line 0 line 1 line 2 line 3 line 4 line 5");
        assert_eq!(passages[1].lines, 6..12);
    }

    #[test]
    fn a_long_pause_or_a_long_text_ends_a_passage_and_blank_lines_are_skipped() {
        let lines = vec![line(0, 3, "before"), line(4, 1, "  "), line(20, 3, "after the pause")];
        let passages = transcript(&lines);
        assert_eq!(
            passages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>(),
            ["before", "after the pause"]
        );
        let wordy = "word ".repeat(80);
        let lines = vec![line(0, 2, &wordy), line(2, 2, &wordy), line(4, 2, &wordy)];
        assert_eq!(transcript(&lines).len(), 2);
    }

    #[test]
    fn notes_become_their_items() {
        let markdown = "## Decisions\n- **Move** to the new building in May\n- ok\n\n\
                        A paragraph that goes\non over two lines.\n1. [ ] Dana books the movers\n";
        assert_eq!(
            note(markdown),
            [
                "Move to the new building in May",
                "A paragraph that goes on over two lines.",
                "Dana books the movers",
            ]
        );
    }

    proptest! {
        #[test]
        fn every_line_is_in_exactly_one_passage_in_order(
            gaps in proptest::collection::vec((0i64..15, 1i64..12, 0usize..300), 0..60),
        ) {
            let mut start = 0;
            let lines: Vec<Line> = gaps.iter().map(|(gap, length, chars)| {
                start += gap * 1000;
                let l = Line { start_ms: start, end_ms: start + length * 1000, text: "x".repeat(chars + 1) };
                start += length * 1000;
                l
            }).collect();
            let passages = transcript(&lines);
            let mut next = 0;
            for passage in &passages {
                prop_assert_eq!(passage.lines.start, next);
                prop_assert!(passage.text.len() <= MAX_CHARS);
                next = passage.lines.end;
            }
            prop_assert_eq!(next, lines.len());
        }
    }
}
