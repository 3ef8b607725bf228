//! Backups end to end on real folders and a real SQLite database: a round
//! trip keeps everything but secrets, a backup is made while the database is
//! written and audio grows, and a restore refuses a used folder, a damaged
//! archive and paths that would escape the folder, leaving nothing behind.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use recorder_backup::{backup, restore, BackupError};
use recorder_settings::DataDir;
use recorder_store::{MeetingRecord, Store};

/// A data folder with two meetings, their audio, settings, a template, a
/// licence and the tokens.
fn folder_with_meetings(root: &Path) -> (DataDir, Vec<recorder_store::MeetingId>) {
    let data = DataDir::at(root);
    data.prepare().expect("prepare");
    let store = Store::open(&data.database()).expect("db");
    let mut ids = Vec::new();
    for (n, title) in ["Standup", "Budget"].iter().enumerate() {
        let meeting = MeetingRecord::new_import((*title).into(), 1_700_000_000_000 + n as i64);
        store.insert_meeting(&meeting, 1).expect("meeting");
        std::fs::create_dir_all(data.meeting(&meeting.id)).expect("folder");
        let audio: Vec<u8> = (0..50_000u32).map(|i| (i * 7 + n as u32) as u8).collect();
        std::fs::write(data.meeting(&meeting.id).join("sys.wav"), audio).expect("audio");
        ids.push(meeting.id);
    }
    std::fs::write(data.settings(), r#"{"general": {"user_name": "Ada"}}"#).expect("settings");
    std::fs::create_dir_all(data.templates()).expect("templates");
    std::fs::write(data.templates().join("retro.md"), "# Retro\n").expect("template");
    std::fs::write(data.license(), "{}").expect("licence");
    std::fs::write(data.api_token(), "SECRET-API").expect("token");
    std::fs::write(data.ui_token(), "SECRET-UI").expect("token");
    std::fs::write(data.meeting(&ids[0]).join("mic.wav.part"), "unfinished").expect("part");
    (data, ids)
}

#[test]
fn a_round_trip_keeps_meetings_audio_and_settings_but_no_secrets() {
    let temp = tempfile::tempdir().expect("temp");
    let (data, ids) = folder_with_meetings(&temp.path().join("data"));
    let file = temp.path().join("out/backup.tar");
    let summary = backup(&data, &file).expect("backup");
    assert_eq!(summary.manifest.meetings, 2);
    assert_eq!(summary.manifest.audio_bytes(), 100_000);
    assert!(!temp.path().join("out/backup.tar.part").exists());
    let names: Vec<&str> = summary.manifest.files.iter().map(|f| f.path.as_str()).collect();
    assert!(names.contains(&"recorder.db") && names.contains(&"templates/retro.md"), "{names:?}");
    assert!(names.iter().all(|n| !n.contains("token") && !n.ends_with(".part")), "{names:?}");

    let restored = DataDir::at(temp.path().join("restored"));
    restore(&restored, &file).expect("restore");
    for id in &ids {
        let before = std::fs::read(data.meeting(id).join("sys.wav")).expect("before");
        let after = std::fs::read(restored.meeting(id).join("sys.wav")).expect("after");
        assert_eq!(before, after);
    }
    let store = Store::open(&restored.database()).expect("opens");
    assert_eq!(store.meeting(&ids[1]).expect("meeting").title, "Budget");
    assert_eq!(
        std::fs::read_to_string(restored.settings()).expect("settings"),
        r#"{"general": {"user_name": "Ada"}}"#
    );
    assert!(
        !restored.api_token().exists() && !restored.ui_token().exists(),
        "tokens are made anew"
    );
}

#[test]
fn a_backup_is_made_while_the_database_is_written_and_audio_grows() {
    let temp = tempfile::tempdir().expect("temp");
    let (data, ids) = folder_with_meetings(&temp.path().join("data"));
    let store = Arc::new(Store::open(&data.database()).expect("db"));
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (store, stop) = (store.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut written = 0;
            while !stop.load(Ordering::Relaxed) {
                let meeting = MeetingRecord::new_import(format!("busy {written}"), written);
                store.insert_meeting(&meeting, 1).expect("a write is never refused");
                written += 1;
            }
            written
        })
    };
    let recording = {
        let (path, stop) = (data.meeting(&ids[0]).join("mic.wav"), stop.clone());
        std::thread::spawn(move || {
            let mut file = std::fs::File::create(path).expect("audio");
            while !stop.load(Ordering::Relaxed) {
                file.write_all(&[1u8; 3200]).expect("append");
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(100));
    let file = temp.path().join("busy.tar");
    let summary = backup(&data, &file).expect("backup");
    stop.store(true, Ordering::Relaxed);
    let written = writer.join().expect("writer");
    recording.join().expect("recording");
    assert!(written > 0);
    let restored = DataDir::at(temp.path().join("restored"));
    let restored_summary = restore(&restored, &file).expect("restore");
    let store = Store::open(&restored.database()).expect("opens");
    let snapshot_meetings = summary.manifest.meetings;
    assert!(snapshot_meetings >= 2, "the snapshot has at least the first meetings");
    assert_eq!(restored_summary.manifest.meetings, snapshot_meetings);
    assert!(store.meeting(&ids[0]).is_ok());
    // Whether the copy overlapped an append is up to the scheduler (the
    // archive's unit tests mark a growing file deterministically); what holds
    // either way is that the archive has a whole prefix of the recording.
    let mic = summary.manifest.files.iter().find(|f| f.path.ends_with("mic.wav")).expect("mic");
    let restored_mic = std::fs::read(restored.meeting(&ids[0]).join("mic.wav")).expect("mic");
    let recorded = std::fs::read(data.meeting(&ids[0]).join("mic.wav")).expect("recorded");
    assert_eq!(restored_mic.len() as u64, mic.bytes);
    assert!(recorded.len() >= restored_mic.len(), "the recording only grew");
    assert_eq!(restored_mic, recorded[..restored_mic.len()], "the archive holds a prefix of it");
}

#[test]
fn a_used_folder_is_refused_and_left_as_it_was() {
    let temp = tempfile::tempdir().expect("temp");
    let (data, _) = folder_with_meetings(&temp.path().join("data"));
    let file = temp.path().join("b.tar");
    backup(&data, &file).expect("backup");
    let refused = restore(&data, &file).expect_err("not empty");
    assert!(matches!(refused, BackupError::NotEmpty(_)), "{refused}");
    assert_eq!(std::fs::read_to_string(data.api_token()).expect("kept"), "SECRET-API");
    let empty = DataDir::at(temp.path().join("none"));
    assert!(matches!(
        backup(&empty, &temp.path().join("x.tar")),
        Err(BackupError::NothingToBackUp(_))
    ));
}

#[test]
fn a_damaged_archive_restores_nothing() {
    let temp = tempfile::tempdir().expect("temp");
    let (data, _) = folder_with_meetings(&temp.path().join("data"));
    let file = temp.path().join("b.tar");
    backup(&data, &file).expect("backup");
    // Change one byte of the audio inside the archive (its pattern is known).
    let mut bytes = std::fs::read(&file).expect("read");
    let pattern: Vec<u8> = (0..64u32).map(|i| (i * 7) as u8).collect();
    let at = bytes.windows(64).position(|w| w == pattern.as_slice()).expect("audio in the archive");
    bytes[at + 10] ^= 0xff;
    std::fs::write(&file, bytes).expect("write");
    let target = DataDir::at(temp.path().join("restored"));
    let error = restore(&target, &file).expect_err("damaged");
    assert!(error.to_string().contains("has changed"), "{error}");
    assert_eq!(std::fs::read_dir(target.root()).expect("folder").count(), 0, "left empty");
}

#[test]
fn entries_that_would_escape_the_folder_are_refused() {
    let temp = tempfile::tempdir().expect("temp");
    let file = temp.path().join("evil.tar");
    let mut builder = tar::Builder::new(std::fs::File::create(&file).expect("create"));
    let mut header = tar::Header::new_gnu();
    header.set_size(4);
    header.set_mode(0o600);
    // `append_data` refuses `..` itself; write the name into the header raw.
    let name = b"../escaped.txt";
    header.as_old_mut().name[..name.len()].copy_from_slice(name);
    header.set_cksum();
    builder.append(&header, &b"evil"[..]).expect("append");
    builder.into_inner().expect("finish");
    let target = DataDir::at(temp.path().join("data"));
    let error = restore(&target, &file).expect_err("refused");
    assert!(matches!(error, BackupError::NotABackup(..)), "{error}");
    assert!(!temp.path().join("escaped.txt").exists());
    assert_eq!(std::fs::read_dir(target.root()).expect("folder").count(), 0);
}

/// The archive holds every meeting: only its owner may read it, even in a
/// folder others can read and under a permissive umask's leftover `.part`.
#[cfg(unix)]
#[test]
fn the_archive_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let temp = tempfile::tempdir().expect("temp");
    let (data, _) = folder_with_meetings(&temp.path().join("data"));
    let out = temp.path().join("shared");
    std::fs::create_dir_all(&out).expect("folder");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = out.join("backup.tar");
    // A leftover part file from an earlier, interrupted run, readable by all.
    std::fs::write(out.join("backup.tar.part"), "old").expect("part");
    std::fs::set_permissions(out.join("backup.tar.part"), std::fs::Permissions::from_mode(0o644))
        .expect("chmod");
    backup(&data, &file).expect("backup");
    let mode = std::fs::metadata(&file).expect("archive").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
}
