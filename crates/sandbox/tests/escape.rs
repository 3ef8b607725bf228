//! A confined process tries to escape: it reads the file it was given, and
//! cannot open a secret beside it, write a file, or connect to a server on
//! 127.0.0.1. Each escape is first shown to work unconfined, so a check that
//! cannot fail would be seen. Linux with Landlock only (this kernel's report
//! is asserted first, so a kernel without it fails loudly instead of passing).
#![cfg(target_os = "linux")]

use std::io::{ErrorKind, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use recorder_sandbox::{confine_command, confine_self, support, Rules};

/// A home with a private key and a meeting's audio in it.
struct Home {
    _dir: tempfile::TempDir,
    secret: PathBuf,
    input: PathBuf,
    root: PathBuf,
}

fn home() -> Home {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path().to_path_buf();
    std::fs::create_dir(root.join(".ssh")).expect(".ssh");
    let secret = root.join(".ssh/id_ed25519");
    std::fs::write(&secret, "PRIVATE KEY").expect("the secret");
    let input = root.join("meeting.txt");
    std::fs::write(&input, "the meeting's words").expect("the input");
    Home { _dir: dir, secret, input, root }
}

fn rules_for(home: &Home, program: &str) -> Rules {
    Rules::new().read(&home.input).execute(program).memory(1 << 30).cpu_time(60)
}

fn run(program: &str, args: &[&str], rules: Option<&Rules>) -> Output {
    let mut command = Command::new(program);
    command.args(args);
    if let Some(rules) = rules {
        let confinement = confine_command(&mut command, rules);
        assert!(confinement.is_whole(), "{confinement}");
    }
    command.output().expect("the program runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn this_kernel_confines_in_full() {
    let support = support();
    assert!(support.is_whole(), "{support}");
    assert!(support.landlock_abi >= Some(1));
}

#[test]
fn a_confined_command_reads_its_file_and_not_the_secret_beside_it() {
    let home = home();
    let free = run("/usr/bin/cat", &[path(&home.secret)], None);
    assert_eq!(free.stdout, b"PRIVATE KEY", "unconfined, cat reads the key");

    let rules = rules_for(&home, "/usr/bin/cat");
    let job = run("/usr/bin/cat", &[path(&home.input)], Some(&rules));
    assert!(job.status.success(), "{}", String::from_utf8_lossy(&job.stderr));
    assert_eq!(job.stdout, b"the meeting's words");

    let escape = run("/usr/bin/cat", &[path(&home.secret)], Some(&rules));
    assert!(!escape.status.success());
    assert!(escape.stdout.is_empty(), "the key leaked: {:?}", escape.stdout);
    assert!(String::from_utf8_lossy(&escape.stderr).contains("Permission denied"));
}

#[test]
fn a_confined_command_writes_no_file() {
    let home = home();
    let target = home.root.join("written");
    let script = format!("echo x > {}", path(&target));
    let rules = rules_for(&home, "/usr/bin/bash");
    let escape = run("/usr/bin/bash", &["-c", &script], Some(&rules));
    assert!(!escape.status.success());
    assert!(!target.exists(), "a confined process made a file");

    let free = run("/usr/bin/bash", &["-c", &script], None);
    assert!(free.status.success() && target.exists(), "unconfined, bash writes it");
}

#[test]
fn a_confined_command_cannot_connect_to_loopback() {
    let home = home();
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    listener.set_nonblocking(true).expect("non-blocking");
    let port = listener.local_addr().expect("its address").port();
    let script = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");

    let rules = rules_for(&home, "/usr/bin/bash");
    let escape = run("/usr/bin/bash", &["-c", &script], Some(&rules));
    assert!(!escape.status.success(), "{}", String::from_utf8_lossy(&escape.stdout));
    assert!(matches!(listener.accept(), Err(e) if e.kind() == ErrorKind::WouldBlock));

    let free = run("/usr/bin/bash", &["-c", &script], None);
    assert_eq!(free.stdout, b"connected\n", "unconfined, bash connects");
    assert!(listener.accept().is_ok());
}

#[test]
fn a_confined_command_is_held_to_its_memory() {
    let home = home();
    let rules = Rules::new().read(&home.input).execute("/usr/bin/bash").memory(64 << 20);
    // 200 MB in one string: more than the 64 MB of address space allowed.
    let script = "x=$(head -c 200000000 /dev/zero | tr '\\0' a); echo ${#x}";
    let mut command = Command::new("/usr/bin/bash");
    command.args(["-c", script]);
    confine_command(&mut command, &rules);
    let out = command.output().expect("bash runs");
    assert_ne!(out.stdout, b"200000000\n");
}

/// Run by the test below in a child process of its own (confining a thread of
/// the test harness would confine the tests after it).
#[test]
fn confined_self_probe() {
    let Ok(plan) = std::env::var("SANDBOX_PROBE") else { return };
    let [input, secret, port] = plan.split('\n').collect::<Vec<_>>()[..] else {
        panic!("SANDBOX_PROBE is input, secret and port, a line each")
    };
    let confinement = confine_self(&Rules::new().read(input));
    println!("\nreport: {}", confinement.is_whole());
    let mut text = String::new();
    let read = std::fs::File::open(input).and_then(|mut f| f.read_to_string(&mut text));
    println!("input: {}", if read.is_ok() { text.as_str() } else { "refused" });
    println!("secret: {}", std::fs::read(secret).map_or("refused", |_| "read"));
    let connect = std::net::TcpStream::connect(("127.0.0.1", port.parse::<u16>().expect("a port")));
    println!("connect: {}", connect.map_or("refused", |_| "connected"));
}

#[test]
fn a_process_that_confines_itself_cannot_escape_either() {
    let home = home();
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let port = listener.local_addr().expect("its address").port();
    let plan = format!("{}\n{}\n{port}", path(&home.input), path(&home.secret));
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "confined_self_probe", "--nocapture", "--test-threads=1"])
        .env("SANDBOX_PROBE", plan)
        .output()
        .expect("the probe runs");
    let said = String::from_utf8_lossy(&out.stdout);
    for line in
        ["report: true", "input: the meeting's words", "secret: refused", "connect: refused"]
    {
        assert!(said.lines().any(|l| l == line), "no {line:?} in:\n{said}");
    }
}
