//! The process's own allocator held to fewer arenas (glibc Linux).
//!
//! glibc gives each thread that allocates while the others hold their arenas
//! an arena of its own, up to eight per core, and memory freed into one stays
//! mapped there for that arena's threads. A recording runs whisper's threads,
//! the speaker models' workers, the audio chain and tokio's: on a 4-minute call
//! with the live speaker workers the service's peak RSS was 652 MiB on base
//! and 475 MiB on tiny.en with glibc's default, 495 and 316 MiB with two
//! arenas, as fast (bench/results/live-2026-12-07-memory.md).

/// Caps the allocator at one arena per core, at least two: what a process
/// that mostly runs one heavy job at a time needs. Call it first thing in
/// `main`, before any thread starts; leave it uncalled where the person set
/// `MALLOC_ARENA_MAX`. Returns whether the cap was set (never, elsewhere
/// than glibc Linux).
pub fn limit_arenas() -> bool {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    set_arena_max(cores.max(2))
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set_arena_max(arenas: usize) -> bool {
    let arenas = libc::c_int::try_from(arenas).unwrap_or(libc::c_int::MAX);
    // SAFETY: mallopt sets one of glibc's allocator tunables from a plain
    // integer; it takes the allocator's own lock and touches no memory of ours.
    #[allow(unsafe_code)]
    let set = unsafe { libc::mallopt(libc::M_ARENA_MAX, arenas) };
    set == 1
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_arena_max(_arenas: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn glibc_takes_the_cap() {
        assert!(super::limit_arenas(), "mallopt(M_ARENA_MAX) was refused");
    }

    #[test]
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    fn elsewhere_nothing_is_set() {
        assert!(!super::limit_arenas());
    }
}
