//! Speakers: our CAM++ against the numpy reference on the same weights
//! (`campplus_numpy.py`, written from the upstream PyTorch code), and
//! diarization of conversations made with espeak-ng people whose true turns
//! are known. The accuracy over many generated meetings is measured by
//! `bench/diarization.py`; these tests hold the behaviour a person relies on.

use std::path::{Path, PathBuf};
use std::process::Command;

use recorder_stt::audio;
use recorder_stt::silero::SileroModel;
use recorder_stt::speaker::campplus::{cosine, CamPlusPlus};
use recorder_stt::speaker::channel::diarize_stream;
use recorder_stt::speaker::diarize::{speaker_of, Diarization, DiarizeError};
use recorder_stt::speaker::fbank::features;
use recorder_stt::vad::Gate;
use recorder_test_support::speech::{self, conversation, speak_as, SpokenTurn, PEOPLE};

fn model() -> CamPlusPlus {
    CamPlusPlus::load(&speech::speaker_model()).expect("CAM++ weights")
}

fn samples(path: &Path) -> Vec<f32> {
    let mut stream = audio::open(path, None).expect("open");
    let mut out = Vec::new();
    while stream.read(&mut out, audio::BLOCK).expect("read") > 0 {}
    out
}

fn python() -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    assert!(venv.is_file(), "{} is missing: run scripts/setup.sh", venv.display());
    venv
}

fn reference_embedding(wav: &Path) -> Vec<f32> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/campplus_numpy.py");
    let output = Command::new(python())
        .arg(script)
        .arg(speech::speaker_model())
        .arg(wav)
        .output()
        .expect("python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| line.trim().parse::<f32>().expect("a number"))
        .collect()
}

#[test]
fn our_campplus_matches_the_numpy_reference() {
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("dana.wav");
    speak_as(PEOPLE[1], "Could you send me the slides after this call, please?", &wav);
    let ours = model().embed(&features(&samples(&wav)));
    let theirs = reference_embedding(&wav);
    assert_eq!(ours.len(), 192);
    assert_eq!(theirs.len(), 192);
    let largest = ours.iter().zip(&theirs).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    let scale = theirs.iter().map(|v| v.abs()).fold(0.0f32, f32::max);
    assert!(largest <= 1e-3 * scale, "largest difference {largest} of values up to {scale}");
    assert!(cosine(&ours, &theirs) > 0.999_99, "cosine {}", cosine(&ours, &theirs));
}

#[test]
fn a_person_is_more_like_themself_than_like_someone_else() {
    let folder = tempfile::tempdir().expect("temp");
    let path = |name: &str| folder.path().join(name);
    speak_as(PEOPLE[0], "Let us look at the budget for the next quarter.", &path("a1.wav"));
    speak_as(PEOPLE[0], "We still have two open bugs in the import flow.", &path("a2.wav"));
    speak_as(PEOPLE[2], "We still have two open bugs in the import flow.", &path("b.wav"));
    let model = model();
    let embed = |name: &str| model.embed(&features(&samples(&path(name))));
    let (a1, a2, b) = (embed("a1.wav"), embed("a2.wav"), embed("b.wav"));
    let same = cosine(&a1, &a2);
    let other = cosine(&a2, &b);
    assert!(same > other + 0.1, "same person {same}, same words by another {other}");
}

#[test]
fn weights_of_another_model_are_refused_with_a_reason() {
    let error = CamPlusPlus::load(&speech::vad_model()).err().expect("refused");
    assert!(error.contains("silero-vad.safetensors"), "{error}");
}

const LINES: [&str; 9] = [
    "Let us look at the budget for the next quarter.",
    "I think we should ship the release on Friday.",
    "The customer asked for a demo of the new reports.",
    "We still have two open bugs in the import flow.",
    "Marketing wants the launch moved to the second week of March.",
    "I will update the roadmap and share it with everyone tomorrow.",
    "The servers were slow again last night around midnight.",
    "Our hiring plan needs one more engineer for the mobile team.",
    "That sounds good to me, let us go with the first option.",
];

fn diarize(path: &Path) -> Diarization {
    let mut stream = audio::open(path, None).expect("open");
    let silero = SileroModel::load(&speech::vad_model()).expect("silero");
    diarize_stream(&model(), stream.as_mut(), Gate::best(Some(&silero)), &|| false)
        .expect("diarized")
}

/// The label of each true turn, by who talks most of it.
fn labels_of(found: &Diarization, truth: &[SpokenTurn]) -> Vec<usize> {
    truth
        .iter()
        .map(|turn| {
            let (start, end) = (turn.start_ms as usize * 16, turn.end_ms as usize * 16);
            speaker_of(&found.turns, start, end).expect("a speaker")
        })
        .collect()
}

#[test]
fn three_people_taking_turns_are_three_speakers_each_turn_rightly_labelled() {
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("call.wav");
    let people = [PEOPLE[0], PEOPLE[1], PEOPLE[3]];
    let order = [0, 1, 2, 0, 2, 1, 0, 1, 2];
    let turns: Vec<(usize, &str)> = order.iter().zip(LINES).map(|(p, l)| (*p, l)).collect();
    let truth = conversation(&people, &turns, 0.6, &wav);
    let found = diarize(&wav);
    assert_eq!(found.voices.len(), 3, "turns: {:?}", found.turns);
    let labels = labels_of(&found, &truth);
    // One label per person, and no label for two people.
    for (turn, label) in truth.iter().zip(&labels) {
        let first = truth.iter().position(|t| t.person == turn.person).expect("first");
        assert_eq!(*label, labels[first], "labels {labels:?} for people {order:?}");
    }
    let mut distinct = labels.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "labels {labels:?}");
}

#[test]
fn two_people_in_a_short_call_are_two_speakers() {
    // Four turns, about eight windows each: once taken for one voice.
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("short.wav");
    let turns: Vec<(usize, &str)> = [0, 1, 0, 1].iter().zip(LINES).map(|(p, l)| (*p, l)).collect();
    let truth = conversation(&[PEOPLE[0], PEOPLE[3]], &turns, 0.8, &wav);
    let found = diarize(&wav);
    assert_eq!(found.voices.len(), 2, "turns: {:?}", found.turns);
    assert_eq!(labels_of(&found, &truth), vec![0, 1, 0, 1]);
}

#[test]
fn one_person_alone_is_one_speaker() {
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("alone.wav");
    let turns: Vec<(usize, &str)> = LINES[..6].iter().map(|l| (0, *l)).collect();
    conversation(&[PEOPLE[2]], &turns, 0.8, &wav);
    let found = diarize(&wav);
    assert_eq!(found.voices.len(), 1, "turns: {:?}", found.turns);
}

#[test]
fn silence_has_no_speakers_and_a_stop_is_heard() {
    let folder = tempfile::tempdir().expect("temp");
    let quiet = folder.path().join("quiet.wav");
    speech::silence(&quiet, 5);
    assert!(diarize(&quiet).voices.is_empty());
    let talk = folder.path().join("talk.wav");
    let turns: Vec<(usize, &str)> = LINES[..3].iter().map(|l| (0, *l)).collect();
    conversation(&[PEOPLE[1]], &turns, 0.5, &talk);
    let mut stream = audio::open(&talk, None).expect("open");
    let stopped = diarize_stream(&model(), stream.as_mut(), Gate::energy(), &|| true);
    assert!(matches!(stopped, Err(DiarizeError::Stopped)), "{stopped:?}");
    // Asked during a long silence too, not only once speech has piled up.
    let asked = std::cell::Cell::new(0);
    let mut stream = audio::open(&quiet, None).expect("open");
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > 2
    };
    let stopped = diarize_stream(&model(), stream.as_mut(), Gate::energy(), &stop);
    assert!(matches!(stopped, Err(DiarizeError::Stopped)), "{stopped:?}");
    assert_eq!(asked.get(), 3);
}
