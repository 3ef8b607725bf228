//! A full disk, for real: the data folder on a small tmpfs (mounted by the
//! test; it runs as root, as CI does), filled during a recording, an upload,
//! an export and a migration. Each ends with the contract's error shape
//! (`storage_full`, 507), what was written stays readable, nothing
//! half-written is left, and once space is freed the service works again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use recorder_test_support::{seed, speech, Options, SeedMeeting, TestService};
use reqwest::Method;
use serde_json::{json, Value};

use crate::events::open;
use crate::import::wait_ready;
use crate::recording::{events_until, person};
use crate::{call, get, BIN};

/// A tmpfs of `megabytes` mounted on `path` until dropped.
struct SmallDisk {
    path: PathBuf,
}

impl SmallDisk {
    fn mount(path: &Path, megabytes: u32) -> SmallDisk {
        let done = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m,mode=0700"), "tmpfs"])
            .arg(path)
            .status()
            .expect("mount");
        assert!(done.success(), "mounting a tmpfs needs root (CI runs as root)");
        SmallDisk { path: path.to_path_buf() }
    }

    fn free_bytes(&self) -> u64 {
        let out = Command::new("df")
            .args(["-B1", "--output=avail"])
            .arg(&self.path)
            .output()
            .expect("df");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .nth(1)
            .and_then(|l| l.trim().parse().ok())
            .expect("avail")
    }

    /// Fills the disk but for `leave` bytes with a new filler file.
    fn fill(&self, leave: u64) -> PathBuf {
        let count = std::fs::read_dir(&self.path).map_or(0, |entries| entries.count());
        let filler = self.path.join(format!("filler-{count}"));
        let size = self.free_bytes().saturating_sub(leave);
        std::fs::write(&filler, vec![0u8; size as usize]).expect("filler");
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

fn full_disk_service(
    options: Options,
    megabytes: u32,
    prepare: impl FnOnce(&Path),
) -> (SmallDisk, TestService) {
    let mut disk = None;
    let service = TestService::start_with(BIN, options.clone(), |data| {
        let mounted = SmallDisk::mount(data, megabytes);
        if let Some(settings) = &options.settings {
            std::fs::write(data.join("settings.json"), settings.to_string()).expect("settings");
        }
        prepare(data);
        disk = Some(mounted);
    });
    (disk.expect("mounted"), service)
}

fn storage_full(answer: &crate::Answer) {
    assert_eq!(answer.status, 507, "{}", answer.text);
    assert_eq!(answer.body["error"]["code"], "storage_full", "{}", answer.text);
    let message = answer.body["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("full"), "{message}");
}

fn leftovers(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if entry.file_name().to_string_lossy().ends_with(".part")
                || entry.file_name().to_string_lossy().starts_with(".tmp")
            {
                found.push(path);
            }
        }
    }
    found
}

#[tokio::test]
async fn a_recording_that_fills_the_disk_ends_cleanly_and_is_finished_once_space_is_freed() {
    let folder = tempfile::tempdir().expect("temp");
    let (mic, sys) = (folder.path().join("mic.wav"), folder.path().join("sys.wav"));
    speech::speak_padded(crate::recording::MIC_LINE, &mic, 1.0, 60.0);
    speech::speak_padded(crate::recording::SYS_LINE, &sys, 3.0, 60.0);
    let options = crate::recording::recording_options(&mic, &sys, 8.0);
    let (disk, service) = full_disk_service(options, 24, |_| {});
    let filler = disk.fill(1_500_000);
    let mut events = open(&service, None).await;
    let started = person(&service, "/ui/recording/start", Some(json!({"title": "Full"}))).await;
    assert_eq!(started.status, 201, "{}", started.text);
    let id = started.body["id"].as_str().expect("id").to_owned();
    let full = |kind: &str, data: &Value| {
        kind == "error" && data["message"].as_str().unwrap_or("").contains("disk is full")
    };
    events_until(&mut events, full, Duration::from_secs(60)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while get(&service, "/v1/health").await.body["recording"]["active"] != false {
        assert!(Instant::now() < deadline, "the recording stopped");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for channel in ["mic", "sys"] {
        let path = service.data_dir().join("meetings").join(&id).join(format!("{channel}.wav"));
        let reader = hound::WavReader::open(&path).expect("what was written is a readable WAV");
        assert!(reader.duration() > 16_000, "{channel}: {} samples kept", reader.duration());
    }
    std::fs::remove_file(filler).expect("free the space");
    // Finished without a restart, with the end it was given.
    events_until(&mut events, |kind, _| kind == "recording.stopped", Duration::from_secs(30)).await;
    let meeting = wait_ready(&service, &id).await;
    assert!(meeting["processing_error"].as_str().unwrap_or("").contains("full"), "{meeting}");
    assert!(leftovers(&service.data_dir()).is_empty(), "{:?}", leftovers(&service.data_dir()));
    // It works again: a new recording starts and stops.
    let again = person(&service, "/ui/recording/start", Some(json!({"title": "Again"}))).await;
    assert_eq!(again.status, 201, "{}", again.text);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(person(&service, "/ui/recording/stop", None).await.status, 200);
}

#[tokio::test]
async fn an_upload_or_an_export_that_does_not_fit_is_refused_and_leaves_nothing() {
    let folder = tempfile::tempdir().expect("temp");
    let mut id = String::new();
    let options = Options {
        env: vec![("RECORDER_MODEL_PATH".into(), speech::test_model().display().to_string())],
        ..Options::default()
    };
    let (disk, service) = full_disk_service(options, 16, |data| {
        id = seed(data, &[SeedMeeting::ready("Budget", 1_700_000_000_000, &["We agreed."; 200])])
            .remove(0);
    });
    let filler = disk.fill(300_000);
    let upload = recorder_test_support::http()
        .post(service.url("/ui/imports"))
        .bearer_auth(&service.ui_token)
        .header("x-file-name", "big.wav")
        .body(vec![7u8; 2_000_000])
        .send()
        .await
        .expect("upload");
    let status = upload.status().as_u16();
    let text = upload.text().await.expect("body");
    let answer = crate::Answer {
        status,
        headers: Default::default(),
        body: serde_json::from_str(&text).unwrap_or(Value::Null),
        text,
    };
    storage_full(&answer);
    assert_eq!(
        get(&service, "/v1/meetings").await.body["meetings"].as_array().map(Vec::len),
        Some(1)
    );
    assert!(leftovers(&service.data_dir()).is_empty(), "{:?}", leftovers(&service.data_dir()));

    let exports = service.data_dir().join("exports");
    std::fs::create_dir_all(&exports).expect("exports");
    let second = disk.fill(0);
    let export_url = service.url(&format!("/ui/meetings/{id}/export"));
    let export =
        call(Method::POST, &export_url, Some(&service.ui_token), Some(&json!({"folder": exports})))
            .await;
    storage_full(&export);
    assert_eq!(std::fs::read_dir(&exports).expect("list").count(), 0, "no half-written export");

    // Space again: both work.
    std::fs::remove_file(filler).expect("free");
    std::fs::remove_file(second).expect("free");
    let export =
        call(Method::POST, &export_url, Some(&service.ui_token), Some(&json!({"folder": exports})))
            .await;
    assert_eq!(export.status, 201, "{}", export.text);
    let wav = folder.path().join("talk.wav");
    speech::speak(crate::recording::SYS_LINE, &wav, speech::Layout::Wav44kStereo16);
    let upload = recorder_test_support::http()
        .post(service.url("/ui/imports"))
        .bearer_auth(&service.ui_token)
        .header("x-file-name", "talk.wav")
        .body(std::fs::read(&wav).expect("wav"))
        .send()
        .await
        .expect("upload");
    assert_eq!(upload.status().as_u16(), 202);
    let meeting: Value = upload.json().await.expect("meeting");
    wait_ready(&service, meeting["id"].as_str().expect("id")).await;
}

/// The schema of an older build (migrations 1 and 2 of crates/store).
const OLD_SCHEMA: [&str; 2] = [
    include_str!("../../../store/migrations/0001_init.sql"),
    include_str!("../../../store/migrations/0002_jobs.sql"),
];

fn schema_version(path: &Path) -> i64 {
    let out = Command::new("python3")
        .args(["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA user_version').fetchone()[0], c.execute('PRAGMA integrity_check').fetchone()[0])"])
        .arg(path)
        .output()
        .expect("python3");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let (version, check) = text.trim().split_once(' ').expect("two answers");
    assert_eq!(check, "ok", "integrity of {}", path.display());
    version.parse().expect("version")
}

#[test]
fn a_migration_that_does_not_fit_leaves_the_database_as_it_was() {
    let folder = tempfile::tempdir().expect("temp");
    let data = folder.path().join("data");
    std::fs::create_dir_all(&data).expect("data");
    let disk = SmallDisk::mount(&data, 8);
    // An older database with some weight (~1 MB of ledger rows).
    let script = concat!(
        "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.executescript(sys.argv[3])\n",
        "c.executemany(\"INSERT INTO ledger (id, at, method, url, host, purpose, status, bytes_sent, bytes_received, duration_ms, outcome) VALUES (?, 1, 'GET', ?, 'h', 'p', 200, 1, 1, 1, 'ok')\", [(str(i), 'http://h/' + 'x' * 400) for i in range(2000)])\n",
        "c.execute('PRAGMA user_version = 2')\nc.commit()"
    );
    let made = Command::new("python3")
        .args(["-c", script])
        .arg(data.join("recorder.db"))
        .args(OLD_SCHEMA)
        .status()
        .expect("python3");
    assert!(made.success());
    let filler = disk.fill(300_000);
    let serve = |data: &Path| {
        Command::new(BIN)
            .args(["serve", "--port", "0", "--data-dir"])
            .arg(data)
            .env_remove("RECORDER_DATA_DIR")
            .env("RECORDER_POLICY_PATH", folder.path().join("none.json"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let refused = serve(&data).wait_with_output().expect("ends");
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    let last = message.lines().last().unwrap_or_default();
    assert!(last.contains("disk is full"), "{message}");
    assert_eq!(schema_version(&data.join("recorder.db")), 2, "not migrated, not damaged");
    let copies = std::fs::read_dir(data.join("backups")).map_or(0, |entries| entries.count());
    assert_eq!(copies, 0, "no half-written copy");

    std::fs::remove_file(filler).expect("free");
    let mut started = serve(&data);
    let mut line = String::new();
    let stdout = started.stdout.take().expect("stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("line");
    assert!(line.contains("listening on"), "{line}");
    let _ = started.kill();
    let _ = started.wait();
    // Migrated to the newest schema (crates/store/migrations: 0013_live_speakers).
    assert_eq!(schema_version(&data.join("recorder.db")), 13);
    let copies: Vec<_> =
        std::fs::read_dir(data.join("backups")).expect("backups").flatten().collect();
    assert_eq!(copies.len(), 1);
    assert_eq!(schema_version(&copies[0].path()), 2, "the copy is the database as it was");
}
