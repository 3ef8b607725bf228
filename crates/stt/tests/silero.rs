//! Silero VAD: our Rust implementation against the published ONNX model run
//! by onnxruntime on the same weights (converted by scripts/vad_convert.py),
//! and its verdicts on labelled audio made with espeak-ng and sox: speech,
//! silence, noise and music.

use std::path::{Path, PathBuf};
use std::process::Command;

use recorder_stt::audio;
use recorder_stt::silero::{SileroModel, SileroVad, FRAME};
use recorder_stt::vad::{Chunker, Gate, Profile, SpeechChunk};
use recorder_test_support::speech::{self, test_models_dir};

fn sox(args: &[&str]) {
    let output = Command::new("sox").args(args).output().expect("sox");
    assert!(output.status.success(), "sox {args:?}: {}", String::from_utf8_lossy(&output.stderr));
}

const RAW: [&str; 8] = ["-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"];

/// `sox -n` with a synth effect into a 16 kHz mono WAV.
fn synth(path: &Path, effects: &[&str]) {
    let mut args = vec!["-n"];
    args.extend(RAW);
    let path = path.to_str().expect("utf-8");
    args.push(path);
    args.extend(effects);
    sox(&args);
}

fn samples(path: &Path) -> Vec<f32> {
    let mut stream = audio::open(path, None).expect("open");
    let mut out = Vec::new();
    while stream.read(&mut out, audio::BLOCK).expect("read") > 0 {}
    out
}

fn probabilities(samples: &[f32]) -> Vec<f32> {
    let model = SileroModel::load(&speech::vad_model()).expect("weights");
    let mut vad = SileroVad::new(model);
    let mut padded = samples.to_vec();
    padded.resize(samples.len().div_ceil(FRAME) * FRAME, 0.0);
    padded.chunks(FRAME).map(|frame| vad.probability(frame)).collect()
}

fn speech_share(path: &Path) -> f64 {
    let p = probabilities(&samples(path));
    p.iter().filter(|p| **p >= 0.5).count() as f64 / p.len().max(1) as f64
}

fn python() -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    assert!(venv.is_file(), "{} is missing: run scripts/setup.sh", venv.display());
    venv
}

#[test]
fn our_silero_matches_onnxruntime_frame_for_frame() {
    let folder = tempfile::tempdir().expect("temp");
    // Real speech, then speech over noise, then quiet: every branch of the
    // state, on a file long enough for the LSTM state to matter.
    let spoken = folder.path().join("spoken.wav");
    speech::speak_padded("Let us move the budget review to Thursday.", &spoken, 0.5, 0.5);
    let noise = folder.path().join("noise.wav");
    synth(&noise, &["synth", "4", "pinknoise", "vol", "0.05"]);
    let noisy = folder.path().join("noisy.wav");
    sox(&[
        "-m",
        spoken.to_str().expect("p"),
        noise.to_str().expect("p"),
        noisy.to_str().expect("p"),
    ]);
    let jfk = folder.path().join("jfk.wav");
    sox(&[speech::jfk_wav().to_str().expect("p"), "-r", "16000", jfk.to_str().expect("p")]);
    let input = folder.path().join("input.wav");
    sox(&[jfk.to_str().expect("p"), noisy.to_str().expect("p"), input.to_str().expect("p")]);

    let ours = probabilities(&samples(&input));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/silero_onnx.py");
    let onnx = test_models_dir().join("silero-vad-16k.onnx");
    let output =
        Command::new(python()).arg(script).arg(&onnx).arg(&input).output().expect("python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let reference: Vec<f32> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| line.trim().parse().expect("a probability"))
        .collect();
    assert_eq!(ours.len(), reference.len());
    assert!(ours.len() > 400, "{} frames", ours.len());
    let worst = ours.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    assert!(worst < 1e-4, "largest difference {worst}");
    // And the answers mean something: JFK's 11 s are mostly speech.
    let speech_frames = reference.iter().filter(|p| **p >= 0.5).count();
    assert!(speech_frames > 200, "{speech_frames}");
}

#[test]
fn labelled_audio_is_told_apart() {
    let folder = tempfile::tempdir().expect("temp");
    let file = |name: &str| folder.path().join(name);
    let spoken = file("speech.wav");
    speech::speak_padded(
        "The quarterly budget review moves to Thursday afternoon, and Maria will send the slides.",
        &spoken,
        0.0,
        0.0,
    );
    synth(&file("silence.wav"), &["trim", "0", "3"]);
    synth(&file("white.wav"), &["synth", "5", "whitenoise", "vol", "0.3"]);
    synth(&file("brown.wav"), &["synth", "5", "brownnoise", "vol", "0.5"]);
    // Music: plucked notes of a melody, and a held chord with tremolo.
    synth(&file("melody.wav"), &["synth", "0.4", "pluck", "C4", "pluck", "E4", "repeat", "10"]);
    synth(
        &file("chord.wav"),
        &[
            "synth", "6", "sine", "261.6", "sine", "329.6", "sine", "392", "remix", "1", "tremolo",
            "5", "60",
        ],
    );

    let share = |name: &str| speech_share(&file(name));
    assert!(share("speech.wav") >= 0.75, "speech: {}", share("speech.wav"));
    assert_eq!(share("silence.wav"), 0.0);
    for name in ["white.wav", "brown.wav", "melody.wav", "chord.wav"] {
        assert!(share(name) <= 0.02, "{name}: {}", share(name));
    }
}

fn chunks(gate: Gate, input: &[f32]) -> Vec<SpeechChunk> {
    let mut chunker = Chunker::new(gate, Profile::FILE, 0);
    let mut out = Vec::new();
    for block in input.chunks(4_000) {
        chunker.push(block, &mut out);
    }
    chunker.finish(&mut out);
    out
}

#[test]
fn files_skip_music_and_noise_that_the_energy_gate_lets_through() {
    let folder = tempfile::tempdir().expect("temp");
    let file = |name: &str| folder.path().join(name);
    synth(
        &file("music.wav"),
        &["synth", "8", "sine", "261.6", "sine", "329.6", "remix", "1", "tremolo", "3", "80"],
    );
    speech::speak_padded(
        "Thanks everyone, let us start with the roadmap.",
        &file("talk.wav"),
        1.0,
        1.0,
    );
    synth(&file("noise.wav"), &["synth", "6", "brownnoise", "vol", "0.4"]);
    let all = file("all.wav");
    speech::concatenate(&[&file("music.wav"), &file("talk.wav"), &file("noise.wav")], &all);
    let audio = samples(&all);
    let model = SileroModel::load(&speech::vad_model()).expect("weights");

    let silero = chunks(Gate::silero(model), &audio);
    assert_eq!(silero.len(), 1, "only the talk: {:?}", spans(&silero));
    let (start, end) = spans(&silero)[0];
    assert!((7_500..=9_300).contains(&start) && (10_000..=13_000).contains(&end), "{start}..{end}");

    let energy = chunks(Gate::energy(), &audio);
    let energy_ms: i64 = spans(&energy).iter().map(|(s, e)| e - s).sum();
    assert!(energy_ms > 10_000, "the energy gate keeps music and noise: {:?}", spans(&energy));
}

fn spans(chunks: &[SpeechChunk]) -> Vec<(i64, i64)> {
    chunks.iter().map(|c| (c.start_ms, c.start_ms + c.samples.len() as i64 / 16)).collect()
}
