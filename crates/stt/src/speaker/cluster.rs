//! Grouping window embeddings into speakers whose number is not known.
//!
//! 1. **One speaker or several?** Average-linkage clustering on the raw
//!    cosine similarity with a lenient threshold ([`SAME_VOICE`]): when only
//!    one group of some size remains, the channel is one person (the usual
//!    one-to-one call), unless the groups found below have raw centroids
//!    plainly unlike ([`DISTINCT`]).
//! 2. **Which speakers?** Everything a meeting's windows share (the room, the
//!    line, the codec) is taken away by subtracting their mean embedding
//!    (measured: speakers' centroids, 0.6–0.8 apart raw, fall to about 0.1;
//!    `research/diarization/README.md`). Average linkage on these centred
//!    embeddings with [`CENTRED_LINK`] proposes groups.
//! 3. **Refined**: groups smaller than [`SMALLEST_GROUP`] windows are not
//!    taken for speakers, centroids nearer than [`CENTRED_MERGE`] merge, and
//!    every window moves to its nearest centroid; [`ROUNDS`] times.
//! 4. **One person, not two**: a real voice varies more from one stretch to
//!    another than a synthetic one (a laugh, a turned head, another room), so
//!    one person can come out as two groups. Two groups whose raw centroids
//!    are as alike as their own windows are to them ([`SAME_PERSON`] of the
//!    geometric mean of their mean resultant lengths) are one person
//!    (measured on real voices, `bench/voices/`: a person's two groups 0.93–1.2
//!    of it, two people at most 0.77; espeak-ng's voices, one synthesiser,
//!    0.56–0.89).

/// The most windows grouped one by one; more are grouped in runs.
const MOST_UNITS: usize = 600;
/// Raw cosine above which two groups are taken for one voice in step 1.
const SAME_VOICE: f32 = 0.5;
/// Groups whose raw centroids are less alike than this are two people, even
/// when the one-voice check says one (measured on generated pairs and single
/// voices: 98 % of single voices stay one, a few more short pairs are split).
const DISTINCT: f32 = 0.7;
/// Average-linkage threshold on centred embeddings.
const CENTRED_LINK: f32 = 0.3;
/// Centred centroids at least this alike are one speaker.
const CENTRED_MERGE: f32 = 0.2;
/// A group of fewer windows (about 3 s of speech) is not a speaker.
const SMALLEST_GROUP: usize = 4;
const ROUNDS: usize = 3;
/// Two groups whose raw centroid directions are at least this share of the
/// geometric mean of their cohesions (mean resultant lengths) alike are one
/// person (step 4).
const SAME_PERSON: f32 = 0.92;

/// A speaker label per embedding, numbered by first appearance from 0.
pub fn speakers(embeddings: &[Vec<f32>]) -> Vec<usize> {
    let labels = grouped(embeddings);
    let raw: Vec<Vec<f32>> = embeddings.iter().map(|e| unit(e.clone())).collect();
    renumber(&one_person_not_two(&raw, labels))
}

/// Steps 1–3: groups of windows.
fn grouped(embeddings: &[Vec<f32>]) -> Vec<usize> {
    if embeddings.is_empty() {
        return Vec::new();
    }
    if embeddings.len() > MOST_UNITS {
        return speakers_of_many(embeddings);
    }
    let raw: Vec<Vec<f32>> = embeddings.iter().map(|e| unit(e.clone())).collect();
    let centred = centre(&raw);
    let labels = renumber(&refine(&centred, average_linkage(&centred, CENTRED_LINK)));
    let first = average_linkage(&raw, SAME_VOICE);
    let one_voice = sizeable_groups(&first) <= 1;
    if sizeable_groups(&labels) >= 2 {
        if one_voice && !distinct_voices(&raw, &labels) {
            return vec![0; raw.len()];
        }
        return labels;
    }
    if one_voice {
        return vec![0; raw.len()];
    }
    // Too few windows for the centred groups to hold (a short call of two):
    // the raw groups, each window moved to the nearest of them.
    renumber(&nearest_of(&raw, &first))
}

/// Every window's nearest centroid among the groups of `labels` big enough.
fn nearest_of(units: &[Vec<f32>], labels: &[usize]) -> Vec<usize> {
    let directions: Vec<Vec<f32>> =
        centroids(units, labels).iter().map(Centroid::direction).collect();
    units.iter().map(|v| nearest(v, &directions)).collect()
}

/// A long meeting (over [`MOST_UNITS`] windows, about 7.5 minutes of speech):
/// average linkage costs the cube of what it groups, so every n-th window is
/// grouped (an even sample, each window still one voice), and then every
/// window moves to the nearest of the speakers found, in the centred space.
fn speakers_of_many(embeddings: &[Vec<f32>]) -> Vec<usize> {
    let every = embeddings.len().div_ceil(MOST_UNITS);
    let sample: Vec<Vec<f32>> = embeddings.iter().step_by(every).cloned().collect();
    let sample_labels = grouped(&sample);
    // Until moved, a window sounds like the sampled window just before it.
    let labels: Vec<usize> = (0..embeddings.len()).map(|i| sample_labels[i / every]).collect();
    let raw: Vec<Vec<f32>> = embeddings.iter().map(|e| unit(e.clone())).collect();
    renumber(&nearest_of(&centre(&raw), &labels))
}

/// Whether two of the groups sound unlike (raw centroids less than
/// [`DISTINCT`] alike): then the one-voice check was fooled by a short call
/// of two people, whose few windows average out alike.
fn distinct_voices(units: &[Vec<f32>], labels: &[usize]) -> bool {
    let directions: Vec<Vec<f32>> = centroids(units, labels)
        .iter()
        .filter(|c| c.size >= SMALLEST_GROUP)
        .map(Centroid::direction)
        .collect();
    directions
        .iter()
        .enumerate()
        .any(|(i, a)| directions[i + 1..].iter().any(|b| dot(a, b) < DISTINCT))
}

fn unit(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::EPSILON);
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn centre(units: &[Vec<f32>]) -> Vec<Vec<f32>> {
    let mut mean = vec![0.0f32; units[0].len()];
    for v in units {
        mean.iter_mut().zip(v).for_each(|(m, x)| *m += x / units.len() as f32);
    }
    units.iter().map(|v| unit(v.iter().zip(&mean).map(|(x, m)| x - m).collect())).collect()
}

fn sizeable_groups(labels: &[usize]) -> usize {
    let mut sizes = std::collections::HashMap::new();
    labels.iter().for_each(|l| *sizes.entry(*l).or_insert(0usize) += 1);
    sizes.values().filter(|n| **n >= SMALLEST_GROUP).count()
}

/// Average-linkage agglomerative clustering of unit vectors: groups merge
/// while the two most alike are at least `threshold` alike.
pub fn average_linkage(units: &[Vec<f32>], threshold: f32) -> Vec<usize> {
    let n = units.len();
    let mut groups: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut similarity: Vec<Vec<f32>> =
        units.iter().map(|a| units.iter().map(|b| dot(a, b)).collect()).collect();
    while groups.len() > 1 {
        let (value, a, b) = most_alike(&similarity);
        if value < threshold {
            break;
        }
        let (size_a, size_b) = (groups[a].len() as f32, groups[b].len() as f32);
        let merged: Vec<f32> = similarity[a]
            .iter()
            .zip(&similarity[b])
            .map(|(x, y)| (x * size_a + y * size_b) / (size_a + size_b))
            .collect();
        for (other, value) in merged.into_iter().enumerate() {
            similarity[a][other] = value;
            similarity[other][a] = value;
        }
        let moved = groups.remove(b);
        groups[a].extend(moved);
        similarity.remove(b);
        similarity.iter_mut().for_each(|row| {
            row.remove(b);
        });
    }
    let mut labels = vec![0; n];
    for (label, group) in groups.iter().enumerate() {
        group.iter().for_each(|i| labels[*i] = label);
    }
    labels
}

/// The most alike pair (a < b) of a symmetric similarity matrix.
fn most_alike(similarity: &[Vec<f32>]) -> (f32, usize, usize) {
    let mut best = (f32::MIN, 0, 0);
    for (a, row) in similarity.iter().enumerate() {
        for (b, value) in row.iter().enumerate().skip(a + 1) {
            if *value > best.0 {
                best = (*value, a, b);
            }
        }
    }
    best
}

/// A group's summed vectors and size.
struct Centroid {
    sum: Vec<f32>,
    size: usize,
}

impl Centroid {
    fn direction(&self) -> Vec<f32> {
        unit(self.sum.clone())
    }
}

fn refine(units: &[Vec<f32>], mut labels: Vec<usize>) -> Vec<usize> {
    for _ in 0..ROUNDS {
        let mut centroids = centroids(units, &labels);
        merge_close(&mut centroids);
        let directions: Vec<Vec<f32>> = centroids.iter().map(Centroid::direction).collect();
        labels = units.iter().map(|v| nearest(v, &directions)).collect();
    }
    labels
}

/// Centroids of the groups of at least [`SMALLEST_GROUP`] windows (or of all
/// groups when none is that big).
fn centroids(units: &[Vec<f32>], labels: &[usize]) -> Vec<Centroid> {
    let count = labels.iter().max().map_or(0, |m| m + 1);
    let mut all: Vec<Centroid> =
        (0..count).map(|_| Centroid { sum: vec![0.0; units[0].len()], size: 0 }).collect();
    for (v, label) in units.iter().zip(labels) {
        let c = &mut all[*label];
        c.sum.iter_mut().zip(v).for_each(|(s, x)| *s += x);
        c.size += 1;
    }
    all.retain(|c| c.size > 0);
    if all.iter().any(|c| c.size >= SMALLEST_GROUP) {
        all.retain(|c| c.size >= SMALLEST_GROUP);
    }
    all
}

fn merge_close(centroids: &mut Vec<Centroid>) {
    while centroids.len() > 1 {
        let directions: Vec<Vec<f32>> = centroids.iter().map(Centroid::direction).collect();
        let similarity: Vec<Vec<f32>> =
            directions.iter().map(|a| directions.iter().map(|b| dot(a, b)).collect()).collect();
        let (value, a, b) = most_alike(&similarity);
        if value < CENTRED_MERGE {
            return;
        }
        let gone = centroids.remove(b);
        let kept = &mut centroids[a];
        kept.sum.iter_mut().zip(&gone.sum).for_each(|(s, x)| *s += x);
        kept.size += gone.size;
    }
}

/// Step 4: the two groups most alike for their cohesion merge while they are
/// at least [`SAME_PERSON`] alike.
fn one_person_not_two(units: &[Vec<f32>], mut labels: Vec<usize>) -> Vec<usize> {
    loop {
        let count = labels.iter().max().map_or(0, |m| m + 1);
        let mut sums = vec![vec![0.0f32; units.first().map_or(0, Vec::len)]; count];
        let mut sizes = vec![0usize; count];
        for (v, label) in units.iter().zip(&labels) {
            sums[*label].iter_mut().zip(v).for_each(|(s, x)| *s += x);
            sizes[*label] += 1;
        }
        let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::EPSILON);
        let cohesion: Vec<f32> =
            sums.iter().zip(&sizes).map(|(s, n)| norm(s) / (*n).max(1) as f32).collect();
        let mut best: Option<(f32, usize, usize)> = None;
        for a in (0..count).filter(|a| sizes[*a] > 0) {
            for b in (a + 1..count).filter(|b| sizes[*b] > 0) {
                let alike = dot(&sums[a], &sums[b]) / (norm(&sums[a]) * norm(&sums[b]));
                let share = alike / (cohesion[a] * cohesion[b]).sqrt();
                if share >= SAME_PERSON && best.is_none_or(|(s, _, _)| share > s) {
                    best = Some((share, a, b));
                }
            }
        }
        let Some((_, kept, gone)) = best else {
            return labels;
        };
        labels.iter_mut().filter(|l| **l == gone).for_each(|l| *l = kept);
    }
}

fn nearest(v: &[f32], directions: &[Vec<f32>]) -> usize {
    (0..directions.len())
        .max_by(|a, b| dot(v, &directions[*a]).total_cmp(&dot(v, &directions[*b])))
        .unwrap_or(0)
}

/// Labels renumbered 0, 1, … in order of first appearance.
fn renumber(labels: &[usize]) -> Vec<usize> {
    let mut seen: Vec<usize> = Vec::new();
    labels
        .iter()
        .map(|l| match seen.iter().position(|s| s == l) {
            Some(at) => at,
            None => {
                seen.push(*l);
                seen.len() - 1
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` noisy copies of each of `voices`, interleaved.
    fn points(voices: &[Vec<f32>], count: usize) -> Vec<Vec<f32>> {
        let mut out = Vec::new();
        for i in 0..count {
            for (k, voice) in voices.iter().enumerate() {
                let jitter = ((i * 7 + k * 3) % 5) as f32 * 0.02;
                out.push(voice.iter().enumerate().map(|(d, x)| x + jitter * (d as f32)).collect());
            }
        }
        out
    }

    #[test]
    fn three_distinct_voices_are_three_speakers() {
        let voices =
            vec![vec![1.0, 0.2, 0.0, 0.1], vec![0.1, 1.0, 0.2, 0.0], vec![0.0, 0.1, 1.0, 0.3]];
        let labels = speakers(&points(&voices, 6));
        assert_eq!(&labels[..6], &[0, 1, 2, 0, 1, 2]);
        assert_eq!(sizeable_groups(&labels), 3);
    }

    #[test]
    fn one_voice_is_one_speaker_however_it_varies() {
        let labels = speakers(&points(&[vec![1.0, 0.3, 0.2, 0.1]], 20));
        assert!(labels.iter().all(|l| *l == 0));
    }

    #[test]
    fn a_stray_window_joins_the_speaker_it_is_nearest() {
        let voices = vec![vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]];
        let mut all = points(&voices, 5);
        all.push(vec![0.2, 0.0, 1.0]);
        let labels = speakers(&all);
        assert_eq!(sizeable_groups(&labels), 2);
        assert!(labels[10] < 2);
    }

    #[test]
    fn a_long_meeting_is_grouped_in_runs_and_every_window_labelled() {
        let voices = [vec![1.0, 0.2, 0.0, 0.1], vec![0.1, 1.0, 0.2, 0.0], vec![0.0, 0.1, 1.0, 0.3]];
        // Each voice talks for 100 windows at a time, three times over.
        let mut all = Vec::new();
        for turn in 0..9 {
            let voice = &voices[turn % 3];
            all.extend(points(std::slice::from_ref(voice), 100));
        }
        assert!(all.len() > MOST_UNITS);
        let labels = speakers(&all);
        for (turn, run) in labels.chunks(100).enumerate() {
            assert!(run.iter().all(|l| *l == turn % 3), "turn {turn}: {run:?}");
        }
    }

    #[test]
    fn labels_are_numbered_by_first_appearance() {
        assert_eq!(renumber(&[4, 4, 2, 9, 2]), vec![0, 0, 1, 2, 1]);
    }
}
