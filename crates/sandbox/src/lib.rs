//! Confinement for the processes that parse files from outside (a notes model's
//! GGUF in `recorder-llm`, any audio the person imports through ffmpeg): C and
//! C++ parsers with a history of memory-safety bugs, which must not get the
//! person's full rights if a crafted file takes them over.
//!
//! On Linux a confined process:
//! - reads only the files its [`Rules`] name and what the program loader needs
//!   (the system's library folders, `ld.so.cache`), and writes no file
//!   (Landlock; what it writes goes to the pipes it was given);
//! - has no network: it cannot create a socket (seccomp), and where Landlock
//!   has network rules (ABI 4+), cannot bind or connect over TCP either; it
//!   cannot reach abstract UNIX sockets or signal processes outside its
//!   domain (ABI 6+), nor trace or read the memory of another process;
//! - gains no privileges through exec (`PR_SET_NO_NEW_PRIVS`);
//! - is held to limits of address space and CPU time (`setrlimit`).
//!
//! Where the kernel lacks a part (no Landlock, Landlock turned off), the
//! process still runs, with what could be applied, and the [`Confinement`]
//! says what is missing and why: the caller logs it, and Settings →
//! Diagnostics shows it. Elsewhere than Linux nothing is confined, and the
//! report says so.

use std::fmt;
use std::path::PathBuf;

pub mod allocator;
#[cfg(target_os = "linux")]
mod linux;

/// What a confined process may do beyond what the loader needs.
#[derive(Debug, Clone, Default)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub struct Rules {
    read: Vec<PathBuf>,
    execute: Vec<PathBuf>,
    memory_bytes: Option<u64>,
    cpu_seconds: Option<u64>,
}

impl Rules {
    /// Nothing but the loader's files.
    pub fn new() -> Rules {
        Rules::default()
    }

    /// A file (or folder) it may read.
    pub fn read(mut self, path: impl Into<PathBuf>) -> Rules {
        self.read.push(path.into());
        self
    }

    /// A program it may read and run (for a confined command, the program itself).
    pub fn execute(mut self, program: impl Into<PathBuf>) -> Rules {
        self.execute.push(program.into());
        self
    }

    /// The most address space it may map, in bytes (`RLIMIT_AS`).
    pub fn memory(mut self, bytes: u64) -> Rules {
        self.memory_bytes = Some(bytes);
        self
    }

    /// The most CPU time it may use, all threads together (`RLIMIT_CPU`).
    pub fn cpu_time(mut self, seconds: u64) -> Rules {
        self.cpu_seconds = Some(seconds);
        self
    }
}

/// How far a process is confined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Confinement {
    /// The Landlock ABI in force; None: files (and TCP) are not confined.
    pub landlock_abi: Option<u32>,
    /// seccomp refuses sockets, tracing and other processes' memory.
    pub no_network: bool,
    /// `PR_SET_NO_NEW_PRIVS` is set.
    pub no_new_privs: bool,
    /// What is missing, and why (empty when confined in full).
    pub gaps: Vec<String>,
}

impl Confinement {
    /// Every part applied.
    pub fn is_whole(&self) -> bool {
        self.landlock_abi.is_some() && self.no_network && self.no_new_privs && self.gaps.is_empty()
    }

    #[cfg(any(not(target_os = "linux"), test))]
    fn unconfined(reason: impl Into<String>) -> Confinement {
        Confinement { gaps: vec![reason.into()], ..Confinement::default() }
    }
}

impl fmt::Display for Confinement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(abi) = self.landlock_abi {
            parts.push(format!("files (Landlock ABI {abi})"));
        }
        if self.no_network {
            parts.push("network (seccomp)".to_string());
        }
        if self.no_new_privs {
            parts.push("privileges (no_new_privs)".to_string());
        }
        match (parts.is_empty(), self.gaps.is_empty()) {
            (false, true) => write!(f, "confined: {}", parts.join(", ")),
            (false, false) => {
                write!(
                    f,
                    "partly confined: {}; unconfined: {}",
                    parts.join(", "),
                    self.gaps.join("; ")
                )
            }
            (true, _) => write!(f, "unconfined: {}", self.gaps.join("; ")),
        }
    }
}

/// What this system can confine, without confining anything (for the log at
/// start and for Diagnostics).
pub fn support() -> Confinement {
    #[cfg(target_os = "linux")]
    {
        linux::support()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Confinement::unconfined(NOT_LINUX)
    }
}

/// Confines this process (its calling thread and everything it starts after)
/// for good. Call it before starting any thread: threads started earlier stay
/// free.
pub fn confine_self(rules: &Rules) -> Confinement {
    #[cfg(target_os = "linux")]
    {
        linux::confine_self(rules)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = rules;
        Confinement::unconfined(NOT_LINUX)
    }
}

/// Confines the process `command` starts, between fork and exec. Everything
/// is prepared here, in the parent; the child only makes the system calls.
/// A part that was prepared and then fails in the child fails the spawn.
pub fn confine_command(command: &mut std::process::Command, rules: &Rules) -> Confinement {
    #[cfg(target_os = "linux")]
    {
        linux::confine_command(command, rules)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (command, rules);
        Confinement::unconfined(NOT_LINUX)
    }
}

/// Logs a process's confinement: info when whole, a warning naming what is
/// missing otherwise.
pub fn log(what: &str, confinement: &Confinement) {
    if confinement.is_whole() {
        tracing::info!("{what}: {confinement}");
    } else {
        tracing::warn!("{what}: {confinement}");
    }
}

#[cfg(not(target_os = "linux"))]
const NOT_LINUX: &str = "only Linux confines the processes that read files from outside";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_says_what_is_confined_and_what_is_not() {
        let whole = Confinement {
            landlock_abi: Some(7),
            no_network: true,
            no_new_privs: true,
            gaps: vec![],
        };
        assert!(whole.is_whole());
        assert_eq!(
            whole.to_string(),
            "confined: files (Landlock ABI 7), network (seccomp), privileges (no_new_privs)"
        );
        let partial = Confinement {
            landlock_abi: None,
            no_network: true,
            no_new_privs: true,
            gaps: vec!["the kernel has no Landlock".into()],
        };
        assert!(!partial.is_whole());
        assert_eq!(
            partial.to_string(),
            "partly confined: network (seccomp), privileges (no_new_privs); \
             unconfined: the kernel has no Landlock"
        );
        assert_eq!(Confinement::unconfined("not here").to_string(), "unconfined: not here");
    }
}
