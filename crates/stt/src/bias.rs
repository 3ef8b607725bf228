//! Names and terms favoured while whisper decodes (contextual biasing): the
//! prompt alone leaves a name such as "Oluwaseun" heard as "the way sun",
//! because whisper's decoder finds the everyday words far likelier, and no
//! spelling fix afterwards can join three words back into a name. So each
//! decoding step, before whisper picks its token, the first token of every
//! rare word of the prompt gets a small lift, and the token that carries on a
//! word already begun gets a larger one. Once the decoder has started a name
//! it tends to finish it; a word it has no reason to start stays unstarted.
//!
//! whisper.cpp offers this as a C callback given raw pointers (its logits
//! filter), hence the one `unsafe` block here, kept to reading what whisper
//! hands the callback for as long as it runs.
#![allow(unsafe_code)]

use std::ffi::{c_int, c_void};

use whisper_rs::{FullParams, WhisperState, WhisperTokenData};

/// How much a word's tokens are lifted, in logits (log-probability units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BiasStrength {
    /// For a word's first token, anywhere.
    pub start: f32,
    /// For the token that carries on a word whose first tokens were just
    /// decoded.
    pub next: f32,
}

/// Chosen on bench/names.py's first twelve meetings, then checked on six
/// more it was not chosen on (bench/results/names-2026-12-02-bias.md): a
/// larger start lifts names into places they were not said (and whisper
/// then writes the prompt's list), a larger next changes nothing measured.
pub const DEFAULT_STRENGTH: BiasStrength = BiasStrength { start: 1.5, next: 10.0 };

/// The words to favour, as whisper's tokens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bias {
    /// Each word's tokens after a space (as inside a sentence); only words of
    /// two tokens or more: a word of one token is an everyday word, and the
    /// prompt alone brings it.
    words: Vec<Vec<c_int>>,
    strength: Option<BiasStrength>,
    /// How many logits whisper passes (its vocabulary).
    n_vocab: usize,
    /// Tokens from this id on are not text (end of text, timestamps, …).
    text_end: c_int,
    /// The most tokens a word has: no more of the decoded ones can matter.
    longest: usize,
}

impl Bias {
    /// `words`: each word's tokens; `n_vocab` and `text_end` as the model has
    /// them ([`whisper_rs::WhisperContext::n_vocab`], `token_eot`).
    pub fn new(words: Vec<Vec<c_int>>, n_vocab: usize, text_end: c_int) -> Self {
        let mut words: Vec<Vec<c_int>> = words
            .into_iter()
            .filter(|tokens| tokens.len() > 1 && tokens.iter().all(|&t| t >= 0 && t < text_end))
            .collect();
        words.sort_unstable();
        words.dedup();
        let longest = words.iter().map(Vec::len).max().unwrap_or(0);
        Bias { words, strength: Some(DEFAULT_STRENGTH), n_vocab, text_end, longest }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty() || self.strength.is_none()
    }

    /// Another strength; `None` turns the bias off.
    pub fn set_strength(&mut self, strength: Option<BiasStrength>) {
        self.strength = strength;
    }

    /// Adds the lifts to `logits` (one per token of the vocabulary) for the
    /// step after `decoded` (this window's tokens so far). A token that two
    /// words lift gets the larger lift, not both.
    pub fn apply(&self, decoded: &[c_int], logits: &mut [f32]) {
        let Some(strength) = self.strength else { return };
        let begun = self.text_tail(decoded);
        let mut lifts: Vec<(c_int, f32)> = Vec::new();
        for word in &self.words {
            lift(&mut lifts, word[0], strength.start);
            if let Some(next) = next_of_begun(word, begun) {
                lift(&mut lifts, next, strength.next);
            }
        }
        for (token, amount) in lifts {
            if let Some(logit) = usize::try_from(token).ok().and_then(|i| logits.get_mut(i)) {
                if logit.is_finite() {
                    *logit += amount;
                }
            }
        }
    }

    /// The text tokens since the last token that is not text (a timestamp):
    /// a word never runs across one.
    fn text_tail<'a>(&self, decoded: &'a [c_int]) -> &'a [c_int] {
        let start = decoded.iter().rposition(|&t| t >= self.text_end).map_or(0, |i| i + 1);
        &decoded[start..]
    }
}

/// The token that carries `word` on when `begun` ends with its first tokens
/// (the most of them that match).
fn next_of_begun(word: &[c_int], begun: &[c_int]) -> Option<c_int> {
    (1..word.len()).rev().find(|&k| begun.ends_with(&word[..k])).map(|k| word[k])
}

fn lift(lifts: &mut Vec<(c_int, f32)>, token: c_int, amount: f32) {
    match lifts.iter_mut().find(|(t, _)| *t == token) {
        Some((_, kept)) => *kept = kept.max(amount),
        None => lifts.push((token, amount)),
    }
}

/// `state.full(params, samples)` with `bias` applied at each decoding step.
pub fn full_with(
    state: &mut WhisperState,
    mut params: FullParams<'_, '_>,
    samples: &[f32],
    bias: &Bias,
) -> Result<(), whisper_rs::WhisperError> {
    if !bias.is_empty() {
        // SAFETY: whisper.cpp calls `filter` only inside `full` below, with
        // `user_data` as given here; `bias` is borrowed for this whole
        // function, so it outlives every call, and is only read.
        unsafe {
            params.set_filter_logits_callback(Some(filter));
            params.set_filter_logits_callback_user_data(bias as *const Bias as *mut c_void);
        }
    }
    state.full(params, samples)
}

/// whisper.cpp's logits filter: `tokens` (`n_tokens` of them) are the
/// window's tokens so far, `logits` one per token of the vocabulary.
unsafe extern "C" fn filter(
    _context: *mut whisper_rs::WhisperSysContext,
    _state: *mut whisper_rs::WhisperSysState,
    tokens: *const WhisperTokenData,
    n_tokens: c_int,
    logits: *mut f32,
    user_data: *mut c_void,
) {
    if user_data.is_null() || logits.is_null() {
        return;
    }
    // SAFETY: `user_data` is the `Bias` that `full_with` borrows for as long
    // as whisper.cpp runs; `logits` holds the vocabulary's `n_vocab` floats
    // and `tokens` `n_tokens` entries (whisper.cpp's own vectors), both
    // valid for this call only, and not kept past it.
    let (bias, logits, tokens) = unsafe {
        let bias = &*(user_data as *const Bias);
        let logits = std::slice::from_raw_parts_mut(logits, bias.n_vocab);
        let tokens = match usize::try_from(n_tokens) {
            Ok(count) if count > 0 && !tokens.is_null() => {
                std::slice::from_raw_parts(tokens, count)
            }
            _ => &[],
        };
        (bias, logits, tokens)
    };
    // Only the last few tokens can begin a word: a copy of those, not of
    // the whole window, at each step.
    let recent = &tokens[tokens.len().saturating_sub(bias.longest)..];
    let decoded: Vec<c_int> = recent.iter().map(|token| token.id).collect();
    bias.apply(&decoded, logits);
}

#[cfg(test)]
mod tests {
    use super::*;

    const EOT: c_int = 100;
    const START: f32 = DEFAULT_STRENGTH.start;
    const NEXT: f32 = DEFAULT_STRENGTH.next;

    fn bias(words: &[&[c_int]]) -> Bias {
        Bias::new(words.iter().map(|w| w.to_vec()).collect(), 120, EOT)
    }

    fn lifted(bias: &Bias, decoded: &[c_int]) -> Vec<(usize, f32)> {
        let mut logits = vec![0.0; 120];
        bias.apply(decoded, &mut logits);
        logits.iter().enumerate().filter(|(_, l)| **l != 0.0).map(|(i, l)| (i, *l)).collect()
    }

    #[test]
    fn a_words_first_token_is_lifted_a_little_anywhere() {
        let b = bias(&[&[7, 8, 9]]);
        assert_eq!(lifted(&b, &[1, 2]), vec![(7, START)]);
    }

    #[test]
    fn a_word_begun_is_carried_on_by_its_next_token() {
        let b = bias(&[&[7, 8, 9]]);
        assert_eq!(lifted(&b, &[1, 7]), vec![(7, START), (8, NEXT)]);
        assert_eq!(lifted(&b, &[1, 7, 8]), vec![(7, START), (9, NEXT)]);
        // Finished: only the start again.
        assert_eq!(lifted(&b, &[7, 8, 9]), vec![(7, START)]);
    }

    #[test]
    fn a_timestamp_ends_what_was_begun() {
        let b = bias(&[&[7, 8, 9]]);
        assert_eq!(lifted(&b, &[7, EOT + 5]), vec![(7, START)]);
    }

    #[test]
    fn two_words_lifting_one_token_give_it_the_larger_lift_once() {
        let b = bias(&[&[7, 8, 9], &[7, 10], &[8, 11]]);
        // 8 starts a word and carries on another: the larger lift, once.
        assert_eq!(lifted(&b, &[7]), vec![(7, START), (8, NEXT), (10, NEXT)]);
    }

    #[test]
    fn one_token_words_and_tokens_outside_text_are_left_out() {
        let b = bias(&[&[7], &[EOT, 3], &[-1, 4]]);
        assert!(b.is_empty());
        assert!(lifted(&b, &[7]).is_empty());
    }

    #[test]
    fn a_suppressed_token_stays_suppressed_and_no_strength_lifts_nothing() {
        let mut b = bias(&[&[7, 8]]);
        let mut logits = vec![0.0; 120];
        logits[8] = f32::NEG_INFINITY;
        b.apply(&[7], &mut logits);
        assert_eq!(logits[8], f32::NEG_INFINITY);
        b.set_strength(None);
        assert!(b.is_empty());
        assert!(lifted(&b, &[7]).is_empty());
    }

    #[test]
    fn a_short_logits_slice_is_never_written_past() {
        let b = Bias::new(vec![vec![7, 8]], 120, EOT);
        let mut logits = vec![0.0; 5];
        b.apply(&[7], &mut logits);
        assert!(logits.iter().all(|l| *l == 0.0));
    }
}
