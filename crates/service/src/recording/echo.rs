//! Without headphones the microphone also hears the other side: the `mic`
//! channel then repeats, a little later and quieter, what `sys` said. A `mic`
//! line is such an echo when it overlaps a `sys` line in time and most of its
//! words are in that line.

use std::collections::VecDeque;

/// How far apart in time an echo and its source may be (room and device
/// latency, and the gate cutting the two channels at slightly different points).
const SLACK_MS: i64 = 1_500;
/// Share of the mic line's words that must appear in the overlapping sys lines.
const SHARED_WORDS: f64 = 0.6;
/// Remote lines older than this (before the newest) are forgotten.
const MEMORY_MS: i64 = 120_000;

#[derive(Default)]
pub struct EchoFilter {
    remote: VecDeque<(i64, i64, Vec<String>)>,
}

impl EchoFilter {
    /// Remembers a line of the remote channel.
    pub fn heard_remote(&mut self, start_ms: i64, end_ms: i64, text: &str) {
        self.remote.push_back((start_ms, end_ms, words(text)));
        while self.remote.front().is_some_and(|(_, end, _)| *end < end_ms - MEMORY_MS) {
            self.remote.pop_front();
        }
    }

    /// Whether a microphone line repeats what the remote side said meanwhile.
    pub fn is_echo(&self, start_ms: i64, end_ms: i64, text: &str) -> bool {
        let mine = words(text);
        if mine.is_empty() {
            return false;
        }
        let overlapping: Vec<&String> = self
            .remote
            .iter()
            .filter(|(s, e, _)| *s <= end_ms + SLACK_MS && *e >= start_ms - SLACK_MS)
            .flat_map(|(_, _, w)| w.iter())
            .collect();
        let shared = mine.iter().filter(|word| overlapping.contains(word)).count();
        shared as f64 / mine.len() as f64 >= SHARED_WORDS
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mic_line_repeating_the_remote_side_at_the_same_time_is_an_echo() {
        let mut filter = EchoFilter::default();
        filter.heard_remote(10_000, 14_000, "The budget review moves to Thursday afternoon.");
        assert!(filter.is_echo(10_300, 14_200, "the budget review moves to thursday"));
        // Whisper hears the quieter echo a little differently.
        assert!(filter.is_echo(10_300, 14_200, "The budget reviews move to Thursday afternoon"));
    }

    #[test]
    fn the_persons_own_words_are_kept() {
        let mut filter = EchoFilter::default();
        filter.heard_remote(10_000, 14_000, "The budget review moves to Thursday afternoon.");
        // Different words at the same time: the person talking over them.
        assert!(!filter.is_echo(11_000, 13_000, "Sorry, I cannot make Thursday at all"));
        // The same words much later: the person repeating them on purpose.
        assert!(!filter.is_echo(40_000, 43_000, "the budget review moves to thursday"));
        assert!(!filter.is_echo(11_000, 12_000, ""));
    }
}
