//! The in-memory index: each passage's 48-byte sign code with its meeting and
//! start time. A search scans the codes by Hamming distance (split over the
//! cores), keeps the nearest few hundred, and the caller re-ranks those by
//! their int8 vectors from the store. Passages deleted since they were added
//! are simply not found there; new ones are appended.

use std::collections::BinaryHeap;

use crate::quantize::{hamming, Code};

/// One passage in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub passage: i64,
    pub meeting: i64,
    pub started_at: i64,
    pub code: Code,
}

/// Which passages a search may return.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scope {
    pub meeting: Option<i64>,
    /// Meetings that started at or after (ms).
    pub from: Option<i64>,
    /// Meetings that started before (ms).
    pub to: Option<i64>,
}

impl Scope {
    fn holds(&self, entry: &Entry) -> bool {
        self.meeting.is_none_or(|m| m == entry.meeting)
            && self.from.is_none_or(|from| entry.started_at >= from)
            && self.to.is_none_or(|to| entry.started_at < to)
    }
}

#[derive(Debug, Default)]
pub struct Index {
    entries: Vec<Entry>,
}

impl Index {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The newest passage id held: what to load after.
    pub fn last_passage(&self) -> i64 {
        self.entries.last().map_or(0, |entry| entry.passage)
    }

    pub fn extend(&mut self, entries: impl IntoIterator<Item = Entry>) {
        self.entries.extend(entries);
    }

    /// Drops a meeting's entries older than `below` (its passages were
    /// replaced by ones from `below` on, which may already be held).
    pub fn forget_meeting(&mut self, meeting: i64, below: i64) {
        self.entries.retain(|entry| entry.meeting != meeting || entry.passage >= below);
    }

    /// Drops every entry (the next catch-up reads them all again).
    pub fn clear(&mut self) {
        self.entries = Vec::new();
    }

    /// Bytes the entries take.
    pub fn memory(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    /// The `wanted` passages nearest `query` within `scope`, nearest first
    /// (equal distances: older passage first).
    pub fn nearest(&self, query: &Code, scope: Scope, wanted: usize) -> Vec<i64> {
        if wanted == 0 {
            return Vec::new();
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
        let chunk = self.entries.len().div_ceil(threads).max(4096);
        let mut best: Vec<(u32, i64)> = std::thread::scope(|s| {
            let parts: Vec<_> = self
                .entries
                .chunks(chunk)
                .map(|part| s.spawn(move || scan(part, query, scope, wanted)))
                .collect();
            parts.into_iter().flat_map(|part| part.join().unwrap_or_default()).collect()
        });
        best.sort_unstable();
        best.truncate(wanted);
        best.into_iter().map(|(_, passage)| passage).collect()
    }
}

/// The nearest `wanted` of `entries`, unordered.
fn scan(entries: &[Entry], query: &Code, scope: Scope, wanted: usize) -> Vec<(u32, i64)> {
    let mut heap: BinaryHeap<(u32, i64)> = BinaryHeap::with_capacity(wanted + 1);
    for entry in entries {
        let distance = hamming(query, &entry.code);
        if heap.len() == wanted
            && heap.peek().is_some_and(|worst| (distance, entry.passage) >= *worst)
        {
            continue;
        }
        if !scope.holds(entry) {
            continue;
        }
        heap.push((distance, entry.passage));
        if heap.len() > wanted {
            heap.pop();
        }
    }
    heap.into_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantize::CODE_WORDS;

    fn entry(passage: i64, meeting: i64, bits: u32) -> Entry {
        let mut code = [0u64; CODE_WORDS];
        code[0] = (1u64 << bits) - 1;
        Entry { passage, meeting, started_at: meeting * 1000, code }
    }

    #[test]
    fn the_nearest_come_first_within_the_scope() {
        let mut index = Index::default();
        index.extend((1..=10_000).map(|p| entry(p, p % 7, (p % 50) as u32)));
        let query = [0u64; CODE_WORDS];
        let found = index.nearest(&query, Scope::default(), 3);
        assert_eq!(found, [50, 100, 150]);
        let found = index.nearest(&query, Scope { meeting: Some(3), ..Scope::default() }, 2);
        assert!(found.iter().all(|p| p % 7 == 3), "{found:?}");
        assert_eq!(found, [napkin(3), napkin(3) + 350]);
        let dated = index.nearest(
            &query,
            Scope { from: Some(2000), to: Some(3000), ..Scope::default() },
            5,
        );
        assert!(dated.iter().all(|p| p % 7 == 2), "{dated:?}");
        assert!(index.nearest(&query, Scope::default(), 0).is_empty());
        assert_eq!(index.last_passage(), 10_000);
        index.forget_meeting(3, 9_000);
        let kept = index.nearest(&query, Scope { meeting: Some(3), ..Scope::default() }, 100);
        assert!(!kept.is_empty() && kept.iter().all(|p| *p >= 9_000), "{kept:?}");
        index.forget_meeting(3, i64::MAX);
        assert!(index
            .nearest(&query, Scope { meeting: Some(3), ..Scope::default() }, 2)
            .is_empty());
        assert_eq!(index.len(), 10_000 - 10_000 / 7 - 1);
        index.clear();
        assert!(index.is_empty() && index.last_passage() == 0);
    }

    /// The first passage of meeting `m` (p % 7 == m) with p % 50 == 0.
    fn napkin(m: i64) -> i64 {
        (1..).map(|k| k * 50).find(|p| p % 7 == m).unwrap_or(0)
    }
}
