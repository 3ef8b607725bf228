//! WAV layouts decode to the same 16 kHz mono signal; broken files give clear
//! errors, never a panic.

use std::path::Path;

use hound::{SampleFormat, WavSpec, WavWriter};
use recorder_stt::audio::{self, AudioError};

const SECONDS: f32 = 1.5;

fn tone_at(rate: u32, index: usize) -> f32 {
    0.5 * (index as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin()
}

fn write(path: &Path, rate: u32, channels: u16, bits: u16, format: SampleFormat) {
    let spec =
        WavSpec { channels, sample_rate: rate, bits_per_sample: bits, sample_format: format };
    let mut writer = WavWriter::create(path, spec).expect("create");
    for index in 0..(rate as f32 * SECONDS) as usize {
        let value = tone_at(rate, index);
        for _ in 0..channels {
            match (format, bits) {
                (SampleFormat::Float, _) => writer.write_sample(value).expect("f32"),
                (SampleFormat::Int, 8) => writer.write_sample((value * 127.0) as i8).expect("i8"),
                (SampleFormat::Int, 16) => {
                    writer.write_sample((value * 32767.0) as i16).expect("i16")
                }
                (SampleFormat::Int, 24) => {
                    writer.write_sample((value * 8_388_607.0) as i32).expect("i24")
                }
                (SampleFormat::Int, _) => {
                    writer.write_sample((value * 2_147_483_647.0) as i32).expect("i32")
                }
            }
        }
    }
    writer.finalize().expect("finalize");
}

fn decode(path: &Path) -> Result<Vec<f32>, AudioError> {
    let mut stream = audio::open(path, None)?;
    let mut out = Vec::new();
    while stream.read(&mut out, 3000)? > 0 {}
    Ok(out)
}

#[test]
fn every_common_wav_layout_decodes_to_the_same_signal() {
    let folder = tempfile::tempdir().expect("temp");
    let layouts = [
        (8_000, 1, 8, SampleFormat::Int),
        (16_000, 1, 16, SampleFormat::Int),
        (22_050, 1, 24, SampleFormat::Int),
        (44_100, 2, 16, SampleFormat::Int),
        (48_000, 1, 32, SampleFormat::Float),
        (96_000, 6, 32, SampleFormat::Int),
    ];
    for (rate, channels, bits, format) in layouts {
        let path = folder.path().join(format!("{rate}-{channels}-{bits}.wav"));
        write(&path, rate, channels, bits, format);
        let samples = decode(&path).expect("decodes");
        assert_eq!(samples.len(), (16_000.0 * SECONDS) as usize, "{path:?}");
        let worst = (2000..samples.len() - 2000)
            .map(|i| (samples[i] - tone_at(16_000, i)).abs())
            .fold(0.0_f32, f32::max);
        // Resampling may shift the signal by a fraction of a 16 kHz sample
        // (0.03 here is about a third of one); 8-bit adds quantization noise.
        let tolerance = match (rate, bits) {
            (16_000, 16) => 0.001,
            (_, 8) => 0.04,
            _ => 0.035,
        };
        assert!(worst < tolerance, "{path:?}: worst error {worst}");
    }
}

#[test]
fn broken_files_are_errors() {
    let folder = tempfile::tempdir().expect("temp");
    let good = folder.path().join("good.wav");
    write(&good, 16_000, 1, 16, SampleFormat::Int);
    let bytes = std::fs::read(&good).expect("read");
    let truncated = folder.path().join("truncated.wav");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3 + 1]).expect("write");
    let error = decode(&truncated).expect_err("truncated");
    assert!(error.to_string().contains("truncated"), "{error}");
    let junk = folder.path().join("junk.wav");
    std::fs::write(&junk, b"not a wav file at all").expect("write");
    assert!(matches!(decode(&junk), Err(AudioError::Invalid(_))));
    let empty = folder.path().join("empty.wav");
    std::fs::write(&empty, b"").expect("write");
    assert!(decode(&empty).is_err());
}

#[test]
fn other_formats_need_a_converter() {
    let error = audio::open(Path::new("/nonexistent/talk.mp3"), None).err().expect("no ffmpeg");
    assert!(error.to_string().contains("ffmpeg"), "{error}");
}

/// ffmpeg reads an import as one local audio file: a playlist or concat script
/// named like audio (which would make ffmpeg open other files or URLs it names)
/// is refused, while a real compressed file still decodes. Needs ffmpeg on
/// PATH (scripts/setup.sh installs it).
#[test]
fn ffmpeg_reads_only_the_audio_file_itself() {
    let ffmpeg = which_ffmpeg().expect("ffmpeg on PATH (scripts/setup.sh installs it)");
    let folder = tempfile::tempdir().expect("tempdir");
    let wav = folder.path().join("tone.wav");
    write(&wav, 16_000, 1, 16, SampleFormat::Int);
    let flac = folder.path().join("tone.flac");
    let converted = std::process::Command::new(&ffmpeg)
        .args(["-loglevel", "error", "-y", "-i"])
        .arg(&wav)
        .arg(&flac)
        .status()
        .expect("ffmpeg runs");
    assert!(converted.success());
    let decode_with = |path: &Path| -> Result<Vec<f32>, AudioError> {
        let mut stream = audio::open(path, Some(&ffmpeg))?;
        let mut out = Vec::new();
        while stream.read(&mut out, 3000)? > 0 {}
        Ok(out)
    };
    assert!(decode_with(&flac).expect("a real flac decodes").len() > 8_000);
    let playlist = folder.path().join("talk.mp3");
    let target = format!("file://{}", wav.display());
    std::fs::write(
        &playlist,
        format!("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n{target}\n#EXT-X-ENDLIST\n"),
    )
    .expect("write");
    let concat = folder.path().join("talk.ogg");
    std::fs::write(&concat, format!("ffconcat version 1.0\nfile '{}'\n", wav.display()))
        .expect("write");
    for hostile in [&playlist, &concat] {
        let error = decode_with(hostile).expect_err("refused");
        assert!(error.to_string().contains("ffmpeg could not decode"), "{error}");
    }
}

fn which_ffmpeg() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| Path::new(dir).join("ffmpeg"))
        .find(|path| path.is_file())
}

/// A 10 s tone as FLAC, made by ffmpeg itself (unconfined).
fn flac_tone(ffmpeg: &Path, folder: &Path) -> std::path::PathBuf {
    let flac = folder.join("tone.flac");
    let made = std::process::Command::new(ffmpeg)
        .args(["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=10"])
        .arg(&flac)
        .status()
        .expect("ffmpeg runs");
    assert!(made.success());
    flac
}

/// The children of this process named `name` that were given `argument`, by
/// their `/proc` status. (The other tests of this file run their own,
/// unconfined ffmpeg at the same time: each is told another file.)
fn children_named(name: &str, argument: &Path) -> Vec<String> {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task");
    let pids: Vec<String> = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| list.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect();
    let given = |pid: &str| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|line| {
            line.split(|byte| *byte == 0).any(|arg| arg == argument.as_os_str().as_encoded_bytes())
        })
    };
    pids.into_iter()
        .filter(|pid| given(pid))
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/status")).ok())
        .filter(|status| status.lines().next() == Some(&format!("Name:\t{name}")))
        .collect()
}

/// The ffmpeg an import starts runs confined (no new privileges, a seccomp
/// filter; Landlock has no /proc mark, the escapes below show it) and still
/// decodes the whole file.
#[cfg(target_os = "linux")]
#[test]
fn the_ffmpeg_that_decodes_an_import_is_confined_and_does_its_job() {
    let ffmpeg = which_ffmpeg().expect("ffmpeg on PATH (scripts/setup.sh installs it)");
    let folder = tempfile::tempdir().expect("tempdir");
    let flac = flac_tone(&ffmpeg, folder.path());
    let mut stream = audio::open(&flac, Some(&ffmpeg)).expect("ffmpeg starts");
    // 10 s of f32 is 640 KB: more than a pipe holds, so ffmpeg waits for us.
    let status = (0..200)
        .find_map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            children_named("ffmpeg", &flac).pop()
        })
        .expect("ffmpeg is running");
    assert!(status.contains("NoNewPrivs:\t1"), "{status}");
    assert!(status.contains("Seccomp:\t2"), "{status}");
    let mut samples = Vec::new();
    while stream.read(&mut samples, 8_000).expect("decodes") > 0 {}
    assert_eq!(samples.len(), 160_000);
}

/// Under the rules the import gets, ffmpeg told to read another file (a key
/// beside the import) or to connect to a server on 127.0.0.1 cannot; without
/// them it can, so the checks can fail.
#[cfg(target_os = "linux")]
#[test]
fn a_confined_ffmpeg_reads_no_other_file_and_connects_nowhere() {
    use std::net::TcpListener;
    let ffmpeg = which_ffmpeg().expect("ffmpeg on PATH (scripts/setup.sh installs it)");
    let folder = tempfile::tempdir().expect("tempdir");
    let flac = flac_tone(&ffmpeg, folder.path());
    let secret = folder.path().join("secret.wav");
    write(&secret, 16_000, 1, 16, SampleFormat::Int);
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let url = format!("http://{}/talk.wav", listener.local_addr().expect("address"));
    let decode = |input: &str, confined: bool| {
        let mut command = std::process::Command::new(&ffmpeg);
        command.args(["-nostdin", "-loglevel", "error", "-rw_timeout", "2000000", "-i", input]);
        command.args(["-f", "null", "-"]);
        if confined {
            let confinement = recorder_sandbox::confine_command(
                &mut command,
                &audio::ffmpeg_rules(&ffmpeg, &flac),
            );
            assert!(confinement.is_whole(), "{confinement}");
        }
        command.output().expect("ffmpeg runs")
    };
    let path = |p: &Path| p.to_str().expect("UTF-8").to_string();
    assert!(decode(&path(&flac), true).status.success(), "the import itself decodes");
    assert!(decode(&path(&secret), false).status.success(), "unconfined, the key is read");
    let refused = decode(&path(&secret), true);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("Permission denied"));

    let free = std::thread::spawn({
        let decode_url = url.clone();
        let ffmpeg = ffmpeg.clone();
        move || {
            std::process::Command::new(&ffmpeg)
                .args(["-nostdin", "-loglevel", "error", "-rw_timeout", "2000000", "-i"])
                .arg(&decode_url)
                .args(["-f", "null", "-"])
                .output()
        }
    });
    drop(listener.accept().expect("unconfined, ffmpeg connects"));
    let _ = free.join();
    let confined = decode(&url, true);
    assert!(!confined.status.success());
    listener.set_nonblocking(true).expect("non-blocking");
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a confined ffmpeg reached the server"
    );
}
