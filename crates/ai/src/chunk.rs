//! Splitting long texts for the model: whole lines (or whole notes) are packed into
//! chunks of at most a character budget, so no line is ever cut in two.

/// Characters of transcript per request. Small enough for an 8k-token context with
/// room for the prompt and the answer.
pub(crate) const BUDGET: usize = 12_000;

/// Packs `lines` in order into chunks of at most `budget` characters (counting one
/// newline per line). A line longer than the budget is a chunk of its own.
pub(crate) fn split(lines: &[String], budget: usize) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut size = 0;
    for line in lines {
        let length = line.chars().count() + 1;
        if size > 0 && size + length > budget {
            chunks.push(std::mem::take(&mut current));
            size = 0;
        }
        current.push_str(line);
        current.push('\n');
        size += length;
    }
    if size > 0 {
        chunks.push(current);
    }
    chunks
}

/// Groups `notes` in order for merging: a group fills up to `budget` characters but
/// always takes at least two notes, so each round of merging at least halves them.
pub(crate) fn groups(notes: Vec<String>, budget: usize) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut size = 0;
    for note in notes {
        let length = note.chars().count();
        match groups.last_mut() {
            Some(group) if group.len() < 2 || size + length <= budget => {
                group.push(note);
                size += length;
            }
            _ => {
                groups.push(vec![note]);
                size = length;
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|text| text.to_string()).collect()
    }

    #[test]
    fn short_texts_are_one_chunk() {
        assert_eq!(split(&lines(&["ab", "cd"]), 100), ["ab\ncd\n"]);
        assert!(split(&[], 100).is_empty());
    }

    #[test]
    fn chunks_respect_the_budget_and_never_cut_a_line() {
        let input = lines(&["aaaa", "bbbb", "cccc", "dd", "e"]);
        let chunks = split(&input, 10);
        assert_eq!(chunks, ["aaaa\nbbbb\n", "cccc\ndd\ne\n"]);
        assert!(chunks.iter().all(|chunk| chunk.chars().count() <= 10));
        assert_eq!(chunks.concat(), input.iter().map(|l| format!("{l}\n")).collect::<String>());
    }

    #[test]
    fn a_line_longer_than_the_budget_stands_alone() {
        let chunks = split(&lines(&["a", "xxxxxxxxxxxxxxx", "b"]), 5);
        assert_eq!(chunks, ["a\n", "xxxxxxxxxxxxxxx\n", "b\n"]);
    }

    #[test]
    fn budgets_count_characters_not_bytes() {
        assert_eq!(split(&lines(&["éééé", "üüüü"]), 10), ["éééé\nüüüü\n"]);
    }

    #[test]
    fn groups_fill_the_budget_with_at_least_two_notes() {
        let notes = lines(&["aaa", "bbb", "ccc", "ddd", "eee"]);
        let grouped = groups(notes, 6);
        assert_eq!(grouped, [lines(&["aaa", "bbb"]), lines(&["ccc", "ddd"]), lines(&["eee"])]);
        let huge = groups(lines(&["xxxxxxxx", "yyyyyyyy", "zzzzzzzz"]), 4);
        assert_eq!(huge, [lines(&["xxxxxxxx", "yyyyyyyy"]), lines(&["zzzzzzzz"])]);
        assert_eq!(groups(lines(&["a", "b", "c"]), 100), [lines(&["a", "b", "c"])]);
    }
}
