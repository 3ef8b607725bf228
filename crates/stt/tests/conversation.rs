//! A phone call with quick turns (bench/fixtures/dialogue-script.txt, two
//! espeak-ng voices, turns 0.15–0.6 s apart) through the file chain with the
//! tiny.en test model: the short turns people say in conversation ("Hello?",
//! "Again?", "Great.", "Bye.") must come out, repeated greetings included.

use std::ops::ControlFlow;
use std::path::Path;
use std::process::Command;

use recorder_stt::engine::{Device, EngineOptions, WhisperEngine};
use recorder_stt::file::{self, TimedSegment, Workers};
use recorder_stt::silero::SileroModel;
use recorder_stt::vad::Gate;
use recorder_test_support::speech;

struct Turn {
    start_ms: i64,
    end_ms: i64,
    words: Vec<String>,
}

/// Lower-case words without punctuation; small numbers read out and "OK"
/// spelled "okay", as the script writes them.
fn words(text: &str) -> Vec<String> {
    const NUMBERS: [&str; 11] =
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    text.replace('%', " percent")
        .split(|c: char| c.is_whitespace() || c == '-')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<usize>().ok().and_then(|n| NUMBERS.get(n)).map_or(w, |n| n.to_string()))
        .map(|w| if w == "ok" { "okay".to_string() } else { w })
        .collect()
}

fn synthesise(folder: &Path) -> Vec<Turn> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/stt/make-dialogue.sh");
    let output = Command::new("bash").arg(script).arg(folder).output().expect("make-dialogue");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let turns = std::fs::read_to_string(folder.join("dialogue-turns.tsv")).expect("turns");
    turns
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Turn {
                start_ms: fields[2].parse().expect("start"),
                end_ms: fields[3].parse().expect("end"),
                words: words(fields[4]),
            }
        })
        .collect()
}

fn transcribe(path: &Path) -> Vec<TimedSegment> {
    let options = EngineOptions { threads: 2, language: Some("en".into()), device: Device::Cpu };
    let mut engine = WhisperEngine::load(&speech::test_model(), options).expect("model");
    let vad = SileroModel::load(&speech::vad_model()).expect("weights");
    let mut stream = recorder_stt::audio::open(path, None).expect("open");
    let mut segments = Vec::new();
    let workers = Workers::one(&mut engine);
    file::transcribe(stream.as_mut(), workers, Gate::best(Some(&vad)), 0, |report| {
        segments.extend(report.segments);
        ControlFlow::Continue(())
    })
    .expect("transcribe");
    segments
}

/// Whether the words of `turn` appear, in order, in the text of the segments
/// around it (whisper's segment times are coarse: a second of slack).
fn heard(turn: &Turn, segments: &[TimedSegment]) -> bool {
    let around: Vec<String> = segments
        .iter()
        .filter(|s| s.end_ms >= turn.start_ms - 1_000 && s.start_ms <= turn.end_ms + 1_000)
        .flat_map(|s| words(&s.text))
        .collect();
    let mut rest = around.iter();
    turn.words.iter().all(|word| rest.any(|w| w == word))
}

#[test]
fn short_turns_and_repeated_greetings_survive_a_quick_call() {
    let folder = tempfile::tempdir().expect("temp");
    let turns = synthesise(folder.path());
    let segments = transcribe(&folder.path().join("dialogue.wav"));
    let all: Vec<String> = segments.iter().flat_map(|s| words(&s.text)).collect();
    let text = all.join(" ");

    // The call opens "Hello? / Hello? / Oh, hello.": three hellos, not one.
    let hellos = all.iter().take(6).filter(|w| *w == "hello").count();
    assert!(hellos >= 3, "the greetings were merged into one: {text}");
    // Turns that repeat the one before ("Again?" / "Again."): a chain that
    // drops a segment equal to the last one loses all four. tiny.en's words
    // differ from one CPU to another (CI's heard "not really great well" and
    // "thank you bye" where this machine hears "great great" and "bye bye"),
    // so two of the four must come out, and the short turns below are counted.
    let repeats = ["again again", "sure sure", "great great", "bye bye"];
    let missing: Vec<&str> = repeats.into_iter().filter(|r| !text.contains(r)).collect();
    assert!(missing.len() <= 2, "repeated turns missing: {missing:?}: {text}");

    let short: Vec<&Turn> = turns.iter().filter(|t| t.words.len() <= 2).collect();
    let lost: Vec<String> =
        short.iter().filter(|t| !heard(t, &segments)).map(|t| t.words.join(" ")).collect();
    assert!(short.len() >= 30, "the script has {} short turns", short.len());
    eprintln!("{} of {} short turns lost: {lost:?}", lost.len(), short.len());
    // tiny.en mishears a few of them ("Neither did I" becomes "I did not"),
    // and more on some CPUs: CI's lost five of 41 where this machine loses two
    // ("oh hello", "mm hmm", one "great", "bye bye", "afternoon" as "after
    // noon"). A chain that drops or merges short turns loses many more.
    assert!(
        lost.len() * 100 <= short.len() * 15,
        "{} of {} one- and two-word turns lost: {lost:?}\n{text}",
        lost.len(),
        short.len()
    );
}
