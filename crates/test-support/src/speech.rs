//! Audio fixtures for transcription tests: speech synthesized with espeak-ng
//! and shaped with sox or ffmpeg into the layouts users import, and the
//! Whisper tiny.en test model that `scripts/test-model.sh` converts and caches.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `scripts/test-model.sh` caches the test model and real speech.
pub fn test_models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-models")
}

/// A file `script` caches in the test models' folder. Panics with the fix if absent.
fn cached(name: &str, script: &str) -> PathBuf {
    let path = test_models_dir().join(name);
    assert!(path.is_file(), "{} is missing: run {script} first", path.display());
    path
}

/// The converted Whisper tiny.en model (q8_0).
pub fn test_model() -> PathBuf {
    cached("ggml-tiny.en-q8_0.bin", "scripts/test-model.sh")
}

/// The test notes model, SmolLM2-135M-Instruct Q4_1 (`scripts/notes-model.sh`).
pub fn notes_model() -> PathBuf {
    cached("smollm2-135m-instruct-q4_1.gguf", "scripts/notes-model.sh")
}

/// The sentence-embedding model's `model.zip` (`scripts/embedding-model.sh`).
pub fn embedding_model() -> PathBuf {
    cached("all-minilm-l6-v2.zip", "scripts/embedding-model.sh")
}

/// Where `scripts/vad-model.sh` puts the Silero VAD weights.
pub fn vad_model_path() -> PathBuf {
    test_models_dir().join("silero-vad.safetensors")
}

/// The Silero VAD weights.
pub fn vad_model() -> PathBuf {
    cached("silero-vad.safetensors", "scripts/test-model.sh")
}

/// The CAM++ speaker weights (`scripts/speaker-model.sh`).
pub fn speaker_model() -> PathBuf {
    cached("speaker-campplus.safetensors", "scripts/speaker-model.sh")
}

/// pyannote's segmentation-3.0 weights (`scripts/speaker-model.sh`).
pub fn segmentation_model() -> PathBuf {
    cached("speaker-segmentation.safetensors", "scripts/speaker-model.sh")
}

/// A generated person: an espeak-ng voice variant and a pitch (people differ
/// in both; bench/diarization.py uses the same five).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Person {
    pub voice: &'static str,
    pub pitch: u8,
}

pub const PEOPLE: [Person; 5] = [
    Person { voice: "en-us+m7", pitch: 35 },
    Person { voice: "en-gb+f3", pitch: 70 },
    Person { voice: "en-us+m1", pitch: 55 },
    Person { voice: "en-us+f1", pitch: 85 },
    Person { voice: "en-us+croak", pitch: 20 },
];

/// `person` speaking `text` into a 16 kHz mono 16-bit WAV.
pub fn speak_as(person: Person, text: &str, path: &Path) {
    let raw = path.with_extension("espeak.wav");
    let pitch = person.pitch.to_string();
    run(Command::new("espeak-ng")
        .args(["-v", person.voice, "-p", &pitch, "-s", "160", "-w"])
        .arg(&raw)
        .arg(text));
    run(Command::new("sox")
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"])
        .arg(path));
    let _ = std::fs::remove_file(raw);
}

/// One turn of a generated conversation: who said it, from when to when (ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpokenTurn {
    pub person: usize,
    pub start_ms: i64,
    pub end_ms: i64,
}

/// The other side of a call: `turns` (an index into `people`, and the words)
/// one after another with `gap_s` seconds of silence between them, into a
/// 16 kHz mono 16-bit WAV at `path`. Returns who spoke when.
pub fn conversation(
    people: &[Person],
    turns: &[(usize, &str)],
    gap_s: f32,
    path: &Path,
) -> Vec<SpokenTurn> {
    let speakers: Vec<usize> = turns.iter().map(|(person, _)| *person).collect();
    join_turns(&speakers, gap_s, path, |index, part| {
        speak_as(people[turns[index].0], turns[index].1, part);
    })
}

/// Turns by `speakers`, each written to its part by `say(index, part)`, one
/// after another `gap_s` seconds apart, into `path`. Returns who spoke when.
fn join_turns(
    speakers: &[usize],
    gap_s: f32,
    path: &Path,
    say: impl Fn(usize, &Path),
) -> Vec<SpokenTurn> {
    let folder = path.with_extension("parts");
    std::fs::create_dir_all(&folder).expect("parts folder");
    let (mut parts, mut truth, mut at_ms) = (Vec::new(), Vec::new(), 0i64);
    for (index, person) in speakers.iter().enumerate() {
        let part = folder.join(format!("{index}.wav"));
        say(index, &part);
        let length_ms = wav_length_ms(&part);
        let padded = folder.join(format!("{index}-padded.wav"));
        run(Command::new("sox").arg(&part).arg(&padded).args(["pad", "0", &gap_s.to_string()]));
        truth.push(SpokenTurn { person: *person, start_ms: at_ms, end_ms: at_ms + length_ms });
        at_ms += length_ms + (gap_s * 1000.0) as i64;
        parts.push(padded);
    }
    let refs: Vec<&Path> = parts.iter().map(PathBuf::as_path).collect();
    concatenate(&refs, path);
    let _ = std::fs::remove_dir_all(folder);
    truth
}

/// The recordings of a real person (`allison` or `carlo`, from Debian's
/// Asterisk prompts; `scripts/real-voices.sh`), in name order.
pub fn real_voice(speaker: &str) -> Vec<PathBuf> {
    let folder = test_models_dir().join("voices/src").join(speaker);
    assert!(folder.is_dir(), "{} is missing: run scripts/real-voices.sh first", folder.display());
    let mut clips: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("voices folder")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "wav"))
        .collect();
    clips.sort();
    clips
}

/// A conversation of real people: each turn is (person, clips) where the
/// clips are recordings of that person, one after another, `gap_s` seconds
/// apart, into a 16 kHz mono 16-bit WAV at `path`. Returns who spoke when.
pub fn real_conversation(
    turns: &[(usize, Vec<PathBuf>)],
    gap_s: f32,
    path: &Path,
) -> Vec<SpokenTurn> {
    let speakers: Vec<usize> = turns.iter().map(|(person, _)| *person).collect();
    join_turns(&speakers, gap_s, path, |index, part| {
        let clips: Vec<&Path> = turns[index].1.iter().map(PathBuf::as_path).collect();
        concatenate(&clips, part);
    })
}

/// The length of a 16 kHz WAV, from `sox --i -s` (its sample count).
fn wav_length_ms(path: &Path) -> i64 {
    let output = Command::new("sox").args(["--i", "-s"]).arg(path).output().expect("sox --i");
    let samples: i64 = String::from_utf8_lossy(&output.stdout).trim().parse().expect("samples");
    samples / 16
}

/// Real human speech with a known transcript (John F. Kennedy, 11 s).
pub fn jfk_wav() -> PathBuf {
    cached("jfk.wav", "scripts/test-model.sh")
}

/// The layouts tests import.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// 44.1 kHz, stereo, 16-bit PCM WAV.
    Wav44kStereo16,
    /// 48 kHz, mono, 32-bit float WAV.
    Wav48kFloat,
    /// 8 kHz, mono, 8-bit unsigned WAV.
    Wav8kU8,
    /// 22.05 kHz, mono, 24-bit WAV.
    Wav22k24,
    /// MP3 through ffmpeg.
    Mp3,
    /// Ogg Vorbis through ffmpeg.
    Ogg,
}

/// Speaks `text` (espeak-ng, US English) into `path` in `layout`.
pub fn speak(text: &str, path: &Path, layout: Layout) {
    let raw = path.with_extension("espeak.wav");
    run(Command::new("espeak-ng").args(["-v", "en-us", "-s", "150", "-w"]).arg(&raw).arg(text));
    convert(&raw, path, layout);
    let _ = std::fs::remove_file(raw);
}

/// Converts a WAV into `layout` at `path`.
pub fn convert(input: &Path, path: &Path, layout: Layout) {
    let sox = |args: &[&str]| {
        run(Command::new("sox").arg(input).args(args).arg(path));
    };
    match layout {
        Layout::Wav44kStereo16 => {
            sox(&["-r", "44100", "-c", "2", "-b", "16", "-e", "signed-integer"])
        }
        Layout::Wav48kFloat => sox(&["-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point"]),
        Layout::Wav8kU8 => sox(&["-r", "8000", "-c", "1", "-b", "8", "-e", "unsigned-integer"]),
        Layout::Wav22k24 => sox(&["-r", "22050", "-c", "1", "-b", "24", "-e", "signed-integer"]),
        Layout::Mp3 | Layout::Ogg => run(Command::new("ffmpeg")
            .args(["-nostdin", "-loglevel", "error", "-y", "-i"])
            .arg(input)
            .arg(path)),
    }
}

/// Speaks `text` into a 16 kHz mono 16-bit WAV with `before` seconds of
/// silence ahead of it and `after` seconds behind (one side of a call).
pub fn speak_padded(text: &str, path: &Path, before: f32, after: f32) {
    let raw = path.with_extension("espeak.wav");
    run(Command::new("espeak-ng").args(["-v", "en-us", "-s", "150", "-w"]).arg(&raw).arg(text));
    run(Command::new("sox")
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"])
        .arg(path)
        .args(["pad", &before.to_string(), &after.to_string()]));
    let _ = std::fs::remove_file(raw);
}

/// Joins WAV files one after the other (same format) into `path`.
pub fn concatenate(parts: &[&Path], path: &Path) {
    run(Command::new("sox").args(parts).arg(path));
}

/// A silent 16 kHz mono 16-bit WAV of `seconds`, written in blocks.
pub fn silence(path: &Path, seconds: u32) {
    run(Command::new("sox")
        .args(["-n", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"])
        .arg(path)
        .args(["trim", "0", &seconds.to_string()]));
}

fn run(command: &mut Command) {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
