//! Linux: Landlock through the `landlock` crate, a seccomp filter compiled by
//! `seccompiler`, `PR_SET_NO_NEW_PRIVS` and `setrlimit`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, RulesetError, RulesetStatus, Scope, ABI,
};
use nix::sys::resource::{setrlimit, Resource};
use seccompiler::{BpfProgram, SeccompAction, SeccompFilter};

use crate::{Confinement, Rules};

/// The newest Landlock ABI asked for; older kernels get what they have
/// (the crate's best effort), newer ones what this one knows.
const WANTED: ABI = ABI::V6;

/// The system's library folders: the loader reads and maps them executable.
const LIBRARIES: &[&str] = &["/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib"];

/// Read, never run: the loader's cache, and the few device, `/sys` and `/proc` files
/// that libraries open to count CPUs or seed themselves.
const SYSTEM_FILES: &[&str] = &[
    "/etc/ld.so.cache",
    "/sys/devices/system/cpu",
    "/proc/cpuinfo",
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
];

/// Refused with EPERM: making a socket (no network of any kind), io_uring
/// (which could make one), and reaching into another process.
fn denied_calls() -> Vec<i64> {
    let mut calls = vec![
        libc::SYS_socket,
        libc::SYS_io_uring_setup,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
    ];
    // x32 system calls share x86-64's audit architecture with a high bit set
    // on the number: the same calls by that door are refused too.
    #[cfg(target_arch = "x86_64")]
    {
        const X32: i64 = 0x4000_0000;
        let x32: Vec<i64> = calls.iter().map(|call| call | X32).collect();
        calls.extend(x32);
    }
    calls
}

pub fn support() -> Confinement {
    let mut report = Confinement::default();
    match kernel_landlock_abi() {
        Ok(abi) => report.landlock_abi = Some(abi.min(WANTED as u32)),
        Err(reason) => report.gaps.push(reason),
    }
    match seccomp_available() {
        Ok(()) => report.no_network = true,
        Err(reason) => report.gaps.push(reason),
    }
    report.no_new_privs = true;
    report
}

pub fn confine_self(rules: &Rules) -> Confinement {
    let mut prepared = Prepared::new(rules);
    match prepared.apply() {
        Ok(()) => prepared.report,
        // Which parts took before the failure is not known: claim none.
        Err(error) => Confinement {
            gaps: vec![format!("confinement failed: {error}")],
            ..Confinement::default()
        },
    }
}

pub fn confine_command(command: &mut std::process::Command, rules: &Rules) -> Confinement {
    use std::os::unix::process::CommandExt;
    let mut prepared = Prepared::new(rules);
    let report = prepared.report.clone();
    // SAFETY: between fork and exec the child runs only `Prepared::apply`:
    // setrlimit, prctl, landlock_restrict_self and seccomp system calls on
    // values built here, in the parent, before the fork. It allocates only to
    // describe an error, on the path that fails the spawn.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(move || prepared.apply());
    }
    report
}

/// Everything made in advance: the Landlock ruleset (with its rules'
/// folders opened), the compiled filter and the limits.
struct Prepared {
    ruleset: Option<RulesetCreated>,
    filter: Option<BpfProgram>,
    limits: Vec<(Resource, u64, u64)>,
    report: Confinement,
}

impl Prepared {
    fn new(rules: &Rules) -> Prepared {
        let mut report = Confinement::default();
        let ruleset = match kernel_landlock_abi() {
            Err(reason) => {
                report.gaps.push(reason);
                None
            }
            Ok(abi) => match ruleset(rules) {
                Ok(ruleset) => {
                    report.landlock_abi = Some(abi.min(WANTED as u32));
                    Some(ruleset)
                }
                Err(error) => {
                    report.gaps.push(format!("the Landlock rules could not be made: {error}"));
                    None
                }
            },
        };
        let filter = match seccomp_available().and_then(|()| filter()) {
            Ok(filter) => {
                report.no_network = true;
                Some(filter)
            }
            Err(reason) => {
                report.gaps.push(reason);
                None
            }
        };
        report.no_new_privs = true;
        Prepared { ruleset, filter, limits: limits(rules), report }
    }

    /// Applies every part to the calling thread; limits first (they need no
    /// privilege), then Landlock (which sets no_new_privs), then seccomp.
    fn apply(&mut self) -> std::io::Result<()> {
        for &(resource, soft, hard) in &self.limits {
            setrlimit(resource, soft, hard).map_err(std::io::Error::from)?;
        }
        match self.ruleset.take() {
            Some(ruleset) => {
                let status = ruleset.restrict_self().map_err(std::io::Error::other)?;
                if status.ruleset == RulesetStatus::NotEnforced {
                    return Err(std::io::Error::other("Landlock did not enforce the rules"));
                }
            }
            None => set_no_new_privs()?,
        }
        if let Some(filter) = &self.filter {
            seccompiler::apply_filter(filter).map_err(std::io::Error::other)?;
        }
        Ok(())
    }
}

fn ruleset(rules: &Rules) -> Result<RulesetCreated, RulesetError> {
    let libraries = existing(LIBRARIES.iter().map(PathBuf::from));
    let readable =
        existing(SYSTEM_FILES.iter().map(PathBuf::from).chain(rules.read.iter().cloned()));
    let programs = existing(rules.execute.iter().cloned());
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    Ruleset::default()
        .handle_access(AccessFs::from_all(WANTED))?
        .handle_access(AccessNet::from_all(WANTED))?
        .scope(Scope::from_all(WANTED))?
        .create()?
        .add_rules(path_beneath_rules(libraries, read | AccessFs::Execute))?
        .add_rules(path_beneath_rules(readable, read))?
        .add_rules(path_beneath_rules(programs, AccessFs::ReadFile | AccessFs::Execute))
}

/// The paths that exist (a rule cannot name a missing one).
fn existing(paths: impl Iterator<Item = PathBuf>) -> Vec<PathBuf> {
    paths.filter(|path| path.exists()).collect()
}

fn filter() -> Result<BpfProgram, String> {
    let rules = denied_calls().into_iter().map(|call| (call, vec![])).collect::<BTreeMap<_, _>>();
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|_| format!("seccomp filters are not made for {}", std::env::consts::ARCH))?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|error| format!("the seccomp filter could not be made: {error}"))?;
    filter.try_into().map_err(|error| format!("the seccomp filter could not be compiled: {error}"))
}

fn limits(rules: &Rules) -> Vec<(Resource, u64, u64)> {
    let mut limits = vec![(Resource::RLIMIT_CORE, 0, 0)];
    if let Some(bytes) = rules.memory_bytes {
        limits.push((Resource::RLIMIT_AS, bytes, bytes));
    }
    if let Some(seconds) = rules.cpu_seconds {
        // SIGXCPU at the soft limit, SIGKILL a few seconds later.
        limits.push((Resource::RLIMIT_CPU, seconds, seconds + 5));
    }
    limits
}

/// The kernel's Landlock ABI, or why there is none.
fn kernel_landlock_abi() -> Result<u32, String> {
    // SAFETY: LANDLOCK_CREATE_RULESET_VERSION asks for the ABI version only:
    // no attribute is read and no file descriptor is made.
    #[allow(unsafe_code)]
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    if version >= 1 {
        return Ok(version as u32);
    }
    Err(match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::ENOSYS) => "this kernel has no Landlock (Linux 5.13 or newer has it)".into(),
        Some(libc::EOPNOTSUPP) => {
            "Landlock is turned off in this kernel (add landlock to the lsm= boot parameter)".into()
        }
        _ => format!("Landlock is not available: {}", std::io::Error::last_os_error()),
    })
}

fn seccomp_available() -> Result<(), String> {
    // SAFETY: PR_GET_SECCOMP reads the calling thread's seccomp mode.
    #[allow(unsafe_code)]
    let mode = unsafe { libc::prctl(libc::PR_GET_SECCOMP) };
    if mode < 0 {
        return Err("this kernel has no seccomp: sockets are not refused".into());
    }
    Ok(())
}

fn set_no_new_privs() -> std::io::Result<()> {
    // SAFETY: sets a flag of the calling thread.
    #[allow(unsafe_code)]
    let done = unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
    if done != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
