//! pyannote 3.1's recipe on real voices (Allison and Carlo, Debian's Asterisk
//! prompts; `scripts/real-voices.sh`): two people taking turns are two
//! speakers, one said over the other keeps both, one person alone is one, a
//! stream gives what the whole file gives, and `within` is kept to.

use std::path::{Path, PathBuf};
use std::process::Command;

use recorder_stt::audio;
use recorder_stt::silero::SileroModel;
use recorder_stt::speaker::campplus::CamPlusPlus;
use recorder_stt::speaker::channel::diarize_stream;
use recorder_stt::speaker::channel::ChannelSpeakers;
use recorder_stt::speaker::diarize::{speaker_of, Diarization, DiarizeError};
use recorder_stt::speaker::guided::diarize_stream_guided;
use recorder_stt::speaker::local::{diarize_samples, diarize_stream_local};
use recorder_stt::speaker::segmentation::Segmentation;
use recorder_stt::vad::Gate;
use recorder_test_support::speech::{self, real_conversation, real_voice, SpokenTurn};

fn models() -> (Segmentation, CamPlusPlus) {
    let segmentation = Segmentation::load(&speech::segmentation_model()).expect("segmentation");
    (segmentation, CamPlusPlus::load(&speech::speaker_model()).expect("CAM++"))
}

fn samples(path: &Path) -> Vec<f32> {
    let mut stream = audio::open(path, None).expect("open");
    let mut out = Vec::new();
    while stream.read(&mut out, audio::BLOCK).expect("read") > 0 {}
    out
}

fn clips(speaker: &str, from: usize, count: usize) -> Vec<PathBuf> {
    real_voice(speaker).into_iter().skip(from).take(count).collect()
}

/// Allison and Carlo taking six turns of two or three prompts each.
fn two_people(path: &Path) -> Vec<SpokenTurn> {
    let turns: Vec<(usize, Vec<PathBuf>)> = (0..6)
        .map(|turn| {
            let person = turn % 2;
            (person, clips(["allison", "carlo"][person], turn * 3, 2 + turn % 2))
        })
        .collect();
    real_conversation(&turns, 0.4, path)
}

fn labels(found: &Diarization, truth: &[SpokenTurn]) -> Vec<usize> {
    truth
        .iter()
        .map(|t| speaker_of(&found.turns, t.start_ms as usize * 16, t.end_ms as usize * 16))
        .map(|s| s.expect("a speaker"))
        .collect()
}

#[test]
fn two_real_people_taking_turns_are_two_speakers_each_turn_theirs() {
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("call.wav");
    let truth = two_people(&wav);
    let (segmentation, embedder) = models();
    let found = diarize_samples(&segmentation, &embedder, &samples(&wav)).expect("diarized");
    assert_eq!(found.voices.len(), 2, "turns {:?}", found.turns);
    assert_eq!(labels(&found, &truth), vec![0, 1, 0, 1, 0, 1]);
}

#[test]
fn a_stream_gives_what_the_whole_file_gives_and_a_stop_is_heard() {
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("call.wav");
    two_people(&wav);
    let (segmentation, embedder) = models();
    let whole = diarize_samples(&segmentation, &embedder, &samples(&wav)).expect("whole");
    let mut stream = audio::open(&wav, None).expect("open");
    let streamed =
        diarize_stream_local((&segmentation, &embedder), stream.as_mut(), None, &|| false)
            .expect("streamed");
    assert_eq!(streamed, whole);
    let mut stream = audio::open(&wav, None).expect("open");
    let stopped = diarize_stream_local((&segmentation, &embedder), stream.as_mut(), None, &|| true);
    assert!(matches!(stopped, Err(DiarizeError::Stopped)), "{stopped:?}");
}

/// Allison's long turn, then they take turns; Carlo says another prompt 4 s
/// into her long turn. The sample in the middle of that prompt.
fn overlapped(folder: &Path) -> (PathBuf, usize) {
    let conversation = folder.join("conversation.wav");
    let turns = vec![
        (0, clips("allison", 0, 6)),
        (1, clips("carlo", 1, 3)),
        (0, clips("allison", 6, 2)),
        (1, clips("carlo", 4, 3)),
        (0, clips("allison", 8, 2)),
    ];
    real_conversation(&turns, 0.4, &conversation);
    let over = folder.join("carlo.wav");
    let carlo = clips("carlo", 0, 1).remove(0);
    run(Command::new("sox").arg(&carlo).arg(&over).args(["pad", "4"]));
    let mixed = folder.join("overlap.wav");
    run(Command::new("sox")
        .args(["-m", "-v", "1"])
        .arg(&conversation)
        .args(["-v", "1"])
        .arg(&over)
        .arg(&mixed));
    let middle = ((4.0 + 4.0 + seconds(&carlo)) / 2.0 * 16_000.0) as usize;
    (mixed, middle)
}

/// The speakers talking at `sample`.
fn talking_at(found: &Diarization, sample: usize) -> Vec<usize> {
    found.turns.iter().filter(|t| t.start <= sample && sample < t.end).map(|t| t.speaker).collect()
}

#[test]
fn a_prompt_said_over_another_keeps_its_own_speaker() {
    let folder = tempfile::tempdir().expect("temp");
    let (mixed, middle) = overlapped(folder.path());
    let (segmentation, embedder) = models();
    let found = diarize_samples(&segmentation, &embedder, &samples(&mixed)).expect("diarized");
    assert_eq!(found.voices.len(), 2, "turns {:?}", found.turns);
    assert_eq!(talking_at(&found, middle).len(), 2, "turns {:?} at {middle}", found.turns);
    // The line of that prompt is Carlo's, not Allison's who talks on.
    let carlo = speaker_of(&found.turns, middle - 4_000, middle + 4_000).expect("a speaker");
    let allison = speaker_of(&found.turns, 16_000, 48_000).expect("a speaker");
    assert_ne!(carlo, allison, "turns {:?}", found.turns);
}

#[test]
fn the_windows_speakers_guide_the_segmentation_which_adds_the_overlap() {
    let folder = tempfile::tempdir().expect("temp");
    let (mixed, middle) = overlapped(folder.path());
    let (segmentation, embedder) = models();
    let silero = SileroModel::load(&speech::vad_model()).expect("silero");
    let mut stream = audio::open(&mixed, None).expect("open");
    let windows = diarize_stream(&embedder, stream.as_mut(), Gate::best(Some(&silero)), &|| false)
        .expect("windows");
    assert_eq!(windows.voices.len(), 2, "turns {:?}", windows.turns);
    assert!(talking_at(&windows, middle).len() < 2, "windows hold one speaker at a time");
    let mut stream = audio::open(&mixed, None).expect("open");
    let guided = diarize_stream_guided(
        (&segmentation, &embedder),
        stream.as_mut(),
        None,
        windows.clone(),
        &|| false,
    )
    .expect("guided");
    assert_eq!(guided.voices, windows.voices, "the same speakers");
    assert_eq!(talking_at(&guided, middle).len(), 2, "turns {:?} at {middle}", guided.turns);
}

#[test]
fn one_real_person_alone_is_one_speaker_and_within_is_kept_to() {
    let folder = tempfile::tempdir().expect("temp");
    let wav = folder.path().join("alone.wav");
    let turns: Vec<(usize, Vec<PathBuf>)> =
        (0..5).map(|t| (0, clips("allison", t * 3, 3))).collect();
    real_conversation(&turns, 0.5, &wav);
    let (segmentation, embedder) = models();
    let found = diarize_samples(&segmentation, &embedder, &samples(&wav)).expect("diarized");
    assert_eq!(found.voices.len(), 1, "turns {:?}", found.turns);
    let within = [(16_000, 96_000)];
    let mut stream = audio::open(&wav, None).expect("open");
    let kept =
        diarize_stream_local((&segmentation, &embedder), stream.as_mut(), Some(&within), &|| false)
            .expect("diarized");
    assert!(!kept.turns.is_empty());
    for turn in &kept.turns {
        assert!(
            turn.start + 300 >= 16_000 && turn.end <= 96_000 + 300,
            "{turn:?} outside {within:?}"
        );
    }
}

#[test]
fn silence_has_no_speakers() {
    let (segmentation, embedder) = models();
    let found =
        diarize_samples(&segmentation, &embedder, &vec![0.0; 16_000 * 12]).expect("diarized");
    assert!(found.voices.is_empty() && found.turns.is_empty(), "{found:?}");
}

fn seconds(path: &Path) -> f64 {
    let output = Command::new("sox").args(["--i", "-D"]).arg(path).output().expect("sox --i");
    String::from_utf8_lossy(&output.stdout).trim().parse().expect("seconds")
}

fn run(command: &mut Command) {
    let output = command.output().expect("run");
    assert!(output.status.success(), "{command:?}: {}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn audio_pushed_as_it_is_recorded_finds_what_the_file_finds() {
    let folder = tempfile::tempdir().expect("temp");
    let (mixed, middle) = overlapped(folder.path());
    let (segmentation, embedder) = models();
    let silero = SileroModel::load(&speech::vad_model()).expect("silero");
    let gate = || Gate::best(Some(&silero));
    let mut from_file = ChannelSpeakers::new(&embedder, Some(&segmentation), gate());
    let mut stream = audio::open(&mixed, None).expect("open");
    from_file.read_all(stream.as_mut(), &|| false).expect("read");
    // Live, the recorder hands over blocks of whatever size the device gave.
    let mut live = ChannelSpeakers::new(&embedder, Some(&segmentation), gate());
    for block in samples(&mixed).chunks(4_001) {
        live.push(block).expect("pushed");
    }
    live.finish().expect("finished");
    assert_eq!(live.samples(), from_file.samples());
    let whole = live.conclude(None);
    assert_eq!(whole, from_file.conclude(None));
    assert_eq!(whole.voices.len(), 2, "turns {:?}", whole.turns);
    assert_eq!(talking_at(&whole, middle).len(), 2, "the overlap keeps both: {:?}", whole.turns);
    let within = [(0, middle)];
    let kept = live.conclude(Some(&within));
    assert_eq!(kept, from_file.conclude(Some(&within)));
    assert!(kept.turns.iter().all(|t| t.start < middle + 8_000), "{:?}", kept.turns);
}
