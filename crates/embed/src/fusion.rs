//! Reciprocal rank fusion: one ranking from a word ranking and a meaning
//! ranking. An item scores Σ 1 / (K + rank) over the rankings that hold it, so
//! what both find rises and neither scale (BM25, cosine) has to be comparable.

use std::collections::HashMap;
use std::hash::Hash;

/// The usual constant (Cormack, Clarke and Büttcher, 2009).
pub const K: f64 = 60.0;

/// The items of every ranking, best fused score first; ties keep the order in
/// which the items first appear (the first ranking's first).
pub fn fuse<T: Clone + Eq + Hash>(rankings: &[Vec<T>]) -> Vec<(T, f64)> {
    let mut scores: HashMap<T, (f64, usize)> = HashMap::new();
    let mut seen = 0usize;
    for ranking in rankings {
        for (rank, item) in ranking.iter().enumerate() {
            let entry = scores.entry(item.clone()).or_insert_with(|| {
                seen += 1;
                (0.0, seen)
            });
            entry.0 += 1.0 / (K + rank as f64 + 1.0);
        }
    }
    let mut fused: Vec<(T, f64, usize)> =
        scores.into_iter().map(|(item, (score, first))| (item, score, first)).collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    fused.into_iter().map(|(item, score, _)| (item, score)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_both_rankings_hold_comes_first() {
        let words = vec!["a", "b", "c"];
        let meaning = vec!["d", "c", "e"];
        let fused: Vec<&str> = fuse(&[words, meaning]).into_iter().map(|(item, _)| item).collect();
        assert_eq!(fused[0], "c");
        assert_eq!(fused.len(), 5);
        assert_eq!(&fused[1..3], ["a", "d"], "equal ranks keep the word ranking first");
    }

    #[test]
    fn one_ranking_keeps_its_order_and_none_is_empty() {
        let fused: Vec<i32> = fuse(&[vec![3, 1, 2]]).into_iter().map(|(item, _)| item).collect();
        assert_eq!(fused, [3, 1, 2]);
        assert!(fuse::<i32>(&[]).is_empty());
        let scores = fuse(&[vec![1], vec![1]]);
        assert!((scores[0].1 - 2.0 / 61.0).abs() < 1e-12);
    }
}
