//! The live transcriber's queue: utterances cut by the capture chain that
//! wait for the engine. Their audio is held in memory up to
//! [`IN_MEMORY_MS`]; past that an utterance waits as a place in its channel's
//! journal and is read back from the disk when its turn comes. A transcriber
//! that falls behind (audio played faster than it can keep up with, a busy
//! machine) so costs disk reads, not memory that grows with the call.
//!
//! Order: the oldest first, except that a remote (`sys`) line starting before
//! the oldest microphone line ends goes ahead of it, so that its text can
//! catch an echo the audio did not. Later remote lines never hold up the
//! microphone.

use std::collections::VecDeque;
use std::path::PathBuf;

use recorder_capture::chain::Utterance;
use recorder_capture::journal::{self, JournalError};
use recorder_domain::Channel;

/// Audio held in memory by the queue, both channels together.
pub const IN_MEMORY_MS: usize = 60_000;
const SAMPLES_PER_MS: usize = 16;

/// What the queue gives when asked for the next utterance.
pub enum Turn {
    Ready(Utterance),
    /// The next utterance waits on disk and its audio is not all written
    /// yet (the journal syncs once a second); ask again later.
    NotOnDisk,
    /// Its audio could not be read back.
    Lost(JournalError),
}

struct Waiting {
    utterance: Utterance,
    /// Samples left on disk (the utterance's own are dropped).
    on_disk: Option<usize>,
}

impl Waiting {
    fn end_ms(&self) -> i64 {
        let len = self.on_disk.unwrap_or(self.utterance.samples.len());
        self.utterance.start_ms + (len / SAMPLES_PER_MS) as i64
    }
}

pub struct Backlog {
    waiting: VecDeque<Waiting>,
    in_memory: usize,
    /// The journals, microphone first.
    journals: [PathBuf; 2],
    spilling: bool,
}

impl Backlog {
    pub fn new(mic_journal: PathBuf, sys_journal: PathBuf) -> Self {
        Backlog {
            waiting: VecDeque::new(),
            in_memory: 0,
            journals: [mic_journal, sys_journal],
            spilling: false,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Audio waiting, in ms of both channels.
    pub fn waiting_ms(&self) -> i64 {
        self.waiting.iter().map(|w| w.end_ms() - w.utterance.start_ms).sum()
    }

    /// Samples of audio held in memory.
    #[cfg(test)]
    pub fn in_memory(&self) -> usize {
        self.in_memory
    }

    pub fn clear(&mut self) {
        self.waiting.clear();
        self.in_memory = 0;
    }

    pub fn push(&mut self, mut utterance: Utterance) {
        let len = utterance.samples.len();
        if self.in_memory + len <= IN_MEMORY_MS * SAMPLES_PER_MS {
            self.in_memory += len;
            self.waiting.push_back(Waiting { utterance, on_disk: None });
            return;
        }
        if !self.spilling {
            self.spilling = true;
            tracing::warn!(
                behind_ms = self.waiting_ms(),
                "live transcription is behind: the audio waiting is read back from the disk"
            );
        }
        utterance.samples = Vec::new();
        self.waiting.push_back(Waiting { utterance, on_disk: Some(len) });
    }

    pub fn next(&mut self) -> Option<Turn> {
        let index = self.next_index()?;
        let Some(len) = self.waiting.get(index)?.on_disk else {
            let utterance = self.waiting.remove(index)?.utterance;
            self.in_memory -= utterance.samples.len();
            self.note_caught_up();
            return Some(Turn::Ready(utterance));
        };
        let (path, start) = {
            let utterance = &self.waiting.get(index)?.utterance;
            let at = usize::from(utterance.channel == Channel::Sys);
            (&self.journals[at], utterance.start_ms.max(0) as u64 * SAMPLES_PER_MS as u64)
        };
        if journal::samples_on_disk(path).is_some_and(|held| held < start + len as u64) {
            return Some(Turn::NotOnDisk);
        }
        let read = journal::read_range(path, start, len);
        let mut utterance = self.waiting.remove(index)?.utterance;
        self.note_caught_up();
        Some(match read {
            Ok(samples) => {
                utterance.samples = samples;
                Turn::Ready(utterance)
            }
            Err(error) => Turn::Lost(error),
        })
    }

    fn next_index(&self) -> Option<usize> {
        let front = self.waiting.front()?;
        if front.utterance.channel == Channel::Sys {
            return Some(0);
        }
        let mic_end = front.end_ms();
        let remote_before = self
            .waiting
            .iter()
            .position(|w| w.utterance.channel == Channel::Sys && w.utterance.start_ms <= mic_end);
        Some(remote_before.unwrap_or(0))
    }

    fn note_caught_up(&mut self) {
        if self.spilling && self.waiting.iter().all(|w| w.on_disk.is_none()) {
            self.spilling = false;
            tracing::info!("live transcription has caught up");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder_capture::journal::Journal;
    use std::time::Instant;

    fn utterance(channel: Channel, start_ms: i64, ms: usize, value: f32) -> Utterance {
        Utterance {
            channel,
            start_ms,
            samples: vec![value; ms * SAMPLES_PER_MS],
            speech_end_ms: start_ms + ms as i64,
            cut_position_ms: start_ms + ms as i64,
            cut_at: Instant::now(),
            echo: false,
        }
    }

    fn ready(turn: Option<Turn>) -> Utterance {
        match turn {
            Some(Turn::Ready(utterance)) => utterance,
            Some(Turn::NotOnDisk) => panic!("not on disk"),
            Some(Turn::Lost(error)) => panic!("lost: {error}"),
            None => panic!("empty"),
        }
    }

    fn backlog_in(folder: &tempfile::TempDir) -> Backlog {
        Backlog::new(folder.path().join("mic.wav"), folder.path().join("sys.wav"))
    }

    #[test]
    fn a_remote_line_goes_before_the_microphone_line_it_overlaps_but_later_ones_wait() {
        let folder = tempfile::tempdir().expect("temp");
        let mut backlog = backlog_in(&folder);
        backlog.push(utterance(Channel::Mic, 0, 2_000, 0.1));
        backlog.push(utterance(Channel::Sys, 1_500, 1_000, 0.2));
        backlog.push(utterance(Channel::Sys, 5_000, 1_000, 0.2));
        let order: Vec<(Channel, i64)> = std::iter::from_fn(|| backlog.next())
            .map(|turn| {
                let u = ready(Some(turn));
                (u.channel, u.start_ms)
            })
            .collect();
        assert_eq!(
            order,
            vec![(Channel::Sys, 1_500), (Channel::Mic, 0), (Channel::Sys, 5_000)],
            "the overlapping remote line first, then the microphone, not starved by later remote lines"
        );
    }

    #[test]
    fn past_the_memory_limit_audio_waits_on_disk_and_comes_back_whole() {
        let folder = tempfile::tempdir().expect("temp");
        let mut mic = Journal::create(&folder.path().join("mic.wav")).expect("journal");
        let minute = IN_MEMORY_MS;
        mic.append(&vec![0.25; (minute + 10_000) * SAMPLES_PER_MS]).expect("append");
        let mut backlog = backlog_in(&folder);
        backlog.push(utterance(Channel::Mic, 0, minute, 0.25));
        backlog.push(utterance(Channel::Mic, minute as i64, 5_000, 0.25));
        backlog.push(utterance(Channel::Mic, minute as i64 + 5_000, 10_000, 0.25));
        assert_eq!(backlog.in_memory(), minute * SAMPLES_PER_MS, "only a minute is held");
        assert_eq!(backlog.waiting_ms(), minute as i64 + 15_000);
        assert_eq!(ready(backlog.next()).samples.len(), minute * SAMPLES_PER_MS);
        let from_disk = ready(backlog.next());
        assert_eq!(from_disk.start_ms, minute as i64);
        assert_eq!(from_disk.samples.len(), 5_000 * SAMPLES_PER_MS);
        assert!(from_disk.samples.iter().all(|s| (s - 0.25).abs() < 1e-4), "the audio read back");
        assert!(
            matches!(backlog.next(), Some(Turn::NotOnDisk)),
            "the last utterance's end is not synced yet: it waits"
        );
        mic.append(&vec![0.25; 5_000 * SAMPLES_PER_MS]).expect("append");
        mic.finish().expect("finish");
        assert_eq!(ready(backlog.next()).samples.len(), 10_000 * SAMPLES_PER_MS);
        assert!(backlog.next().is_none());
        assert_eq!(backlog.in_memory(), 0);
    }
}
