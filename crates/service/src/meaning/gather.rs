//! What a question is answered from (blocking). The lines holding its words
//! and the passages nearest it in meaning are fused by reciprocal rank, as
//! `GET /v1/search?mode=both` fuses them; a question about one meeting adds
//! that meeting's notes and action items. Each result is then weighed line by
//! line and cut again around its best line, with the line said before it and
//! the line said after it, whoever said them: the answer is often the turn
//! next to the one that names the subject. Those at or above the relevance
//! floor answer; when none does, the closest are kept to be shown as such.

use std::collections::HashMap;

use recorder_domain::NoteId;
use recorder_embed::{fusion, quantize, Embedder};
use recorder_store::{MeetingId, PassageContent, SegmentRecord, Store, StoreResult};

use crate::meaning::intent::{self, Intent};
use crate::meaning::retrieve::Found;
use crate::meaning::words::{self, Weighted};

/// Below this relevance nothing answers (a line's cosine to the question,
/// mixed with its passage's; or its words, see [`WORD_SCALE`]). Chosen on
/// the held-out set of `bench/ask.py` (bench/results/ask-*.md).
pub const FLOOR: f32 = 0.3;
/// A line holding all of the question's (weighted) words counts as this
/// cosine.
const WORD_SCALE: f32 = 0.5;
/// Fused results weighed line by line.
const WEIGHED: usize = 10;
/// Lines of a passage that may answer (each with its neighbours).
const PER_PASSAGE: usize = 2;
/// Closest results kept when none answers.
const CLOSEST: usize = 3;
/// A passage's text at most (about the embedding model's input).
const MAX_CHARS: usize = 1_000;
/// A best line this short (words, with the line after it) takes one more.
const SHORT: usize = 12;

/// A question, embedded when the model is there.
pub struct Question<'a> {
    pub text: &'a str,
    pub vector: Option<&'a [f32]>,
    pub embedder: Option<&'a Embedder>,
    pub scope: recorder_embed::index::Scope,
    pub meeting: Option<&'a MeetingId>,
    /// The relevance floor ([`FLOOR`] but in `bench/ask.py`'s sweep).
    pub floor: f32,
}

/// Something that may answer a question, and how well.
#[derive(Debug, Clone)]
pub struct Answerable {
    pub meeting_id: MeetingId,
    pub title: String,
    pub started_at: i64,
    pub part: Part,
    pub relevance: f32,
}

#[derive(Debug, Clone)]
pub enum Part {
    /// Whole consecutive lines; `best` is the one that answers.
    Lines { lines: Vec<SegmentRecord>, best: usize },
    /// An item of the notes (`kind`: summary, decisions…).
    Note { kind: String, text: String },
    /// An action item.
    Item { text: String, owner: String, due: Option<String> },
}

/// What was found: those that answer, best first, or else the closest.
pub struct Gathered {
    pub answering: Vec<Answerable>,
    pub closest: Vec<Answerable>,
}

/// A result before it is weighed line by line.
struct Unit {
    meeting_id: MeetingId,
    title: String,
    started_at: i64,
    what: What,
    /// The passage's cosine to the question, when found by meaning.
    cosine: Option<f32>,
}

enum What {
    Span { start_ms: i64, end_ms: i64 },
    Note { note: Option<NoteId>, kind: String, text: String },
    Item { text: String, owner: String, due: Option<String> },
}

/// The answers to `question` from `by_meaning` (the passages nearest it)
/// and the lines holding its words.
pub fn gather(store: &Store, question: &Question, by_meaning: Vec<Found>) -> StoreResult<Gathered> {
    let (by_words, weighted) =
        words::lines_with_most_words(store, question.text, question.scope, question.meeting)?;
    let mut units: Vec<Unit> = Vec::new();
    let meaning_keys: Vec<usize> = by_meaning
        .iter()
        .map(|found| push(&mut units, unit_of(found, Some(found.score))))
        .collect();
    let word_keys: Vec<usize> = by_words
        .iter()
        .map(|found| {
            let within = units.iter().position(|unit| holds(unit, found));
            within.unwrap_or_else(|| push(&mut units, unit_of(found, None)))
        })
        .collect();
    let mut part_keys = Vec::new();
    if let Some(meeting) = question.meeting {
        for unit in meeting_parts(store, meeting)? {
            let same = units.iter().position(|u| same_note(u, &unit));
            part_keys.push(same.unwrap_or_else(|| push(&mut units, unit)));
        }
        part_keys
            .sort_by_key(|key| std::cmp::Reverse(fits(&units[*key], intent::of(question.text))));
    }
    let fused = fusion::fuse(&[distinct(word_keys), meaning_keys, part_keys]);
    let mut weigher = Weigher { store, question, weighted: &weighted, lines: HashMap::new() };
    let mut weighed: Vec<Answerable> = Vec::new();
    for (key, _) in fused.into_iter().take(WEIGHED) {
        for answerable in weigher.weigh(&units[key])? {
            if !weighed.iter().any(|other| overlaps(other, &answerable)) {
                weighed.push(answerable);
            }
        }
    }
    weighed.sort_by(|a, b| b.relevance.total_cmp(&a.relevance));
    let (answering, below): (Vec<Answerable>, Vec<Answerable>) =
        weighed.into_iter().partition(|a| a.relevance >= question.floor);
    let closest =
        if answering.is_empty() { below.into_iter().take(CLOSEST).collect() } else { Vec::new() };
    Ok(Gathered { answering, closest })
}

/// A ranking with each key once, where it first comes (several word lines
/// of one passage are one result).
fn distinct(keys: Vec<usize>) -> Vec<usize> {
    let mut seen = std::collections::HashSet::new();
    keys.into_iter().filter(|key| seen.insert(*key)).collect()
}

fn push(units: &mut Vec<Unit>, unit: Unit) -> usize {
    units.push(unit);
    units.len() - 1
}

/// A passage found by meaning (`cosine`: its score) or a line by words.
fn unit_of(found: &Found, cosine: Option<f32>) -> Unit {
    let record = &found.record;
    let what = match &record.content {
        PassageContent::Transcript(_) => {
            What::Span { start_ms: record.start_ms, end_ms: record.end_ms }
        }
        PassageContent::Note { note_id, .. } => {
            What::Note { note: Some(note_id.clone()), kind: String::new(), text: found.text() }
        }
    };
    Unit {
        meeting_id: record.meeting_id.clone(),
        title: record.meeting_title.clone(),
        started_at: record.started_at,
        what,
        cosine,
    }
}

/// Whether a word hit's line lies within a unit's span.
fn holds(unit: &Unit, found: &Found) -> bool {
    match unit.what {
        What::Span { start_ms, end_ms } => {
            unit.meeting_id == found.record.meeting_id
                && (start_ms..=end_ms).contains(&found.record.start_ms)
        }
        _ => false,
    }
}

fn same_note(unit: &Unit, other: &Unit) -> bool {
    match (&unit.what, &other.what) {
        (What::Note { note: a, text: x, .. }, What::Note { note: b, text: y, .. }) => {
            a == b && x == y
        }
        _ => false,
    }
}

/// Whether a unit is of the kind the question asks for.
fn fits(unit: &Unit, asked: Intent) -> bool {
    match (&unit.what, asked) {
        (What::Item { .. }, Intent::Next) => true,
        (What::Note { kind, .. }, Intent::Next) => kind == "action_items",
        (What::Note { kind, .. }, Intent::Decided) => kind == "decisions",
        (What::Note { text, .. }, Intent::When) => intent::names_a_time(text),
        _ => false,
    }
}

/// One meeting's notes (each item, with its note's kind) and action items.
fn meeting_parts(store: &Store, meeting: &MeetingId) -> StoreResult<Vec<Unit>> {
    let record = store.meeting(meeting)?;
    let (notes, items, _) = store.meeting_parts(meeting)?;
    let unit = |what| Unit {
        meeting_id: meeting.clone(),
        title: record.title.clone(),
        started_at: record.started_at,
        what,
        cosine: None,
    };
    let mut units = Vec::new();
    for note in notes {
        for text in recorder_embed::passages::note(&note.content_md) {
            units.push(unit(What::Note {
                note: Some(note.id.clone()),
                kind: note.kind.clone(),
                text,
            }));
        }
    }
    for item in items {
        units.push(unit(What::Item { text: item.text, owner: item.owner, due: item.due }));
    }
    Ok(units)
}

/// Weighs units line by line (the meetings' lines read once).
struct Weigher<'a> {
    store: &'a Store,
    question: &'a Question<'a>,
    weighted: &'a Weighted,
    lines: HashMap<MeetingId, Vec<SegmentRecord>>,
}

impl Weigher<'_> {
    fn weigh(&mut self, unit: &Unit) -> StoreResult<Vec<Answerable>> {
        let asked = intent::of(self.question.text);
        let (part, relevance) = match &unit.what {
            What::Span { start_ms, end_ms } => {
                let picked = self.best_lines(unit, *start_ms, *end_ms, asked)?;
                return Ok(picked
                    .into_iter()
                    .map(|(part, relevance)| answerable(unit, part, relevance))
                    .collect());
            }
            What::Note { kind, text, .. } => {
                let base = self.relevance(&[text.as_str()], unit.cosine)[0];
                // One meeting's own notes (their kind known) of the kind asked
                // for count whatever their words; others must be near already.
                let of_kind = !kind.is_empty() || base >= intent::BOOSTED_FROM;
                let boost = if of_kind && fits(unit, asked) { intent::BOOST } else { 0.0 };
                let relevance = base + boost;
                (Part::Note { kind: kind.clone(), text: text.clone() }, relevance)
            }
            What::Item { text, owner, due } => {
                let boost = if asked == Intent::Next { intent::BOOST } else { 0.0 };
                let said = format!("{owner}: {text}");
                let relevance = self.relevance(&[said.as_str()], None)[0] + boost;
                let part =
                    Part::Item { text: text.clone(), owner: owner.clone(), due: due.clone() };
                (part, relevance)
            }
        };
        Ok(vec![answerable(unit, part, relevance)])
    }

    /// The span's two best lines (the second outside the first's
    /// neighbours), each with its neighbours, and their relevance.
    fn best_lines(
        &mut self,
        unit: &Unit,
        start_ms: i64,
        end_ms: i64,
        asked: Intent,
    ) -> StoreResult<Vec<(Part, f32)>> {
        if !self.lines.contains_key(&unit.meeting_id) {
            let lines = self.store.segments(&unit.meeting_id)?;
            self.lines.insert(unit.meeting_id.clone(), lines);
        }
        let all = &self.lines[&unit.meeting_id];
        let within: Vec<usize> = (0..all.len())
            .filter(|&i| {
                (start_ms..=end_ms).contains(&all[i].start_ms) && !all[i].text.trim().is_empty()
            })
            .collect();
        let texts: Vec<&str> = within.iter().map(|&i| all[i].text.as_str()).collect();
        let mut scores = self.relevance(&texts, unit.cosine);
        let fits = |text: &str| self.fits(text, asked);
        for (score, &i) in scores.iter_mut().zip(&within) {
            // One meeting's every line of the kind asked for is a candidate;
            // across the library, only those near the question already.
            let near = self.question.meeting.is_some() || *score >= intent::BOOSTED_FROM;
            if fits(&all[i].text) && near {
                *score += intent::BOOST;
            }
        }
        let mut order: Vec<usize> = (0..within.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        let mut picked: Vec<(Vec<usize>, usize, f32)> = Vec::new();
        for k in order {
            if picked.len() == PER_PASSAGE {
                break;
            }
            if picked.iter().any(|(chosen, _, _)| chosen.contains(&within[k])) {
                continue;
            }
            // The second keeps only lines the first does not show.
            let (mut chosen, at, relevance) = self.answering(all, within[k], scores[k], asked);
            let taken: Vec<usize> = picked.iter().flat_map(|(c, _, _)| c.iter().copied()).collect();
            let answer = chosen[at];
            if taken.contains(&answer) {
                continue;
            }
            chosen.retain(|i| !taken.contains(i));
            let at = chosen.iter().position(|&i| i == answer).unwrap_or(0);
            picked.push((chosen, at, relevance));
        }
        Ok(picked
            .into_iter()
            .map(|(chosen, at, relevance)| {
                let lines = chosen.into_iter().map(|i| all[i].clone()).collect();
                (Part::Lines { lines, best: at }, relevance)
            })
            .collect())
    }

    /// Whether a line is of the kind asked for.
    fn fits(&self, text: &str, asked: Intent) -> bool {
        match asked {
            Intent::When => intent::names_a_time(text),
            Intent::Who => intent::names_someone_else(text, self.question.text),
            Intent::Amount => intent::names_an_amount(text),
            Intent::Decided => intent::states_a_decision(text),
            _ => false,
        }
    }

    /// The lines around `best` of `all` (indexes) and which of them answers.
    /// A question is answered by the line after it. The line that names the subject is often not the one that answers
    /// ("Sam is away in August." "Priya covers for him."): a line after it
    /// of the kind asked for answers instead (an answer follows what it
    /// answers), the lines around it kept, and the answer counts as one.
    fn answering(
        &self,
        all: &[SegmentRecord],
        best: usize,
        mut relevance: f32,
        asked: Intent,
    ) -> (Vec<usize>, usize, f32) {
        let (mut chosen, mut at) = around(all, best);
        // A question in the meeting is answered by the reply after it.
        if all[best].text.trim_end().ends_with('?') && at + 1 < chosen.len() {
            (chosen, at) = around(all, chosen[at + 1]);
        }
        let fits = |i: usize| self.fits(&all[i].text, asked);
        if asked != Intent::Other && !fits(chosen[at]) && relevance >= intent::BOOSTED_FROM {
            let neighbour = (at + 1..chosen.len()).find(|&n| fits(chosen[n]));
            if let Some(neighbour) = neighbour {
                (chosen, at) = around(all, chosen[neighbour]);
                relevance += intent::BOOST;
            }
        }
        (chosen, at, relevance)
    }

    /// Each text's relevance: its cosine to the question (mixed with its
    /// passage's, when known), or its words, whichever is more.
    fn relevance(&self, texts: &[&str], passage: Option<f32>) -> Vec<f32> {
        let cosines: Vec<Option<f32>> = match (self.question.embedder, self.question.vector) {
            (Some(embedder), Some(question)) if !texts.is_empty() => embedder
                .embed(texts)
                .iter()
                .map(|v| {
                    let line = quantize::dot(question, v);
                    Some(passage.map_or(line, |p| 0.7 * line + 0.3 * p))
                })
                .collect(),
            _ => vec![None; texts.len()],
        };
        texts
            .iter()
            .zip(cosines)
            .map(|(text, cosine)| {
                let words = WORD_SCALE * self.weighted.share(text);
                cosine.map_or(words, |c| c.max(words))
            })
            .collect()
    }
}

/// The line at `best` of `all` with the line before and the line after it
/// (blank lines skipped), and one more after a short pair; within
/// [`MAX_CHARS`]. Returns their indexes and where the best one is among them.
pub fn around(all: &[SegmentRecord], best: usize) -> (Vec<usize>, usize) {
    let spoken = |i: &usize| !all[*i].text.trim().is_empty();
    let before = (0..best).rev().find(spoken);
    let mut after: Vec<usize> = (best + 1..all.len()).filter(spoken).take(2).collect();
    let words = |i: usize| all[i].text.split_whitespace().count();
    if after.len() == 2 && words(best) + words(after[0]) >= SHORT {
        after.pop();
    }
    let mut chosen: Vec<usize> = before.into_iter().chain([best]).chain(after).collect();
    let chars = |chosen: &[usize]| chosen.iter().map(|&i| all[i].text.len() + 1).sum::<usize>();
    while chosen.len() > 1 && chars(&chosen) > MAX_CHARS {
        if *chosen.last().unwrap_or(&best) != best {
            chosen.pop();
        } else {
            chosen.remove(0);
        }
    }
    let at = chosen.iter().position(|&i| i == best).unwrap_or(0);
    (chosen, at)
}

fn answerable(unit: &Unit, part: Part, relevance: f32) -> Answerable {
    Answerable {
        meeting_id: unit.meeting_id.clone(),
        title: unit.title.clone(),
        started_at: unit.started_at,
        part,
        relevance,
    }
}

/// Whether two answers are the same lines (or the same note item).
fn overlaps(a: &Answerable, b: &Answerable) -> bool {
    if a.meeting_id != b.meeting_id {
        return false;
    }
    match (&a.part, &b.part) {
        // The same answering line, or one inside the other's lines.
        (Part::Lines { lines: x, best: i }, Part::Lines { lines: y, best: j }) => {
            x.iter().any(|l| l.id == y[*j].id) || y.iter().any(|l| l.id == x[*i].id)
        }
        (Part::Note { text: x, .. }, Part::Note { text: y, .. }) => x == y,
        (Part::Item { text: x, .. }, Part::Item { text: y, .. }) => x == y,
        _ => false,
    }
}
