//! How a file job spreads over the machine: how many whisper states work at
//! once (workers) and how many threads each.
//!
//! One whisper state cannot keep two cores busy on short chunks (its
//! threads meet at a barrier for every layer of every token), so on the CPU
//! a file job runs one state per core, one thread each: at two cores 2 × 1
//! took 0.71–0.94× faster-whisper's time where 1 × 2 took 0.80–1.07×
//! (bench/results/stt-2026-11-28.md). Each state holds its own compute
//! buffers (+135 MiB on tiny.en, +183 MiB on base, measured there), so there
//! are at most [`MAX_WORKERS`], the threads left over shared out among them
//! (4 and more cores were not measured). On a GPU one state keeps it busy.

use recorder_settings::Settings;
use recorder_stt::engine::Backend;

/// The most whisper states one file job uses.
pub const MAX_WORKERS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilePlan {
    pub workers: usize,
    /// Threads for each worker.
    pub threads: usize,
}

impl FilePlan {
    /// `transcription.threads` in all (every core when unset), spread over
    /// the workers; one worker with them all on a GPU.
    pub fn for_machine(settings: &Settings, backend: Option<&Backend>) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = settings.transcription.threads.map_or(cores, |t| t as usize);
        FilePlan::split(threads, backend.is_some_and(Backend::is_gpu))
    }

    fn split(threads: usize, gpu: bool) -> Self {
        let threads = threads.max(1);
        if gpu {
            return FilePlan { workers: 1, threads };
        }
        let workers = threads.min(MAX_WORKERS);
        FilePlan { workers, threads: threads / workers }
    }
}

#[cfg(test)]
mod tests {
    use super::FilePlan;

    fn plan(threads: usize, gpu: bool) -> (usize, usize) {
        let plan = FilePlan::split(threads, gpu);
        (plan.workers, plan.threads)
    }

    #[test]
    fn a_state_per_core_up_to_four_then_the_threads_are_shared_out() {
        assert_eq!(plan(0, false), (1, 1), "never none");
        assert_eq!(plan(1, false), (1, 1));
        assert_eq!(plan(2, false), (2, 1), "two cores: two states of one thread");
        assert_eq!(plan(4, false), (4, 1));
        assert_eq!(plan(8, false), (4, 2), "memory caps the states; threads fill the cores");
        assert_eq!(plan(16, true), (1, 16), "one state keeps a GPU busy");
    }
}
